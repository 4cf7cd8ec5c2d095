/** Proxy (issue 32 items 2 and 6): remote MCP servers' tools as local tools, and one configuration for a front server. */
export { toolsFromUpstream } from './tools-from-upstream.js';
export type { UpstreamToolsOptions, UpstreamTools, UpstreamToolProblem, UpstreamToolProblemCode } from './tools-from-upstream.js';
export type { UpstreamTarget, StdioUpstreamTarget, HttpUpstreamTarget, UpstreamOptions } from './upstream.js';
export { ProxyError, ProxyConfigError } from './proxy-error.js';
export type { ProxyErrorCode, ProxyConfigProblem } from './proxy-error.js';
export { PROXY_CONFIG_SCHEMA, resolveProxyConfig } from './proxy-config.js';
export type { ProxyConfig, ProxyConfigUpstream, ProxyConfigOAuth, ProxyConfigOpenApi, ProxyConfigMount, ProxyConfigTransform, ResolvedProxyConfig } from './proxy-config.js';
export { createProxyServer } from './proxy-server.js';
export type { ProxyServer, ProxyServerOptions, ProxySourceProblem } from './proxy-server.js';
