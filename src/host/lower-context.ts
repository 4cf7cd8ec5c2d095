/**
 * What one lowering knows while it rewrites a copy of an `inputSchema`: the original and the
 * policy, where every node of the copy came from in the original (for loss-report pointers), the
 * loss report itself, and the small JSON helpers the lowering passes share. The passes are the
 * functions of lower-refs.ts, lower-compose.ts, lower-keywords.ts and lower-root.ts; the walk
 * that applies them is in lower-schema.ts.
 */
import { SUBSCHEMA_KEYWORDS, resolvePointer, escapePointerToken, dialectOfUri } from '../schema/index.js';
import type { Dialect, SchemaVisit } from '../schema/index.js';
import type { LoweringPolicy } from './profiles.js';
import type { LossAction, LossEntry } from './types.js';

export type Json = Record<string, unknown>;

export const OPENAPI_TYPE: Readonly<Record<string, string>> = {
  string: 'STRING', number: 'NUMBER', integer: 'INTEGER', boolean: 'BOOLEAN', array: 'ARRAY', object: 'OBJECT',
};

export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function cloneJson<T>(value: T): T {
  // JSON round trip (not structuredClone): subschemas shared by reference in authored tools must
  // become separate nodes, because lowering edits nodes in place.
  return JSON.parse(JSON.stringify(value)) as T;
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
  if (Array.isArray(schema.anyOf) && schema.anyOf.some((b) => isObject(b) && allowsNull(b))) return true;
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
  /** How many `$ref` copies were inlined so far (see INLINE_BUDGET in lower-refs.ts). */
  inlined = 0;
  /** Nodes whose prefixItems came from a draft-07 tuple `items` (reported under that name). */
  readonly tupleItems = new WeakSet<object>();

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
      if (!isObject(child)) return;
      if (!this.origin.has(child)) this.origin.set(child, childPointer);
      if (!this.chain.has(child)) this.chain.set(child, inherited);
    };
    for (const [keyword, holder] of SUBSCHEMA_KEYWORDS[this.dialect]) {
      const value = schema[keyword];
      if (value === undefined) continue;
      const base = `${pointer}/${escapePointerToken(keyword)}`;
      if (Array.isArray(value)) value.forEach((item, i) => mark(item, `${base}/${i}`));
      else if (holder === 'map' || holder === 'map-of-schema-or-other') {
        if (isObject(value)) for (const [name, sub] of Object.entries(value)) mark(sub, `${base}/${escapePointerToken(name)}`);
      } else mark(value, base);
    }
  }

  originFor(value: unknown, pointer: string): void {
    if (isObject(value)) {
      // A holder map (properties, $defs) or a schema: mark the object and its direct entries.
      if (!this.origin.has(value)) this.origin.set(value, pointer);
      for (const [k, v] of Object.entries(value)) if (isObject(v) && !this.origin.has(v)) this.origin.set(v, `${pointer}/${escapePointerToken(k)}`);
    } else if (Array.isArray(value)) {
      value.forEach((item, i) => { if (isObject(item) && !this.origin.has(item)) this.origin.set(item, `${pointer}/${i}`); });
    }
  }

  resolveBranch(branch: unknown, pointer: string): { schema: Json | boolean; pointer: string } {
    if (isObject(branch) && typeof branch.$ref === 'string' && Object.keys(branch).length === 1 && branch.$ref.startsWith('#')) {
      let target = '';
      try { target = decodeURIComponent(branch.$ref.slice(1)); } catch { /* left unresolved below */ }
      const resolved = resolvePointer(this.original, target);
      if (isObject(resolved) && target !== '') {
        const copy = cloneJson(resolved);
        this.origin.set(copy, target);
        this.record(pointer, '$ref', 'kept', `inlined ${branch.$ref} to merge it`);
        return { schema: copy, pointer: target };
      }
    }
    if (isObject(branch)) {
      if (!this.origin.has(branch)) this.origin.set(branch, pointer);
      return { schema: branch, pointer: this.origin.get(branch) ?? pointer };
    }
    return { schema: branch === false ? false : true, pointer };
  }

  isObjectNode(schema: Json): boolean {
    return isObject(schema.properties) || (typeList(schema)?.some((t) => t === 'object' || t === 'OBJECT') ?? false);
  }

}
