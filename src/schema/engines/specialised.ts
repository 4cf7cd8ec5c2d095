import type { ErrorObject } from 'ajv';
import { countCodePoints } from '../code-points.js';
import { countBelow } from '../instance-budget.js';
import type { InstanceBudget } from '../instance-budget.js';
import { isMultipleOf } from '../multiple-of.js';
import { patternCheck } from '../pattern-check.js';
import { escapePointerToken } from '../pointer.js';
import { firstDuplicate } from '../unique-items.js';

/**
 * The specialised validator: JavaScript generated for one schema of the common MCP shape (see
 * `specialisedBlocker` in route.ts), that validates and applies the instance budget in a single
 * pass. It has Ajv's meaning (allErrors) and builds Ajv's error records, in Ajv's order, so the
 * messages normaliseFastErrors makes of them are byte for byte the fast engine's; records are made
 * only on failure. Every value the schema does not descend into (an unknown property, an untyped
 * subschema, a value of the wrong type) is counted by countBelow, so the count is the budget's.
 *
 * The caller's three outcomes are built in ({@link Outcomes}), so the generated function is the
 * validator itself, with no wrapper call: the valid result, the invalid result made from the first
 * of the linked error records, and the general path (the exact budget pass, then Ajv) for an
 * instance over the budget, with a non-finite number, or that makes the code throw; that path
 * gives it its exact answer.
 *
 * Keys are listed with for-in, as Ajv's own code lists them, so an inherited enumerable key (a
 * polluted Object.prototype, an instance of a class) is validated exactly as Ajv validates it. The
 * count then includes inherited keys the exact pass skips: it can only be larger than the exact
 * count, so an instance within this count is within the budget, and one over it falls back to the
 * exact pass. That is why no per-call prototype check is needed.
 */
export type SpecialisedValidator<R> = (instance: unknown) => R;

/** What the generated validator returns in each case. */
export interface Outcomes<R> {
  /** The result for a valid instance (one shared object: nothing is allocated). */
  valid: R;
  /** The result for an invalid instance, given its first error record. */
  invalid: (first: ErrorRecord) => R;
  /** The general path, for an instance this code does not decide. */
  general: (instance: unknown) => R;
}

/**
 * One of Ajv's error records (the fields the messages are made of), linked to the next: an invalid
 * instance costs its records and no array (the list becomes one only when the messages are read).
 */
export type ErrorRecord = Pick<ErrorObject, 'instancePath' | 'schemaPath' | 'keyword' | 'params' | 'data'> & { next: ErrorRecord | null };

/** The records of a list, in order. */
export function recordsOf(first: ErrorRecord): ErrorObject[] {
  const records: ErrorObject[] = [];
  for (let record: ErrorRecord | null = first; record !== null; record = record.next) records.push(record as ErrorObject);
  return records;
}

type Schema = Record<string, unknown>;
/** One piece of an instance path: static text, or a JavaScript expression evaluated on failure. */
type PathPart = { text: string } | { code: string };

const NUMBER_KEYWORDS = ['maximum', 'minimum', 'exclusiveMaximum', 'exclusiveMinimum', 'multipleOf', 'format'];
const STRING_KEYWORDS = ['maxLength', 'minLength', 'pattern', 'format'];
const ARRAY_KEYWORDS = ['maxItems', 'minItems', 'items', 'uniqueItems'];
const OBJECT_KEYWORDS = ['maxProperties', 'minProperties', 'required', 'additionalProperties', 'properties'];
const RULE_KEYWORDS = new Set(['type', 'enum', 'const', ...NUMBER_KEYWORDS.filter((k) => k !== 'format'), ...STRING_KEYWORDS.filter((k) => k !== 'format'), ...ARRAY_KEYWORDS, ...OBJECT_KEYWORDS]);
const GROUPS = ['number', 'string', 'array', 'object'] as const;
type Group = (typeof GROUPS)[number];
const GROUP_KEYWORDS: Record<Group, string[]> = { number: NUMBER_KEYWORDS, string: STRING_KEYWORDS, array: ARRAY_KEYWORDS, object: OBJECT_KEYWORDS };
/** Ajv's data type checks (strictNumbers off; the budget already refused non-finite numbers). */
const TYPE_CHECK: Record<string, (v: string) => string> = {
  number: (v) => `typeof ${v} == "number"`,
  integer: (v) => `(typeof ${v} == "number" && !(${v} % 1) && !isNaN(${v}))`,
  string: (v) => `typeof ${v} == "string"`,
  boolean: (v) => `typeof ${v} == "boolean"`,
  null: (v) => `${v} === null`,
  object: (v) => `(${v} !== null && typeof ${v} == "object" && !Array.isArray(${v}))`,
  array: (v) => `Array.isArray(${v})`,
};
const LIMIT_FAIL: Record<string, [fail: string, comparison: string]> = {
  maximum: ['>', '<='], minimum: ['<', '>='], exclusiveMaximum: ['>=', '<'], exclusiveMinimum: ['<=', '>'],
};

/** A subschema that can never produce an error: its instance part is only counted. */
const hasRules = (s: unknown): s is Schema => typeof s === 'object' && s !== null && Object.keys(s).some((k) => RULE_KEYWORDS.has(k));
/** Ajv's `escapeFragment`: a schema path segment as a URI fragment. */
const fragment = (name: string): string => encodeURIComponent(escapePointerToken(name));

class Generator {
  readonly constants: unknown[] = [];
  private serial = 0;
  constructor(private readonly budget: InstanceBudget) {}

  constant(value: unknown): string {
    this.constants.push(value);
    return `c[${this.constants.length - 1}]`;
  }

  literal(value: unknown): string {
    return typeof value === 'number' && !Number.isFinite(value) ? this.constant(value) : JSON.stringify(value);
  }

  name(prefix: string): string { return `${prefix}${++this.serial}`; }

  /** Code that counts `v` (already counted itself) and everything under it. */
  count(v: string, depth: number): string {
    return `n = countBelow(${v}, ${depth}, n, budget); if (n === -1) return general(v0);`;
  }

  /** Code that appends one error record to the list E (first) .. T (last). */
  error(keyword: string, params: string, v: string, path: PathPart[], schemaPath: string): string {
    const instancePath = path.length === 0 ? '""' : path.map((p) => ('text' in p ? JSON.stringify(p.text) : `(${p.code})`)).join(' + ');
    const record = `{ instancePath: ${instancePath}, schemaPath: ${JSON.stringify(schemaPath)}, keyword: ${JSON.stringify(keyword)}, params: ${params}, data: ${v}, next: null }`;
    return `{ const r = ${record}; if (T === null) E = r; else T.next = r; T = r; }`;
  }

  /** Validation (Ajv's keyword order and error records) and counting of the value in `v`. */
  value(s: unknown, v: string, path: PathPart[], schemaPath: string, depth: number): string {
    if (!hasRules(s)) return this.count(v, depth);
    const out: string[] = [];
    if (depth >= this.budget.maxDepth) out.push(`if (typeof ${v} == "object" && ${v} !== null) return general(v0);`);
    const types = s.type === undefined ? [] : Array.isArray(s.type) ? (s.type as string[]) : [s.type as string];
    const present = (group: Group): boolean => GROUP_KEYWORDS[group].some((k) => s[k] !== undefined);
    // Ajv reports a single type that has keywords of its own in the else branch of that type's
    // keyword group; any other `type` is checked before every keyword.
    const groupedType = types.length === 1 && (GROUPS as readonly string[]).includes(types[0]!) && present(types[0] as Group) ? types[0] as Group : undefined;
    const typeError = this.error('type', `{ type: ${this.constant(s.type)} }`, v, path, `${schemaPath}/type`);
    if (types.length > 0 && groupedType === undefined) out.push(`if (!(${types.map((t) => TYPE_CHECK[t]!(v)).join(' || ')})) ${typeError}`);
    if (s.const !== undefined) out.push(`if (${v} !== ${this.literal(s.const)}) ${this.error('const', `{ allowedValue: ${this.literal(s.const)} }`, v, path, `${schemaPath}/const`)}`);
    if (Array.isArray(s.enum)) {
      out.push(`if (!(${s.enum.map((e) => `${v} === ${this.literal(e)}`).join(' || ')})) ${this.error('enum', `{ allowedValues: ${this.constant(s.enum)} }`, v, path, `${schemaPath}/enum`)}`);
    }
    const branch = (kind: Group | 'other'): string => GROUPS.map((group) => {
      if (group === kind) return this.group(group, s, v, path, schemaPath, depth);
      return group === groupedType ? typeError : '';
    }).join('\n');
    // The data kinds whose keyword group has code (or that are the grouped type) get a branch of
    // their own, the declared type's first (the branch a valid instance takes). Every other kind
    // only needs its type error (when a grouped type is set) and its count: one shared branch,
    // which keeps the generated function small enough for V8 to optimise as a whole.
    const explicit = (group: Group): boolean => group === groupedType || GROUP_KEYWORDS[group].some((k) => k !== 'format' && s[k] !== undefined);
    const countOnly = `${groupedType === undefined ? '' : typeError} ${this.count(v, depth)}`;
    const kinds: Array<[rank: number, code: string]> = [];
    const rank = (names: string[]): number => (names.some((t) => types.includes(t)) ? 0 : 1);
    if (explicit('number')) kinds.push([rank(['number', 'integer']), `if (typeof ${v} == "number") { ${branch('number')} }`]);
    if (explicit('string')) kinds.push([rank(['string']), `if (typeof ${v} == "string") { ${branch('string')} }`]);
    if (explicit('object') || explicit('array')) {
      kinds.push([rank(['object', 'array']), `if (typeof ${v} == "object" && ${v} !== null) { if (Array.isArray(${v})) { ${explicit('array') ? branch('array') : countOnly} } else { ${explicit('object') ? branch('object') : countOnly} } }`]);
    }
    kinds.sort((x, y) => x[0] - y[0]);
    // What is left: null, booleans, and the kinds without a branch. countBelow refuses a
    // non-finite number and counts an object or array (the value itself is already counted).
    const rest = `${groupedType === undefined ? '' : typeError} if (typeof ${v} == "number") { if (${v} - ${v} !== 0) return general(v0); } else if (typeof ${v} == "object" && ${v} !== null) { ${this.count(v, depth)} }`;
    if (kinds.length > 0) {
      out.push(`${kinds.map(([, code]) => code).join('\nelse ')}\nelse { ${rest} }`);
      return out.join('\n');
    }
    out.push(rest);
    // Only type, const or enum: a value that passes a single test is known valid, finite and
    // scalar (nothing under it to count), and skips every check; any other takes them all.
    const accept = acceptance(s, types, v);
    return accept === undefined ? out.join('\n') : `if (${accept}) {} else { ${out.join('\n')} }`;
  }

  private group(group: Group, s: Schema, v: string, path: PathPart[], schemaPath: string, depth: number): string {
    const err = (keyword: string, params: string): string => this.error(keyword, params, v, path, `${schemaPath}/${keyword}`);
    const out: string[] = [];
    if (group === 'number') {
      // The number is refused unless finite (budget). A number inside every bound, and inside
      // the finite range where a side has no finite bound, is known finite and in range: one
      // test of two comparisons. Any other number is checked for finiteness, then bound by bound.
      const checks: string[] = [];
      const within: string[] = [];
      const finiteSide = { upper: false, lower: false };
      for (const keyword of ['maximum', 'minimum', 'exclusiveMaximum', 'exclusiveMinimum']) {
        if (typeof s[keyword] !== 'number') continue;
        const [fail, comparison] = LIMIT_FAIL[keyword]!;
        const limit = this.literal(s[keyword]);
        checks.push(`if (${v} ${fail} ${limit}) ${err(keyword, `{ comparison: ${JSON.stringify(comparison)}, limit: ${limit} }`)}`);
        within.push(`${v} ${comparison} ${limit}`);
        if (Number.isFinite(s[keyword])) finiteSide[keyword.toLowerCase().includes('max') ? 'upper' : 'lower'] = true;
      }
      const finite = `if (${v} - ${v} !== 0) return general(v0);`;
      if (checks.length === 0) out.push(finite);
      else {
        if (!finiteSide.upper) within.push(`${v} <= ${Number.MAX_VALUE}`);
        if (!finiteSide.lower) within.push(`${v} >= ${-Number.MAX_VALUE}`);
        out.push(`if (!(${within.join(' && ')})) { ${finite}\n${checks.join('\n')} }`);
      }
      if (typeof s.multipleOf === 'number') out.push(`if (!isMultipleOf(${v}, ${this.literal(s.multipleOf)})) ${err('multipleOf', `{ multipleOf: ${this.literal(s.multipleOf)} }`)}`);
    } else if (group === 'string') {
      // A string has between length/2 and length code points: count them only when that decides.
      if (typeof s.maxLength === 'number') out.push(`if (${v}.length > ${s.maxLength} && countCodePoints(${v}) > ${s.maxLength}) ${err('maxLength', `{ limit: ${s.maxLength} }`)}`);
      if (typeof s.minLength === 'number') out.push(`if (${v}.length < ${2 * s.minLength} && countCodePoints(${v}) < ${s.minLength}) ${err('minLength', `{ limit: ${s.minLength} }`)}`);
      if (typeof s.pattern === 'string') {
        const check = this.constant(patternCheck(s.pattern, typeof s.maxLength === 'number' ? s.maxLength : undefined));
        out.push(`if (!${check}(${v})) ${err('pattern', `{ pattern: ${JSON.stringify(s.pattern)} }`)}`);
      }
    } else if (group === 'array') {
      out.push(`n += ${v}.length; if (n > ${this.budget.maxNodes}) return general(v0);`);
      if (typeof s.maxItems === 'number') out.push(`if (${v}.length > ${s.maxItems}) ${err('maxItems', `{ limit: ${s.maxItems} }`)}`);
      if (typeof s.minItems === 'number') out.push(`if (${v}.length < ${s.minItems}) ${err('minItems', `{ limit: ${s.minItems} }`)}`);
      const i = this.name('i');
      const item = this.name('v');
      const body = hasRules(s.items)
        ? `const ${item} = ${v}[${i}];\n${this.value(s.items, item, [...path, { text: '/' }, { code: i }], `${schemaPath}/items`, depth + 1)}`
        : this.count(`${v}[${i}]`, depth + 1);
      out.push(`for (let ${i} = 0; ${i} < ${v}.length; ${i}++) { ${body} }`);
      if (s.uniqueItems === true) {
        const pair = this.name('d');
        out.push(`const ${pair} = firstDuplicate(${v}); if (${pair} !== undefined) ${err('uniqueItems', `{ i: ${pair}[1], j: ${pair}[0] }`)}`);
      }
    } else {
      out.push(...this.object(s, v, path, schemaPath, depth, err));
    }
    return out.join('\n');
  }

  private object(s: Schema, v: string, path: PathPart[], schemaPath: string, depth: number, err: (keyword: string, params: string) => string): string[] {
    const out: string[] = [];
    if (typeof s.maxProperties === 'number') out.push(`if (Object.keys(${v}).length > ${s.maxProperties}) ${err('maxProperties', `{ limit: ${s.maxProperties} }`)}`);
    if (typeof s.minProperties === 'number') out.push(`if (Object.keys(${v}).length < ${s.minProperties}) ${err('minProperties', `{ limit: ${s.minProperties} }`)}`);
    const properties = (typeof s.properties === 'object' && s.properties !== null ? s.properties : {}) as Record<string, unknown>;
    const names = Object.keys(properties);
    const ruled = names.filter((name) => hasRules(properties[name]));
    // Each property with rules is read once, up front (reading has no effect on the errors'
    // order); `required` and its validation below use that one read.
    const read = new Map(ruled.map((name) => [name, this.name('v')]));
    if (read.size > 0) out.unshift(`const ${[...read].map(([name, child]) => `${child} = ${v}[${JSON.stringify(name)}]`).join(', ')};`);
    for (const name of Array.isArray(s.required) ? (s.required as string[]) : []) {
      out.push(`if (${read.get(name) ?? `${v}[${JSON.stringify(name)}]`} === undefined) ${err('required', `{ missingProperty: ${JSON.stringify(name)} }`)}`);
    }
    // One pass over the keys: the budget's count, Ajv's additionalProperties, and the counting of
    // every value no property schema descends into.
    const key = this.name('k');
    // for-in also lists inherited enumerable keys, as Ajv's loop does; counting them only raises n
    // above the exact (own keys) count, so the budget stays safe (see the header comment).
    const loop: string[] = ['n++;', onName(key, ruled, 'continue;')];
    const additional = s.additionalProperties;
    if (additional === false || hasRules(additional)) {
      let handle: string;
      if (additional === false) {
        handle = `${this.error('additionalProperties', `{ additionalProperty: ${key} }`, v, path, `${schemaPath}/additionalProperties`)} ${this.count(`${v}[${key}]`, depth + 1)}`;
      } else {
        const extra = this.name('v');
        handle = `const ${extra} = ${v}[${key}];\n${this.value(additional, extra, [...path, { text: '/' }, { code: `escapePointerToken(${key})` }], `${schemaPath}/additionalProperties`, depth + 1)}`;
      }
      // A named property without rules is only counted; any other key that gets here is additional.
      loop.push(onName(key, names.filter((name) => !ruled.includes(name)), `{ ${this.count(`${v}[${key}]`, depth + 1)} continue; }`), handle);
    } else {
      loop.push(this.count(`${v}[${key}]`, depth + 1));
    }
    out.push(`for (const ${key} in ${v}) { ${loop.join('\n')} }`);
    for (const [name, child] of read) {
      const code = this.value(properties[name], child, [...path, { text: `/${escapePointerToken(name)}` }], `${schemaPath}/properties/${fragment(name)}`, depth + 1);
      out.push(`if (${child} !== undefined) { ${code} }`);
    }
    return out;
  }
}

/** Ajv's type test for a scalar the schema names (a literal's type is known when generating). */
const SCALAR_TYPE: Record<string, (x: unknown) => boolean> = {
  string: (x) => typeof x === 'string', boolean: (x) => typeof x === 'boolean', null: (x) => x === null,
  number: (x) => typeof x === 'number', integer: (x) => typeof x === 'number' && Number.isInteger(x),
};
/** The same as code, true only for a finite number where a number passes. */
const SCALAR_ACCEPT: Record<string, (v: string) => string> = {
  string: (v) => `typeof ${v} == "string"`, boolean: (v) => `typeof ${v} == "boolean"`, null: (v) => `${v} === null`,
  number: (v) => `(typeof ${v} == "number" && ${v} - ${v} === 0)`, integer: (v) => `Number.isInteger(${v})`,
};

/**
 * For a subschema of only `type`, `const` and `enum`: a test that only a valid, finite, scalar
 * value passes (so it needs no check and no count), or undefined when there is none to make.
 * A const or enum value is accepted by identity when it also passes `type` (and `enum`) and is
 * not a non-finite number; with neither, a scalar `type` is accepted by its own test.
 */
function acceptance(s: Schema, types: readonly string[], v: string): string | undefined {
  const passesType = (x: unknown): boolean => types.length === 0 || types.some((t) => SCALAR_TYPE[t]?.(x) === true);
  const usable = (x: unknown): boolean => passesType(x) && (typeof x !== 'number' || Number.isFinite(x));
  let values: unknown[] | undefined;
  if (s.const !== undefined) values = usable(s.const) && (!Array.isArray(s.enum) || s.enum.includes(s.const)) ? [s.const] : [];
  else if (Array.isArray(s.enum)) values = s.enum.filter(usable);
  if (values !== undefined) return values.length === 0 ? undefined : values.map((x) => `${v} === ${JSON.stringify(x)}`).join(' || ');
  const tests = types.filter((t) => SCALAR_ACCEPT[t] !== undefined).map((t) => SCALAR_ACCEPT[t]!(v));
  return tests.length === 0 ? undefined : tests.join(' || ');
}

/**
 * A statement that runs `action` (which ends in `continue`) when the key in `key` is one of
 * `names`. A few names are compared in turn; more are first told apart by length (a switch V8
 * turns into a jump), so a key costs about one comparison instead of a hash lookup per key.
 */
function onName(key: string, names: readonly string[], action: string): string {
  if (names.length === 0) return '';
  const anyOf = (list: readonly string[]): string => list.map((name) => `${key} === ${JSON.stringify(name)}`).join(' || ');
  if (names.length <= 4) return `if (${anyOf(names)}) ${action}`;
  const byLength = new Map<number, string[]>();
  for (const name of names) byLength.set(name.length, [...(byLength.get(name.length) ?? []), name]);
  const cases = [...byLength].map(([length, list]) => `case ${length}: if (${anyOf(list)}) ${action} break;`);
  return `switch (${key}.length) { ${cases.join(' ')} }`;
}

/** The generated source, for tests and for reading what runs. */
export function specialisedSource(schema: object, budget: InstanceBudget): { source: string; constants: unknown[] } {
  const generator = new Generator(budget);
  const body = generator.value(schema, 'v0', [], '#', 0);
  const source = `return function validate(v0) {\nlet n = 1; let E = null; let T = null;\ntry {\n${body}\n} catch { return general(v0); }\nif (n > ${budget.maxNodes}) return general(v0);\nreturn E === null ? valid : invalid(E);\n}`;
  return { source, constants: generator.constants };
}

/**
 * Generates the validator. Only for schemas `specialisedBlocker` accepted; compileSchema calls it
 * on a validator's first call (like the fast engine, so defining 1,000 tools generates nothing).
 */
export function compileSpecialised<R>(schema: object, budget: InstanceBudget, outcomes: Outcomes<R>): SpecialisedValidator<R> {
  const { source, constants } = specialisedSource(schema, budget);
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- code generation is the point (as in Ajv)
  const factory = new Function('c', 'budget', 'valid', 'invalid', 'general', 'countBelow', 'countCodePoints', 'isMultipleOf', 'firstDuplicate', 'escapePointerToken', source) as (...args: unknown[]) => SpecialisedValidator<R>;
  return factory(constants, budget, outcomes.valid, outcomes.invalid, outcomes.general, countBelow, countCodePoints, isMultipleOf, firstDuplicate, escapePointerToken);
}
