import { isJsonObject } from '../json/json-object.js';
import { walkSchema, resolvePointer, escapePointerToken, compilePattern } from '../schema/index.js';
import type { PatternMatcher } from '../schema/index.js';
import { HostError } from './host-error.js';
import { assertTool, getProfile, mapTool } from './map-tools.js';
import { parseArgumentsText } from './parse-arguments-text.js';
import type { MapOptions, MappedTool, ProviderName, ToolDescriptor } from './types.js';

type Json = Record<string, unknown>;
type Schema = Json | boolean;

/** The kinds of repair `repairArguments` may make. */
export type RepairKind =
  | 'empty-arguments'
  | 'numeric-string'
  | 'boolean-string'
  | 'json-string'
  | 'null-to-absent'
  | 'unsafe-integer-kept-as-string';

/** One change made to the model's arguments. */
export interface ArgumentRepair {
  /** JSON pointer into the arguments ("" = the whole arguments value). */
  path: string;
  kind: RepairKind;
  from: unknown;
  /** The new value (`undefined` when the property was removed). */
  to: unknown;
}

/** The repaired arguments and every repair made. Send `value` on; the server validates it again. */
export interface RepairResult {
  value: unknown;
  repairs: ArgumentRepair[];
}

/** Which lowering the arguments came through: a mapped tool, or the options to map it again. */
export type RepairProfile = MappedTool | ProviderName | MapOptions;

const NUMERIC = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/;
const INTEGER_TEXT = /^-?(?:0|[1-9][0-9]*)$/;
const MAX_DEPTH = 128;

function setOwn(target: Json, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** A set of JSON types; `number` always includes `integer`. `undefined` means "any type". */
type TypeSet = ReadonlySet<string> | undefined;

function normalise(types: Iterable<string>): Set<string> {
  const set = new Set(types);
  if (set.has('number')) set.add('integer');
  return set;
}

function intersect(a: TypeSet, b: TypeSet): TypeSet {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return new Set([...a].filter((t) => b.has(t)));
}

function union(a: TypeSet, b: TypeSet): TypeSet {
  if (a === undefined || b === undefined) return undefined;
  return new Set([...a, ...b]);
}

/**
 * Reads the ORIGINAL input schema to answer: which types may this position hold, and which
 * subschemas apply below it. Composition is followed (allOf narrows, anyOf/oneOf/if widen) so a
 * value is only ever converted to a type the original schema can accept there.
 */
class OriginalSchema {
  private readonly pointers = new WeakMap<object, string>();
  private readonly patterns = new Map<string, PatternMatcher | null>();

  constructor(private readonly root: Json) {
    walkSchema(root, (node) => {
      if (typeof node.schema === 'object') this.pointers.set(node.schema, node.pointer);
    });
  }

  pointerOf(schema: Schema): string | undefined {
    return typeof schema === 'object' ? this.pointers.get(schema) : undefined;
  }

  private deref(schema: Schema, seen: Set<object>): Schema | undefined {
    if (typeof schema !== 'object' || typeof schema.$ref !== 'string' || !schema.$ref.startsWith('#')) return undefined;
    if (seen.has(schema)) return undefined;
    seen.add(schema);
    let target: unknown;
    try { target = resolvePointer(this.root, decodeURIComponent(schema.$ref.slice(1))); } catch { target = undefined; }
    return typeof target === 'boolean' || isJsonObject(target) ? target : undefined;
  }

  typesOf(schema: Schema, seen: Set<object> = new Set()): TypeSet {
    if (schema === true) return undefined;
    if (schema === false) return new Set();
    let types: TypeSet;
    if (typeof schema.type === 'string') types = normalise([schema.type]);
    else if (Array.isArray(schema.type)) types = normalise(schema.type.filter((t): t is string => typeof t === 'string'));
    if ('const' in schema) types = intersect(types, normalise([jsonType(schema.const)]));
    if (Array.isArray(schema.enum)) types = intersect(types, normalise(schema.enum.map(jsonType)));
    const target = this.deref(schema, seen);
    if (target !== undefined) types = intersect(types, this.typesOf(target, seen));
    if (Array.isArray(schema.allOf)) for (const b of schema.allOf) types = intersect(types, this.typesOf(b as Schema, seen));
    for (const key of ['anyOf', 'oneOf'] as const) {
      const branches = schema[key];
      if (!Array.isArray(branches)) continue;
      let any: TypeSet = new Set();
      for (const b of branches) any = union(any, this.typesOf(b as Schema, seen));
      types = intersect(types, any);
    }
    return types;
  }

  private matches(pattern: string, key: string): boolean {
    let matcher = this.patterns.get(pattern);
    if (matcher === undefined) {
      try { matcher = compilePattern(pattern); } catch { matcher = null; }
      this.patterns.set(pattern, matcher);
    }
    return matcher !== null && matcher.test(key);
  }

  /**
   * Subschemas that apply to `key` of an object (or index of an array) validated by `schema`.
   * All returned schemas apply together; alternatives are returned as a synthetic `anyOf`.
   */
  childrenOf(schema: Schema, key: string | number, seen: Set<object> = new Set()): Schema[] {
    if (typeof schema === 'boolean') return schema ? [] : [false];
    const out: Schema[] = [];
    const target = this.deref(schema, seen);
    if (target !== undefined) out.push(...this.childrenOf(target, key, seen));
    if (typeof key === 'number') {
      const prefix = Array.isArray(schema.prefixItems) ? schema.prefixItems as Schema[] : undefined;
      if (prefix && key < prefix.length) out.push(prefix[key]!);
      else if (typeof schema.items === 'boolean' || isJsonObject(schema.items)) out.push(schema.items as Schema);
    } else {
      const props = isJsonObject(schema.properties) ? schema.properties : undefined;
      let matched = false;
      if (props && Object.prototype.hasOwnProperty.call(props, key)) { out.push(props[key] as Schema); matched = true; }
      if (isJsonObject(schema.patternProperties)) {
        for (const [pattern, sub] of Object.entries(schema.patternProperties)) {
          if (this.matches(pattern, key)) { out.push(sub as Schema); matched = true; }
        }
      }
      if (!matched && (typeof schema.additionalProperties === 'boolean' || isJsonObject(schema.additionalProperties))) out.push(schema.additionalProperties as Schema);
    }
    if (Array.isArray(schema.allOf)) for (const b of schema.allOf) out.push(...this.childrenOf(b as Schema, key, seen));
    const alternatives: Schema[][][] = [];
    for (const k of ['anyOf', 'oneOf'] as const) {
      if (Array.isArray(schema[k])) alternatives.push((schema[k] as Schema[]).map((b) => this.childrenOf(b, key, new Set(seen))));
    }
    if (schema.if !== undefined) {
      alternatives.push([schema.then, schema.else].map((b) => (b === undefined ? [] : this.childrenOf(b as Schema, key, new Set(seen)))));
    }
    for (const list of alternatives) {
      // Alternatives that say nothing about this position do not widen it: a conversion is
      // allowed when some alternative that does describe the position accepts the result.
      const speaking = list.filter((children) => children.length > 0);
      if (speaking.length > 0) out.push({ anyOf: speaking.map((children) => ({ allOf: children })) });
    }
    return out;
  }

  /** Original property schemas (with their pointers) among candidates, looking through synthetic wrappers. */
  originals(candidates: readonly Schema[], out: Schema[] = []): Schema[] {
    for (const c of candidates) {
      if (this.pointerOf(c) !== undefined) out.push(c);
      else if (isJsonObject(c)) {
        if (Array.isArray(c.allOf)) this.originals(c.allOf as Schema[], out);
        if (Array.isArray(c.anyOf)) this.originals(c.anyOf as Schema[], out);
      }
    }
    return out;
  }
}

function resolveMapping(tool: ToolDescriptor, profile: RepairProfile): MappedTool {
  if (typeof profile === 'string') return mapTool(tool, { provider: getProfile(profile).name });
  if (!isJsonObject(profile)) throw new HostError('invalid_options', 'profile must be a provider name, map options, or a mapped tool');
  if ('nullableOptional' in profile && 'mcpName' in profile) {
    const mapped = profile as MappedTool;
    if (mapped.mcpName !== tool.name) {
      throw new HostError('invalid_options', `the mapped tool is "${mapped.mcpName}", not "${tool.name}"`, tool.name);
    }
    return mapped;
  }
  return mapTool(tool, profile as MapOptions);
}

/**
 * Repair what a model sent as a tool's arguments, only where the tool's ORIGINAL schema allows the
 * repaired form:
 * - `""`, whitespace, `null` or missing arguments become `{}`; argument text is parsed as JSON;
 * - a numeric string becomes a number where a number (not a string) is expected and the text is
 *   exactly the number's canonical form ("15" → 15; never "15N", "015" or "1e1");
 * - "true"/"false" become booleans where a boolean (not a string) is expected;
 * - a JSON string becomes the object/array it encodes where one (not a string) is expected;
 * - `null` becomes "absent" for properties the strict lowering made nullable;
 * - integers beyond ±(2^53−1) are never turned into JS numbers: they stay exact digit strings.
 * Returns the repaired value and every repair; the server still validates against the full schema.
 */
export function repairArguments(tool: ToolDescriptor, modelArgs: unknown, profile: RepairProfile): RepairResult {
  assertTool(tool);
  const mapping = resolveMapping(tool, profile);
  const nullable = new Set(mapping.nullableOptional);
  const original = new OriginalSchema(tool.inputSchema);
  const repairs: ArgumentRepair[] = [];

  let value: unknown = modelArgs;
  if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) {
    repairs.push({ path: '', kind: 'empty-arguments', from: value, to: {} });
    return { value: {}, repairs };
  }
  if (typeof value === 'string') {
    try {
      const parsed = parseArgumentsText(value);
      for (const path of parsed.unsafeIntegers) {
        const digits = resolvePointer(parsed.value, path);
        repairs.push({ path, kind: 'unsafe-integer-kept-as-string', from: digits, to: digits });
      }
      value = parsed.value;
    } catch {
      return { value, repairs }; // not JSON: passed on unchanged, the server reports it to the model
    }
    if (typeof value === 'string' && /^\s*\{/.test(value)) {
      // Arguments encoded twice ("{\"a\":1}" inside a string) are an object sent as a JSON string.
      try {
        const inner = parseArgumentsText(value);
        if (isJsonObject(inner.value)) {
          repairs.push({ path: '', kind: 'json-string', from: value, to: inner.value });
          value = inner.value;
        }
      } catch { /* left as it is */ }
    }
  }

  const visit = (current: unknown, candidates: readonly Schema[], path: string, depth: number): unknown => {
    if (depth > MAX_DEPTH) return current;
    let types: TypeSet;
    for (const c of candidates) types = intersect(types, original.typesOf(c));
    let next = current;
    if (typeof current === 'string' && types !== undefined && !types.has('string')) next = convertString(current, types, path);
    if (Array.isArray(next)) {
      return next.map((item, i) => visit(item, candidates.flatMap((c) => original.childrenOf(c, i)), `${path}/${i}`, depth + 1));
    }
    if (isJsonObject(next)) {
      const out: Json = {};
      for (const [key, item] of Object.entries(next)) {
        const children = candidates.flatMap((c) => original.childrenOf(c, key));
        const childPath = `${path}/${escapePointerToken(key)}`;
        if (item === null && madeNullable(children)) {
          repairs.push({ path: childPath, kind: 'null-to-absent', from: null, to: undefined });
          continue;
        }
        setOwn(out, key, visit(item, children, childPath, depth + 1));
      }
      return out;
    }
    return next;
  };

  const madeNullable = (children: readonly Schema[]): boolean => {
    const marked = original.originals(children).filter((s) => nullable.has(original.pointerOf(s)!));
    return marked.length > 0 && marked.every((s) => !(original.typesOf(s)?.has('null') ?? true));
  };

  const convertString = (text: string, types: ReadonlySet<string>, path: string): unknown => {
    if (types.has('integer') && NUMERIC.test(text)) {
      const n = Number(text);
      const integerText = INTEGER_TEXT.test(text);
      if (integerText && !Number.isSafeInteger(n)) {
        if (!repairs.some((r) => r.path === path && r.kind === 'unsafe-integer-kept-as-string')) {
          repairs.push({ path, kind: 'unsafe-integer-kept-as-string', from: text, to: text });
        }
        return text;
      }
      if (String(n) === text && (types.has('number') || Number.isInteger(n))) {
        repairs.push({ path, kind: 'numeric-string', from: text, to: n });
        return n;
      }
    }
    if (types.has('boolean') && (text === 'true' || text === 'false')) {
      repairs.push({ path, kind: 'boolean-string', from: text, to: text === 'true' });
      return text === 'true';
    }
    if ((types.has('object') || types.has('array')) && /^\s*[[{]/.test(text)) {
      try {
        const parsed = parseArgumentsText(text);
        if (types.has(jsonType(parsed.value))) {
          repairs.push({ path, kind: 'json-string', from: text, to: parsed.value });
          for (const inner of parsed.unsafeIntegers) {
            const digits = resolvePointer(parsed.value, inner);
            repairs.push({ path: path + inner, kind: 'unsafe-integer-kept-as-string', from: digits, to: digits });
          }
          return parsed.value;
        }
      } catch { /* not JSON: left as it is */ }
    }
    return text;
  };

  return { value: visit(value, [tool.inputSchema], '', 0), repairs };
}
