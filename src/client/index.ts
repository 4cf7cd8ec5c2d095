/** toolwright/client: an MCP client for tools, over Streamable HTTP or stdio, for 2026-07-28 and initialize-based (2025) servers. */
export { connect } from './mcp-client.js';
export type {
  ConnectTarget,
  ClientOptions,
  ClientWarning,
  ClientRoot,
  McpClient,
  ProtocolEra,
  ToolListing,
  ExcludedTool,
  DiscoverInfo,
  CallToolOptions,
  RequestOptions,
  ProgressUpdate,
  InputRequiredContext,
  ServerRequestContext,
  TypedCallToolResult,
  CallableTool,
  OutputOf,
} from './types.js';
export type { CallToolResult, ToolDescriptor, InputRequest } from '../protocol/index.js';
export { CLIENT_LEGACY_PROTOCOL_VERSIONS } from '../protocol/versions.js';
export { McpClientError } from './client-error.js';
export type { ClientErrorKind } from './client-error.js';
export type { HttpTarget } from './http-connection.js';
export type { StdioTarget, StdioConnection } from './stdio-connection.js';
export { createListCache } from './list-cache.js';
export { createOAuthClient } from './oauth/oauth-client.js';
export type { OAuthClient, OAuthClientOptions, AuthorizationRequest, ClientCredentials } from './oauth/oauth-client.js';
export { fileTokenStore, memoryTokenStore, defaultTokenCachePath } from './oauth/token-store.js';
export type { TokenStore, StoredToken, StoredClient } from './oauth/token-store.js';
export { parseBearerChallenge } from './oauth/bearer-challenge.js';
export type { BearerChallenge } from './oauth/bearer-challenge.js';
export type { ListCache, ListCacheEntry } from './list-cache.js';
export { SseReader } from './sse-reader.js';
export { TASKS_EXTENSION } from './tool-task.js';
export type { ToolTask, ToolTaskSnapshot, ToolTaskStatus } from './tool-task.js';
export type { SendOptions, ReceivedResponse, ConnectionHandlers, LegacySession, ServerRequestHandler } from './connection.js';
