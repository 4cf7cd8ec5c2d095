import type { JsonRpcNotification, JsonRpcRequest, JsonRpcResponse } from '../protocol/index.js';

/** One request's transport-level options. */
export interface SendOptions {
  /** HTTP request headers (ignored by stdio, which has none). */
  headers: Record<string, string>;
  /** Aborting it cancels the request (HTTP: the stream is closed; stdio: `notifications/cancelled`). */
  signal: AbortSignal;
  /** Notifications that belong to this request (progress, log messages). */
  onNotification: (notification: JsonRpcNotification) => void;
}

/** A JSON-RPC response and, on HTTP, the status it came with. */
export interface ReceivedResponse {
  message: JsonRpcResponse;
  httpStatus?: number;
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
  send(request: JsonRpcRequest, options: SendOptions): Promise<ReceivedResponse>;
  close(): Promise<void>;
}
