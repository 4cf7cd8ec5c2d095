/**
 * GET and DELETE on node:http for dispatchers with sessions (the 2025 legacy wire): the GET
 * stream stays open until the client leaves or the dispatcher ends it.
 */
import type { ServerResponse } from 'node:http';
import { sseEvent, SSE_HEADERS, transportErrorReply } from './http-policy.js';
import type { EventStream, HeaderLookup, SessionEndpoint } from './message-dispatcher.js';
import { writeReply } from './node-http-exchange.js';

class NodeEventStream implements EventStream {
  readonly #res: ServerResponse;
  #listeners: (() => void)[] = [];
  #closed = false;

  constructor(res: ServerResponse) {
    this.#res = res;
    res.once('close', () => this.#close());
  }

  send(json: string, id?: string): boolean {
    if (this.#closed || this.#res.writableEnded) return false;
    this.#res.write(sseEvent(json, id));
    return true;
  }

  keepAlive(): void {
    if (!this.#closed && !this.#res.writableEnded) this.#res.write(': keep-alive\n\n');
  }

  end(): void {
    if (!this.#res.writableEnded) this.#res.end();
    this.#close();
  }

  onClose(listener: () => void): void {
    if (this.#closed) listener();
    else this.#listeners.push(listener);
  }

  #close(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const listener of this.#listeners.splice(0)) listener();
  }
}

/** Answers one GET or DELETE through `endpoint`. */
export function serveSessionRequest(endpoint: SessionEndpoint, method: 'GET' | 'DELETE', header: HeaderLookup, res: ServerResponse): void {
  const answer = method === 'GET' ? endpoint.openStream(header) : endpoint.endSession(header);
  answer.then(
    (outcome) => {
      if (res.writableEnded || res.destroyed) {
        // The client left while the stream was being opened: it is still handed over, already
        // ended, so that what the dispatcher took for it (the session's GET claim) is let go.
        if (typeof outcome === 'function') {
          const stream = new NodeEventStream(res);
          outcome(stream);
          stream.end();
        }
        return;
      }
      if (typeof outcome !== 'function') {
        writeReply(res, outcome);
        return;
      }
      res.writeHead(200, SSE_HEADERS);
      res.flushHeaders();
      outcome(new NodeEventStream(res));
    },
    (error: unknown) => {
      process.stderr.write(`toolwright: HTTP ${method} failed: ${error instanceof Error ? error.message : String(error)}\n`);
      if (!res.headersSent) writeReply(res, transportErrorReply(500, 'Internal error'));
      else res.end();
    },
  );
}
