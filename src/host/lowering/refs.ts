/**
 * Passes for `$ref`: the node pass keeps a ref, respells it into top-level `$defs`, inlines it,
 * or (recursion, the inlining budget) cuts it to JSON text, per the provider's `refs` policy; the
 * tree pass finds the refs that form a cycle, for profiles that refuse recursion.
 */
import { isJsonObject } from '../../json/json-object.js';
import { escapePointerToken, resolvePointer, walkSchema } from '../../schema/index.js';
import { frozenCopy } from './context.js';
import type { Json, LoweringContext } from './context.js';

/** How many times the same `$ref` target is inlined inside itself before the recursion is cut. */
const INLINE_RECURSION_LIMIT = 2;
/**
 * Most `$ref` copies one lowering may inline. Several recursive refs multiply each other's copies
 * (exponential in the number of refs per level), so past this budget refs are cut like recursion.
 */
const INLINE_BUDGET = 200;

/** The node with its `$ref` lowered, and the pointer its keywords now come from (the target, once inlined). */
export function handleRef(cx: LoweringContext, node: Json, pointer: string): { schema: Json; pointer: string } {
  let current = pointer;
  let schema = node;
  const done = (): { schema: Json; pointer: string } => ({ schema, pointer: current });
  for (let guard = 0; typeof schema.$ref === 'string' && guard < 32; guard++) {
    const ref = schema.$ref;
    if (!ref.startsWith('#')) {
      cx.record(current, '$ref', 'rejected', `external reference ${ref} is never fetched (MCP R-40)`);
      return done();
    }
    let target = '';
    try { target = decodeURIComponent(ref.slice(1)); } catch { target = '\u0000'; }
    if (target !== '' && !target.startsWith('/')) {
      cx.record(current, '$ref', 'rejected', `anchor reference ${ref} is not supported by the lowering`);
      return done();
    }
    const resolved = resolvePointer(cx.original, target);
    if (resolved === undefined || (typeof resolved !== 'boolean' && !isJsonObject(resolved))) {
      cx.record(current, '$ref', 'rejected', `reference ${ref} does not resolve inside the schema`);
      return done();
    }
    const siblings = Object.keys(schema).filter((k) => k !== '$ref');
    const style = cx.policy.refs;
    if (style === 'keep') {
      cx.record(current, '$ref', 'kept');
      return done();
    }
    const chain = cx.chain.get(schema) ?? [];
    const recursive = chain.includes(target);
    if (style === 'top-level-defs') {
      const defsMatch = /^\/(\$defs|definitions)\/([^/]+)$/.exec(target);
      const topLevel = target === '' || defsMatch !== null;
      if (topLevel && defsMatch && defsMatch[1] === 'definitions') schema = cx.derive({ ...schema, $ref: `#/$defs/${defsMatch[2]}` }, schema);
      if (topLevel && (siblings.length === 0 || recursive || target === '')) {
        cx.record(current, '$ref', 'kept', schema.$ref !== ref ? `respelled as ${String(schema.$ref)}` : undefined);
        if (siblings.length > 0 && cx.policy.strictObjects) schema = dropRefSiblings(cx, schema, current, siblings);
        return done();
      }
      if (recursive) {
        cx.record(current, '$ref', cx.policy.strictObjects ? 'rejected' : 'dropped', `recursive reference ${ref} does not point at a top-level $defs entry`);
        if (!cx.policy.strictObjects) schema = withoutKeys(cx, schema, ['$ref']);
        return done();
      }
    } else if (chain.filter((c) => c === target).length >= INLINE_RECURSION_LIMIT || cx.inlined >= INLINE_BUDGET) {
      // No refs in the OpenAPI subset: the recursion is cut; deeper levels travel as JSON text,
      // which repairArguments parses back where the original schema expects an object.
      const why = cx.inlined >= INLINE_BUDGET ? `the inlining budget (${INLINE_BUDGET} copies) is spent` : `recursive structure, cut after ${INLINE_RECURSION_LIMIT} levels`;
      schema = cx.derive({ type: 'string', description: `JSON text of a nested value of ${ref} (${why})` }, schema);
      cx.record(current, '$ref', 'moved-into-description', `${why}: deeper values of ${ref} are sent as JSON text`);
      return done();
    }
    if (cx.inlined >= INLINE_BUDGET) {
      cx.record(current, '$ref', 'rejected', `inlining ${ref} would exceed the budget of ${INLINE_BUDGET} copies`);
      return done();
    }
    cx.inlined++;
    schema = inline(cx, schema, resolved, target, ref, current, chain);
    current = target;
  }
  return done();
}

/** A copy of the node without `keys` (same origin, same `$ref` chain). */
function withoutKeys(cx: LoweringContext, node: Json, keys: readonly string[]): Json {
  const schema: Json = { ...node };
  for (const key of keys) delete schema[key];
  return cx.derive(schema, node);
}

export function dropRefSiblings(cx: LoweringContext, node: Json, pointer: string, siblings: string[]): Json {
  for (const key of siblings) cx.record(pointer, key, 'dropped', 'no keywords may sit beside $ref in strict mode, and this $ref is recursive so it cannot be inlined');
  return withoutKeys(cx, node, siblings);
}

export function inline(cx: LoweringContext, node: Json, resolved: Json | boolean, target: string, ref: string, pointer: string, chain: readonly string[]): Json {
  const schema: Json = { ...node };
  delete schema.$ref;
  cx.record(pointer, '$ref', 'kept', `inlined ${ref}`);
  if (typeof resolved === 'boolean') {
    if (!resolved) schema.not = {};
    return cx.derive(schema, node);
  }
  const copy: Json = { ...frozenCopy(resolved) };
  delete copy.$defs;
  delete copy.definitions;
  for (const [key, value] of Object.entries(copy)) {
    if (!(key in schema)) schema[key] = value;
    else if (key !== 'description' && key !== 'title' && JSON.stringify(schema[key]) !== JSON.stringify(value)) {
      cx.record(target, key, 'dropped', `the keyword beside ${ref} at ${pointer || '(root)'} takes precedence when inlined`);
    }
  }
  cx.derive(schema, node);
  cx.chain.set(schema, [...chain, target]);
  // Children of the inlined copy come from the target; the walker reaches them through this node.
  for (const [key, value] of Object.entries(copy)) if (isJsonObject(value) || Array.isArray(value)) cx.originFor(schema[key], `${target}/${escapePointerToken(key)}`);
  return schema;
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
export function recursiveRefs(root: Json): string[] {
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

/** Tree pass (profiles without recursion): every `$ref` in a cycle is rejected, at its pointer. */
export function rejectRecursion(cx: LoweringContext, root: Json): Json {
  if (cx.policy.recursion) return root;
  for (const pointer of recursiveRefs(cx.original)) cx.record(pointer, '$ref', 'rejected', 'recursive schemas are not supported in strict mode');
  return root;
}
