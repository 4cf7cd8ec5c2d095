import type { IncomingMessage, ServerResponse } from 'node:http';
import { echoExactId } from '../protocol/json-rpc.js';
import type { JsonRpcNotification } from '../protocol/json-rpc.js';
import { sseEvent, SSE_HEADERS, transportErrorReply } from './http-policy.js';
import type { HttpPolicy } from './http-policy.js';
import type { HeaderLookup, InboundMessage, MessageDispatcher, Reply, SessionEndpoint } from './message-dispatcher.js';
import { serveSessionRequest } from './node-http-session.js';
import { countHostHeaders } from './host-header.js';
import { limitResponse } from './response-limit.js';
import { drainRefusedBody } from './refused-body.js';

/**
 * A client that does not read its answer within `ms` is disconnected: the answer's bytes are not
 * kept in memory for it indefinitely (backpressure: nothing more is produced for it meanwhile).
 */
function dropIfUnread(res: ServerResponse, ms: number): void {
  // Nothing left here once every byte is with the kernel (the usual case for a small answer): no
  // timer then. `writableLength` counts what the response and its socket still hold.
  if (res.writableFinished || (res.socket !== null && res.writableLength === 0)) return;
  const timer = setTimeout(() => res.destroy(), ms);
  timer.unref();
  res.once('close', () => clearTimeout(timer));
  res.once('finish', () => clearTimeout(timer));
}

/** Writes one complete JSON reply (or an empty one). */
export function writeReply(res: ServerResponse, reply: Reply, policy?: HttpPolicy): void {
  if (reply.body === undefined) {
    res.writeHead(reply.status, reply.headers);
    res.end();
    return;
  }
  const body = policy === undefined ? reply.body : limitResponse(reply.body, policy.maxResponseBytes);
  // An explicit Content-Length avoids chunked encoding; the flat array form skips header-object processing.
  const length = String(Buffer.byteLength(body));
  if (reply.headers === undefined) res.writeHead(reply.status, ['Content-Type', 'application/json', 'Content-Length', length]);
  else res.writeHead(reply.status, { ...reply.headers, 'Content-Type': 'application/json', 'Content-Length': length });
  res.end(body);
  if (policy !== undefined) dropIfUnread(res, policy.writeTimeoutMs);
}

/**
 * One HTTP request/response pair, and the InboundMessage the pipeline sees. A class with prototype
 * methods rather than per-request closures and promises: this runs for every request.
 */
export class HttpExchange implements InboundMessage {
  readonly transport = 'http' as const;
  body: Buffer = EMPTY;
  readonly header: HeaderLookup;
  #controller: AbortController | undefined;
  #gone = false;
  #streaming = false;
  readonly #req: IncomingMessage;
  readonly #res: ServerResponse;
  readonly #dispatcher: MessageDispatcher;
  readonly #policy: HttpPolicy;
  #chunks: Buffer[] = [];
  #size = 0;

  constructor(dispatcher: MessageDispatcher, policy: HttpPolicy, req: IncomingMessage, res: ServerResponse) {
    this.#dispatcher = dispatcher;
    this.#policy = policy;
    this.#req = req;
    this.#res = res;
    const headers = req.headers;
    this.header = (name) => {
      // node:http keeps only the first of duplicated Authorization headers: all of them are read, so
      // that a second credential is refused (RFC 6750 invalid_request) rather than silently ignored.
      if (name === 'authorization') return allValues(req.rawHeaders, name);
      const value = headers[name];
      return Array.isArray(value) ? value.join(', ') : value;
    };
  }

  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#gone) this.#controller.abort();
    }
    return this.#controller.signal;
  }

  isAborted(): boolean {
    return this.#gone;
  }

  notify(notification: JsonRpcNotification): void {
    this.#event(JSON.stringify(notification), undefined);
  }

  notifyEvent(json: string, id: string): boolean {
    return this.#event(json, id);
  }

  #event(json: string, id: string | undefined): boolean {
    const res = this.#res;
    if (this.#gone || res.writableEnded) return false;
    if (!this.#streaming) {
      this.#streaming = true;
      res.writeHead(200, SSE_HEADERS);
    }
    // Backpressure: while the client is not reading, notifications (progress, logs) are dropped
    // rather than buffered (a legacy session keeps them in its replay buffer), and a client that
    // stays behind is disconnected.
    if (res.writableNeedDrain) return false;
    if (!res.write(sseEvent(limitResponse(json, this.#policy.maxResponseBytes), id))) this.#watchDrain();
    return true;
  }

  #drainTimer: NodeJS.Timeout | undefined;

  #watchDrain(): void {
    if (this.#drainTimer !== undefined) return;
    const res = this.#res;
    this.#drainTimer = setTimeout(() => res.destroy(), this.#policy.writeTimeoutMs);
    this.#drainTimer.unref();
    const clear = (): void => { clearTimeout(this.#drainTimer); this.#drainTimer = undefined; };
    res.once('drain', clear);
    res.once('close', clear);
  }

  start(): void {
    const req = this.#req;
    const url = req.url ?? '/';
    const query = url.indexOf('?');
    const sessions = (this.#dispatcher as { sessions?: SessionEndpoint }).sessions;
    const metadata = this.#policy.wellKnown(req.method, query < 0 ? url : url.slice(0, query));
    if (metadata !== undefined) {
      writeReply(this.#res, metadata);
      req.resume();
      return;
    }
    const refused = countHostHeaders(req.rawHeaders) > 1
      ? transportErrorReply(400, 'Bad request: more than one Host header')
      : this.#policy.preflight(req.method, query < 0 ? url : url.slice(0, query), this.header, sessions !== undefined);
    if (refused !== undefined) {
      this.#res.setHeader('Connection', 'close');
      // A body too large by its Content-Length is never read, but it is drained (bounded) so the answer is not lost to a reset.
      if (refused.status === 413) drainRefusedBody(req);
      else req.resume();
      writeReply(this.#res, refused);
      return;
    }
    if (sessions !== undefined && req.method !== 'POST') {
      req.resume();
      serveSessionRequest(sessions, req.method === 'GET' ? 'GET' : 'DELETE', this.header, this.#res);
      return;
    }
    // on(), not once(): each fires once anyway (or, for 'error', is harmless again), and once()
    // wraps every listener in a closure and a state object, on every request.
    req.on('data', this.#onData);
    req.on('end', this.#onEnd);
    req.on('error', this.#onError);
  }

  readonly #onData = (chunk: Buffer): void => {
    this.#size += chunk.length;
    if (this.#size > this.#policy.maxBodyBytes) {
      // Stop collecting; answer at once, drop the rest of the body (bounded), then close.
      const req = this.#req;
      req.off('data', this.#onData);
      req.off('end', this.#onEnd);
      this.#chunks = [];
      drainRefusedBody(req);
      this.#res.setHeader('Connection', 'close');
      writeReply(this.#res, transportErrorReply(413, `Payload too large: the limit is ${this.#policy.maxBodyBytes} bytes`));
      return;
    }
    this.#chunks.push(chunk);
  };

  readonly #onEnd = (): void => {
    const chunks = this.#chunks;
    this.body = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
    this.#chunks = [];
    this.#res.on('close', this.#onClose);
    this.#dispatcher.handleMessage(this).then(this.#onReply, this.#onFailure);
  };

  readonly #onError = (): void => {
    this.#gone = true;
  };

  readonly #onClose = (): void => {
    if (!this.#res.writableFinished) {
      this.#gone = true;
      this.#controller?.abort();
    }
  };

  readonly #onReply = (answer: Reply): void => {
    const res = this.#res;
    if (this.#gone || res.writableEnded) return;
    // The id is echoed as the client wrote it, whichever era's code built the reply.
    const body = answer.body === undefined ? undefined : echoExactId(this.body, answer.body);
    const reply = body === answer.body ? answer : { ...answer, body };
    if (this.#streaming) {
      const events = reply.events ?? (reply.body === undefined ? [] : [reply.body]);
      for (const [i, json] of events.entries()) res.write(sseEvent(limitResponse(json, this.#policy.maxResponseBytes), reply.eventIds?.[i]));
      res.end();
      dropIfUnread(res, this.#policy.writeTimeoutMs);
      return;
    }
    writeReply(res, reply, this.#policy);
  };

  readonly #onFailure = (error: unknown): void => {
    process.stderr.write(`toolwright: HTTP request failed: ${error instanceof Error ? error.message : String(error)}\n`);
    const res = this.#res;
    if (!res.headersSent) writeReply(res, transportErrorReply(500, 'Internal error'));
    else res.end();
  };
}

const EMPTY = Buffer.alloc(0);

/** Every value of a header in a raw list (name, value, ...), joined as a fetch `Headers` joins them. */
function allValues(rawHeaders: readonly string[], lowerCaseName: string): string | undefined {
  let joined: string | undefined;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    if (rawHeaders[i]!.length === lowerCaseName.length && rawHeaders[i]!.toLowerCase() === lowerCaseName) joined = joined === undefined ? rawHeaders[i + 1] : `${joined}, ${rawHeaders[i + 1]}`;
  }
  return joined;
}
