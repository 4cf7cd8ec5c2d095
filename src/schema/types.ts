/** JSON Schema dialects the engine implements with their own semantics. */
export type Dialect = '2020-12' | '2019-09' | 'draft-07';

/** One validation problem, normalised across engines. */
export interface SchemaError {
  /** JSON pointer into the validated instance ("" is the root). */
  instancePath: string;
  /** The keyword that failed, e.g. "type", "required", "additionalProperties". */
  keyword: string;
  /** A sentence a model can act on: path, what was expected, what was found. */
  message: string;
  /** JSON pointer of the failing keyword in the schema, e.g. "#/properties/x/type". */
  schemaPath: string;
}

/** Outcome of one validation. `errors` is empty exactly when `valid` is true. */
export interface ValidationResult {
  valid: boolean;
  errors: SchemaError[];
}

/** Options for {@link compileSchema}. */
export interface CompileOptions {
  /** Documents `$ref` may resolve against, keyed by absolute URI. Nothing is ever fetched. */
  remotes?: Record<string, object | boolean>;
  /** Treat `format` as an assertion (default false: in 2020-12 `format` is an annotation). */
  formatAssertion?: boolean;
  /** Deepest allowed subschema nesting (root = 0). Default {@link DEFAULT_MAX_DEPTH}. */
  maxDepth?: number;
  /** Most subschemas allowed in one schema document. Default {@link DEFAULT_MAX_NODES}. */
  maxNodes?: number;
  /**
   * 'auto' (default): the fast engine when the schema allows it. 'compliant': always the
   * interpreter, which builds in well under a millisecond but validates ~10-100x slower; for
   * one-shot checks (a linter testing a `default` against its subschema).
   */
  engine?: 'auto' | 'compliant';
  /**
   * Most problems one validation lists (default {@link DEFAULT_MAX_ERRORS}); further problems are
   * counted in one closing entry (keyword "errorLimit": "and M more problems not listed ...").
   */
  maxErrors?: number;
  /**
   * The validation budget: an instance with more values than this (default
   * {@link DEFAULT_MAX_INSTANCE_NODES}) is refused unvalidated (keyword "budget").
   */
  maxInstanceNodes?: number;
  /** Deepest instance nesting validated (default {@link DEFAULT_MAX_INSTANCE_DEPTH}); deeper is refused (keyword "budget"). */
  maxInstanceDepth?: number;
}

/** A schema compiled once and ready to validate many instances. */
export interface CompiledSchema {
  /** Validates one instance; never throws (a budget exceeded is a `budget` error in the result). */
  validate(instance: unknown): ValidationResult;
  /** The schema as given to {@link compileSchema}. */
  readonly schema: object | boolean;
  /** The dialect its root is read with. */
  readonly dialect: Dialect;
  /** Which engine runs it: "fast" (compiled code) or "compliant" (interpreter for the rare keywords). */
  readonly engine: 'fast' | 'compliant';
}

/** Default `maxDepth`: the deepest subschema nesting a schema may have (root = 0). */
export const DEFAULT_MAX_DEPTH = 64;
/** Default `maxNodes`: the most subschemas one schema document may hold. */
export const DEFAULT_MAX_NODES = 20_000;
/** Default `maxErrors`: the most problems one validation lists. */
export const DEFAULT_MAX_ERRORS = 20;
/** Default `maxInstanceNodes`: the most values an instance may hold before it is refused unvalidated. */
export const DEFAULT_MAX_INSTANCE_NODES = 1_000_000;
/** Default `maxInstanceDepth`: the deepest instance nesting validated. */
export const DEFAULT_MAX_INSTANCE_DEPTH = 1_000;
