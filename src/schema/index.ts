/**
 * toolwright/schema: the JSON Schema engine every Toolwright tool schema goes through.
 * See docs/schema-engine.md for the design (fast compiled path + fully compliant path).
 */
export type { Dialect, SchemaError, ValidationResult, CompileOptions, CompiledSchema } from './types.js';
export { DEFAULT_MAX_DEPTH, DEFAULT_MAX_NODES, DEFAULT_MAX_ERRORS, DEFAULT_MAX_INSTANCE_NODES, DEFAULT_MAX_INSTANCE_DEPTH } from './types.js';
export { SchemaCompileError } from './compile-error.js';
export { compileSchema, checkSchema } from './compile.js';
export { formatSchemaErrors } from './format-errors.js';
export { walkSchema, SUBSCHEMA_KEYWORDS } from './walk.js';
export type { SchemaVisit, Holder } from './walk.js';
export { escapePointerToken, unescapePointerToken, resolvePointer } from './pointer.js';
export { detectDialect, dialectOfUri, DIALECT_URI } from './dialect.js';
export { compilePattern, isBacktrackingRisk, PatternError } from './safe-regex.js';
export type { PatternMatcher } from './safe-regex.js';
