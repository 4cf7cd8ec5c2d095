/**
 * "Is this schema valid for its dialect?" without building a validator. `compileSchema` answers
 * the same question but also generates validator code (several milliseconds per schema), which
 * would put a 1,000-tool lint far over its 2-second budget. These are the schema engine's own
 * checks, run in the same order compileSchema runs them before it builds anything:
 * dialect, size/depth limits, meta-schema (including safe `pattern`s), local `$ref`s.
 * (The schema module exports no check-only entry point yet, hence the internal imports.)
 */
import { detectDialect, SchemaCompileError, DEFAULT_MAX_DEPTH, DEFAULT_MAX_NODES } from '../schema/index.js';
import { assertSchemaLimits } from '../schema/limits.js';
import { assertMetaValid } from '../schema/meta-check.js';
import { assertLocalRefsResolve } from '../schema/local-refs.js';
import { compileCompliant } from '../schema/engines/compliant.js';
import type { SchemaError } from '../schema/index.js';

/**
 * True when some object in the document has a `$ref` member. Most tool schemas have none, and
 * this plain scan costs far less than the pointer-tracking walk that resolves references.
 */
function mentionsRef(root: unknown): boolean {
  // Iterative: `const`/`default` values may nest deeper than the schema depth limit.
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value !== 'object' || value === null) continue;
    if (Array.isArray(value)) {
      for (const item of value) stack.push(item);
      continue;
    }
    if (Object.prototype.hasOwnProperty.call(value, '$ref')) return true;
    for (const key of Object.keys(value)) stack.push((value as Record<string, unknown>)[key]);
  }
  return false;
}

/** The first problem that would make `compileSchema(schema)` throw, or undefined when the schema is valid. */
export function findSchemaProblem(schema: unknown): SchemaCompileError | undefined {
  if (typeof schema !== 'boolean' && (typeof schema !== 'object' || schema === null || Array.isArray(schema))) {
    return new SchemaCompileError('', `a schema must be an object or a boolean, got ${Array.isArray(schema) ? 'array' : schema === null ? 'null' : typeof schema}`);
  }
  try {
    const dialect = detectDialect(schema);
    assertSchemaLimits(schema, DEFAULT_MAX_DEPTH, DEFAULT_MAX_NODES);
    assertMetaValid(schema, dialect);
    if (mentionsRef(schema)) assertLocalRefsResolve(schema, dialect);
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
    return compileCompliant(schema, detectDialect(schema), { formatAssertion: false });
  } catch (error) {
    if (error instanceof SchemaCompileError) return undefined;
    throw error;
  }
}
