import type { JsonObject, JsonRpcNotification } from '../protocol/json-rpc.js';

/** Case-insensitive header read (the argument is always lower-case). */
export type HeaderLookup = (lowerCaseName: string) => string | undefined;

/**
 * How a message reached the server: `http`, `stdio`, or `console` (made in process from the
 * operator console's workbench, by the operator holding the console token; no HTTP headers).
 */
export type TransportKind = 'http' | 'stdio' | 'console';

/** One inbound message as a transport hands it to the server. */
export interface InboundMessage {
  /** Raw bytes or text of one HTTP body / stdio line. */
  body: string | Uint8Array;
  /** The transport the message arrived on. */
  transport: TransportKind;
  /** For `console`: the operator the console was started for (audit records name them). */
  operator?: string;
  /** HTTP request headers; undefined on stdio. */
  header: HeaderLookup | undefined;
  /**
   * Aborted when the client goes away or cancels this request. Transports may create it lazily on
   * first access (an AbortController per request is measurable on the hot path).
   */
  readonly signal: AbortSignal;
  /** Whether the client is gone, without materialising `signal`. */
  isAborted(): boolean;
  /**
   * Aborted when the connection carrying this message goes away, for messages whose request that
   * does not cancel (a 2025 session's POST: the call runs on and its answer waits for the client to
   * resume the stream). Absent where the connection's end is the cancellation: `signal` says both.
   */
  readonly connectionSignal?: AbortSignal;
  /** The message already parsed by the transport (stdio parses to route cancellations); decode then skips JSON.parse. */
  parsed?: unknown;
  /**
   * Set by an in-process caller that reads {@link Reply.result} and never sends the body (the 2025
   * session wire, which answers in its own revision's words): a result reply then comes with
   * `result` and an empty `body`, and the result's JSON is never written. Errors keep their body.
   */
  readonly resultOnly?: boolean;
  /** Sends a request-scoped notification (progress, log) on this request's stream. */
  notify(notification: JsonRpcNotification): void;
  /**
   * Writes one serialized message on this request's stream as an SSE event with an `id` (a legacy
   * session's resumable POST stream); false when the client is gone or the stream cannot carry it.
   * HTTP transports have it; stdio does not (nothing to resume there).
   */
  notifyEvent?(json: string, id: string): boolean;
}

/** What to answer. `body` is one serialized JSON-RPC message, absent for notifications. */
export interface Reply {
  /** HTTP status (stdio ignores it). */
  status: number;
  /** The serialized JSON-RPC response; undefined when nothing is answered (202 on HTTP); '' for a result asked for as `resultOnly`. */
  body: string | undefined;
  /** Extra HTTP response headers. */
  headers?: Readonly<Record<string, string>>;
  /**
   * The `result` member `body` serializes, when the producer still holds it as an object. An
   * in-process caller that needs the value (the 2025 translator) reads it instead of parsing `body`
   * back; transports ignore it. Treat it as read-only.
   */
  result?: JsonObject;
  /**
   * The answer as separate messages, each serialized (a 2025-03-26 JSON-RPC batch, server/legacy/batch.ts):
   * an HTTP reply that ends an event stream writes one event per message instead of `body` (which
   * then holds them as one JSON array, written as is otherwise, and on stdio).
   */
  events?: readonly string[];
  /**
   * SSE event ids of the answer's messages (`events`, else `body`), one each: a legacy session's
   * POST stream that carried events writes its answer with its id, so a client resuming it knows
   * it has the answer. Ignored when the answer is not an event stream.
   */
  eventIds?: readonly string[];
}

/** Anything that turns inbound messages into replies; a Toolwright server is one. */
export interface MessageDispatcher {
  /** Runs one inbound message through the server; never rejects for protocol errors (they are replies). */
  handleMessage(message: InboundMessage): Promise<Reply>;
}

/** An open server-sent event stream (the legacy wire's GET stream). */
export interface EventStream {
  /** Writes one event carrying one serialized JSON-RPC message (with its SSE `id`, when given); false once the client is gone. */
  send(json: string, id?: string): boolean;
  /** Writes an SSE comment so idle proxies keep the connection. */
  keepAlive(): void;
  /** Ends the stream. */
  end(): void;
  /** Runs once when the stream ends, by `end()` or because the client went away. */
  onClose(listener: () => void): void;
}

/**
 * GET and DELETE on the MCP endpoint, for dispatchers that keep sessions (the 2025 legacy wire).
 * Both get the request headers only; neither has a body.
 */
export interface SessionEndpoint {
  /**
   * GET: a Reply refuses; a function is handed the opened stream (status 200, text/event-stream).
   * `Last-Event-ID` asks to resume a stream after that event (the legacy wire reads it from `header`).
   */
  openStream(header: HeaderLookup): Promise<Reply | ((stream: EventStream) => void)>;
  /** DELETE: ends the named session. */
  endSession(header: HeaderLookup): Promise<Reply>;
}

/** A dispatcher that also answers GET and DELETE (Streamable HTTP sessions). */
export interface SessionDispatcher extends MessageDispatcher {
  readonly sessions: SessionEndpoint;
}
