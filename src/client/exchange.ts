/**
 * One request/response exchange in whichever era the server speaks, and finding that era
 * (spec 2026-07-28 "Backward compatibility", digest §1.4):
 * - stdio: `server/discover` first; a DiscoverResult or a recognised modern error means modern,
 *   any other answer or silence (bounded by `probeTimeoutMs`) means legacy: `initialize`.
 * - HTTP: the first request goes out modern; a 400/404/405 without a recognised modern error
 *   means legacy: `initialize`, then the request again with the session's headers.
 */
import { encodeHeaderValue, ErrorCode, isJsonObject, META, PROTOCOL_VERSION } from '../protocol/index.js';
import { CLIENT_LEGACY_PROTOCOL_VERSIONS } from '../protocol/versions.js';
import type { ClientCapabilities, Implementation, JsonObject, JsonRpcNotification, JsonRpcRequest } from '../protocol/index.js';
import { McpClientError } from './client-error.js';
import { createDeadline } from './deadline.js';
import type { Connection, ServerRequestHandler } from './connection.js';
import type { ProtocolEra } from './types.js';

/** JSON-RPC codes only a 2026-07-28 server sends: they mean "modern, fix the request", never "fall back". */
const MODERN_ERROR_CODES: ReadonlySet<number> = new Set([ErrorCode.HeaderMismatch, ErrorCode.MissingRequiredClientCapability, ErrorCode.UnsupportedProtocolVersion]);

/** The era in force and, for a legacy server, what `initialize` answered. */
export interface EraState {
  era: ProtocolEra;
  protocolVersion: string;
  /** The legacy `InitializeResult`. */
  initialize?: JsonObject;
  /** A modern server's answer to the stdio `server/discover` probe, for `discover()` to reuse. */
  probe?: JsonObject;
}

/** What the exchange needs to know about the caller. */
export interface ExchangeSettings {
  clientInfo: Implementation | false;
  capabilities: ClientCapabilities;
  timeoutMs: number;
  era: 'auto' | ProtocolEra;
  probeTimeoutMs: number;
  legacyProtocolVersion: string;
  /** The caller listens for notifications: open a legacy HTTP session's GET stream. */
  listen: boolean;
  /** Called when a legacy session starts (again): caches of the old session are void. */
  onSession: () => void;
}

/** Options of one exchange. */
export interface ExchangeOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  headers?: Record<string, string>;
  meta?: JsonObject;
  /** Protocol extensions declared for this request only (modern era), e.g. the tasks extension for a `task: true` call. */
  extensions?: JsonObject;
  onNotification?: (notification: JsonRpcNotification) => void;
  onRequest?: ServerRequestHandler;
}

function describeShape(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;
}

/** A -32022 that lists only legacy revisions comes from a server that wants `initialize`. */
function namesOnlyLegacy(error: McpClientError): boolean {
  const supported = isJsonObject(error.data) && Array.isArray(error.data.supported) ? error.data.supported : [];
  return !supported.includes(PROTOCOL_VERSION) && supported.some((v) => typeof v === 'string' && CLIENT_LEGACY_PROTOCOL_VERSIONS.includes(v));
}

/** Is this failure of a modern request a legacy server's answer (so `initialize` is worth trying)? */
function meansLegacy(error: unknown, transport: 'http' | 'stdio'): boolean {
  // An OAuth failure (its httpStatus is the authorization server's) says nothing about the era.
  if (!(error instanceof McpClientError) || error.kind === 'auth') return false;
  if (error.kind === 'rpc' && error.code === ErrorCode.UnsupportedProtocolVersion && namesOnlyLegacy(error)) return true;
  if (error.kind === 'rpc' && error.code !== undefined && MODERN_ERROR_CODES.has(error.code)) return false;
  if (transport === 'stdio') return error.kind === 'rpc' || error.kind === 'protocol' || error.kind === 'timeout';
  const status = error.httpStatus;
  if (status !== 400 && status !== 404 && status !== 405) return false;
  // A modern server answers unknown methods 404 + -32601 (R-xx removed methods): that is not a legacy sign.
  return !(status === 404 && error.code === ErrorCode.MethodNotFound);
}

/** Sends requests in the era the server speaks; finds the era on first use. */
export class Exchange {
  readonly #connection: Connection;
  readonly #settings: ExchangeSettings;
  #nextId = 1;
  #state: EraState | undefined;
  #finding: Promise<EraState> | undefined;

  constructor(connection: Connection, settings: ExchangeSettings) {
    this.#connection = connection;
    this.#settings = settings;
  }

  /** The era once known. */
  get state(): EraState | undefined {
    return this.#state;
  }

  /** Sends one request and resolves to its `result`; JSON-RPC errors become McpClientError kind `rpc`. */
  send(method: string, params: JsonObject, options: ExchangeOptions = {}): Promise<JsonObject> {
    return this.#send(method, params, options, false) as Promise<JsonObject>;
  }

  /** Like {@link send} for a modern-only method (`server/discover`): resolves to undefined, sending nothing more, when the server turns out legacy. */
  async sendModern(method: string, params: JsonObject, options: ExchangeOptions = {}): Promise<JsonObject | undefined> {
    return this.#send(method, params, options, true);
  }

  async #send(method: string, params: JsonObject, options: ExchangeOptions, modernOnly: boolean): Promise<JsonObject | undefined> {
    let state = this.#state;
    if (state === undefined) {
      const found = await this.#findEra(method, params, options);
      // On HTTP the request that found the era may have been answered on the way.
      if (found.result !== undefined) return found.result;
      state = found.state;
    }
    if (modernOnly && state.era === 'legacy') return undefined;
    try {
      return await this.#once(method, params, options, state.era);
    } catch (error) {
      // A legacy HTTP session the server forgot (404) is opened again, once (2025-06-18 "Session Management").
      if (state.era === 'legacy' && this.#connection.kind === 'http' && error instanceof McpClientError && error.httpStatus === 404 && this.#state === state) {
        this.#state = undefined;
        await this.#initialize(options.signal);
        return this.#once(method, params, options, 'legacy');
      }
      throw error;
    }
  }

  /** Concurrent first requests share one search; only the first one's request does the probing on HTTP. */
  async #findEra(method: string, params: JsonObject, options: ExchangeOptions): Promise<{ state: EraState; result?: JsonObject }> {
    if (this.#finding !== undefined) {
      await this.#finding.catch(() => undefined);
      if (this.#state !== undefined) return { state: this.#state };
    }
    let answered: JsonObject | undefined;
    // Finding the era (probe, initialize, initialized) has one deadline, so connecting is bounded as a whole.
    const deadline = AbortSignal.timeout(this.#settings.timeoutMs);
    const connectSignal = options.signal === undefined ? deadline : AbortSignal.any([options.signal, deadline]);
    const finding = (async (): Promise<EraState> => {
      const mode = this.#settings.era;
      if (mode === 'modern') return this.#enter({ era: 'modern', protocolVersion: PROTOCOL_VERSION });
      if (mode === 'legacy') return this.#initialize(connectSignal);
      if (this.#connection.kind === 'stdio') return this.#probeStdio(connectSignal);
      try {
        answered = await this.#once(method, params, options, 'modern');
        return this.#enter({ era: 'modern', protocolVersion: PROTOCOL_VERSION });
      } catch (error) {
        if (!meansLegacy(error, 'http')) {
          // The server answered as a modern one would: the era is known, the request failed.
          if (error instanceof McpClientError && (error.kind === 'rpc' || error.kind === 'protocol')) this.#enter({ era: 'modern', protocolVersion: PROTOCOL_VERSION });
          throw error;
        }
        try {
          return await this.#initialize(connectSignal);
        } catch (initError) {
          throw new McpClientError((error as McpClientError).kind, `${(error as McpClientError).message}; the legacy handshake failed too: ${initError instanceof Error ? initError.message : String(initError)}`, {
            ...copyDetail(error as McpClientError),
            cause: initError,
          });
        }
      }
    })();
    this.#finding = finding;
    try {
      const state = await finding.catch((error: unknown) => {
        if (deadline.aborted && !(options.signal?.aborted ?? false) && error instanceof McpClientError && error.kind === 'aborted') {
          throw new McpClientError('timeout', `${error.method ?? method}: no answer within ${this.#settings.timeoutMs} ms while connecting; the request was cancelled`, { method: error.method ?? method });
        }
        throw error;
      });
      return answered === undefined ? { state } : { state, result: answered };
    } finally {
      if (this.#finding === finding) this.#finding = undefined;
    }
  }

  async #probeStdio(signal: AbortSignal): Promise<EraState> {
    let probe: JsonObject;
    try {
      probe = await this.#once('server/discover', {}, { timeoutMs: Math.min(this.#settings.probeTimeoutMs, this.#settings.timeoutMs), signal }, 'modern');
    } catch (error) {
      if (!meansLegacy(error, 'stdio')) {
        if (error instanceof McpClientError && error.kind === 'rpc') return this.#enter({ era: 'modern', protocolVersion: PROTOCOL_VERSION });
        throw error;
      }
      try {
        return await this.#initialize(signal);
      } catch (initError) {
        // Neither handshake answered (a bare server that knows only tool methods): talk 2026-07-28 and let each request speak for itself.
        if (initError instanceof McpClientError && initError.kind === 'rpc') return this.#enter({ era: 'modern', protocolVersion: PROTOCOL_VERSION });
        throw initError;
      }
    }
    if (!Array.isArray(probe.supportedVersions)) {
      // Not a DiscoverResult: an old server that answers unknown methods with something else.
      return this.#initialize(signal);
    }
    return this.#enter({ era: 'modern', protocolVersion: PROTOCOL_VERSION, probe });
  }

  #enter(state: EraState): EraState {
    this.#state = state;
    return state;
  }

  /** `initialize` and `notifications/initialized`; the session's state is then used by every request. */
  async #initialize(signal: AbortSignal | undefined): Promise<EraState> {
    const requested = this.#settings.legacyProtocolVersion;
    const clientInfo = this.#settings.clientInfo === false ? { name: 'toolwright-client', version: '0.1.0' } : this.#settings.clientInfo;
    const result = await this.#once('initialize', { protocolVersion: requested, capabilities: this.#settings.capabilities, clientInfo }, signal === undefined ? {} : { signal }, 'legacy', true);
    const version = result.protocolVersion;
    if (typeof version !== 'string' || !CLIENT_LEGACY_PROTOCOL_VERSIONS.includes(version)) {
      throw new McpClientError('protocol', `initialize: the server chose protocol version ${JSON.stringify(version)}, which this client does not speak (it speaks ${[PROTOCOL_VERSION, ...CLIENT_LEGACY_PROTOCOL_VERSIONS].join(', ')})`, { method: 'initialize', data: result });
    }
    if (!isJsonObject(result.capabilities)) throw new McpClientError('protocol', 'initialize: the result has no capabilities object', { method: 'initialize', data: result });
    this.#connection.setLegacySession({ protocolVersion: version, ...(this.#lastSessionId !== undefined ? { sessionId: this.#lastSessionId } : {}) });
    const state = this.#enter({ era: 'legacy', protocolVersion: version, initialize: result });
    this.#settings.onSession();
    const timeout = AbortSignal.timeout(this.#settings.timeoutMs);
    await this.#connection.notify({ jsonrpc: '2.0', method: 'notifications/initialized' }, { headers: {}, signal: signal === undefined ? timeout : AbortSignal.any([signal, timeout]) });
    if (this.#settings.listen) this.#connection.listen();
    return state;
  }

  #lastSessionId: string | undefined;

  /** One request in the given era's form. */
  async #once(method: string, params: JsonObject, options: ExchangeOptions, era: ProtocolEra, handshake = false, retried = false): Promise<JsonObject> {
    const id = this.#nextId++;
    const callerMeta = { ...(isJsonObject(params._meta) ? params._meta : {}), ...options.meta };
    const meta = era === 'modern' ? { ...callerMeta, ...this.#modernMeta(options.extensions) } : callerMeta;
    const fullParams: JsonObject = { ...params };
    if (Object.keys(meta).length > 0) fullParams._meta = meta;
    else delete fullParams._meta;
    const request: JsonRpcRequest = { jsonrpc: '2.0', id, method, params: fullParams };
    const headers: Record<string, string> = { ...options.headers };
    if (this.#connection.kind === 'http' && era === 'modern') {
      headers['MCP-Protocol-Version'] = PROTOCOL_VERSION;
      headers['Mcp-Method'] = method;
      const name = method === 'resources/read' ? params.uri : method === 'tools/call' || method === 'prompts/get' ? params.name : method.startsWith('tasks/') ? params.taskId : undefined;
      if (typeof name === 'string') headers['Mcp-Name'] = encodeHeaderValue(name);
    }
    const timeoutMs = options.timeoutMs ?? this.#settings.timeoutMs;
    const deadline = createDeadline(timeoutMs, options.signal);
    const signal = deadline.signal;
    let received;
    try {
      received = await this.#connection.send(request, {
        headers,
        signal,
        abort: deadline.abort,
        onNotification: options.onNotification ?? (() => {}),
        ...(options.onRequest !== undefined ? { onRequest: options.onRequest } : {}),
      });
    } catch (error) {
      if (error instanceof McpClientError) throw error;
      const reason = signal.reason instanceof Error ? signal.reason.message : 'cancelled by the client';
      // Closing a legacy HTTP stream does not cancel the request there: say so (2025-11-25 cancellation).
      if (era === 'legacy' && !handshake && this.#connection.kind === 'http' && signal.aborted) {
        this.#connection.notify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason } }, { headers: {}, signal: AbortSignal.timeout(5000) }).catch(() => {});
      }
      if (deadline.timedOut && !(options.signal?.aborted ?? false)) throw new McpClientError('timeout', `${method}: no response within ${timeoutMs} ms; the request was cancelled`, { method });
      if (options.signal?.aborted) {
        const cause = options.signal.reason;
        throw new McpClientError('aborted', `${method}: cancelled by the caller${cause instanceof Error && cause.message ? ` (${cause.message})` : ''}`, { method, cause });
      }
      throw new McpClientError('transport', `${method}: ${error instanceof Error ? error.message : String(error)}`, { method, cause: error });
    } finally {
      deadline.dispose();
    }
    const { message, httpStatus } = received;
    if (handshake && received.sessionId !== undefined) this.#lastSessionId = received.sessionId;
    if ('error' in message) {
      const err = message.error;
      if (!isJsonObject(err) || typeof err.code !== 'number' || typeof err.message !== 'string') {
        throw new McpClientError('protocol', `${method}: malformed JSON-RPC error ${JSON.stringify(err)}`, { method, ...(httpStatus !== undefined ? { httpStatus } : {}) });
      }
      // A -32022 that names the very version sent is a transient refusal (a server mid-upgrade, a misrouted
      // request): the request is sent once more with that version, as the spec asks clients to retry with a supported one.
      if (err.code === ErrorCode.UnsupportedProtocolVersion && era === 'modern' && !retried && isJsonObject(err.data) && Array.isArray(err.data.supported) && err.data.supported.includes(PROTOCOL_VERSION)) {
        return this.#once(method, params, options, era, handshake, true);
      }
      throw new McpClientError('rpc', `${method} failed: ${err.message} (JSON-RPC ${err.code}${httpStatus !== undefined ? `, HTTP ${httpStatus}` : ''})`, {
        method,
        code: err.code,
        data: err.data,
        serverMessage: err.message,
        ...(httpStatus !== undefined ? { httpStatus } : {}),
      });
    }
    if (!isJsonObject(message.result)) throw new McpClientError('protocol', `${method}: result is ${describeShape(message.result)}, not an object`, { method });
    return message.result;
  }

  /** The `_meta` of a request that declares no extension of its own: the same on every request, so made once (it is only ever copied from). */
  #plainModernMeta: JsonObject | undefined;

  #modernMeta(extensions: JsonObject | undefined): JsonObject {
    if (extensions === undefined) return (this.#plainModernMeta ??= this.#buildModernMeta(undefined));
    return this.#buildModernMeta(extensions);
  }

  #buildModernMeta(extensions: JsonObject | undefined): JsonObject {
    const declared = this.#settings.capabilities;
    const capabilities = extensions === undefined ? declared : { ...declared, extensions: { ...(isJsonObject(declared.extensions) ? declared.extensions : {}), ...extensions } };
    const meta: JsonObject = { [META.protocolVersion]: PROTOCOL_VERSION, [META.clientCapabilities]: capabilities as JsonObject };
    if (this.#settings.clientInfo !== false) meta[META.clientInfo] = this.#settings.clientInfo;
    return meta;
  }
}

function copyDetail(error: McpClientError): { code?: number; data?: unknown; httpStatus?: number; method?: string; serverMessage?: string } {
  return {
    ...(error.code !== undefined ? { code: error.code } : {}),
    ...(error.data !== undefined ? { data: error.data } : {}),
    ...(error.httpStatus !== undefined ? { httpStatus: error.httpStatus } : {}),
    ...(error.method !== undefined ? { method: error.method } : {}),
    ...(error.serverMessage !== undefined ? { serverMessage: error.serverMessage } : {}),
  };
}
