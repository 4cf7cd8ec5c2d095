/**
 * Lowering pass for `$ref`: kept, respelled into top-level `$defs`, inlined, or (recursion and the
 * inlining budget) cut to JSON text, per the provider's `refs` policy.
 */
import { escapePointerToken, resolvePointer } from '../schema/index.js';
import { cloneJson, isObject } from './lower-context.js';
import type { Json, LoweringContext } from './lower-context.js';

/** How many times the same `$ref` target is inlined inside itself before the recursion is cut. */
const INLINE_RECURSION_LIMIT = 2;
/**
 * Most `$ref` copies one lowering may inline. Several recursive refs multiply each other's copies
 * (exponential in the number of refs per level), so past this budget refs are cut like recursion.
 */
const INLINE_BUDGET = 200;

/** Returns the pointer the node's keywords now come from, or undefined when the node was replaced. */
export function handleRef(cx: LoweringContext, schema: Json, pointer: string): string | undefined {
  let current = pointer;
  for (let guard = 0; typeof schema.$ref === 'string' && guard < 32; guard++) {
    const ref = schema.$ref;
    if (!ref.startsWith('#')) {
      cx.record(current, '$ref', 'rejected', `external reference ${ref} is never fetched (MCP R-40)`);
      return current;
    }
    let target = '';
    try { target = decodeURIComponent(ref.slice(1)); } catch { target = '\u0000'; }
    if (target !== '' && !target.startsWith('/')) {
      cx.record(current, '$ref', 'rejected', `anchor reference ${ref} is not supported by the lowering`);
      return current;
    }
    const resolved = resolvePointer(cx.original, target);
    if (resolved === undefined || (typeof resolved !== 'boolean' && !isObject(resolved))) {
      cx.record(current, '$ref', 'rejected', `reference ${ref} does not resolve inside the schema`);
      return current;
    }
    const siblings = Object.keys(schema).filter((k) => k !== '$ref');
    const style = cx.policy.refs;
    if (style === 'keep') {
      cx.record(current, '$ref', 'kept');
      return current;
    }
    const chain = cx.chain.get(schema) ?? [];
    const recursive = chain.includes(target);
    if (style === 'top-level-defs') {
      const defsMatch = /^\/(\$defs|definitions)\/([^/]+)$/.exec(target);
      const topLevel = target === '' || defsMatch !== null;
      if (topLevel && defsMatch && defsMatch[1] === 'definitions') schema.$ref = `#/$defs/${defsMatch[2]}`;
      if (topLevel && (siblings.length === 0 || recursive || target === '')) {
        cx.record(current, '$ref', 'kept', schema.$ref !== ref ? `respelled as ${String(schema.$ref)}` : undefined);
        if (siblings.length > 0 && cx.policy.strictObjects) dropRefSiblings(cx, schema, current, siblings);
        return current;
      }
      if (recursive) {
        cx.record(current, '$ref', cx.policy.strictObjects ? 'rejected' : 'dropped', `recursive reference ${ref} does not point at a top-level $defs entry`);
        if (!cx.policy.strictObjects) delete schema.$ref;
        return current;
      }
    } else if (chain.filter((c) => c === target).length >= INLINE_RECURSION_LIMIT || cx.inlined >= INLINE_BUDGET) {
      // No refs in the OpenAPI subset: the recursion is cut; deeper levels travel as JSON text,
      // which repairArguments parses back where the original schema expects an object.
      const why = cx.inlined >= INLINE_BUDGET ? `the inlining budget (${INLINE_BUDGET} copies) is spent` : `recursive structure, cut after ${INLINE_RECURSION_LIMIT} levels`;
      for (const key of Object.keys(schema)) delete schema[key];
      schema.type = 'string';
      schema.description = `JSON text of a nested value of ${ref} (${why})`;
      cx.record(current, '$ref', 'moved-into-description', `${why}: deeper values of ${ref} are sent as JSON text`);
      return current;
    }
    if (cx.inlined >= INLINE_BUDGET) {
      cx.record(current, '$ref', 'rejected', `inlining ${ref} would exceed the budget of ${INLINE_BUDGET} copies`);
      return current;
    }
    cx.inlined++;
    inline(cx, schema, resolved, target, ref, current, chain);
    current = target;
  }
  return current;
}

export function dropRefSiblings(cx: LoweringContext, schema: Json, pointer: string, siblings: string[]): void {
  for (const key of siblings) {
    delete schema[key];
    cx.record(pointer, key, 'dropped', 'no keywords may sit beside $ref in strict mode, and this $ref is recursive so it cannot be inlined');
  }
}

export function inline(cx: LoweringContext, schema: Json, resolved: Json | boolean, target: string, ref: string, pointer: string, chain: readonly string[]): void {
  delete schema.$ref;
  cx.record(pointer, '$ref', 'kept', `inlined ${ref}`);
  if (typeof resolved === 'boolean') {
    if (!resolved) schema.not = {};
    return;
  }
  const copy = cloneJson(resolved);
  delete copy.$defs;
  delete copy.definitions;
  for (const [key, value] of Object.entries(copy)) {
    if (!(key in schema)) schema[key] = value;
    else if (key !== 'description' && key !== 'title' && JSON.stringify(schema[key]) !== JSON.stringify(value)) {
      cx.record(target, key, 'dropped', `the keyword beside ${ref} at ${pointer || '(root)'} takes precedence when inlined`);
    }
  }
  cx.chain.set(schema, [...chain, target]);
  // Children of the inlined copy come from the target; the walker reaches them through this node.
  for (const [key, value] of Object.entries(copy)) if (isObject(value) || Array.isArray(value)) cx.originFor(schema[key], `${target}/${escapePointerToken(key)}`);
}

