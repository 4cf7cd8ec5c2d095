import { isJsonObject } from '../json/json-object.js';
import { walkSchema, escapePointerToken } from '../schema/index.js';
import type { SchemaVisit } from '../schema/index.js';
import type { ParamInfo, ToolView, WireTool } from './types.js';

// The parameter list and most rules need the same subschema walk; it is done once per schema object.
const visited = new WeakMap<object, readonly SchemaVisit[]>();

/** Every subschema of `schema` (boolean ones included), in the pre-order of `walkSchema`. */
export function schemaVisits(schema: Record<string, unknown>): readonly SchemaVisit[] {
  let visits = visited.get(schema);
  if (visits === undefined) {
    const all: SchemaVisit[] = [];
    walkSchema(schema, (node) => {
      all.push(node);
    });
    visited.set(schema, (visits = all));
  }
  return visits;
}

function requiredSet(schema: Record<string, unknown>, known: Map<object, ReadonlySet<string>>): ReadonlySet<string> {
  let names = known.get(schema);
  if (names === undefined) {
    const required = schema.required;
    names = new Set(Array.isArray(required) ? required.filter((n): n is string => typeof n === 'string') : []);
    known.set(schema, names);
  }
  return names;
}

/**
 * Parameters are the properties a model fills in: reached from the root through `properties`,
 * and through array `items` (an array of objects is one parameter whose element properties are
 * the next level). Combinator branches, `$defs` and the like are schema structure, not parameters,
 * so the walk does not descend into them for this list.
 */
function collectParams(inputSchema: unknown): ParamInfo[] {
  if (!isJsonObject(inputSchema)) return [];
  const params: ParamInfo[] = [];
  // Map schema pointer (inside inputSchema) -> the parameter that owns that schema node.
  const owner = new Map<string, ParamInfo | undefined>([['', undefined]]);
  // Each object's `required` list as a set once, not once per property.
  const requiredOf = new Map<object, ReadonlySet<string>>();
  // A node whose parent owns no parameter is not descended into (its pointer never becomes an owner).
  for (const node of schemaVisits(inputSchema)) {
    if (node.parent === undefined) continue;
    const parentPointer = node.parent.pointer;
    if (!owner.has(parentPointer)) continue;
    const parentParam = owner.get(parentPointer);
    if (node.keyword === 'properties') {
      const name = unescapeLast(node.pointer);
      const parentSchema = node.parent.schema;
      const info: ParamInfo = {
        name,
        pointer: `/inputSchema${node.pointer}`,
        schema: node.schema,
        level: (parentParam?.level ?? 0) + 1,
        required: isJsonObject(parentSchema) && requiredSet(parentSchema, requiredOf).has(name),
        parent: parentParam,
      };
      params.push(info);
      owner.set(node.pointer, info);
    } else if (node.keyword === 'items' && parentParam !== undefined) {
      owner.set(node.pointer, parentParam);
    }
  }
  return params;
}

function unescapeLast(pointer: string): string {
  const token = pointer.slice(pointer.lastIndexOf('/') + 1);
  return token.includes('~') ? token.replace(/~1/g, '/').replace(/~0/g, '~') : token;
}

/** Builds the per-tool view every rule reads; done once per tool per run. */
export function buildToolView(descriptor: WireTool, index: number): ToolView {
  const name = typeof descriptor.name === 'string' ? descriptor.name : `#${index}`;
  const description = typeof descriptor.description === 'string' ? descriptor.description : '';
  const params = collectParams(descriptor.inputSchema);
  return { index, name, descriptor, description, params, topLevel: params.filter((p) => p.level === 1) };
}

/** The pointer of a child of `base`, e.g. `childPointer('/inputSchema', 'required')`. */
export function childPointer(base: string, ...tokens: (string | number)[]): string {
  let pointer = base;
  for (const token of tokens) pointer += `/${escapePointerToken(String(token))}`;
  return pointer;
}

/** The declared JSON types of a schema (`type` as string or list), or [] when unconstrained. */
export function schemaTypes(schema: unknown): string[] {
  if (!isJsonObject(schema)) return [];
  const type = schema.type;
  if (typeof type === 'string') return [type];
  if (Array.isArray(type)) return type.filter((t): t is string => typeof t === 'string');
  return [];
}

/** The text a model reads about a parameter: its description and title. */
export function paramText(param: ParamInfo): string {
  if (!isJsonObject(param.schema)) return '';
  const parts: string[] = [];
  if (typeof param.schema.description === 'string') parts.push(param.schema.description);
  if (typeof param.schema.title === 'string') parts.push(param.schema.title);
  return parts.join(' ');
}
