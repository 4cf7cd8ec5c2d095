import type { JsonRpcNotification } from '../protocol/json-rpc.js';

/** Case-insensitive header read (the argument is always lower-case). */
export type HeaderLookup = (lowerCaseName: string) => string | undefined;

/** One inbound message as a transport hands it to the server. */
export interface InboundMessage {
  /** Raw bytes or text of one HTTP body / stdio line. */
  body: string | Uint8Array;
  /** The transport the message arrived on. */
  transport: 'http' | 'stdio';
  /** HTTP request headers; undefined on stdio. */
  header: HeaderLookup | undefined;
  /**
   * Aborted when the client goes away or cancels this request. Transports may create it lazily on
   * first access (an AbortController per request is measurable on the hot path).
   */
  readonly signal: AbortSignal;
  /** Whether the client is gone, without materialising `signal`. */
  isAborted(): boolean;
  /** The message already parsed by the transport (stdio parses to route cancellations); decode then skips JSON.parse. */
  parsed?: unknown;
  /** Sends a request-scoped notification (progress, log) on this request's stream. */
  notify(notification: JsonRpcNotification): void;
}

/** What to answer. `body` is one serialized JSON-RPC message, absent for notifications. */
export interface Reply {
  /** HTTP status (stdio ignores it). */
  status: number;
  /** The serialized JSON-RPC response; undefined when nothing is answered (202 on HTTP). */
  body: string | undefined;
  /** Extra HTTP response headers. */
  headers?: Readonly<Record<string, string>>;
}

/** Anything that turns inbound messages into replies; a Toolwright server is one. */
export interface MessageDispatcher {
  /** Runs one inbound message through the server; never rejects for protocol errors (they are replies). */
  handleMessage(message: InboundMessage): Promise<Reply>;
}
