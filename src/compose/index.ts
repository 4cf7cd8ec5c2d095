/** Composing tools: transforms over tool lists, OpenAPI documents as tools, remote MCP servers proxied (docs/compose.md). Mounting is the server's `mount` option. */
export { transformTools, rename, describe, hideArgument, defaultArgument, narrowArgument, filterTools, requireApproval, TransformError } from './transforms.js';
export type { ToolTransform, ToolFilter } from './transforms.js';
export { toolsFromOpenApi, OpenApiImportError } from './openapi/index.js';
export type { OpenApiImportOptions, OpenApiImport, ImportedOperation, OpenApiImportErrorCode, ImportProblem, ImportProblemCode, UpstreamCredential } from './openapi/index.js';
export { toolsFromUpstream, createProxyServer, resolveProxyConfig, PROXY_CONFIG_SCHEMA, ProxyError, ProxyConfigError } from './proxy/index.js';
export type {
  UpstreamToolsOptions, UpstreamTools, UpstreamToolProblem, UpstreamToolProblemCode, UpstreamTarget, StdioUpstreamTarget, HttpUpstreamTarget, UpstreamOptions,
  ProxyErrorCode, ProxyConfigProblem, ProxyConfig, ProxyConfigUpstream, ProxyConfigOAuth, ProxyConfigOpenApi, ProxyConfigMount, ProxyConfigTransform, ResolvedProxyConfig, ProxyServer, ProxyServerOptions, ProxySourceProblem,
} from './proxy/index.js';
