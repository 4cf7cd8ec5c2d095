/**
 * The console's live channel: one server-sent event stream per open page. Events are broadcast
 * to every stream; a page that does not read (its socket buffer grows past a bound) is dropped
 * rather than buffered without limit, and the number of pages is capped.
 */
import type { ServerResponse } from 'node:http';

/** Options of {@link LiveChannel}. */
export interface LiveChannelOptions {
  /** Pages open at once (default 16); the next one gets 503. */
  maxStreams?: number;
  /** Bytes queued for one page before it is dropped (default 1 MiB). */
  maxQueuedBytes?: number;
  /** SSE comment interval keeping idle proxies open (ms, default 15000). */
  keepAliveMs?: number;
}

/** A broadcast SSE channel. */
export class LiveChannel {
  readonly #streams = new Set<ServerResponse>();
  readonly #maxStreams: number;
  readonly #maxQueued: number;
  readonly #keepAliveMs: number;
  readonly #openListeners = new Set<(count: number) => void>();
  #timer: NodeJS.Timeout | undefined;

  constructor(options: LiveChannelOptions = {}) {
    this.#maxStreams = options.maxStreams ?? 16;
    this.#maxQueued = options.maxQueuedBytes ?? 1024 * 1024;
    this.#keepAliveMs = options.keepAliveMs ?? 15_000;
  }

  /** Open streams. */
  get size(): number {
    return this.#streams.size;
  }

  /** Runs with the new count whenever a page connects or goes away (hold-to-run watches this). */
  onCountChange(listener: (count: number) => void): () => void {
    this.#openListeners.add(listener);
    return () => this.#openListeners.delete(listener);
  }

  /**
   * Turns `res` into a stream; `first` events (a snapshot) are written before any broadcast.
   * Returns false (and answers 503) when the cap is reached.
   */
  open(res: ServerResponse, first: readonly { event: string; data: unknown }[] = []): boolean {
    if (this.#streams.size >= this.#maxStreams) {
      res.writeHead(503, { 'Content-Type': 'application/json', 'Retry-After': '5' });
      res.end(JSON.stringify({ error: `too many console pages open (limit ${this.#maxStreams})` }));
      return false;
    }
    res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store', 'X-Accel-Buffering': 'no' });
    res.socket?.setNoDelay(true);
    for (const { event, data } of first) res.write(frame(event, data));
    this.#streams.add(res);
    res.once('close', () => {
      if (this.#streams.delete(res)) this.#changed();
    });
    this.#timer ??= setInterval(() => {
      for (const stream of this.#streams) stream.write(': keep-alive\n\n');
    }, this.#keepAliveMs).unref();
    this.#changed();
    return true;
  }

  /** Sends one event to every page; serialises once. */
  broadcast(event: string, data: unknown): void {
    if (this.#streams.size === 0) return;
    const text = frame(event, data);
    for (const stream of this.#streams) {
      if (stream.writableLength > this.#maxQueued) {
        stream.destroy();
        continue;
      }
      stream.write(text);
    }
  }

  /** Ends every stream. */
  close(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
    for (const stream of this.#streams) stream.end();
    this.#streams.clear();
  }

  #changed(): void {
    for (const listener of this.#openListeners) listener(this.#streams.size);
  }
}

function frame(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}
