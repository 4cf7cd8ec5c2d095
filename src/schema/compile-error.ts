/**
 * Thrown by compileSchema (and detectDialect) for a schema that is invalid, unsupported, too large,
 * or references something that cannot be resolved. `schemaPath` is the JSON pointer of the problem
 * inside the schema ("" = the root), and the message starts with it.
 */
export class SchemaCompileError extends Error {
  readonly schemaPath: string;
  constructor(schemaPath: string, problem: string) {
    super(`invalid schema at ${schemaPath === '' ? '/' : schemaPath}: ${problem}`);
    this.name = 'SchemaCompileError';
    this.schemaPath = schemaPath;
  }
}
