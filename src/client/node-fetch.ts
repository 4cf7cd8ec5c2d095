/**
 * The client's default HTTP request path: the subset of `fetch` that http-connection.ts uses
 * (string or no body, redirects followed), sent with node:http/node:https over a keep-alive agent
 * of the connection's own. The global fetch (undici) spends about twice the CPU per request of
 * node:http on Node 20; a proxied call spent most of the front's time there. The answer is still a
 * standard `Response`, so the connection reads it as before. Anything outside the subset (a
 * redirect, a non-string body, a `Request`) goes to the global fetch, so what a request does never
 * depends on which path carried it.
 *
 * Stale keep-alive sockets: a server may close an idle connection just as the client writes the
 * next request on it (the close and the request cross on the wire). The request then fails with a
 * reset before any byte of an answer, and the server never read it. Such a request, and only such
 * a request, is sent once more on a new socket: tools/call is not idempotent, so a request is never
 * sent again once any byte of its answer has arrived, nor when its socket was new.
 */
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import type { ClientRequest, IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';

/** A fetch over node:http with its own connection pool; `close()` ends the pool's idle sockets. */
export interface NodeFetch {
  fetch: typeof fetch;
  close(): void;
}

const REDIRECTS: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);
/** Statuses whose response has no body (fetch gives them a null body). */
const NULL_BODY: ReadonlySet<number> = new Set([101, 103, 204, 205, 304]);
/** How a connection the server closed under a request shows: a reset, a write to a closed socket, a hang-up. */
const CLOSED_UNDER_REQUEST: ReadonlySet<string> = new Set(['ECONNRESET', 'EPIPE']);

/** The response body as decoded bytes, as fetch decodes them. */
function decoded(res: IncomingMessage): Readable {
  const coding = (res.headers['content-encoding'] ?? '').trim().toLowerCase();
  const decoder = coding === 'gzip' || coding === 'x-gzip' ? createGunzip() : coding === 'deflate' ? createInflate() : coding === 'br' ? createBrotliDecompress() : undefined;
  if (decoder === undefined) return res;
  res.on('error', (error) => decoder.destroy(error));
  return res.pipe(decoder);
}

/**
 * A web stream over a node stream, with backpressure: the node stream is paused while the web
 * stream's queue is full. Written out because `Readable.toWeb` costs more per response on Node 20.
 */
function webStreamOf(source: Readable): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        let ended = false;
        const fail = (error: Error): void => {
          if (!ended) controller.error(error);
          ended = true;
        };
        source.on('data', (chunk: Buffer) => {
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((controller.desiredSize ?? 1) <= 0) source.pause();
        });
        source.once('end', () => {
          if (!ended) controller.close();
          ended = true;
        });
        source.on('error', fail);
        // A destroyed socket (abort, peer reset) may close the stream without 'end' or 'error': the body broke off.
        source.once('close', () => fail(source.errored ?? new Error('the response body was cut off')));
      },
      pull() {
        source.resume();
      },
      cancel() {
        source.destroy();
      },
    },
    { highWaterMark: 64 * 1024, size: (chunk) => chunk.byteLength },
  );
}

/** A `Response` for a node response; its body streams as the bytes arrive. */
function responseOf(res: IncomingMessage, method: string): Response {
  const headers = new Headers();
  const raw = res.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
  const status = res.statusCode ?? 0;
  if (NULL_BODY.has(status) || method === 'HEAD') {
    res.resume();
    return new Response(null, { status, statusText: res.statusMessage ?? '', headers });
  }
  return new Response(webStreamOf(decoded(res)), { status, statusText: res.statusMessage ?? '', headers });
}

/**
 * Was `req` written on a pooled socket that the server closed before any byte of an answer came
 * back? Then the server never took the request, and sending it again cannot run anything twice.
 */
function closedWhileIdle(req: ClientRequest, error: unknown, answered: boolean, bytesReadBefore: number | undefined): boolean {
  if (answered || !req.reusedSocket || bytesReadBefore === undefined) return false;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && CLOSED_UNDER_REQUEST.has(code) && (req.socket?.bytesRead ?? bytesReadBefore) === bytesReadBefore;
}

/** Creates a fetch over node:http with a keep-alive pool of its own (one per connection). */
export function createNodeFetch(): NodeFetch {
  // Unlimited sockets per origin, as the global fetch allows: the callers bound their own concurrency.
  const agents = { 'http:': new HttpAgent({ keepAlive: true }), 'https:': new HttpsAgent({ keepAlive: true }) };

  const nodeFetch = (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const url = typeof input === 'string' ? new URL(input) : input instanceof URL ? input : undefined;
    const body = init.body;
    if (url === undefined || (body !== undefined && body !== null && typeof body !== 'string') || (init.redirect !== undefined && init.redirect !== 'follow') || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
      return fetch(input, init);
    }
    const signal = init.signal ?? undefined;
    if (signal?.aborted) return Promise.reject(signal.reason);
    const method = (init.method ?? 'GET').toUpperCase();
    // Built as fetch builds them, so an invalid header is refused with the same TypeError.
    const headers: OutgoingHttpHeaders = {};
    new Headers(init.headers).forEach((value, name) => {
      headers[name] = value;
    });
    const text = typeof body === 'string' ? body : undefined;
    if (text !== undefined) headers['content-length'] = Buffer.byteLength(text);
    const protocol = url.protocol as 'http:' | 'https:';
    const send = protocol === 'https:' ? httpsRequest : httpRequest;

    /** One attempt; `pooled` false is the one resend, on a socket of its own. */
    const attempt = (pooled: boolean): Promise<Response> =>
      new Promise<Response>((resolve, reject) => {
        let answered = false;
        let failed = false;
        let bytesReadBefore: number | undefined;
        const onAbort = (): void => {
          req.destroy();
          reject(signal?.reason);
        };
        const done = (): void => signal?.removeEventListener('abort', onAbort);
        // `agent: false` gives the resend a new socket that is closed after it, outside the pool.
        const req = send(url, { method, headers, agent: pooled ? agents[protocol] : false }, (res) => {
          answered = true;
          if (REDIRECTS.has(res.statusCode ?? 0) && res.headers.location !== undefined) {
            // The server did not take the request here: the global fetch sends it again and follows the redirect as fetch does.
            done();
            res.resume();
            resolve(fetch(input, init));
            return;
          }
          // Aborting later destroys the socket, which breaks the body off (how a request is cancelled over HTTP).
          if (signal !== undefined) {
            signal.removeEventListener('abort', onAbort);
            const cut = (): void => void res.destroy(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
            signal.addEventListener('abort', cut, { once: true });
            res.once('close', () => signal.removeEventListener('abort', cut));
          }
          resolve(responseOf(res, method));
        });
        // What the socket had read before this request: a later count above it means an answer began.
        req.once('socket', (socket) => {
          bytesReadBefore = socket.bytesRead;
        });
        req.on('error', (error) => {
          // A socket can report more than one error; the first decides.
          if (failed) return;
          failed = true;
          done();
          if (signal?.aborted === true) return reject(signal.reason);
          if (pooled && closedWhileIdle(req, error, answered, bytesReadBefore)) return resolve(attempt(false));
          // The shape the global fetch rejects with, so callers read the reason from `cause` either way.
          reject(new TypeError('fetch failed', { cause: error }));
        });
        signal?.addEventListener('abort', onAbort, { once: true });
        req.end(text);
      });

    return attempt(true);
  };

  return {
    fetch: nodeFetch,
    close() {
      agents['http:'].destroy();
      agents['https:'].destroy();
    },
  };
}
