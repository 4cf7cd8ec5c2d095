/**
 * GET and DELETE on the web-standard fetch handler for dispatchers with sessions (the 2025 legacy
 * wire): the GET stream is a ReadableStream that stays open until the client cancels it or the
 * dispatcher ends it.
 */
import { sseEvent, SSE_HEADERS } from './http-policy.js';
import type { EventStream, HeaderLookup, Reply, SessionEndpoint } from './message-dispatcher.js';

/** Answers one GET or DELETE through `endpoint`; `toResponse` writes refusals like every other reply. */
export async function fetchSessionRequest(endpoint: SessionEndpoint, request: Request, header: HeaderLookup, toResponse: (reply: Reply) => Response): Promise<Response> {
  const outcome = request.method === 'GET' ? await endpoint.openStream(header) : await endpoint.endSession(header);
  if (typeof outcome !== 'function') return toResponse(outcome);
  const encoder = new TextEncoder();
  const listeners: (() => void)[] = [];
  let closed = false;
  let sink: ReadableStreamDefaultController<Uint8Array> | undefined;
  const close = (): void => {
    if (closed) return;
    closed = true;
    for (const listener of listeners.splice(0)) listener();
  };
  const readable = new ReadableStream<Uint8Array>({
    start(controller) {
      sink = controller;
    },
    cancel: close,
  });
  request.signal.addEventListener('abort', close, { once: true });
  const stream: EventStream = {
    send(json, id) {
      if (closed) return false;
      sink?.enqueue(encoder.encode(sseEvent(json, id)));
      return true;
    },
    keepAlive() {
      if (!closed) sink?.enqueue(encoder.encode(': keep-alive\n\n'));
    },
    end() {
      if (!closed) sink?.close();
      close();
    },
    onClose(listener) {
      if (closed) listener();
      else listeners.push(listener);
    },
  };
  outcome(stream);
  // A client that left while the stream was being opened: ended at once, so its claim is let go.
  if (request.signal.aborted) stream.end();
  return new Response(readable, { status: 200, headers: SSE_HEADERS });
}
