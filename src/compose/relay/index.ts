/** The proxy's relay (transparent) mode: a stdio host relayed to a running server's Streamable HTTP endpoint, no local pipeline (docs/compose.md, "Relay"). */
export { StdioRelay } from './stdio-relay.js';
export type { StdioRelayOptions } from './stdio-relay.js';
export { readTokenFile } from './token-file.js';
export type { TokenFileRead } from './token-file.js';
export { runStdioRelay } from './run-stdio-relay.js';
export type { RunningRelay, RunStdioRelayOptions } from './run-stdio-relay.js';
