/**
 * Narrowing one argument's schema: the narrowing's keywords are merged into the argument's schema,
 * and each one is checked to really narrow it (every value the result accepts, the original
 * accepted). A keyword the original lacks narrows by adding a condition; one both have must be
 * provably tighter (a bound, a length, a set of values); anything this cannot judge is refused
 * rather than guessed. Values named by `enum`/`const` are checked with the schema engine.
 */
import { isJsonObject } from '../json/json-object.js';
import type { JsonObject, JsonValue } from '../protocol/json-rpc.js';
import { compileSchema } from '../schema/index.js';
import { canonicalJson } from '../json/canonical-json.js';

/** Keywords whose values can be compared when both schemas have them, with how. */
const TIGHTER: Readonly<Record<string, (original: JsonValue, narrowed: JsonValue) => boolean>> = {
  minimum: (o, n) => typeof o === 'number' && typeof n === 'number' && n >= o,
  exclusiveMinimum: (o, n) => typeof o === 'number' && typeof n === 'number' && n >= o,
  minLength: (o, n) => typeof o === 'number' && typeof n === 'number' && n >= o,
  minItems: (o, n) => typeof o === 'number' && typeof n === 'number' && n >= o,
  maximum: (o, n) => typeof o === 'number' && typeof n === 'number' && n <= o,
  exclusiveMaximum: (o, n) => typeof o === 'number' && typeof n === 'number' && n <= o,
  maxLength: (o, n) => typeof o === 'number' && typeof n === 'number' && n <= o,
  maxItems: (o, n) => typeof o === 'number' && typeof n === 'number' && n <= o,
  type: (o, n) => {
    const before = new Set(Array.isArray(o) ? o : [o]);
    return (Array.isArray(n) ? n : [n]).every((t) => before.has(t) || (t === 'integer' && before.has('number')));
  },
  // enum/const: the values are checked against the original schema below, whatever it says.
  enum: () => true,
  const: () => true,
};

/** Keywords only prose (never a narrowing problem): replaced freely. */
const PROSE = new Set(['description', 'title', 'examples', 'default']);

/** Keywords a narrowing may add where the original lacks them: each is one more condition. */
const ADDABLE = new Set([...Object.keys(TIGHTER), 'pattern', 'format', 'multipleOf', 'uniqueItems', 'not']);

/**
 * The argument schema `original` narrowed by `narrowing`, or the reason it is not a narrowing.
 * `defs`: the root's `$defs`, so a `$ref` in the original still resolves when values are checked.
 */
export function narrowSchema(original: JsonObject, narrowing: JsonObject, defs: unknown): { schema: JsonObject } | { problem: string } {
  const merged: JsonObject = { ...original };
  for (const [keyword, value] of Object.entries(narrowing)) {
    if (PROSE.has(keyword)) {
      merged[keyword] = value;
      continue;
    }
    if (!(keyword in TIGHTER) && !ADDABLE.has(keyword)) return { problem: `"${keyword}" cannot be checked to narrow the schema (narrowable: ${[...ADDABLE].join(', ')})` };
    const before = original[keyword];
    if (before !== undefined) {
      const tighter = TIGHTER[keyword];
      if (tighter === undefined) {
        if (canonicalJson(before) !== canonicalJson(value)) return { problem: `"${keyword}" is already ${JSON.stringify(before)}; a different value cannot be checked to narrow it` };
      } else if (!tighter(before as JsonValue, value as JsonValue)) {
        return { problem: `"${keyword}": ${JSON.stringify(value)} is not narrower than ${JSON.stringify(before)}` };
      }
    }
    merged[keyword] = value;
  }
  const named = [...(Array.isArray(narrowing.enum) ? narrowing.enum : []), ...('const' in narrowing ? [narrowing.const as JsonValue] : [])];
  if (named.length > 0) {
    const check = compileSchema(defs === undefined ? original : { ...original, $defs: defs });
    for (const value of named) {
      const verdict = check.validate(value);
      if (!verdict.valid) return { problem: `${JSON.stringify(value)} is not accepted by the original schema (${verdict.errors[0]?.message ?? 'invalid'})` };
    }
  }
  if ('type' in narrowing && 'enum' in original && Array.isArray(original.enum)) {
    // A type narrowing of an enum is a narrowing only by dropping values; the engine checks what stays.
    const check = compileSchema(defs === undefined ? merged : { ...merged, $defs: defs });
    if (!original.enum.some((v) => check.validate(v).valid)) return { problem: 'no value of the original enum is left' };
  }
  return { schema: merged };
}

/** True when `value` is accepted by `schema` (with the root's `$defs`): for fixed and default values. */
export function acceptsValue(schema: unknown, value: JsonValue, defs: unknown): string | undefined {
  const root = isJsonObject(schema) ? (defs === undefined ? schema : { ...schema, $defs: defs }) : schema;
  if (typeof root !== 'boolean' && !isJsonObject(root)) return 'the argument has no schema';
  const verdict = compileSchema(root).validate(value);
  return verdict.valid ? undefined : verdict.errors[0]?.message ?? 'invalid';
}
