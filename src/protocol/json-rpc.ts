/** A JSON-RPC request id: string or integer, never null (digest R-02). */
export type JsonRpcId = string | number;

/** Any JSON value. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** A plain JSON object. */
export type JsonObject = { [key: string]: unknown };

/** A JSON-RPC 2.0 request (has an id). */
export interface JsonRpcRequest {
  /** Always `"2.0"`. */
  jsonrpc: '2.0';
  /** Correlates the response with this request. */
  id: JsonRpcId;
  /** The method to invoke, e.g. `tools/call`. */
  method: string;
  /** Named parameters; MCP 2026-07-28 requests carry their `_meta` here. */
  params?: JsonObject;
}

/** A JSON-RPC 2.0 notification (no id, never answered). */
export interface JsonRpcNotification {
  /** Always `"2.0"`. */
  jsonrpc: '2.0';
  /** The notification, e.g. `notifications/progress`. */
  method: string;
  /** Named parameters. */
  params?: JsonObject;
}

/** The error member of a JSON-RPC error response. */
export interface JsonRpcErrorObject {
  /** Error code (see `ErrorCode`). */
  code: number;
  /** One-line description of what went wrong. */
  message: string;
  /** Structured detail, e.g. the supported versions of -32022. */
  data?: unknown;
}

/** A JSON-RPC 2.0 success response. */
export interface JsonRpcResultResponse {
  /** Always `"2.0"`. */
  jsonrpc: '2.0';
  /** The id of the request answered. */
  id: JsonRpcId;
  /** The method's result. */
  result: JsonObject;
}

/** A JSON-RPC 2.0 error response; `id` is absent only when the request id was unreadable. */
export interface JsonRpcErrorResponse {
  /** Always `"2.0"`. */
  jsonrpc: '2.0';
  /** The id of the request answered; absent when it could not be read. */
  id?: JsonRpcId;
  /** What went wrong. */
  error: JsonRpcErrorObject;
}

/** Either kind of JSON-RPC response: a result or an error. */
export type JsonRpcResponse = JsonRpcResultResponse | JsonRpcErrorResponse;

/** True for a plain (non-array, non-null) object. */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** True for a valid JSON-RPC id (string or integer). */
export function isJsonRpcId(value: unknown): value is JsonRpcId {
  return typeof value === 'string' || (typeof value === 'number' && Number.isInteger(value));
}
