import type { SchemaError } from './types.js';

/** One line per error, each already in "<path>: <problem>" form, ready to hand back to a model. */
export function formatSchemaErrors(errors: readonly SchemaError[]): string {
  return errors.map((error) => error.message).join('\n');
}
