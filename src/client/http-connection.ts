import { createHash } from 'node:crypto';
import { isJsonObject, isJsonRpcId } from '../protocol/index.js';
import type { JsonRpcNotification, JsonRpcRequest, JsonRpcResponse } from '../protocol/index.js';
import { McpClientError } from './client-error.js';
import { errorForServerRequest } from './connection.js';
import type { Connection, ConnectionHandlers, LegacySession, ReceivedResponse, SendOptions, ServerRequestHandler } from './connection.js';
import { SseReader } from './sse-reader.js';
import type { OAuthClient } from './oauth/oauth-client.js';
import { answerOfResponse, createNodeFetch } from './node-fetch.js';
import type { HttpAnswer } from './node-fetch.js';
import { refusalResponse } from './refusals.js';

/** Streamable HTTP target. */
export interface HttpTarget {
  url: string | URL;
  /** Sent on every request (e.g. `Authorization: Bearer ...`, R-89). */
  headers?: Record<string, string>;
  /** A fetch implementation (default: node:http with a keep-alive pool of the connection's own, see node-fetch.ts). */
  fetch?: typeof fetch;
  /** Largest JSON body or single SSE event accepted, in bytes (default 16 MiB); more is a protocol error. */
  maxMessageBytes?: number;
  /** Runs the OAuth flow when the server asks for authorization (`createOAuthClient`); adds its bearer token to every request. */
  oauth?: OAuthClient;
}

const BODY_EXCERPT = 300;
/** How long close() waits for the DELETE that ends a legacy session. */
const DELETE_TIMEOUT_MS = 2000;
/** How long a notification or an answer to a server request may take to be acknowledged. */
const POST_BACK_TIMEOUT_MS = 10_000;
/** Most server-to-client requests answered at once; more are refused so a flood cannot pile up work. */
const MAX_SERVER_REQUESTS = 32;
/** How often one request's legacy stream is resumed (GET + Last-Event-ID) before giving up. */
const MAX_RESUMPTIONS = 5;
/** The reconnection delay when the server gave no `retry` (the SSE default is the client's choice). */
const DEFAULT_RETRY_MS = 1000;
/** The longest `retry` honoured, so a hostile server cannot park a call. */
const MAX_RETRY_MS = 30_000;

/** An open request: its options, and how close() aborts it. */
interface InFlight {
  readonly options: SendOptions;
  readonly abort: (reason: unknown) => void;
}

function isServerRequest(value: unknown): value is JsonRpcRequest {
  return isJsonObject(value) && value.jsonrpc === '2.0' && typeof value.method === 'string' && 'id' in value && isJsonRpcId(value.id);
}

function isResponse(value: unknown): value is JsonRpcResponse {
  return isJsonObject(value) && value.jsonrpc === '2.0' && ('result' in value || 'error' in value) && !('method' in value);
}

function isNotification(value: unknown): value is JsonRpcNotification {
  return isJsonObject(value) && value.jsonrpc === '2.0' && typeof value.method === 'string' && !('id' in value);
}

function excerpt(text: string): string {
  const trimmed = text.trim();
  return trimmed.length > BODY_EXCERPT ? `${trimmed.slice(0, BODY_EXCERPT)}...` : trimmed;
}

function networkReason(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}

/**
 * POSTs each request to the one MCP endpoint; the answer is either one JSON body or an SSE stream
 * scoped to the request (notifications first, the response last). Aborting the fetch closes the
 * stream, which is how 2026-07-28 cancels a request over HTTP.
 */
export function createHttpConnection(target: HttpTarget): Connection {
  const url = new URL(target.url);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new McpClientError('usage', `unsupported URL scheme ${url.protocol} (use http: or https:)`);
  const pool = target.fetch === undefined ? createNodeFetch() : undefined;
  const baseFetch: typeof fetch = target.fetch ?? pool?.fetch ?? fetch;
  const doFetch = target.oauth === undefined ? baseFetch : target.oauth.wrapFetch(baseFetch);
  // A request's answer: straight from the pool when nothing wraps the fetch (no Response built), else from the fetch in use.
  const ask = pool !== undefined && target.oauth === undefined ? pool.answer : async (input: URL, init: RequestInit): Promise<HttpAnswer> => answerOfResponse(await doFetch(input, init));
  const maxBytes = target.maxMessageBytes ?? 16 * 1024 * 1024;
  const fixedHeaders = { ...(target.headers ?? {}) };
  const authorization = Object.entries(fixedHeaders).filter(([name]) => ['authorization', 'cookie'].includes(name.toLowerCase())).map(([n, v]) => `${n.toLowerCase()}=${v}`).join('\n');
  const authContext = target.oauth !== undefined ? `oauth:${target.oauth.id}` : authorization === '' ? 'anonymous' : createHash('sha256').update(authorization).digest('hex');
  let closed = false;
  /** Open requests, with the handler for server requests that belong to them. */
  const inFlight = new Set<InFlight>();
  let handlers: ConnectionHandlers = {};
  let session: LegacySession | undefined;
  let listening: AbortController | undefined;
  let serverRequests = 0;

  /** The legacy session's headers, on every request after `initialize` (2025-06-18+ HTTP). */
  function sessionHeaders(): Record<string, string> {
    if (session === undefined) return {};
    return { 'MCP-Protocol-Version': session.protocolVersion, ...(session.sessionId !== undefined ? { 'Mcp-Session-Id': session.sessionId } : {}) };
  }

  /** POSTs a notification or a response; the server acknowledges with 202 and no body. */
  async function postBack(message: JsonRpcNotification | JsonRpcResponse, headers: Record<string, string>, signal: AbortSignal): Promise<void> {
    const response = await doFetch(url, {
      method: 'POST',
      headers: { ...fixedHeaders, ...headers, ...sessionHeaders(), 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify(message),
      signal: AbortSignal.any([signal, AbortSignal.timeout(POST_BACK_TIMEOUT_MS)]),
    });
    await response.body?.cancel().catch(() => {});
  }

  /** Answers a server-to-client request by POSTing the response back to the endpoint. */
  function answer(request: JsonRpcRequest, handler: ServerRequestHandler | undefined, signal: AbortSignal): void {
    const reply = (message: JsonRpcResponse): void => {
      postBack(message, {}, new AbortController().signal).catch(() => {
        // The server gave up on the request or went away; the call that needed it reports that.
      });
    };
    if (handler === undefined) return reply(refusalResponse(request.id, 'notAnswered', `the client does not answer ${request.method}`));
    if (serverRequests >= MAX_SERVER_REQUESTS) return reply(refusalResponse(request.id, 'tooManyRequests', `the client is already answering ${MAX_SERVER_REQUESTS} requests`));
    serverRequests++;
    handler(request, signal)
      .then(
        (result) => reply({ jsonrpc: '2.0', id: request.id, result }),
        (error: unknown) => reply({ jsonrpc: '2.0', id: request.id, error: errorForServerRequest(error) }),
      )
      .finally(() => {
        serverRequests--;
      });
  }

  async function send(request: JsonRpcRequest, options: SendOptions): Promise<ReceivedResponse> {
    if (closed) throw new McpClientError('closed', 'the client is closed', { method: request.method });
    // The caller's own controller when it gave one (the client's per-request deadline does), else
    // one of ours that follows the caller's signal: either way close() can abort the request.
    const own = options.abort === undefined ? new AbortController() : undefined;
    const signal = own === undefined ? options.signal : own.signal;
    const entry: InFlight = { options, abort: own === undefined ? options.abort! : (reason) => own.abort(reason) };
    inFlight.add(entry);
    const onAbort = (): void => own?.abort(options.signal.reason);
    if (own !== undefined) {
      if (options.signal.aborted) onAbort();
      else options.signal.addEventListener('abort', onAbort, { once: true });
    }
    const aborted = (): never => {
      if (closed) throw new McpClientError('closed', 'the client was closed while the request ran', { method: request.method });
      throw options.signal.reason;
    };
    try {
      let response: HttpAnswer;
      try {
        response = await ask(url, {
          method: 'POST',
          headers: { ...fixedHeaders, ...options.headers, ...sessionHeaders(), 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          body: JSON.stringify(request),
          signal,
        });
      } catch (error) {
        if (signal.aborted) aborted();
        // The OAuth flow's own failures (kind `auth`) are reported as they are.
        if (error instanceof McpClientError) throw new McpClientError(error.kind, `${request.method}: ${error.message}`, { method: request.method, httpStatus: error.httpStatus, data: error.data, cause: error });
        throw new McpClientError('transport', `cannot reach ${url.href}: ${networkReason(error)}`, { method: request.method, cause: error });
      }
      const status = response.status;
      const sessionId = response.header('mcp-session-id');
      const withSession = (received: ReceivedResponse): ReceivedResponse => (sessionId === undefined ? received : { ...received, sessionId });
      const type = (response.header('content-type') ?? '').toLowerCase();
      const stream = type.startsWith('text/event-stream') ? response.stream() : null;
      if (stream !== null) return withSession(await readStream(stream, request, options, status, signal, aborted));
      let text: string;
      try {
        text = await readBounded(response, request.method, status);
      } catch (error) {
        if (error instanceof McpClientError) throw error;
        if (signal.aborted) aborted();
        throw new McpClientError('transport', `${request.method}: the response body broke off: ${networkReason(error)}`, { method: request.method, httpStatus: status, cause: error });
      }
      let parsed: unknown;
      try {
        parsed = text === '' ? undefined : JSON.parse(text);
      } catch {
        parsed = undefined;
      }
      if (isResponse(parsed) && (!('id' in parsed) || parsed.id === request.id || !isJsonRpcId(parsed.id) || 'error' in parsed)) {
        return withSession({ message: parsed, httpStatus: status });
      }
      if (status < 200 || status >= 300) {
        throw new McpClientError('http', `${request.method}: HTTP ${status}${text.trim() === '' ? ' with an empty body' : `: ${excerpt(text)}`}`, { method: request.method, httpStatus: status, data: text === '' ? undefined : excerpt(text) });
      }
      throw new McpClientError('protocol', `${request.method}: HTTP ${status} answered with ${type === '' ? 'no content type' : type} and no JSON-RPC response${text.trim() === '' ? '' : `: ${excerpt(text)}`}`, { method: request.method, httpStatus: status });
    } finally {
      if (own !== undefined) options.signal.removeEventListener('abort', onAbort);
      inFlight.delete(entry);
    }
  }

  async function readBounded(response: HttpAnswer, method: string, status: number): Promise<string> {
    const text = await response.text(maxBytes);
    if (text === undefined) throw new McpClientError('protocol', `${method}: the response body exceeds ${maxBytes} bytes`, { method, httpStatus: status });
    return text;
  }

  /**
   * Reads a request's SSE stream up to its response. A legacy (2025-11-25) server may close the
   * stream early after giving event ids: the client then waits the server's `retry` delay and
   * resumes with GET and `Last-Event-ID`, a bounded number of times.
   */
  async function readStream(
    body: ReadableStream<Uint8Array>,
    request: JsonRpcRequest,
    options: SendOptions,
    status: number,
    signal: AbortSignal,
    aborted: () => never,
  ): Promise<ReceivedResponse> {
    const sse = new SseReader();
    let stream: ReadableStream<Uint8Array> | undefined = body;
    for (let resumed = 0; stream !== undefined; resumed++) {
      const answered = await readOneStream(stream, sse, request, options, status, signal, aborted);
      if (answered !== undefined) return answered;
      const lastEventId = sse.lastEventId;
      if (session === undefined || lastEventId === undefined || resumed >= MAX_RESUMPTIONS) break;
      stream = await resume(lastEventId, sse.retryMs ?? DEFAULT_RETRY_MS, request, signal, aborted);
    }
    throw new McpClientError('transport', `${request.method}: the event stream ended before the response (re-issue the request with a new id)`, { method: request.method, httpStatus: status });
  }

  /** Waits `delayMs` (the server's `retry`), then GETs the stream again from `lastEventId`; undefined when the server will not resume. */
  async function resume(lastEventId: string, delayMs: number, request: JsonRpcRequest, signal: AbortSignal, aborted: () => never): Promise<ReadableStream<Uint8Array> | undefined> {
    await new Promise<void>((done) => {
      const timer = setTimeout(done, Math.min(delayMs, MAX_RETRY_MS));
      signal.addEventListener('abort', () => {
        clearTimeout(timer);
        done();
      }, { once: true });
    });
    if (signal.aborted) aborted();
    let response: Response;
    try {
      response = await doFetch(url, { method: 'GET', headers: { ...fixedHeaders, ...sessionHeaders(), accept: 'text/event-stream', 'Last-Event-ID': lastEventId }, signal });
    } catch (error) {
      if (signal.aborted) aborted();
      throw new McpClientError('transport', `${request.method}: cannot resume the event stream: ${networkReason(error)}`, { method: request.method, cause: error });
    }
    if (!response.ok || response.body === null || !(response.headers.get('content-type') ?? '').toLowerCase().startsWith('text/event-stream')) {
      await response.body?.cancel().catch(() => {});
      return undefined;
    }
    return response.body;
  }

  /** One stream's events; resolves to the response, or undefined when the stream ended without it. */
  async function readOneStream(
    body: ReadableStream<Uint8Array>,
    sse: SseReader,
    request: JsonRpcRequest,
    options: SendOptions,
    status: number,
    signal: AbortSignal,
    aborted: () => never,
  ): Promise<ReceivedResponse | undefined> {
    const reader = body.getReader();
    const decoder = new TextDecoder();
    try {
      for (;;) {
        let chunk: ReadableStreamReadResult<Uint8Array>;
        try {
          chunk = await reader.read();
        } catch (error) {
          if (signal.aborted) aborted();
          throw new McpClientError('transport', `${request.method}: the event stream broke off before the response: ${networkReason(error)}`, { method: request.method, httpStatus: status, cause: error });
        }
        if (chunk.done) return undefined;
        const events = sse.push(decoder.decode(chunk.value, { stream: true }));
        if (sse.pendingLength > maxBytes) throw new McpClientError('protocol', `${request.method}: an event on the stream exceeds ${maxBytes} bytes`, { method: request.method, httpStatus: status });
        for (const data of events) {
          // A 2025-11-25 server primes a resumable stream with an event id and empty data: nothing to read.
          if (data.trim() === '') continue;
          let message: unknown;
          try {
            message = JSON.parse(data);
          } catch {
            throw new McpClientError('protocol', `${request.method}: an event on the stream is not JSON: ${excerpt(data)}`, { method: request.method, httpStatus: status });
          }
          if (isNotification(message)) {
            options.onNotification(message);
            continue;
          }
          if (isResponse(message) && (message.id === request.id || ('error' in message && !('id' in message)))) return { message, httpStatus: status };
          // A legacy-era server asks for input on the stream of the call that needs it.
          if (isServerRequest(message)) {
            answer(message, options.onRequest ?? handlers.onRequest, options.signal);
            continue;
          }
          // Anything else (a response to another id) does not belong on this stream; it is skipped.
        }
      }
    } finally {
      // Closing the reader closes the stream: after the response, and on abort (= cancellation).
      reader.cancel().catch(() => {});
    }
  }

  /** The legacy GET stream: server notifications and requests that belong to no call. Not reopened once it ends. */
  async function readListenStream(controller: AbortController): Promise<void> {
    const response = await doFetch(url, { method: 'GET', headers: { ...fixedHeaders, ...sessionHeaders(), accept: 'text/event-stream' }, signal: controller.signal });
    // 405: the server offers no GET stream, which the legacy revisions allow.
    if (!response.ok || response.body === null || !(response.headers.get('content-type') ?? '').toLowerCase().startsWith('text/event-stream')) {
      await response.body?.cancel().catch(() => {});
      return;
    }
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    const sse = new SseReader();
    try {
      for (;;) {
        const chunk = await reader.read();
        if (chunk.done) return;
        const events = sse.push(decoder.decode(chunk.value, { stream: true }));
        // An event without end would grow without bound: drop the stream instead.
        if (sse.pendingLength > maxBytes) return;
        for (const data of events) {
          let message: unknown;
          try {
            message = JSON.parse(data);
          } catch {
            continue;
          }
          if (isNotification(message)) handlers.onNotification?.(message);
          else if (isServerRequest(message)) {
            // Servers that send a call's input request on the GET stream (no related request id) leave only
            // one guess: the single open request that takes input, else the client-level handler.
            const owners = [...inFlight].map((entry) => entry.options).filter((options) => options.onRequest !== undefined);
            const owner = owners.length === 1 ? owners[0] : undefined;
            answer(message, owner?.onRequest ?? handlers.onRequest, owner?.signal ?? controller.signal);
          }
        }
      }
    } finally {
      reader.cancel().catch(() => {});
    }
  }

  return {
    kind: 'http',
    identity: url.href,
    authContext,
    send,
    async notify(notification, options) {
      if (closed) throw new McpClientError('closed', 'the client is closed', { method: notification.method });
      try {
        await postBack(notification, options.headers, options.signal);
      } catch (error) {
        throw new McpClientError('transport', `${notification.method}: cannot reach ${url.href}: ${networkReason(error)}`, { method: notification.method, cause: error });
      }
    },
    setHandlers(next) {
      handlers = next;
    },
    setLegacySession(next) {
      session = { ...next };
    },
    listen() {
      if (closed || session === undefined || listening !== undefined) return;
      const controller = new AbortController();
      listening = controller;
      readListenStream(controller).catch(() => {
        // The stream is optional; calls keep working without it.
      });
    },
    async close() {
      if (closed) return;
      closed = true;
      listening?.abort();
      for (const entry of inFlight) entry.abort(new McpClientError('closed', 'the client was closed'));
      // A legacy session is ended explicitly so the server can free it (2025-06-18 HTTP, "Session Management").
      if (session?.sessionId !== undefined) {
        await doFetch(url, { method: 'DELETE', headers: { ...fixedHeaders, ...sessionHeaders() }, signal: AbortSignal.timeout(DELETE_TIMEOUT_MS) })
          .then((response) => response.body?.cancel())
          .catch(() => {});
      }
      // The pool's idle keep-alive sockets go with the connection.
      pool?.close();
    },
  };
}
