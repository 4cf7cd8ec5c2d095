/** OpenAPI 3.0 / 3.1 documents to Toolwright tools (issue 32 item 4). */
export { toolsFromOpenApi } from './tools-from-openapi.js';
export type { OpenApiImportOptions, OpenApiImport, ImportedOperation } from './tools-from-openapi.js';
export { OpenApiImportError } from './import-error.js';
export type { OpenApiImportErrorCode, ImportProblem, ImportProblemCode } from './import-error.js';
export type { UpstreamCredential } from './upstream-call.js';
