import { walkSchema } from '../../schema/index.js';
import type { JsonObject } from '../../protocol/json-rpc.js';

/** A `$ref` the parser left in place: a cycle (reported by the parser) or a reference it could not resolve. */
export interface LeftRef {
  ref: string;
  pointer: string;
  cyclic: boolean;
}

/** The result of {@link toJsonSchema}: a 2020-12 schema, or the `$ref`s that stop it from being one. */
export interface ConvertedSchema {
  schema: JsonObject;
  leftRefs: LeftRef[];
}

const SIMPLE_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'array', 'object']);

function rewrite30(node: Record<string, unknown>): void {
  // 3.0 `exclusiveMinimum: true` qualifies `minimum`; 2020-12 makes it the bound itself.
  for (const [flag, bound] of [['exclusiveMinimum', 'minimum'], ['exclusiveMaximum', 'maximum']] as const) {
    if (typeof node[flag] !== 'boolean') continue;
    if (node[flag] === true && typeof node[bound] === 'number') {
      node[flag] = node[bound];
      delete node[bound];
    } else {
      delete node[flag];
    }
  }
  if ('example' in node) {
    if (!('examples' in node)) node.examples = [node.example];
    delete node.example;
  }
  if (node.nullable === true) {
    delete node.nullable;
    const type = node.type;
    if (typeof type === 'string' && SIMPLE_TYPES.has(type)) {
      node.type = [type, 'null'];
      if (Array.isArray(node.enum) && !node.enum.includes(null)) node.enum = [...node.enum, null];
    } else if (type === undefined && Object.keys(node).some((k) => ['allOf', 'anyOf', 'oneOf'].includes(k))) {
      // `nullable` next to a composition: the value is null or whatever the composition allows.
      const inner: Record<string, unknown> = {};
      for (const key of Object.keys(node)) {
        if (['description', 'title', 'default', 'examples', 'readOnly', 'writeOnly', 'deprecated'].includes(key)) continue;
        inner[key] = node[key];
        delete node[key];
      }
      node.anyOf = [inner, { type: 'null' }];
    }
    // 3.0.3 says `nullable` without `type` has no effect, so dropping it changes nothing.
  } else if (node.nullable === false) {
    delete node.nullable;
  }
}

/**
 * Converts one OpenAPI schema (already dereferenced by the parser) to JSON Schema 2020-12 on a copy:
 * for 3.0 documents `nullable`, boolean `exclusiveMinimum`/`exclusiveMaximum` and `example` are
 * rewritten; 3.1 schemas are 2020-12 already. `$ref`s still present (cycles left by the parser,
 * references it could not resolve) are returned, never silently dropped: the caller refuses the
 * operation naming them.
 */
export function toJsonSchema(source: unknown, version: '3.0' | '3.1'): ConvertedSchema {
  const schema = (typeof source === 'object' && source !== null ? JSON.parse(JSON.stringify(source)) : {}) as JsonObject;
  const leftRefs: LeftRef[] = [];
  walkSchema(schema, (visit) => {
    if (typeof visit.schema !== 'object') return;
    const node = visit.schema as Record<string, unknown>;
    if (typeof node.$ref === 'string') leftRefs.push({ ref: node.$ref, pointer: visit.pointer, cyclic: false });
    if (version === '3.0') rewrite30(node);
  });
  return { schema, leftRefs };
}

/** True for a schema that describes objects (the only kind MCP accepts as `outputSchema`). */
export function isObjectSchema(schema: JsonObject): boolean {
  const type = schema.type;
  return type === 'object' || (type === undefined && typeof schema.properties === 'object' && schema.properties !== null);
}
