/**
 * "Is this schema valid for its dialect?" without building a validator: the schema engine's
 * `checkSchema` runs every check `compileSchema` runs before it generates code (dialect, limits,
 * meta-schema including safe `pattern`s, local `$ref`s), at a fraction of the cost, which keeps a
 * 1,000-tool lint inside its 2-second budget.
 */
import { checkSchema, compileSchema, SchemaCompileError } from '../schema/index.js';
import type { SchemaError } from '../schema/index.js';

/** The first problem that would make `compileSchema(schema)` throw, or undefined when the schema is valid. */
export function findSchemaProblem(schema: unknown): SchemaCompileError | undefined {
  if (typeof schema !== 'boolean' && (typeof schema !== 'object' || schema === null || Array.isArray(schema))) {
    return new SchemaCompileError('', `a schema must be an object or a boolean, got ${Array.isArray(schema) ? 'array' : schema === null ? 'null' : typeof schema}`);
  }
  try {
    checkSchema(schema);
    return undefined;
  } catch (error) {
    if (error instanceof SchemaCompileError) return error;
    throw error;
  }
}

/**
 * A one-shot validator for checking a handful of values (`default`, `examples`) against a
 * subschema: the engine's compliant interpreter builds in well under a millisecond, where the
 * fast engine's code generation would cost more than every value check together. Undefined when
 * the subschema cannot stand alone (e.g. a `$ref` to elsewhere in the document).
 */
export function oneShotValidator(schema: object | boolean): ((value: unknown) => SchemaError[]) | undefined {
  if (findSchemaProblem(schema) !== undefined) return undefined;
  try {
    const compiled = compileSchema(schema, { engine: 'compliant' });
    return (value) => compiled.validate(value).errors;
  } catch (error) {
    if (error instanceof SchemaCompileError) return undefined;
    throw error;
  }
}
