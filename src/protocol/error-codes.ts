/**
 * JSON-RPC error codes emitted by Toolwright. The -32020..-32022 codes are the ones the 2026-07-28
 * revision defines; the -31xxx codes are Toolwright's own, deliberately outside -32768..-32000
 * which the spec reserves (digest R-08).
 */
export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  HeaderMismatch: -32020,
  MissingRequiredClientCapability: -32021,
  UnsupportedProtocolVersion: -32022,
  /** Toolwright: the bearer token is missing or invalid (HTTP 401). */
  Unauthorized: -31401,
  /** Toolwright: the caller lacks a scope the tool requires (HTTP 403). */
  InsufficientScope: -31403,
  /** Toolwright: a rate limit refused the call (HTTP 429, `data.retryAfterMs`). */
  RateLimited: -31429,
  /** Toolwright: the request was refused by a transport rule (Origin, Host, size, media type). */
  TransportRejected: -31400,
  /** Toolwright: a legacy (2025) request names a session that does not exist or expired (HTTP 404). */
  SessionNotFound: -31404,
  /** Toolwright: a server-to-client request of the legacy wire got no answer in time. */
  InputTimeout: -31408,
  /** Toolwright: no room for a new legacy session (live ones are never evicted), or the shared store is down (HTTP 503). */
  ServerBusy: -31503,
} as const;

/** Any one of the numeric codes in {@link ErrorCode} (JSON-RPC, MCP and Toolwright's own). */
export type ErrorCodeValue = (typeof ErrorCode)[keyof typeof ErrorCode];
