import { DEFAULT_MAX_RESPONSE_BYTES, limitResponse } from './response-limit.js';
import type { Readable, Writable } from 'node:stream';
import { ErrorCode } from '../protocol/error-codes.js';
import { ProtocolError } from '../protocol/protocol-error.js';
import { echoExactId, isJsonObject, isJsonRpcId } from '../protocol/json-rpc.js';
import type { JsonRpcId, JsonRpcNotification } from '../protocol/json-rpc.js';
import { parseMessageJson } from '../protocol/message-json.js';
import type { InboundMessage, MessageDispatcher } from './message-dispatcher.js';

/** Options of `server.stdio()`. */
export interface StdioOptions {
  /** Default `process.stdin`. */
  input?: Readable;
  /** Default `process.stdout`. Nothing but protocol messages is ever written here. */
  output?: Writable;
  /** Longest accepted line in bytes (default 4 MiB); longer lines get -32600 and are skipped. */
  maxLineBytes?: number;
  /** After stdin EOF, how long requests already received may still finish (default 2000 ms). */
  drainMs?: number;
  /** Largest message written (default 16 MiB); a larger answer is replaced by a JSON-RPC error saying so. */
  maxResponseBytes?: number;
  /**
   * Most output left unread by the peer (default 64 MiB). Past the stream's high-water mark no new
   * input is read (backpressure); past this bound the connection is closed.
   */
  maxUnreadOutputBytes?: number;
}

/** A running stdio connection. */
export interface StdioConnection {
  /**
   * Resolves after stdin EOF once the requests already received have answered (or `drainMs`
   * passed, then they are aborted), or at once on `close()`.
   */
  readonly closed: Promise<void>;
  /** Stops reading stdin and aborts requests in flight. */
  close(): void;
  /** Writes one serialized JSON-RPC message line outside any request (server-initiated notifications); ignored once closed. */
  send(json: string): void;
}

const NEWLINE = 0x0a;

/**
 * One stdio message as the pipeline sees it. Its AbortController exists only once a handler asks
 * for the signal; cancellation before that just sets `aborted`.
 */
class StdioRequest implements InboundMessage {
  readonly transport = 'stdio' as const;
  readonly header = undefined;
  readonly body: Buffer;
  parsed?: unknown;
  id: JsonRpcId | undefined = undefined;
  aborted = false;
  readonly #write: (json: string) => void;
  #controller: AbortController | undefined;
  #reason: unknown;

  constructor(body: Buffer, write: (json: string) => void) {
    this.body = body;
    this.#write = write;
  }

  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.aborted) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  isAborted(): boolean {
    return this.aborted;
  }

  notify(notification: JsonRpcNotification): void {
    if (!this.aborted) this.#write(JSON.stringify(notification));
  }

  abort(reason?: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.#reason = reason;
    this.#controller?.abort(reason);
  }
}

/**
 * Serves `dispatcher` over newline-delimited JSON-RPC: one message per line in, one per line out.
 * Requests run concurrently; `notifications/cancelled` aborts the named request and suppresses its
 * response.
 */
export function serveStdio(dispatcher: MessageDispatcher, options: StdioOptions = {}): StdioConnection {
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  const maxLineBytes = options.maxLineBytes ?? 4 * 1024 * 1024;
  const inFlight = new Map<JsonRpcId, StdioRequest>();
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let discarding = false;
  let closed = false;
  let active = 0;
  let ended = false;
  let drainTimer: NodeJS.Timeout | undefined;
  const drainMs = options.drainMs ?? 2000;
  let resolveClosed!: () => void;
  const closedPromise = new Promise<void>((resolve) => (resolveClosed = resolve));

  const maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const maxUnread = options.maxUnreadOutputBytes ?? 64 * 1024 * 1024;
  let backedUp = false;
  const write = (json: string): void => {
    if (closed) return;
    if (output.writableLength > maxUnread) {
      process.stderr.write(`toolwright: stdio peer left ${output.writableLength} bytes of output unread (limit ${maxUnread}); closing the connection\n`);
      close();
      return;
    }
    if (!output.write(`${limitResponse(json, maxResponseBytes)}\n`) && !backedUp) {
      backedUp = true;
      input.pause();
      output.once('drain', () => { backedUp = false; if (!closed) input.resume(); });
    }
  };

  function settled(request: StdioRequest): void {
    if (request.id !== undefined && inFlight.get(request.id) === request) inFlight.delete(request.id);
    active--;
    if (ended && active === 0) close();
  }

  function dispatch(line: Buffer): void {
    const text = line.toString('utf8');
    // Messages start with "{"; only lines that do not need the whitespace check.
    if (text.length === 0 || (text.charCodeAt(0) !== 0x7b && text.trim() === '')) return;
    const request = new StdioRequest(line, write);
    // Parsed once here (to route cancellations) and handed to the pipeline, whose decode stage then
    // skips JSON.parse. Lines that fail here (not JSON, or nested too deep) go through raw so the
    // pipeline reports why.
    if (!text.includes('\uFFFD')) {
      let parsed: unknown;
      try {
        parsed = parseMessageJson(text);
        request.parsed = parsed;
      } catch {
        // reported by the pipeline
      }
      if (isJsonObject(parsed)) {
        if (parsed.method === 'notifications/cancelled' && isJsonObject(parsed.params) && isJsonRpcId(parsed.params.requestId)) {
          inFlight.get(parsed.params.requestId)?.abort(parsed.params.reason);
        }
        if (isJsonRpcId(parsed.id) && typeof parsed.method === 'string') {
          request.id = parsed.id;
          inFlight.set(parsed.id, request);
        }
      }
    }
    active++;
    dispatcher.handleMessage(request).then(
      (reply) => {
        if (!request.aborted && reply.body !== undefined) write(echoExactId(text, reply.body));
        settled(request);
      },
      (error: unknown) => {
        process.stderr.write(`toolwright: stdio message failed: ${error instanceof Error ? error.message : String(error)}\n`);
        settled(request);
      },
    );
  }

  function tooLong(): void {
    // The transport sits below the server's outcome table; this is its own refusal, like http-policy's.
    write(JSON.stringify(new ProtocolError(ErrorCode.InvalidRequest, `Invalid request: message exceeds ${maxLineBytes} bytes`).toResponse(undefined)));
  }

  function onData(chunk: Buffer): void {
    let start = 0;
    for (let i = chunk.indexOf(NEWLINE); i >= 0; i = chunk.indexOf(NEWLINE, start)) {
      const piece = chunk.subarray(start, i);
      start = i + 1;
      if (discarding) {
        discarding = false;
        continue;
      }
      let line = pendingBytes === 0 ? piece : Buffer.concat([...pending, piece]);
      pending = [];
      pendingBytes = 0;
      if (line.length > 0 && line[line.length - 1] === 0x0d) line = line.subarray(0, line.length - 1);
      if (line.length > maxLineBytes) tooLong();
      else dispatch(line);
    }
    if (start < chunk.length && !discarding) {
      const rest = chunk.subarray(start);
      pendingBytes += rest.length;
      if (pendingBytes > maxLineBytes) {
        pending = [];
        pendingBytes = 0;
        discarding = true;
        tooLong();
      } else {
        pending.push(Buffer.from(rest));
      }
    }
  }

  function close(): void {
    if (closed) return;
    closed = true;
    if (drainTimer !== undefined) clearTimeout(drainTimer);
    input.off('data', onData);
    input.off('end', onEnd);
    input.off('close', onEnd);
    for (const request of inFlight.values()) request.abort('stdio closed');
    inFlight.clear();
    resolveClosed();
  }

  function onEnd(): void {
    if (ended) return;
    ended = true;
    input.off('data', onData);
    // A last line without its newline before EOF is still a message.
    if (pendingBytes > 0 && !discarding) {
      let line = Buffer.concat(pending);
      pending = [];
      pendingBytes = 0;
      if (line[line.length - 1] === 0x0d) line = line.subarray(0, line.length - 1);
      dispatch(line);
    }
    if (active === 0) close();
    else drainTimer = setTimeout(close, drainMs);
  }

  input.on('data', onData);
  input.once('end', onEnd);
  input.once('close', onEnd);
  return { closed: closedPromise, close, send: write };
}
