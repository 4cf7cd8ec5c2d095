import { DefinitionError } from '../errors/toolwright-error.js';

/**
 * Thrown by compileSchema (and detectDialect) for a schema that is invalid, unsupported, too large,
 * or references something that cannot be resolved. `schemaPath` is the JSON pointer of the problem
 * inside the schema ("" = the root), and the message starts with it.
 */
export class SchemaCompileError extends DefinitionError {
  readonly errorCode = 'schema' as const;
  readonly schemaPath: string;
  constructor(schemaPath: string, problem: string) {
    // Keep the message readable for a very deep location; `schemaPath` keeps the full pointer.
    const shown = schemaPath.length > 160
      ? `${schemaPath.slice(0, schemaPath.lastIndexOf('/', 80))}/...${schemaPath.slice(schemaPath.indexOf('/', schemaPath.length - 60))}`
      : schemaPath;
    super(`invalid schema at ${shown === '' ? '/' : shown}: ${problem}`);
    this.name = 'SchemaCompileError';
    this.schemaPath = schemaPath;
  }
}
