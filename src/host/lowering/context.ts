/**
 * What one lowering knows while its passes rewrite an `inputSchema`: the original and the policy,
 * where every node came from in the original (for loss-report pointers), the loss report itself,
 * and the small JSON helpers the passes share. The passes (lowering/refs.ts, lowering/compose.ts,
 * lowering/keywords.ts, lowering/root.ts, listed in order in lowering/passes.ts) never write to a node:
 * every node they are given is deep-frozen, and they return new nodes. The context is the one
 * thing they add to: loss entries, and the origin of each node they make.
 */
import { isJsonObject } from '../../json/json-object.js';
import { SUBSCHEMA_KEYWORDS, resolvePointer, escapePointerToken, dialectOfUri } from '../../schema/index.js';
import type { Dialect, SchemaVisit } from '../../schema/index.js';
import type { LoweringPolicy } from '../profiles.js';
import type { LossAction, LossEntry } from '../types.js';

/** A JSON Schema object while it is being lowered (a mutable copy, never the caller's schema). */
export type Json = Record<string, unknown>;

export const OPENAPI_TYPE: Readonly<Record<string, string>> = {
  string: 'STRING', number: 'NUMBER', integer: 'INTEGER', boolean: 'BOOLEAN', array: 'ARRAY', object: 'OBJECT',
};

export function cloneJson<T>(value: T): T {
  // JSON round trip (not structuredClone): subschemas shared by reference in authored tools become
  // separate nodes, so each one has its own origin (pointer) in the loss report.
  return JSON.parse(JSON.stringify(value)) as T;
}

/**
 * Freeze a JSON value and everything in it. Stops at values already frozen: only freezeDeep
 * freezes, and it freezes children before their parent, so a frozen object is frozen all the way down.
 */
export function freezeDeep<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  for (const child of Object.values(value)) freezeDeep(child);
  return Object.freeze(value);
}

/**
 * A plain, unfrozen copy of a JSON tree (what the lowering hands back). Like a JSON round trip
 * (keys holding `undefined` are left out), without printing and parsing the text.
 */
export function thawJson<T>(value: T): T {
  if (Array.isArray(value)) return value.map((item) => thawJson(item)) as T;
  if (typeof value !== 'object' || value === null) return value;
  // fromEntries defines own properties, so a property named "__proto__" stays a property.
  return Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined).map(([key, item]) => [key, thawJson(item)])) as T;
}

/** A frozen copy of part of the original schema (what inlining a `$ref` brings in). */
export function frozenCopy<T>(value: T): T {
  return freezeDeep(cloneJson(value));
}

/** What the node passes know about the node being lowered, besides the node itself. */
export interface NodeAt {
  /** Pointer in the original schema the node's keywords now come from (a `$ref` target once inlined). */
  pointer: string;
  /** Subschema depth in the walk (0: the root). */
  readonly depth: number;
  /** Constraints moved out of the schema, written into the node's description by the last pass. */
  readonly notes: string[];
  /** Its prefixItems came from a draft-07 tuple `items` (reported under that name). */
  tuple: boolean;
  /** Keywords a pass put on the node before the keyword pass (that pass reported them, so they are not judged). */
  readonly added: Set<string>;
}

export function typeList(schema: Json): string[] | undefined {
  const type = schema.type;
  if (typeof type === 'string') return [type];
  if (Array.isArray(type)) return type.filter((t): t is string => typeof t === 'string');
  return undefined;
}

export function allowsNull(schema: Json): boolean {
  if (typeList(schema)?.includes('null')) return true;
  if (Array.isArray(schema.enum) && schema.enum.includes(null)) return true;
  if ('const' in schema && schema.const === null) return true;
  if (Array.isArray(schema.anyOf) && schema.anyOf.some((b) => isJsonObject(b) && allowsNull(b))) return true;
  return false;
}

export function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

export class LoweringContext {
  readonly origin = new WeakMap<object, string>();
  /** Nodes made by the lowering itself (their children are only registered, not judged). */
  readonly synthetic = new WeakSet<object>();
  readonly chain = new WeakMap<object, readonly string[]>();
  readonly loss: LossEntry[] = [];
  readonly lossKeys = new Set<string>();
  readonly nullable: string[] = [];
  readonly rootNotes: string[] = [];
  readonly dialect: Dialect;
  /** How many `$ref` copies were inlined so far (see INLINE_BUDGET in lowering/refs.ts). */
  inlined = 0;

  constructor(readonly original: Json, readonly policy: LoweringPolicy) {
    this.dialect = (typeof original.$schema === 'string' ? dialectOfUri(original.$schema) : undefined) ?? '2020-12';
  }

  record(pointer: string, keyword: string, action: LossAction, note?: string): void {
    const key = `${pointer}\u0000${keyword}\u0000${action}`;
    if (this.lossKeys.has(key)) return;
    this.lossKeys.add(key);
    this.loss.push(note === undefined ? { pointer, keyword, action } : { pointer, keyword, action, note });
  }

  originOf(node: SchemaVisit): string {
    if (typeof node.schema === 'object') {
      const known = this.origin.get(node.schema);
      if (known !== undefined) return known;
    }
    if (!node.parent) return node.pointer;
    return this.originOf(node.parent) + node.pointer.slice(node.parent.pointer.length);
  }

  /** Remember where each child came from before the node is rearranged (renamed, merged, moved). */
  registerChildren(schema: Json, pointer: string): void {
    const inherited = this.chain.get(schema) ?? [];
    const mark = (child: unknown, childPointer: string): void => {
      if (!isJsonObject(child)) return;
      if (!this.origin.has(child)) this.origin.set(child, childPointer);
      if (!this.chain.has(child)) this.chain.set(child, inherited);
    };
    for (const [keyword, holder] of SUBSCHEMA_KEYWORDS[this.dialect]) {
      const value = schema[keyword];
      if (value === undefined) continue;
      const base = `${pointer}/${escapePointerToken(keyword)}`;
      if (Array.isArray(value)) value.forEach((item, i) => mark(item, `${base}/${i}`));
      else if (holder === 'map' || holder === 'map-of-schema-or-other') {
        if (isJsonObject(value)) for (const [name, sub] of Object.entries(value)) mark(sub, `${base}/${escapePointerToken(name)}`);
      } else mark(value, base);
    }
  }

  originFor(value: unknown, pointer: string): void {
    if (isJsonObject(value)) {
      // A holder map (properties, $defs) or a schema: mark the object and its direct entries.
      if (!this.origin.has(value)) this.origin.set(value, pointer);
      for (const [k, v] of Object.entries(value)) if (isJsonObject(v) && !this.origin.has(v)) this.origin.set(v, `${pointer}/${escapePointerToken(k)}`);
    } else if (Array.isArray(value)) {
      value.forEach((item, i) => { if (isJsonObject(item) && !this.origin.has(item)) this.origin.set(item, `${pointer}/${i}`); });
    }
  }

  /** `made` replaces `from` (a rewritten child): it keeps its origin, its `$ref` chain and whether it is synthetic. */
  derive<T extends object>(made: T, from: object): T {
    const origin = this.origin.get(from);
    if (origin !== undefined && !this.origin.has(made)) this.origin.set(made, origin);
    const chain = this.chain.get(from);
    if (chain !== undefined && !this.chain.has(made)) this.chain.set(made, chain);
    if (this.synthetic.has(from)) this.synthetic.add(made);
    return made;
  }

  /** A node the lowering made itself (a wrapper, a null branch): frozen, and only registered when walked. */
  made<T extends object>(node: T, origin?: string): T {
    this.synthetic.add(node);
    if (origin !== undefined) this.origin.set(node, origin);
    return freezeDeep(node);
  }

  resolveBranch(branch: unknown, pointer: string): { schema: Json | boolean; pointer: string } {
    if (isJsonObject(branch) && typeof branch.$ref === 'string' && Object.keys(branch).length === 1 && branch.$ref.startsWith('#')) {
      let target = '';
      try { target = decodeURIComponent(branch.$ref.slice(1)); } catch { /* left unresolved below */ }
      const resolved = resolvePointer(this.original, target);
      if (isJsonObject(resolved) && target !== '') {
        const copy = frozenCopy(resolved);
        this.origin.set(copy, target);
        this.record(pointer, '$ref', 'kept', `inlined ${branch.$ref} to merge it`);
        return { schema: copy, pointer: target };
      }
    }
    if (isJsonObject(branch)) {
      if (!this.origin.has(branch)) this.origin.set(branch, pointer);
      return { schema: branch, pointer: this.origin.get(branch) ?? pointer };
    }
    return { schema: branch === false ? false : true, pointer };
  }

  isObjectNode(schema: Json): boolean {
    return isJsonObject(schema.properties) || (typeList(schema)?.some((t) => t === 'object' || t === 'OBJECT') ?? false);
  }

}
