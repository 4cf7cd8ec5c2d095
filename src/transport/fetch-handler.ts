import { echoExactId } from '../protocol/json-rpc.js';
import type { JsonRpcNotification } from '../protocol/json-rpc.js';
import { resolveHttpPolicy, sseEvent, SSE_HEADERS, transportErrorReply } from './http-policy.js';
import type { HttpOptions } from './http-policy.js';
import type { HeaderLookup, MessageDispatcher, Reply, SessionEndpoint } from './message-dispatcher.js';
import { fetchSessionRequest } from './fetch-session.js';
import { limitResponse } from './response-limit.js';

function toResponse(reply: Reply): Response {
  const headers = new Headers(reply.headers);
  if (reply.body !== undefined) headers.set('Content-Type', 'application/json');
  return new Response(reply.body ?? null, { status: reply.status, headers });
}

async function readBody(request: Request, limit: number): Promise<Uint8Array | undefined> {
  if (request.body === null) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return chunks[0];
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

/**
 * The same server as a web-standard `(Request) => Promise<Response>` handler (Deno, Bun, workers,
 * or node with any router). Shares the pipeline with `listen()`.
 */
export function createFetchHandler(dispatcher: MessageDispatcher, options: HttpOptions = {}): (request: Request) => Promise<Response> {
  const policy = resolveHttpPolicy(options);
  const sessions = (dispatcher as { sessions?: SessionEndpoint }).sessions;
  const encoder = new TextEncoder();
  return async (request) => {
    const header: HeaderLookup = (name) => request.headers.get(name) ?? undefined;
    const pathname = new URL(request.url).pathname;
    const metadata = policy.wellKnown(request.method, pathname);
    if (metadata !== undefined) return toResponse(metadata);
    const refused = policy.preflight(request.method, pathname, header, sessions !== undefined);
    if (refused !== undefined) return toResponse(refused);
    if (sessions !== undefined && request.method !== 'POST') return fetchSessionRequest(sessions, request, header, toResponse);
    const body = await readBody(request, policy.maxBodyBytes);
    if (body === undefined) return toResponse(transportErrorReply(413, `Payload too large: the limit is ${policy.maxBodyBytes} bytes`));
    const controller = new AbortController();
    const onAbort = (): void => controller.abort();
    if (request.signal.aborted) controller.abort();
    else request.signal.addEventListener('abort', onAbort, { once: true });
    return new Promise<Response>((resolve) => {
      let stream: ReadableStreamDefaultController<Uint8Array> | undefined;
      const event = (json: string, id: string | undefined): boolean => {
        if (controller.signal.aborted) return false;
        if (stream === undefined) {
          const readable = new ReadableStream<Uint8Array>({
            start(c) {
              stream = c;
            },
            cancel() {
              controller.abort();
            },
          });
          resolve(new Response(readable, { status: 200, headers: SSE_HEADERS }));
        }
        stream!.enqueue(encoder.encode(sseEvent(limitResponse(json, policy.maxResponseBytes), id)));
        return true;
      };
      const notify = (notification: JsonRpcNotification): void => void event(JSON.stringify(notification), undefined);
      dispatcher.handleMessage({ body, transport: 'http', header, signal: controller.signal, isAborted: () => controller.signal.aborted, notify, notifyEvent: event }).then(
        (answer) => {
          request.signal.removeEventListener('abort', onAbort);
          // The same hard cap as listen(): an answer over maxResponseBytes becomes an error saying so.
          const reply = answer.body === undefined ? answer : { ...answer, body: limitResponse(echoExactId(body, answer.body), policy.maxResponseBytes) };
          if (stream !== undefined) {
            if (!controller.signal.aborted) {
              const events = answer.events?.map((json) => limitResponse(json, policy.maxResponseBytes)) ?? (reply.body === undefined ? [] : [reply.body]);
              for (const [i, json] of events.entries()) stream.enqueue(encoder.encode(sseEvent(json, answer.eventIds?.[i])));
              stream.close();
            }
            return;
          }
          resolve(toResponse(reply));
        },
        () => {
          if (stream !== undefined) stream.error(new Error('internal error'));
          else resolve(toResponse(transportErrorReply(500, 'Internal error')));
        },
      );
    });
  };
}
