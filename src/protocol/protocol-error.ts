import { ErrorCode } from './error-codes.js';
import type { JsonRpcErrorObject, JsonRpcErrorResponse, JsonRpcId } from './json-rpc.js';
import { SUPPORTED_PROTOCOL_VERSIONS } from './constants.js';

/**
 * A failure that becomes a JSON-RPC error response. `httpStatus` is what Streamable HTTP answers
 * with; stdio ignores it. `headers` carries extra HTTP response headers (e.g. WWW-Authenticate).
 */
export class ProtocolError extends Error {
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

/** -32700: the body or line is not JSON. */
export function parseError(detail: string): ProtocolError {
  return new ProtocolError(ErrorCode.ParseError, `Parse error: ${detail}`, { httpStatus: 400 });
}

/** -32600: JSON, but not a JSON-RPC 2.0 request or notification. */
export function invalidRequest(detail: string): ProtocolError {
  return new ProtocolError(ErrorCode.InvalidRequest, `Invalid request: ${detail}`, { httpStatus: 400 });
}

/** -32601 (HTTP 404): the method is unknown, removed, or belongs to an unadvertised capability. */
export function methodNotFound(method: string): ProtocolError {
  return new ProtocolError(ErrorCode.MethodNotFound, `Method not found: ${method}`, { httpStatus: 404 });
}

/** -32602 with a caller-chosen HTTP status (400 for missing `_meta`, 200 otherwise). */
export function invalidParams(message: string, options: { data?: unknown; httpStatus?: number } = {}): ProtocolError {
  return new ProtocolError(ErrorCode.InvalidParams, message, options);
}

/** -32603: the server itself failed. The message never carries internals. */
export function internalError(message = 'Internal error'): ProtocolError {
  return new ProtocolError(ErrorCode.InternalError, message, { httpStatus: 500 });
}

/** -32020 (HTTP 400): a Streamable HTTP header is missing or disagrees with the body. */
export function headerMismatch(message: string): ProtocolError {
  return new ProtocolError(ErrorCode.HeaderMismatch, message, { httpStatus: 400 });
}

/** -32021 (HTTP 400): the request needs a client capability it did not declare. */
export function missingClientCapability(requiredCapabilities: Record<string, unknown>, message?: string): ProtocolError {
  const names = Object.keys(requiredCapabilities).join(', ');
  return new ProtocolError(ErrorCode.MissingRequiredClientCapability, message ?? `Missing required client capability: ${names}`, {
    httpStatus: 400,
    data: { requiredCapabilities },
  });
}

/** -32022 (HTTP 400): the requested protocol version is not supported. */
export function unsupportedProtocolVersion(requested: string, supported: readonly string[] = SUPPORTED_PROTOCOL_VERSIONS): ProtocolError {
  return new ProtocolError(ErrorCode.UnsupportedProtocolVersion, `Unsupported protocol version: ${requested}`, {
    httpStatus: 400,
    data: { supported: [...supported], requested },
  });
}
