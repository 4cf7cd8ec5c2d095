/** The protocol revision this package implements. */
export const PROTOCOL_VERSION = '2026-07-28';

/** Every revision a request may name in `_meta`; anything else gets -32022. */
export const SUPPORTED_PROTOCOL_VERSIONS: readonly string[] = Object.freeze([PROTOCOL_VERSION]);

/** Reserved `_meta` keys defined by the 2026-07-28 revision. */
export const META = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  logLevel: 'io.modelcontextprotocol/logLevel',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
  subscriptionId: 'io.modelcontextprotocol/subscriptionId',
  progressToken: 'progressToken',
} as const;

/** Standard Streamable HTTP request headers (lower-case, as node:http exposes them). */
export const HEADER = {
  protocolVersion: 'mcp-protocol-version',
  method: 'mcp-method',
  name: 'mcp-name',
  paramPrefix: 'mcp-param-',
} as const;
