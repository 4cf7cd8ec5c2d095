/** Composing tools: transforms over tool lists and OpenAPI documents as tools (docs/compose.md). Mounting is the server's `mount` option. */
export { transformTools, rename, describe, hideArgument, defaultArgument, narrowArgument, filterTools, requireApproval, TransformError } from './transforms.js';
export type { ToolTransform, ToolFilter } from './transforms.js';
export { toolsFromOpenApi, OpenApiImportError } from './openapi/index.js';
export type { OpenApiImportOptions, OpenApiImport, ImportedOperation, OpenApiImportErrorCode, ImportProblem, ImportProblemCode, UpstreamCredential } from './openapi/index.js';
