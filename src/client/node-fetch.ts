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
import type { ClientRequest, IncomingMessage, OutgoingHttpHeaders, RequestOptions } from 'node:http';
import { urlToHttpOptions } from 'node:url';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { readBodyText } from '../protocol/bounded-body.js';

/** A fetch over node:http with its own connection pool; `close()` ends the pool's idle sockets. */
export interface NodeFetch {
  fetch: typeof fetch;
  /** The same request path, answering with an {@link HttpAnswer} instead of a `Response`. */
  answer(input: URL, init: RequestInit): Promise<HttpAnswer>;
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
        // (The Error is made only then: capturing its stack on every close was a visible share of a call.)
        source.once('close', () => {
          if (!ended) fail(source.errored ?? new Error('the response body was cut off'));
        });
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
 * An HTTP answer as http-connection.ts reads it, whichever path carried it: node:http hands the body
 * over without building a `Response`, `Headers` and a web stream per answer (on Node 20 each web
 * stream is made transferable, which alone cost more than the rest of reading a small JSON answer).
 */
export interface HttpAnswer {
  readonly status: number;
  /** A response header (lower-case name), or undefined. */
  header(name: string): string | undefined;
  /** The body as a web stream (how an event stream is read); null when the answer has none. Read the body once, by this or `text`. */
  stream(): ReadableStream<Uint8Array> | null;
  /** The whole body as UTF-8 text, or undefined as soon as it exceeds `maxBytes` (the rest is not read); rejects when the body breaks off. */
  text(maxBytes: number): Promise<string | undefined>;
}

/** A fetch `Response` read as an {@link HttpAnswer}. */
export function answerOfResponse(response: Response): HttpAnswer {
  return {
    status: response.status,
    header: (name) => response.headers.get(name) ?? undefined,
    stream: () => response.body,
    text: (maxBytes) => readBodyText(response, maxBytes),
  };
}

/** The decoded body as text, bounded: undefined once over `maxBytes`, rejected when it breaks off. */
function readText(source: Readable, maxBytes: number): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    source.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        settled = true;
        resolve(undefined);
        source.destroy();
        return;
      }
      chunks.push(chunk);
    });
    source.once('end', () => {
      settled = true;
      resolve(Buffer.concat(chunks).toString('utf8'));
    });
    source.once('error', (error) => {
      settled = true;
      reject(error);
    });
    // Closed before its end: the body was cut off (abort, peer reset). The Error is made only then.
    source.once('close', () => {
      if (!settled) reject(source.errored ?? new Error('the response body was cut off'));
    });
  });
}

/** A node response as an {@link HttpAnswer}. */
function answerOf(res: IncomingMessage, method: string): HttpAnswer {
  const noBody = NULL_BODY.has(res.statusCode ?? 0) || method === 'HEAD';
  if (noBody) res.resume();
  return {
    status: res.statusCode ?? 0,
    header: (name) => {
      const value = res.headers[name];
      return Array.isArray(value) ? value.join(', ') : value;
    },
    stream: () => (noBody ? null : webStreamOf(decoded(res))),
    text: (maxBytes) => (noBody ? Promise.resolve('') : readText(decoded(res), maxBytes)),
  };
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

/** A header name as fetch accepts it (an HTTP token). */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** What fetch would change or refuse in a value: surrounding HTTP whitespace, NUL/CR/LF, a char over 0xFF. */
const NOT_AS_IS = /^[\t\n\r ]|[\t\n\r ]$|[\0\r\n]|[^\0-\xFF]/;

/**
 * The request headers as fetch sends them: names lower-cased, values normalised, an invalid header
 * refused with fetch's own TypeError. A plain record of valid string headers with distinct names
 * (what http-connection.ts passes on every request) is copied as it is: that is exactly what
 * `new Headers()` makes of it, without building one (a visible share of a proxied call's CPU).
 * Anything else goes through `Headers`, so what is sent never depends on which branch built it.
 */
function requestHeaders(given: RequestInit['headers']): OutgoingHttpHeaders {
  if (given !== undefined && given !== null && Object.getPrototypeOf(given) === Object.prototype) {
    const record = given as Record<string, unknown>;
    // No prototype: a header named `constructor` or `__proto__` is a header like any other.
    const headers = Object.create(null) as OutgoingHttpHeaders;
    let asIs = true;
    for (const name in record) {
      const value = record[name];
      const lower = name.toLowerCase();
      if (typeof value !== 'string' || !TOKEN.test(name) || NOT_AS_IS.test(value) || lower in headers) {
        asIs = false;
        break;
      }
      headers[lower] = value;
    }
    if (asIs) return headers;
  }
  const headers: OutgoingHttpHeaders = {};
  new Headers(given).forEach((value, name) => {
    headers[name] = value;
  });
  return headers;
}

/** The request options of a URL (what node:http derives from it on every call), worked out once per URL. */
const targets = new Map<string, RequestOptions>();
const MAX_TARGETS = 64;

function targetOf(url: URL): RequestOptions {
  const href = url.href;
  let target = targets.get(href);
  if (target === undefined) {
    target = urlToHttpOptions(url);
    if (targets.size >= MAX_TARGETS) targets.clear();
    targets.set(href, target);
  }
  return target;
}

/** Creates a fetch over node:http with a keep-alive pool of its own (one per connection). */
export function createNodeFetch(): NodeFetch {
  // Unlimited sockets per origin, as the global fetch allows: the callers bound their own concurrency.
  const agents = { 'http:': new HttpAgent({ keepAlive: true }), 'https:': new HttpsAgent({ keepAlive: true }) };

  /**
   * Sends one request; `build` makes the answer from the node response, `viaFetch` is the global
   * fetch's answer for what this path does not carry (and for a redirect).
   */
  function request<T>(input: string | URL | Request, init: RequestInit, build: (res: IncomingMessage, method: string) => T, viaFetch: () => Promise<T>): Promise<T> {
    const url = typeof input === 'string' ? new URL(input) : input instanceof URL ? input : undefined;
    const body = init.body;
    if (url === undefined || (body !== undefined && body !== null && typeof body !== 'string') || (init.redirect !== undefined && init.redirect !== 'follow') || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
      return viaFetch();
    }
    const signal = init.signal ?? undefined;
    if (signal?.aborted) return Promise.reject(signal.reason);
    const method = (init.method ?? 'GET').toUpperCase();
    let headers: OutgoingHttpHeaders;
    try {
      headers = requestHeaders(init.headers);
    } catch (error) {
      // Refused as fetch refuses it: a rejected promise, never a throw.
      return Promise.reject(error);
    }
    const text = typeof body === 'string' ? body : undefined;
    if (text !== undefined) headers['content-length'] = Buffer.byteLength(text);
    const protocol = url.protocol as 'http:' | 'https:';
    const send = protocol === 'https:' ? httpsRequest : httpRequest;

    /** One attempt; `pooled` false is the one resend, on a socket of its own. */
    const attempt = (pooled: boolean): Promise<T> =>
      new Promise<T>((resolve, reject) => {
        let answered = false;
        let failed = false;
        let bytesReadBefore: number | undefined;
        let response: IncomingMessage | undefined;
        // One listener for the whole request: before the answer, aborting destroys the request and
        // rejects; after, it destroys the answer, which breaks its body off (how a request is
        // cancelled over HTTP).
        const onAbort = (): void => {
          if (response === undefined) {
            req.destroy();
            reject(signal?.reason);
          } else {
            response.destroy(signal?.reason instanceof Error ? signal.reason : new Error('aborted'));
          }
        };
        const done = (): void => signal?.removeEventListener('abort', onAbort);
        // `agent: false` gives the resend a new socket that is closed after it, outside the pool.
        const req = send({ ...targetOf(url), method, headers, agent: pooled ? agents[protocol] : false }, (res) => {
          answered = true;
          if (REDIRECTS.has(res.statusCode ?? 0) && res.headers.location !== undefined) {
            // The server did not take the request here: the global fetch sends it again and follows the redirect as fetch does.
            done();
            res.resume();
            resolve(viaFetch());
            return;
          }
          if (signal !== undefined) {
            response = res;
            res.once('close', done);
          }
          resolve(build(res, method));
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
  }

  return {
    fetch: (input, init = {}) => request(input, init, responseOf, () => fetch(input, init)),
    answer: (input, init) => request(input, init, answerOf, async () => answerOfResponse(await fetch(input, init))),
    close() {
      agents['http:'].destroy();
      agents['https:'].destroy();
    },
  };
}
