/**
 * The relay's side of Streamable HTTP: POST one message, GET a stream, DELETE a session, and read
 * what comes back (one JSON body, or an event stream whose events are JSON-RPC messages) within a
 * size bound. Nothing here looks inside a message beyond what framing needs; stdio-relay.ts decides
 * what each one means.
 */
import { SseReader } from '../../client/sse-reader.js';
import { readBodyText } from '../../protocol/bounded-body.js';

/** A request that never got an HTTP answer: connection refused, reset, DNS, TLS. */
export interface Unreachable {
  readonly unreachable: string;
}

/** How an event stream ended. */
export interface StreamEnd {
  /** The sink said an event was the answer it waited for (the stream is then closed by the relay). */
  readonly answered: boolean;
  /** The last `id:` seen, for resuming with `Last-Event-ID` (2025-11-25). */
  readonly lastEventId: string | undefined;
  /** The server's `retry:` delay, if it sent one. */
  readonly retryMs: number | undefined;
  /** At least one event arrived. */
  readonly delivered: boolean;
}

/** Receives each event's data; returns true when that event is the answer (reading then stops). */
export type EventSink = (data: string) => boolean;

const EXCERPT = 200;

/** Why a fetch failed without an HTTP answer, in a word where Node gives one (ECONNREFUSED). */
function networkReason(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}

/** The first characters of a body, for a message. */
export function excerpt(text: string): string {
  const trimmed = text.trim().replace(/\s+/g, ' ');
  return trimmed.length > EXCERPT ? `${trimmed.slice(0, EXCERPT)}...` : trimmed;
}

/** Whether a response is an event stream. */
export function isEventStream(response: Response): boolean {
  return (response.headers.get('content-type') ?? '').toLowerCase().startsWith('text/event-stream') && response.body !== null;
}

/** The one MCP endpoint of the upstream. */
export class UpstreamHttp {
  readonly url: URL;
  readonly #fetch: typeof fetch;
  readonly #maxBytes: number;

  constructor(url: URL, fetchImpl: typeof fetch, maxMessageBytes: number) {
    this.url = url;
    this.#fetch = fetchImpl;
    this.#maxBytes = maxMessageBytes;
  }

  /** POSTs one JSON-RPC message (or batch) exactly as the host wrote it. */
  post(body: string, headers: Record<string, string>, signal: AbortSignal): Promise<Response | Unreachable> {
    return this.#send('POST', { ...headers, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, signal, body);
  }

  /** GETs an event stream: the session's stream, or a POST's stream resumed with `Last-Event-ID`. */
  get(headers: Record<string, string>, signal: AbortSignal): Promise<Response | Unreachable> {
    return this.#send('GET', { ...headers, accept: 'text/event-stream' }, signal);
  }

  /** Ends a legacy session (2025 "Session Management"). */
  delete(headers: Record<string, string>, signal: AbortSignal): Promise<Response | Unreachable> {
    return this.#send('DELETE', headers, signal);
  }

  async #send(method: string, headers: Record<string, string>, signal: AbortSignal, body?: string): Promise<Response | Unreachable> {
    try {
      return await this.#fetch(this.url, { method, headers, signal, ...(body !== undefined ? { body } : {}) });
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      return { unreachable: networkReason(error) };
    }
  }

  /** A JSON body as text; undefined when it exceeds the size bound (the rest is not read). */
  readText(response: Response): Promise<string | undefined> {
    return readBodyText(response, this.#maxBytes).catch((error: unknown) => {
      throw new TypeError(`the answer broke off: ${networkReason(error)}`, { cause: error });
    });
  }

  /**
   * Reads an event stream, handing each event's data to `sink`, until the sink says it got its
   * answer, the stream ends, or an event grows past the size bound (the stream is then dropped).
   */
  async readEvents(response: Response, sink: EventSink): Promise<StreamEnd> {
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    const sse = new SseReader();
    let delivered = false;
    const end = (answered: boolean): StreamEnd => ({ answered, lastEventId: sse.lastEventId, retryMs: sse.retryMs, delivered });
    try {
      for (;;) {
        let chunk: ReadableStreamReadResult<Uint8Array>;
        try {
          chunk = await reader.read();
        } catch {
          return end(false);
        }
        if (chunk.done) return end(false);
        const events = sse.push(decoder.decode(chunk.value, { stream: true }));
        if (sse.pendingLength > this.#maxBytes) return end(false);
        for (const data of events) {
          delivered = true;
          if (sink(data)) return end(true);
        }
      }
    } finally {
      reader.cancel().catch(() => {});
    }
  }
}

/** `true` for an {@link Unreachable}. */
export function isUnreachable(value: Response | Unreachable): value is Unreachable {
  return 'unreachable' in value;
}
