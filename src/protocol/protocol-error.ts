import type { JsonRpcErrorObject, JsonRpcErrorResponse, JsonRpcId } from './json-rpc.js';
import { WireError } from '../errors/toolwright-error.js';

/**
 * A failure that becomes a JSON-RPC error response. `httpStatus` is what Streamable HTTP answers
 * with; stdio ignores it. `headers` carries extra HTTP response headers (e.g. WWW-Authenticate).
 * The server builds one from a row of its outcome table (`rpcError` in server/outcomes.ts), the
 * client from a row of its refusal table (client/refusals.ts); there are no other factories.
 */
export class ProtocolError extends WireError {
  readonly errorCode = 'protocol' as const;
  /** JSON-RPC error code (see `ErrorCode`). */
  readonly code: number;
  /** The error object's `data`, when any. */
  readonly data: unknown;
  /** HTTP status of the Streamable HTTP response (default 200). */
  readonly httpStatus: number;
  /** Extra HTTP response headers, e.g. `WWW-Authenticate`. */
  readonly headers: Readonly<Record<string, string>> | undefined;

  constructor(code: number, message: string, options: { data?: unknown; httpStatus?: number; headers?: Record<string, string> } = {}) {
    super(message);
    this.name = 'ProtocolError';
    this.code = code;
    this.data = options.data;
    this.httpStatus = options.httpStatus ?? 200;
    this.headers = options.headers;
  }

  /** The JSON-RPC `error` member. */
  toErrorObject(): JsonRpcErrorObject {
    return this.data === undefined ? { code: this.code, message: this.message } : { code: this.code, message: this.message, data: this.data };
  }

  /** A complete JSON-RPC error response for `id` (omitted when unknown). */
  toResponse(id: JsonRpcId | undefined): JsonRpcErrorResponse {
    return id === undefined ? { jsonrpc: '2.0', error: this.toErrorObject() } : { jsonrpc: '2.0', id, error: this.toErrorObject() };
  }
}
