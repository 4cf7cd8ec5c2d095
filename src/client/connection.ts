import type { JsonObject, JsonRpcNotification, JsonRpcRequest, JsonRpcResponse } from '../protocol/index.js';
import { REFUSALS } from './refusals.js';

/**
 * Answers one server-to-client request (a legacy-era `roots/list`, `elicitation/create` or
 * `sampling/createMessage`). Resolves to the `result`; rejects with an error carrying a numeric
 * `code` (a JSON-RPC error code) to answer with that error, any other rejection becomes -32603.
 */
export type ServerRequestHandler = (request: JsonRpcRequest, signal: AbortSignal) => Promise<JsonObject>;

/** One request's transport-level options. */
export interface SendOptions {
  /** HTTP request headers (ignored by stdio, which has none). */
  headers: Record<string, string>;
  /** Aborting it cancels the request (HTTP: the stream is closed; stdio: `notifications/cancelled`). */
  signal: AbortSignal;
  /** Notifications that belong to this request (progress, log messages). */
  onNotification: (notification: JsonRpcNotification) => void;
  /**
   * Server-to-client requests that belong to this request: on HTTP those on its SSE stream, on
   * stdio those that arrive while it is the only request in flight that has a handler.
   */
  onRequest?: ServerRequestHandler;
  /**
   * Aborts `signal`, when `signal` belongs to a controller made for this request alone: an HTTP
   * connection that closes under the request then aborts it through this, instead of making a
   * controller of its own that follows `signal` (a controller and a listener fewer per request).
   */
  abort?: (reason: unknown) => void;
}

/** A JSON-RPC response and, on HTTP, the status and session id it came with. */
export interface ReceivedResponse {
  message: JsonRpcResponse;
  httpStatus?: number;
  /** The `Mcp-Session-Id` response header (legacy Streamable HTTP, minted at `initialize`). */
  sessionId?: string;
}

/** What the connection does with traffic that belongs to no request. */
export interface ConnectionHandlers {
  /** Server-to-client requests that belong to no call (e.g. `roots/list` sent at any time). */
  onRequest?: ServerRequestHandler;
  /** Notifications that belong to no request (e.g. `notifications/tools/list_changed`). */
  onNotification?: (notification: JsonRpcNotification) => void;
}

/** The legacy (initialize-based) HTTP session the connection carries on every later request. */
export interface LegacySession {
  /** The negotiated revision, sent as `MCP-Protocol-Version`. */
  protocolVersion: string;
  /** The server's `Mcp-Session-Id`, when it minted one. */
  sessionId?: string;
}

/**
 * What the client needs from a transport: send one request and get its response. Both transports
 * reject with McpClientError; on abort they reject with the signal's reason untouched so the client
 * can tell a timeout from a caller's cancellation.
 */
export interface Connection {
  readonly kind: 'http' | 'stdio';
  /** Names the server endpoint, for cache keys and messages. */
  readonly identity: string;
  /** Distinguishes authorization contexts, so `cacheScope: "private"` lists are never shared across them. */
  readonly authContext: string;
  /** Sends one request and resolves to its response (with the HTTP status and headers where there are any). */
  send(request: JsonRpcRequest, options: SendOptions): Promise<ReceivedResponse>;
  /** Sends a notification (no response is awaited beyond the HTTP acknowledgement). */
  notify(notification: JsonRpcNotification, options: { headers: Record<string, string>; signal: AbortSignal }): Promise<void>;
  /** Sets where traffic that belongs to no request goes. */
  setHandlers(handlers: ConnectionHandlers): void;
  /** Enters a legacy session: HTTP adds its headers to every later request and ends it on close. */
  setLegacySession(session: LegacySession): void;
  /** HTTP legacy sessions: opens the GET stream for server notifications and requests (no-op elsewhere). */
  listen(): void;
  /** Ends the connection: an HTTP legacy session is deleted, a stdio child is stopped. */
  close(): Promise<void>;
}

/** The JSON-RPC error to answer a failed server-to-client request with. */
export function errorForServerRequest(error: unknown): { code: number; message: string; data?: unknown } {
  const record = error as { code?: unknown; message?: unknown; data?: unknown } | null;
  const code = typeof record?.code === 'number' && Number.isInteger(record.code) ? record.code : REFUSALS.handlerFailed.code;
  const message = typeof record?.message === 'string' && record.message !== '' ? record.message : 'the client could not answer the request';
  return { code, message, ...(record?.data !== undefined ? { data: record.data } : {}) };
}
