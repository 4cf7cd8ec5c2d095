/** toolwright/client: an MCP 2026-07-28 client for tools, over Streamable HTTP or stdio. */
export { connect } from './mcp-client.js';
export type {
  ConnectTarget,
  ClientOptions,
  ClientWarning,
  McpClient,
  ToolListing,
  ExcludedTool,
  DiscoverInfo,
  CallToolOptions,
  RequestOptions,
  ProgressUpdate,
  InputRequiredContext,
} from './mcp-client.js';
export { McpClientError } from './client-error.js';
export type { ClientErrorKind } from './client-error.js';
export type { HttpTarget } from './http-connection.js';
export type { StdioTarget, StdioConnection } from './stdio-connection.js';
export { createListCache } from './list-cache.js';
export type { ListCache, ListCacheEntry } from './list-cache.js';
export { SseReader } from './sse-reader.js';
