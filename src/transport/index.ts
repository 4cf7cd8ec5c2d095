/** Transports: Streamable HTTP (node:http and web fetch) and stdio, over any MessageDispatcher. */
export { listenHttp } from './node-http.js';
export type { ListenOptions, HttpListener, HttpMount } from './node-http.js';
export { createFetchHandler } from './fetch-handler.js';
export { serveStdio } from './stdio.js';
export type { StdioOptions, StdioConnection } from './stdio.js';
export { resolveHttpPolicy, isLoopbackHost, DEFAULT_MAX_BODY_BYTES } from './http-policy.js';
export type { HttpOptions, HttpPolicy } from './http-policy.js';
export type { InboundMessage, Reply, MessageDispatcher, HeaderLookup } from './message-dispatcher.js';
