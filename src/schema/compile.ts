import { SchemaCompileError } from './compile-error.js';
import { detectDialect, metaSchemaAssertsFormat } from './dialect.js';
import { compileCompliant } from './engines/compliant.js';
import { compileFast } from './engines/fast.js';
import { planFastPath, specialisedBlocker } from './route.js';
import { compileSpecialised, recordsOf } from './engines/specialised.js';
import type { ErrorRecord } from './engines/specialised.js';
import { normaliseFastErrors } from './normalise-fast.js';
import type { ErrorObject } from 'ajv';
import { assertSchemaLimits } from './limits.js';
import { assertMetaValid } from './meta-check.js';
import { assertLocalRefsResolve } from './local-refs.js';
import { instanceRefusal } from './instance-budget.js';
import type { InstanceBudget } from './instance-budget.js';
import type { NormalisedErrors } from './normalise-fast.js';
import { DEFAULT_MAX_DEPTH, DEFAULT_MAX_ERRORS, DEFAULT_MAX_INSTANCE_DEPTH, DEFAULT_MAX_INSTANCE_NODES, DEFAULT_MAX_NODES } from './types.js';
import type { CompiledSchema, CompileOptions, Dialect, SchemaError, ValidationResult } from './types.js';

const VALID: ValidationResult = Object.freeze({ valid: true, errors: Object.freeze([]) as unknown as SchemaError[] }) as ValidationResult;

/** The messages of the invalid results whose `errors` were read, kept beside them (see below). */
const formatted = new WeakMap<object, SchemaError[]>();

function messagesOf(result: object, records: () => readonly ErrorObject[], limit: number): SchemaError[] {
  let errors = formatted.get(result);
  if (errors === undefined) {
    errors = capped(normaliseFastErrors(records(), limit), limit);
    formatted.set(result, errors);
  }
  return errors;
}

/*
 * Invalid results whose messages are built on first read of `errors`: a caller that only looks at
 * `valid` (or rejects on the first failure) pays nothing for formatting. Classes, because an object
 * literal with a getter is ~100x slower to create in V8. JSON.stringify and util.inspect show both
 * fields; compare `result.errors` rather than the whole object in deep-equality tests.
 *
 * A result never changes after it is made: its messages go to a WeakMap, and Ajv's records and the
 * specialised validator's have a class each (no base class: a super call costs at every creation).
 * A field that later took a value of another kind (undefined, then an array) made V8 throw away the
 * optimised validators that create results (their code depends on the field's kind) at the first
 * read of any result's messages, and a large validator then sometimes stayed unoptimised for the
 * rest of the process (the trajectory bench fixture at 0.7x Ajv in about one run in three).
 */

/** Invalid by Ajv (the general path), with its error records. */
class AjvInvalidResult implements ValidationResult {
  readonly valid = false as const;
  readonly #records: readonly ErrorObject[];
  readonly #limit: number;
  constructor(records: readonly ErrorObject[], limit: number) { this.#records = records; this.#limit = limit; }
  get errors(): SchemaError[] { return messagesOf(this, () => this.#records, this.#limit); }
  toJSON(): ValidationResult { return { valid: false, errors: this.errors }; }
  [Symbol.for('nodejs.util.inspect.custom')](): ValidationResult { return this.toJSON(); }
}

/** Invalid by the specialised validator, with the first of its linked error records. */
class SpecialisedInvalidResult implements ValidationResult {
  readonly valid = false as const;
  readonly #first: ErrorRecord;
  readonly #limit: number;
  constructor(first: ErrorRecord, limit: number) { this.#first = first; this.#limit = limit; }
  get errors(): SchemaError[] { return messagesOf(this, () => recordsOf(this.#first), this.#limit); }
  toJSON(): ValidationResult { return { valid: false, errors: this.errors }; }
  [Symbol.for('nodejs.util.inspect.custom')](): ValidationResult { return this.toJSON(); }
}

/** The listed errors, plus one closing entry saying how many more were found but not listed. */
function capped({ errors, omitted }: NormalisedErrors, limit: number): SchemaError[] {
  if (omitted === 0) return errors;
  const more = `and ${omitted} more problem${omitted === 1 ? '' : 's'} not listed (only the first ${limit} are reported)`;
  return [...errors, { instancePath: '', keyword: 'errorLimit', message: more, schemaPath: '#' }];
}

/**
 * validate() never throws: an instance that cannot be checked (a recursive schema meeting an
 * instance nested deeper than the stack allows) is reported invalid, i.e. fails closed.
 */
function unvalidatable(error: unknown): ValidationResult {
  const why = error instanceof RangeError ? 'value is nested too deeply to validate' : `value could not be validated (${error instanceof Error ? error.message : String(error)})`;
  return { valid: false, errors: [{ instancePath: '', keyword: 'validation', message: `/: ${why}`, schemaPath: '#' }] };
}

class Compiled implements CompiledSchema {
  readonly schema: object | boolean;
  readonly dialect: Dialect;
  readonly engine: 'fast' | 'compliant';
  /** Replaced once by the specialised validator when it is generated (on the first call). */
  validate: (instance: unknown) => ValidationResult;
  constructor(schema: object | boolean, dialect: Dialect, engine: 'fast' | 'compliant', validate: (instance: unknown) => ValidationResult) {
    this.schema = schema;
    this.dialect = dialect;
    this.engine = engine;
    this.validate = validate;
  }
}

// Rule 7: compile once. By identity first (O(1) for the common "same object again" case), then by content.
const byIdentity = new WeakMap<object, Map<string, Compiled>>();
const byContent = new Map<string, Compiled>();
const CONTENT_CACHE_LIMIT = 1000;

function optionsKey(options: CompileOptions | undefined): string | undefined {
  if (!options) return '||';
  if (options.remotes && Object.keys(options.remotes).length > 0) return undefined; // remotes: identity of the map matters; content key is costly
  return `${options.formatAssertion === true ? 'F' : ''}|${options.maxDepth ?? ''}|${options.maxNodes ?? ''}${options.engine === 'compliant' ? '|C' : ''}`
    + `|${options.maxErrors ?? ''}|${options.maxInstanceNodes ?? ''}|${options.maxInstanceDepth ?? ''}`;
}

function assertShape(schema: unknown): asserts schema is object | boolean {
  if (typeof schema !== 'boolean' && (typeof schema !== 'object' || schema === null || Array.isArray(schema))) {
    throw new SchemaCompileError('', `a schema must be an object or a boolean, got ${Array.isArray(schema) ? 'array' : schema === null ? 'null' : typeof schema}`);
  }
}

/**
 * Every check compileSchema makes before it builds a validator, in the same order: shape,
 * size/depth limits, dialect, meta-schema (including safe `pattern`s), local `$ref`s. Throws the
 * first problem as a {@link SchemaCompileError}; returns the dialect. Cheap (no code generation),
 * so the linter can check thousands of schemas with it. References to other documents are only
 * resolved by compileSchema.
 */
export function checkSchema(schema: unknown, options?: Pick<CompileOptions, 'remotes' | 'maxDepth' | 'maxNodes'>): Dialect {
  assertShape(schema);
  assertSchemaLimits(schema, options?.maxDepth ?? DEFAULT_MAX_DEPTH, options?.maxNodes ?? DEFAULT_MAX_NODES);
  return checkAfterLimits(schema, options?.remotes);
}

function checkAfterLimits(schema: object | boolean, remotes: CompileOptions['remotes']): Dialect {
  const dialect = detectDialect(schema, remotes);
  assertMetaValid(schema, dialect);
  assertLocalRefsResolve(schema, dialect);
  return dialect;
}

/**
 * Compile a JSON Schema (2020-12 by default; 2019-09 and draft-07 via `$schema`) into a reusable
 * validator. Throws {@link SchemaCompileError} for an unsupported dialect, a schema that breaks its
 * meta-schema, an unresolvable `$ref`, a size/depth over the limits, or a dangerous `pattern`.
 * Results are cached by schema identity and content.
 *
 * @example
 * ```ts
 * import { compileSchema, SchemaCompileError } from 'toolwright/schema';
 *
 * const point = compileSchema({
 *   type: 'object',
 *   properties: { x: { type: 'number' }, y: { type: 'number' } },
 *   required: ['x', 'y'],
 * });
 * const verdict = point.validate({ x: 1, y: 'two' });
 * if (!verdict.valid) console.log(verdict.errors.map((e) => e.message)); // names /y and what was expected
 *
 * try {
 *   compileSchema({ type: 'string', pattern: '[' }); // not a regular expression: refused before any instance
 * } catch (error) {
 *   if (error instanceof SchemaCompileError) console.log(error.message);
 * }
 * ```
 */
export function compileSchema(schema: object | boolean, options?: CompileOptions): CompiledSchema {
  assertShape(schema);
  const key = optionsKey(options);
  const identityBucket = typeof schema === 'object' && key !== undefined ? byIdentity.get(schema) : undefined;
  const hit = identityBucket?.get(key!);
  if (hit) return hit;

  const maxDepth = options?.maxDepth ?? DEFAULT_MAX_DEPTH;
  const maxNodes = options?.maxNodes ?? DEFAULT_MAX_NODES;
  assertSchemaLimits(schema, maxDepth, maxNodes);

  const contentKey = key === undefined ? undefined : `${key}\u0000${JSON.stringify(schema)}`;
  let compiled = contentKey === undefined ? undefined : byContent.get(contentKey);
  if (!compiled) {
    compiled = build(schema, options);
    if (contentKey !== undefined) {
      if (byContent.size >= CONTENT_CACHE_LIMIT) byContent.delete(byContent.keys().next().value!);
      byContent.set(contentKey, compiled);
    }
  }
  if (typeof schema === 'object' && key !== undefined) {
    let bucket = byIdentity.get(schema);
    if (!bucket) byIdentity.set(schema, (bucket = new Map()));
    bucket.set(key, compiled);
  }
  return compiled;
}

let codeGeneration: boolean | undefined;
/**
 * Whether this runtime lets code be generated from strings. Both fast validators (Ajv's and our
 * specialised one) are generated code; Cloudflare's workerd refuses `new Function` ("Code
 * generation from strings disallowed for this context"), so there every schema takes the compliant
 * engine, which interprets the schema instead (docs/deploy.md). Asked once, on the first build,
 * never at module load (workerd refuses that in a module's global scope as well).
 */
function canGenerateCode(): boolean {
  if (codeGeneration === undefined) {
    try {
      codeGeneration = new Function('return true')() === true;
    } catch {
      codeGeneration = false;
    }
  }
  return codeGeneration;
}

function build(schema: object | boolean, options: CompileOptions | undefined): Compiled {
  const dialect = checkAfterLimits(schema, options?.remotes);
  const limit = Math.max(1, options?.maxErrors ?? DEFAULT_MAX_ERRORS);
  const budget: InstanceBudget = { maxNodes: options?.maxInstanceNodes ?? DEFAULT_MAX_INSTANCE_NODES, maxDepth: options?.maxInstanceDepth ?? DEFAULT_MAX_INSTANCE_DEPTH };
  const formatAssertion = options?.formatAssertion === true || metaSchemaAssertsFormat(schema, options?.remotes);
  const plan = planFastPath(schema, dialect, formatAssertion);
  if (plan.blocker === undefined && options?.engine !== 'compliant' && canGenerateCode()) {
    const fast = compileFast(schema, dialect, formatAssertion, plan);
    const general = (instance: unknown): ValidationResult => {
      const refused = instanceRefusal(instance, budget);
      if (refused) return { valid: false, errors: [refused] };
      let raw: readonly ErrorObject[] | undefined;
      try { raw = fast(instance); } catch (error) { return unvalidatable(error); }
      return raw === undefined ? VALID : new AjvInvalidResult(raw, limit);
    };
    if (specialisedBlocker(schema, plan) !== undefined) return new Compiled(schema, dialect, 'fast', general);
    // The common MCP shape: our own generated code, budget folded in; the general path takes any
    // instance it hands back (over budget, non-finite, unusual), which then gets that path's answer.
    // Generated on the first call, like the fast engine's code; it then is `validate` itself (the
    // first function stays valid for a caller that kept it).
    let special: ((instance: unknown) => ValidationResult) | undefined;
    const compiled = new Compiled(schema, dialect, 'fast', (instance) => {
      if (special === undefined) {
        try {
          special = compileSpecialised(schema as object, budget, { valid: VALID, invalid: (first: ErrorRecord) => new SpecialisedInvalidResult(first, limit), general });
        } catch {
          special = general;
        }
        compiled.validate = special;
      }
      return special(instance);
    });
    return compiled;
  }
  const check = compileCompliant(schema, dialect, { remotes: options?.remotes, formatAssertion });
  return new Compiled(schema, dialect, 'compliant', (instance) => {
    const refused = instanceRefusal(instance, budget);
    if (refused) return { valid: false, errors: [refused] };
    let found: NormalisedErrors;
    try { found = check(instance, limit); } catch (error) { return unvalidatable(error); }
    return found.errors.length === 0 ? VALID : { valid: false, errors: capped(found, limit) };
  });
}
