/**
 * The client's default HTTP request path: the subset of `fetch` that http-connection.ts uses
 * (string or no body, redirects followed), sent with node:http/node:https over a keep-alive agent
 * of the connection's own. The global fetch (undici) spends several times the CPU per request of
 * node:http on Node 20, which made a proxied call cost most of a core at a few hundred calls per
 * second; the answer is still a standard `Response`, so the connection reads it as before.
 * Anything outside the subset (a redirect, a non-string body, a `Request`) goes to the global fetch,
 * so what a request does never depends on which path carried it.
 */
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import type { IncomingMessage, OutgoingHttpHeaders } from 'node:http';
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
    return new Promise<Response>((resolve, reject) => {
      const onAbort = (): void => {
        req.destroy();
        reject(signal?.reason);
      };
      const done = (): void => signal?.removeEventListener('abort', onAbort);
      const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
      const req = send(url, { method, headers, agent: agents[url.protocol as 'http:' | 'https:'] }, (res) => {
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
      req.once('error', (error) => {
        done();
        // The shape the global fetch rejects with, so callers read the reason from `cause` either way.
        reject(signal?.aborted === true ? signal.reason : new TypeError('fetch failed', { cause: error }));
      });
      signal?.addEventListener('abort', onAbort, { once: true });
      req.end(text);
    });
  };

  return {
    fetch: nodeFetch,
    close() {
      agents['http:'].destroy();
      agents['https:'].destroy();
    },
  };
}
