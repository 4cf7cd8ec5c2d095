/**
 * The relay (transparent) mode of the proxy: a stdio server with no pipeline of its own, which
 * carries every JSON-RPC message of a desktop host to a running server's Streamable HTTP endpoint
 * and every message of the server back. The host's own `initialize` goes through as it wrote it, so
 * the server negotiates the revision, the capabilities (elicitation or not) and sees the host's
 * `clientInfo`; 2026-07-28 messages go through with the routing headers their `_meta` implies.
 * What the relay adds is only what HTTP needs and stdio lacks: its own bearer token (never the
 * host's credentials: the host sends none, and nothing but the message body is forwarded), the
 * session's headers, cancellation as each era does it over HTTP, resumption of a broken 2025
 * stream, the GET stream, and a new session when the server has forgotten the old one (replaying
 * the host's `initialize`). An unreachable server costs the message it concerned a JSON-RPC error
 * naming the URL, never the bridge. docs/compose.md, "Relay", says why this design.
 * (Slightly over 400 lines: the message loop, the session's lifecycle and cancellation all read and
 * change the one relay state held here; headers, the HTTP exchange, the GET stream and the token
 * file are already their own files.)
 */
import { isJsonObject } from '../../json/json-object.js';
import { rpcError } from '../../server/outcomes.js';
import { isJsonRpcId } from '../../protocol/json-rpc.js';
import type { JsonObject, JsonRpcId, JsonRpcNotification } from '../../protocol/json-rpc.js';
import type { InboundMessage, MessageDispatcher, Reply } from '../../transport/message-dispatcher.js';
import { listen, pause } from './listen-stream.js';
import { modernVersionOf, sessionHeaders, ToolHeaderAnnotations } from './relay-headers.js';
import type { RelayedSession } from './relay-headers.js';
import { readTokenFile } from './token-file.js';
import { excerpt, isEventStream, isUnreachable, UpstreamHttp } from './upstream-http.js';

/** Options of {@link StdioRelay}. */
export interface StdioRelayOptions {
  /** The running server's MCP endpoint (http: or https:). */
  readonly url: string | URL;
  /** The bridge's bearer token, sent as `Authorization: Bearer ...` (undefined: none, for a server without authorization). */
  readonly token?: string;
  /** Where the token came from: read again when the server answers 401 (a server restarted with a new token). */
  readonly tokenFile?: string;
  /** A fetch implementation (default: the global one). */
  readonly fetch?: typeof fetch;
  /** Largest message accepted from the server, in bytes (default 16 MiB). */
  readonly maxMessageBytes?: number;
  /** GET stream attempts in a row before the relay stops trying until the next message (default 5). */
  readonly maxReconnects?: number;
  /** First delay before a GET stream is opened again, doubled per attempt, at most 10 s (default 500 ms). */
  readonly reconnectDelayMs?: number;
  /** Where the relay says what went wrong (default: stderr with a `toolwright bridge:` prefix). */
  readonly log?: (line: string) => void;
}

/** What the relay made of one POST. */
type Exchanged =
  | { readonly kind: 'reply'; readonly reply: Reply }
  | { readonly kind: 'session-lost' }
  | { readonly kind: 'unauthorized'; readonly reply: Reply };

const NOTHING: Reply = { status: 202, body: undefined };
/** How often one request's 2025 stream is resumed (GET + Last-Event-ID) before giving up. */
const MAX_RESUMPTIONS = 5;
const DEFAULT_RETRY_MS = 1000;
const MAX_RETRY_MS = 30_000;
/** How long a notification, an answer to a server request or the closing DELETE may take. */
const ONE_WAY_TIMEOUT_MS = 10_000;
const DELETE_TIMEOUT_MS = 2000;

function parse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function isRequest(value: unknown): value is JsonObject & { id: JsonRpcId; method: string } {
  return isJsonObject(value) && typeof value.method === 'string' && isJsonRpcId(value.id);
}

function isResponseTo(value: unknown, id: JsonRpcId): boolean {
  return isJsonObject(value) && !('method' in value) && ('result' in value || 'error' in value) && value.id === id;
}

/** A stdio-to-HTTP relay; serve it with `serveStdio` and {@link StdioRelay.attach} the connection's writer. */
export class StdioRelay implements MessageDispatcher {
  readonly #http: UpstreamHttp;
  readonly #tokenFile: string | undefined;
  readonly #log: (line: string) => void;
  readonly #maxReconnects: number;
  readonly #reconnectDelayMs: number;
  readonly #annotations = new ToolHeaderAnnotations();
  #token: string | undefined;
  #write: ((json: string) => void) | undefined;
  #session: RelayedSession | undefined;
  #reopening: Promise<string | undefined> | undefined;
  #listening: AbortController | undefined;
  /** Settles once the host's `notifications/initialized` reached the server: later messages wait for it, as they would on one connection. */
  #initialized: Promise<void> = Promise.resolve();
  #reinitCount = 0;
  #closed = false;

  constructor(options: StdioRelayOptions) {
    const url = new URL(options.url);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`the relay needs an http: or https: URL, got ${url.href}`);
    this.#http = new UpstreamHttp(url, options.fetch ?? fetch, options.maxMessageBytes ?? 16 * 1024 * 1024);
    this.#token = options.token;
    this.#tokenFile = options.tokenFile;
    this.#log = options.log ?? ((line) => void process.stderr.write(`toolwright bridge: ${line}\n`));
    this.#maxReconnects = options.maxReconnects ?? 5;
    this.#reconnectDelayMs = options.reconnectDelayMs ?? 500;
  }

  /** The server's endpoint. */
  get url(): URL {
    return this.#http.url;
  }

  /** The 2025 session the host opened, if any. */
  get session(): RelayedSession | undefined {
    return this.#session;
  }

  /** Where messages outside any request (server requests, GET-stream traffic) are written: the stdio connection's `send`. */
  attach(write: (json: string) => void): void {
    this.#write = write;
  }

  /** One message of the host. */
  handleMessage(message: InboundMessage): Promise<Reply> {
    const text = typeof message.body === 'string' ? message.body : Buffer.from(message.body).toString('utf8');
    const parsed = message.parsed !== undefined ? message.parsed : parse(text);
    if (isRequest(parsed)) return this.#request(text, parsed, message);
    if (isJsonObject(parsed) && typeof parsed.method === 'string' && !('id' in parsed)) {
      // Decided before the first await, so the messages that follow it wait for it.
      if (parsed.method === 'notifications/initialized') {
        const sent = this.#oneWay(text, parsed);
        this.#initialized = sent.then(() => this.#startListening());
        return sent.then(() => NOTHING);
      }
      // 2026-07-28 over HTTP cancels by closing the request's stream, which serveStdio's abort already did.
      if (parsed.method === 'notifications/cancelled' && this.#session === undefined) return Promise.resolve(NOTHING);
    }
    // Notifications, answers to server requests, batches and unparsable lines: the server judges them.
    return this.#initialized.then(() => (Array.isArray(parsed) || parsed === undefined ? this.#batchOrJunk(text, message) : this.#oneWay(text, isJsonObject(parsed) ? parsed : {}).then(() => NOTHING)));
  }

  /** Stops the GET stream and ends the session on the server (bounded). */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#listening?.abort();
    const session = this.#session;
    if (session?.sessionId === undefined) return;
    const response = await this.#http.delete({ ...this.#auth(), ...sessionHeaders(session) }, AbortSignal.timeout(DELETE_TIMEOUT_MS)).catch(() => undefined);
    if (response !== undefined && !isUnreachable(response)) await response.body?.cancel().catch(() => {});
  }

  #auth(): Record<string, string> {
    return this.#token === undefined ? {} : { Authorization: `Bearer ${this.#token}` };
  }

  #headersOf(message: JsonObject): Record<string, string> {
    if (this.#session !== undefined) return { ...this.#auth(), ...sessionHeaders(this.#session) };
    const version = modernVersionOf(message);
    return version === undefined ? this.#auth() : { ...this.#auth(), ...this.#annotations.modernHeaders(message, version) };
  }

  #error(id: JsonRpcId | null, message: string): Reply {
    return { status: 200, body: JSON.stringify({ jsonrpc: '2.0', id, error: rpcError('bridgeUpstreamUnreachable', `toolwright bridge: ${message}`, { data: { upstream: this.#http.url.href } }).toErrorObject() }) };
  }

  #unreachable(id: JsonRpcId | null, reason: string): Reply {
    this.#log(`cannot reach ${this.#http.url.href}: ${reason}`);
    return this.#error(id, `cannot reach ${this.#http.url.href}: ${reason} (is the server running? the next message tries again)`);
  }

  async #request(text: string, m: JsonObject & { id: JsonRpcId; method: string }, message: InboundMessage): Promise<Reply> {
    if (m.method === 'initialize') return this.#initialize(text, m, message);
    await this.#initialized;
    let reloaded = false;
    let reopened = false;
    for (;;) {
      const session = this.#session;
      const exchanged = await this.#exchange(text, this.#headersOf(m), m, message);
      if (exchanged.kind === 'reply') return exchanged.reply;
      if (exchanged.kind === 'unauthorized') {
        if (!reloaded && this.#reloadToken()) {
          reloaded = true;
          continue;
        }
        return exchanged.reply;
      }
      if (reopened || session === undefined) return this.#error(m.id, `${this.#http.url.href} no longer knows the session (HTTP 404)`);
      reopened = true;
      const problem = await this.#reopen(session);
      if (problem !== undefined) return this.#error(m.id, `the server forgot the session and a new one could not be opened: ${problem}`);
    }
  }

  /** The host's `initialize`: relayed as written; its answer opens the session the relay then carries. */
  async #initialize(text: string, m: JsonObject & { id: JsonRpcId }, message: InboundMessage): Promise<Reply> {
    let reloaded = false;
    for (;;) {
      const exchanged = await this.#exchange(text, this.#auth(), m, message, (result, sessionId) => {
        const previous = this.#session;
        if (typeof result.protocolVersion === 'string') this.#session = { protocolVersion: result.protocolVersion, sessionId, initializeParams: isJsonObject(m.params) ? m.params : {} };
        if (previous?.sessionId !== undefined && previous.sessionId !== sessionId) this.#endSession(previous);
      });
      if (exchanged.kind === 'unauthorized' && !reloaded && this.#reloadToken()) {
        reloaded = true;
        continue;
      }
      return exchanged.kind === 'session-lost' ? this.#error(m.id, `${this.#http.url.href} answered initialize with HTTP 404`) : exchanged.reply;
    }
  }

  /** Reads the token file again; true when it holds another usable token than the one sent. */
  #reloadToken(): boolean {
    if (this.#tokenFile === undefined) return false;
    const read = readTokenFile(this.#tokenFile);
    if (!read.ok) {
      this.#log(read.problem);
      return false;
    }
    if (read.token === this.#token) return false;
    this.#token = read.token;
    this.#log(`the server refused the token; using the new token found in ${read.path}`);
    return true;
  }

  /**
   * POSTs one request and relays what comes back until its answer: one JSON body, or an event
   * stream whose notifications and server requests go to the host as they arrive. `opened` sees an
   * `initialize` answer's result and session id before the host does.
   */
  async #exchange(text: string, headers: Record<string, string>, m: JsonObject & { id: JsonRpcId }, message: InboundMessage, opened?: (result: JsonObject, sessionId: string | undefined) => void): Promise<Exchanged> {
    const controller = new AbortController();
    const onAbort = (): void => controller.abort(message.signal.reason);
    if (message.isAborted()) return { kind: 'reply', reply: NOTHING };
    message.signal.addEventListener('abort', onAbort, { once: true });
    try {
      let response;
      try {
        response = await this.#http.post(text, headers, controller.signal);
      } catch {
        return { kind: 'reply', reply: NOTHING }; // cancelled by the host: serveStdio writes nothing for it
      }
      if (isUnreachable(response)) return { kind: 'reply', reply: this.#unreachable(m.id, response.unreachable) };
      if (response.status === 404 && headers['Mcp-Session-Id'] !== undefined) {
        await response.body?.cancel().catch(() => {});
        return { kind: 'session-lost' };
      }
      const sessionId = response.headers.get('mcp-session-id') ?? undefined;
      /** The answer's result, seen before the host sees it. */
      const note = (value: unknown): void => {
        const result = (value as { result?: unknown }).result;
        if (!isJsonObject(result)) return;
        if (opened !== undefined) opened(result, sessionId);
        if (m.method === 'tools/list') this.#annotations.learn(result);
      };
      let answer: string | undefined;
      const take = (data: string): boolean => {
        const value = parse(data);
        if (isResponseTo(value, m.id)) {
          answer = data;
          note(value);
          return true;
        }
        if (isJsonObject(value) && typeof value.method === 'string' && !('id' in value)) message.notify(value as unknown as JsonRpcNotification);
        else this.#deliver(data);
        return false;
      };
      if (isEventStream(response)) {
        let end = await this.#http.readEvents(response, take);
        // A 2025-11-25 server may end a stream early after giving event ids: resume it, a bounded number of times.
        for (let resumed = 0; !end.answered && end.lastEventId !== undefined && resumed < MAX_RESUMPTIONS && !controller.signal.aborted; resumed++) {
          await pause(Math.min(end.retryMs ?? DEFAULT_RETRY_MS, MAX_RETRY_MS), controller.signal);
          const again = await this.#http.get({ ...headers, 'Last-Event-ID': end.lastEventId }, controller.signal).catch(() => undefined);
          if (again === undefined || isUnreachable(again) || !again.ok || !isEventStream(again)) {
            if (again !== undefined && !isUnreachable(again)) await again.body?.cancel().catch(() => {});
            break;
          }
          const next = await this.#http.readEvents(again, take);
          end = { ...next, lastEventId: next.lastEventId ?? end.lastEventId };
        }
        if (controller.signal.aborted) return { kind: 'reply', reply: NOTHING };
        if (answer === undefined) return { kind: 'reply', reply: this.#error(m.id, `${this.#http.url.href} ended the stream of ${m.method} without an answer`) };
        this.#afterContact();
        return { kind: 'reply', reply: { status: 200, body: answer } };
      }
      let body: string | undefined;
      try {
        body = await this.#http.readText(response);
      } catch (error) {
        if (controller.signal.aborted) return { kind: 'reply', reply: NOTHING };
        return { kind: 'reply', reply: this.#error(m.id, `${m.method}: ${(error as Error).message}`) };
      }
      if (body === undefined) return { kind: 'reply', reply: this.#error(m.id, `${m.method}: the answer of ${this.#http.url.href} exceeds the size bound`) };
      const value = parse(body);
      // An error the server raised before it read the id (a refused token, a refused request) answers
      // this request all the same: this HTTP exchange carried exactly one, so the host gets its id back.
      const relayed: Reply = { status: 200, body: isJsonObject(value) && isJsonObject(value.error) && (value.id === undefined || value.id === null) ? JSON.stringify({ ...value, id: m.id }) : body };
      if (response.status === 401) {
        this.#log(`${this.#http.url.href} refused the bridge's token (HTTP 401)${this.#tokenFile !== undefined ? `; check the token file ${this.#tokenFile}` : '; the bridge sends no token (--token-file)'}`);
        return { kind: 'unauthorized', reply: isJsonObject(value) && isJsonObject(value.error) ? relayed : this.#error(m.id, `${this.#http.url.href} refused the bridge's token (HTTP 401)`) };
      }
      if (isJsonObject(value) && ('result' in value || 'error' in value)) {
        if (isResponseTo(value, m.id)) note(value);
        this.#afterContact();
        return { kind: 'reply', reply: relayed };
      }
      return { kind: 'reply', reply: this.#error(m.id, `${m.method}: ${this.#http.url.href} answered HTTP ${response.status} without a JSON-RPC answer${body.trim() === '' ? '' : `: ${excerpt(body)}`}`) };
    } finally {
      message.signal.removeEventListener('abort', onAbort);
    }
  }

  /** A notification or an answer to a server request: POSTed; the server acknowledges it (202). */
  async #oneWay(text: string, m: JsonObject): Promise<void> {
    const what = typeof m.method === 'string' ? m.method : `the answer to ${JSON.stringify(m.id ?? null)}`;
    for (let attempt = 0; attempt < 2; attempt++) {
      const session = this.#session;
      const response = await this.#http.post(text, this.#headersOf(m), AbortSignal.timeout(ONE_WAY_TIMEOUT_MS)).catch((error: unknown) => ({ unreachable: error instanceof Error ? error.message : String(error) }));
      if (isUnreachable(response)) return void this.#log(`${what}: cannot reach ${this.#http.url.href}: ${response.unreachable}`);
      const body = await this.#http.readText(response).catch(() => undefined);
      if (response.status === 401 && attempt === 0 && this.#reloadToken()) continue;
      if (response.status === 404 && session !== undefined && attempt === 0 && typeof m.method === 'string' && (await this.#reopen(session)) === undefined) continue;
      if (response.status >= 300) this.#log(`${what}: ${this.#http.url.href} answered HTTP ${response.status}${body !== undefined && body.trim() !== '' ? `: ${excerpt(body)}` : ''}`);
      else this.#afterContact();
      return;
    }
  }

  /** A batch (2025-03-26) or a line that is not JSON: relayed; every message the server answers with goes back. */
  async #batchOrJunk(text: string, message: InboundMessage): Promise<Reply> {
    const headers = this.#session === undefined ? this.#auth() : { ...this.#auth(), ...sessionHeaders(this.#session) };
    let response;
    try {
      response = await this.#http.post(text, headers, message.signal);
    } catch {
      return NOTHING;
    }
    if (isUnreachable(response)) return this.#unreachable(null, response.unreachable);
    if (isEventStream(response)) {
      await this.#http.readEvents(response, (data) => (this.#deliver(data), false));
      return NOTHING;
    }
    const body = await this.#http.readText(response).catch(() => undefined);
    if (body === undefined || body.trim() === '') return NOTHING;
    return parse(body) === undefined ? this.#error(null, `${this.#http.url.href} answered HTTP ${response.status}: ${excerpt(body)}`) : { status: 200, body };
  }

  #deliver(data: string): void {
    if (!this.#closed) this.#write?.(data);
  }

  /** The server answered: a GET stream given up earlier is tried again. */
  #afterContact(): void {
    if (this.#listening === undefined) this.#startListening();
  }

  #startListening(): void {
    if (this.#closed || this.#session === undefined || this.#listening !== undefined) return;
    const controller = new AbortController();
    this.#listening = controller;
    const headers = (): Record<string, string> => (this.#session === undefined ? this.#auth() : { ...this.#auth(), ...sessionHeaders(this.#session) });
    listen({ http: this.#http, headers, deliver: (data) => this.#deliver(data), log: this.#log, maxReconnects: this.#maxReconnects, reconnectDelayMs: this.#reconnectDelayMs }, controller.signal)
      .catch(() => 'stopped')
      .then((end) => {
        if (this.#listening !== controller) return;
        // 'not-offered': the server has no GET stream; the 2025 revisions allow that, nothing to retry.
        if (end !== 'not-offered') this.#listening = undefined;
      });
  }

  /** The server forgot the session (restarted, expired): the host's `initialize` again, then `initialized`. Concurrent callers share one attempt; undefined = reopened. */
  #reopen(lost: RelayedSession): Promise<string | undefined> {
    if (this.#session !== lost) return Promise.resolve(this.#session === undefined ? 'no session' : undefined);
    if (this.#reopening !== undefined) return this.#reopening;
    this.#listening?.abort();
    this.#listening = undefined;
    const attempt = (async (): Promise<string | undefined> => {
      const id = `toolwright-bridge-reinitialize-${++this.#reinitCount}`;
      const body = JSON.stringify({ jsonrpc: '2.0', id, method: 'initialize', params: lost.initializeParams });
      const response = await this.#http.post(body, this.#auth(), AbortSignal.timeout(ONE_WAY_TIMEOUT_MS)).catch((error: unknown) => ({ unreachable: String(error) }));
      if (isUnreachable(response)) return `cannot reach ${this.#http.url.href}: ${response.unreachable}`;
      let answer: unknown;
      if (isEventStream(response)) {
        await this.#http.readEvents(response, (data) => {
          const value = parse(data);
          if (isResponseTo(value, id)) answer = value;
          return answer !== undefined;
        });
      } else answer = parse((await this.#http.readText(response).catch(() => undefined)) ?? '');
      const result = isJsonObject(answer) && isJsonObject(answer.result) ? answer.result : undefined;
      if (result === undefined) return `initialize was answered HTTP ${response.status}${isJsonObject(answer) && isJsonObject(answer.error) ? `: ${String(answer.error.message)}` : ''}`;
      if (result.protocolVersion !== lost.protocolVersion) return `the server now chose protocol version ${JSON.stringify(result.protocolVersion)}, not ${lost.protocolVersion} as the host negotiated; restart the host's connection`;
      const session: RelayedSession = { protocolVersion: lost.protocolVersion, sessionId: response.headers.get('mcp-session-id') ?? undefined, initializeParams: lost.initializeParams };
      this.#session = session;
      const initialized = await this.#http.post('{"jsonrpc":"2.0","method":"notifications/initialized"}', { ...this.#auth(), ...sessionHeaders(session) }, AbortSignal.timeout(ONE_WAY_TIMEOUT_MS)).catch(() => undefined);
      if (initialized !== undefined && !isUnreachable(initialized)) await initialized.body?.cancel().catch(() => {});
      this.#log(`${this.#http.url.href} no longer knew the session; opened a new one with the host's initialize`);
      this.#startListening();
      return undefined;
    })();
    this.#reopening = attempt;
    return attempt.finally(() => {
      if (this.#reopening === attempt) this.#reopening = undefined;
    });
  }

  /** Ends a session the host replaced with a new `initialize` (bounded, in the background). */
  #endSession(session: RelayedSession): void {
    this.#http
      .delete({ ...this.#auth(), ...sessionHeaders(session) }, AbortSignal.timeout(DELETE_TIMEOUT_MS))
      .then((response) => (isUnreachable(response) ? undefined : response.body?.cancel()))
      .catch(() => {});
  }
}
