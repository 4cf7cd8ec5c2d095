/**
 * Lowers an MCP `inputSchema` to what one provider accepts: a copy is walked once with the
 * project's schema walker, and each node is rewritten by the passes (lower-*.ts) when it is
 * visited, before the walker reads its children. Every keyword of the original ends up in the
 * loss report with its pointer.
 */
import { walkSchema } from '../schema/index.js';
import type { SchemaVisit } from '../schema/index.js';
import { HostError } from './host-error.js';
import type { LoweringPolicy } from './profiles.js';
import type { LossEntry } from './types.js';
import { mergeAllOf, oneOfAsAnyOf, hoistNullBranch, prefixItemsAsAnyOf, constAsEnum, inferType, openApiType } from './lower-compose.js';
import { cloneJson, isObject, LoweringContext, typeList } from './lower-context.js';
import type { Json } from './lower-context.js';
import { arrayWithoutItems, decide, objectRules } from './lower-keywords.js';
import { handleRef } from './lower-refs.js';
import { flattenRoot } from './lower-root.js';

/** The outcome of lowering one `inputSchema` under one policy. */
export interface LoweredSchema {
  schema: Json;
  /** Every keyword met and what happened to it (pointers into the original schema). */
  loss: LossEntry[];
  /** Original pointers of optional properties that strict lowering made required and nullable. */
  nullableOptional: string[];
  /** Root-level constraints that moved out of the schema; they belong in the tool description. */
  rootNotes: string[];
}

/** The top-level resource a pointer lies in: "" (the root) or "/$defs/<name>" (or definitions). */
function ownerOf(pointer: string): string {
  const match = /^\/(\$defs|definitions)\/[^/]+/.exec(pointer);
  return match ? match[0] : '';
}

/**
 * Pointers of the local `$ref`s that take part in a cycle (a definition reaching itself, or the
 * root through `#`). Works on the definition graph: owner of the ref → owner of its target.
 */
function recursiveRefs(root: Json): string[] {
  const edges: Array<{ from: string; to: string; pointer: string }> = [];
  walkSchema(root, (node) => {
    if (typeof node.schema !== 'object') return;
    const ref = (node.schema as Json).$ref;
    if (typeof ref !== 'string' || !ref.startsWith('#')) return;
    let target = '';
    try { target = decodeURIComponent(ref.slice(1)); } catch { return; }
    edges.push({ from: ownerOf(node.pointer), to: ownerOf(target), pointer: node.pointer });
  });
  const reaches = (start: string, goal: string): boolean => {
    const seen = new Set<string>();
    const stack = [start];
    while (stack.length > 0) {
      const at = stack.pop()!;
      if (at === goal) return true;
      if (seen.has(at)) continue;
      seen.add(at);
      for (const e of edges) if (e.from === at) stack.push(e.to);
    }
    return false;
  };
  return edges.filter((e) => reaches(e.to, e.from)).map((e) => e.pointer);
}

/**
 * Lower an MCP `inputSchema` to what one provider accepts. Works on a copy; every keyword of the
 * original ends up in the loss report with its pointer. Uses the project's one schema walker:
 * each node is rewritten in place when it is visited, before the walker reads its children.
 */
export function lowerInputSchema(input: Json, policy: LoweringPolicy, toolName: string): LoweredSchema {
  if (!isObject(input)) throw new HostError('invalid_tool', `tool "${toolName}": inputSchema must be a JSON Schema object`, toolName);
  if (input.type !== 'object') {
    throw new HostError('invalid_tool', `tool "${toolName}": inputSchema root must have "type": "object" (got ${JSON.stringify(input.type) ?? 'no type'})`, toolName);
  }
  return run(new LoweringContext(input, policy));
}

function run(cx: LoweringContext): LoweredSchema {
  const root = cloneJson(cx.original);
  cx.origin.set(root, '');
  if (!cx.policy.recursion) {
    for (const pointer of recursiveRefs(cx.original)) cx.record(pointer, '$ref', 'rejected', 'recursive schemas are not supported in strict mode');
  }
  if (cx.policy.flattenRootComposition) flattenRoot(cx, root);
  walkSchema(root, (node) => visit(cx, node), { dialect: cx.dialect });
  if (root.properties === undefined) {
    root.properties = {};
    cx.record('', 'properties', 'added', 'providers need "properties" even for tools without arguments');
  }
  return { schema: root, loss: cx.loss, nullableOptional: cx.nullable, rootNotes: cx.rootNotes };
}

function visit(cx: LoweringContext, node: SchemaVisit): void | 'skip' {
  if (typeof node.schema === 'boolean') {
    visitBoolean(cx, node);
    return;
  }
  const schema = node.schema as Json;
  if (cx.synthetic.has(schema)) {
    cx.registerChildren(schema, cx.origin.get(schema) ?? node.pointer);
    return;
  }
  let pointer = cx.originOf(node);
  const notes: string[] = [];
  if (typeof schema.$ref === 'string') {
    const after = handleRef(cx, schema, pointer);
    if (after === undefined) return 'skip';
    pointer = after;
  }
  cx.registerChildren(schema, pointer);
  if (cx.dialect === 'draft-07' && Array.isArray(schema.items)) {
    // draft-07 tuple form means what 2020-12 calls prefixItems.
    schema.prefixItems = schema.items;
    if (schema.additionalItems !== undefined) schema.items = schema.additionalItems; else delete schema.items;
    delete schema.additionalItems;
    cx.tupleItems.add(schema);
  }
  if (cx.policy.mergeAllOf) {
    for (let guard = 0; Array.isArray(schema.allOf) && guard < 16; guard++) mergeAllOf(cx, schema, pointer, notes);
  }
  if (cx.policy.oneOfAsAnyOf && Array.isArray(schema.oneOf)) oneOfAsAnyOf(cx, schema, pointer, notes);
  if (cx.policy.openApiTypes) hoistNullBranch(cx, schema, pointer);
  if (cx.policy.prefixItemsAsAnyOf && Array.isArray(schema.prefixItems)) prefixItemsAsAnyOf(cx, schema, pointer, notes);
  if (cx.policy.constAsEnum && 'const' in schema) constAsEnum(cx, schema, pointer);
  if (cx.policy.strictObjects || cx.policy.openApiTypes) {
    if (!inferType(cx, schema, pointer)) return 'skip';
  }
  for (const keyword of Object.keys(schema)) decide(cx, schema, keyword, pointer, notes, node.depth === 0);
  if (cx.policy.openApiTypes) openApiType(cx, schema, pointer);
  if (cx.isObjectNode(schema)) objectRules(cx, schema, pointer, notes);
  if (typeList(schema)?.some((t) => t === 'array' || t === 'ARRAY') && schema.items === undefined) arrayWithoutItems(cx, schema, pointer);
  if (notes.length > 0) {
    if (node.depth === 0) cx.rootNotes.push(`Also required (checked by the server): ${notes.join('; ')}`);
    else schema.description = typeof schema.description === 'string' && schema.description.length > 0
      ? `${schema.description} (${notes.join('; ')})` : `(${notes.join('; ')})`;
  }
  return undefined;
}

function visitBoolean(cx: LoweringContext, node: SchemaVisit): void {
  if (node.schema !== true || !cx.policy.strictObjects) return;
  if (node.keyword === 'additionalProperties' || node.keyword === 'unevaluatedProperties' || node.keyword === 'unevaluatedItems') return;
  cx.record(cx.originOf(node), '(true schema)', 'rejected', 'a `true` schema (any value) has no type; strict mode needs one');
}

