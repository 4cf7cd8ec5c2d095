// The wire shapes every benchmark client sends, built once so that every server under test
// receives byte-identical requests (a fair comparison needs the same bytes on the wire).

export const PROTOCOL_VERSION = '2026-07-28';
export const SERVER_INFO_KEY = 'io.modelcontextprotocol/serverInfo';

/** The `_meta` a 2026-07-28 client attaches to every request. */
export const REQUEST_META = {
  'io.modelcontextprotocol/protocolVersion': PROTOCOL_VERSION,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'toolwright-bench', version: '1.0.0' },
} as const;

/** Arguments of the measured call; the expected answer is their sum. */
export const SUM_ARGS = { a: 20, b: 22 } as const;
export const EXPECTED_SUM = SUM_ARGS.a + SUM_ARGS.b;

export interface JsonRpcRequest {
  readonly jsonrpc: '2.0';
  readonly id: number;
  readonly method: string;
  readonly params: Record<string, unknown>;
}

export function callSumRequest(id: number, args: Record<string, unknown> = SUM_ARGS): JsonRpcRequest {
  return { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'calculate_sum', arguments: args, _meta: REQUEST_META } };
}

export function listToolsRequest(id: number, cursor?: string): JsonRpcRequest {
  return { jsonrpc: '2.0', id, method: 'tools/list', params: cursor === undefined ? { _meta: REQUEST_META } : { cursor, _meta: REQUEST_META } };
}

export function discoverRequest(id: number): JsonRpcRequest {
  return { jsonrpc: '2.0', id, method: 'server/discover', params: { _meta: REQUEST_META } };
}

/** The Streamable HTTP headers 2026-07-28 requires, mirrored from the body they accompany. */
export function httpHeadersFor(request: JsonRpcRequest): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': PROTOCOL_VERSION,
    'mcp-method': request.method,
  };
  const name = request.params['name'];
  if (typeof name === 'string') headers['mcp-name'] = name;
  return headers;
}

/** Endpoint path every HTTP server under test serves. */
export const MCP_PATH = '/mcp';
