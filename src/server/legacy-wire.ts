/**
 * The 2025 (legacy, stateful) wire over Streamable HTTP, for dual-era servers (digest §1.4):
 * `initialize` opens a session (`Mcp-Session-Id`), which every later request must name (404 once
 * it is unknown or expired); GET opens the session's event stream (change notifications, and
 * server-to-client requests or progress for POSTs that accept no stream); DELETE ends it. The
 * session table is bounded: when `maxSessions` live sessions exist, `initialize` gets 503 with
 * `Retry-After` and no live session is ever evicted. Requests making a 2026-07-28 claim pass
 * straight through to the stateless pipeline. What a session answers itself and how its requests
 * reach the pipeline is legacy-session.ts.
 */
import { randomUUID } from 'node:crypto';
import { META } from '../protocol/constants.js';
import { isJsonObject, isJsonRpcId } from '../protocol/json-rpc.js';
import type { JsonObject, JsonRpcId } from '../protocol/json-rpc.js';
import type { EventStream, HeaderLookup, InboundMessage, Reply, SessionDispatcher } from '../transport/message-dispatcher.js';
import { LEGACY_PROTOCOL_VERSIONS } from './eras.js';
import { MemorySessionStore } from './legacy-session-store.js';
import type { LegacySessionRecord, LegacySessionStore } from './legacy-session-store.js';
import { errorReply, LegacySessionWire, LiveSession } from './legacy-session.js';
import { negotiateLegacyVersion } from './legacy-translate.js';
import { rpcError } from './outcomes.js';

export { LEGACY_PROTOCOL_VERSIONS };

/** Options of the legacy wire (`createServer({ legacy })`). */
export interface LegacyWireOptions {
  /** HTTP sessions unused for this long expire; later requests naming them get 404 (default 30 minutes). */
  sessionIdleMs?: number;
  /** Live HTTP sessions at most; beyond that `initialize` gets 503 and nothing is evicted (default 1000). */
  maxSessions?: number;
  /** How long to wait for a client's answer to a server-to-client request (default 5 minutes). */
  inputTimeoutMs?: number;
  /** Input-required rounds per call before giving up (default 10). */
  maxInputRounds?: number;
  /** Where HTTP session records live (default: in this process, bounded by `maxSessions`). */
  store?: LegacySessionStore;
}

/** The legacy wire of one server: POST, GET and DELETE of its HTTP sessions. */
export interface LegacyHttpWire extends SessionDispatcher {
  /** Ends every session (server shutdown). */
  close(): void;
}

const decoder = new TextDecoder();
const LEGACY_VERSIONS = new Set(LEGACY_PROTOCOL_VERSIONS);
const NO_SESSION = 'Bad request: Mcp-Session-Id header is required; send initialize first';

function positive(value: number | undefined, fallback: number, name: string): number {
  const v = value ?? fallback;
  if (!(Number.isFinite(v) && v > 0)) throw new TypeError(`createServer: legacy.${name} must be a positive number, got ${String(value)}`);
  return v;
}

/** Resolves legacy wire options once (shared by HTTP and stdio). */
export function resolveLegacyOptions(options: LegacyWireOptions = {}): Required<Omit<LegacyWireOptions, 'store'>> & { store: LegacySessionStore } {
  const maxSessions = positive(options.maxSessions, 1000, 'maxSessions');
  return {
    sessionIdleMs: positive(options.sessionIdleMs, 30 * 60_000, 'sessionIdleMs'),
    maxSessions,
    inputTimeoutMs: positive(options.inputTimeoutMs, 5 * 60_000, 'inputTimeoutMs'),
    maxInputRounds: positive(options.maxInputRounds, 10, 'maxInputRounds'),
    store: options.store ?? new MemorySessionStore(maxSessions),
  };
}

/** Reads `initialize` params into a new session record, or the error to answer. */
export function initializeRecord(params: JsonObject): LegacySessionRecord | 'invalid' {
  if (typeof params.protocolVersion !== 'string' || !isJsonObject(params.capabilities)) return 'invalid';
  return { id: randomUUID(), protocolVersion: negotiateLegacyVersion(params.protocolVersion), capabilities: params.capabilities, subscriptions: [] };
}

/** True when an `initialize` request makes no 2026-07-28 claim (no `_meta` protocol version). */
export function isLegacyInitialize(m: JsonObject | undefined): boolean {
  return m?.method === 'initialize' && !hasModernMeta(m);
}

function hasModernMeta(m: JsonObject | undefined): boolean {
  const meta = m !== undefined && isJsonObject(m.params) ? m.params._meta : undefined;
  return isJsonObject(meta) && typeof meta[META.protocolVersion] === 'string';
}

/**
 * Wraps a 2026-07-28 dispatcher so the same HTTP endpoint also serves 2025 sessions. `wire` is
 * the server's session logic; `options` must come from {@link resolveLegacyOptions}.
 */
export function createLegacyHttpWire(
  modern: (message: InboundMessage) => Promise<Reply>,
  wire: LegacySessionWire,
  options: ReturnType<typeof resolveLegacyOptions>,
): LegacyHttpWire {
  const { store, sessionIdleMs: idleMs } = options;
  const live = new Map<string, LiveSession & { seen?: number }>();
  // Process-local halves of sessions that went quiet are dropped; their records expire in the store on the same clock.
  const sweeper = setInterval(() => {
    const now = Date.now();
    for (const [id, session] of live) {
      if (session.channel === undefined && session.inflight.size === 0 && now - (session.seen ?? now) > idleMs) live.delete(id);
    }
  }, Math.min(idleMs, 60_000));
  sweeper.unref();

  function liveOf(record: LegacySessionRecord): LiveSession & { seen?: number } {
    let session = live.get(record.id);
    if (session === undefined) {
      session = new LiveSession(record);
      live.set(record.id, session);
    }
    session.record = record;
    session.seen = Date.now();
    return session;
  }

  async function sessionOf(header: HeaderLookup, requestId?: JsonRpcId): Promise<LiveSession | Reply> {
    const id = header('mcp-session-id')?.trim();
    if (id === undefined || id === '') return errorReply(rpcError('legacySessionRequired', NO_SESSION), requestId);
    const record = await store.touch(id, idleMs);
    if (record === undefined) {
      live.get(id)?.end();
      live.delete(id);
      return errorReply(rpcError('legacySessionNotFound', 'Session not found: it expired or was deleted; send initialize again'), requestId);
    }
    return liveOf(record);
  }

  async function initialize(m: JsonObject, sessionHeader: string | undefined): Promise<Reply> {
    const id = m.id as string | number;
    if (sessionHeader !== undefined) return errorReply(rpcError('legacySessionRequired', 'Invalid request: initialize must not carry an Mcp-Session-Id; it opens a new session'), id);
    const record = initializeRecord(isJsonObject(m.params) ? m.params : {});
    if (record === 'invalid') return errorReply(rpcError('legacyInvalidInitialize', 'Invalid params: initialize needs a string protocolVersion and a capabilities object'), id);
    const opened = await store.open(record, idleMs);
    if (!opened.opened) {
      const seconds = Math.ceil(opened.retryAfterMs / 1000);
      return errorReply(rpcError('legacySessionsFull', `Server busy: all ${options.maxSessions} sessions are in use; retry in ${seconds} s`), id, { 'Retry-After': String(seconds) });
    }
    liveOf(record);
    return { status: 200, body: JSON.stringify({ jsonrpc: '2.0', id, result: wire.initializeResult(record) }), headers: { 'Mcp-Session-Id': record.id } };
  }

  async function handleMessage(message: InboundMessage): Promise<Reply> {
    const header = message.header;
    if (header === undefined) return modern(message);
    const sessionHeader = header('mcp-session-id')?.trim();
    const versionHeader = header('mcp-protocol-version')?.trim();
    // A 2026-07-28 claim wins; such clients' stray Mcp-Session-Id headers are ignored (R-80).
    if (versionHeader !== undefined && !LEGACY_VERSIONS.has(versionHeader)) return modern(message);
    let parsed: unknown;
    try {
      parsed = JSON.parse(typeof message.body === 'string' ? message.body : decoder.decode(message.body));
    } catch {
      return modern(message);
    }
    const m = isJsonObject(parsed) ? parsed : undefined;
    const initialize_ = isLegacyInitialize(m) && m?.id !== undefined;
    // So does a 2026-07-28 claim in the body, whatever the headers say (the pipeline then reports any header mismatch).
    if ((sessionHeader === undefined && versionHeader === undefined && !initialize_) || hasModernMeta(m)) {
      message.parsed = parsed;
      return modern(message);
    }
    if (m === undefined || m.jsonrpc !== '2.0') return errorReply(rpcError('invalidRequest', 'Invalid request: expected one JSON-RPC 2.0 message (batches are not accepted)'), undefined);
    if (initialize_) return initialize(m, sessionHeader);
    const session = await sessionOf(header, isJsonRpcId(m.id) ? m.id : undefined);
    if (!(session instanceof LiveSession)) return session;
    return wire.handle(session, m, message, (record) => store.save(record, idleMs));
  }

  async function openStream(header: HeaderLookup): Promise<Reply | ((stream: EventStream) => void)> {
    if (!/text\/event-stream/i.test(header('accept') ?? '')) return errorReply(rpcError('legacyNotAcceptable', 'Not acceptable: the GET stream is text/event-stream; send Accept: text/event-stream'), undefined);
    const session = await sessionOf(header);
    if (!(session instanceof LiveSession)) return session;
    if (session.channel !== undefined) return errorReply(rpcError('legacyStreamConflict', 'Conflict: this session already has an open GET stream'), undefined);
    return (stream) => {
      const channel = (json: string): boolean => stream.send(json);
      session.channel = channel;
      session.onEnd = () => stream.end();
      wire.listen(session);
      // An open stream is use: it keeps the session from expiring, and the comment keeps proxies from cutting it.
      const beat = setInterval(() => {
        void Promise.resolve(store.touch(session.record.id, idleMs)).then((record) => {
          if (record === undefined) stream.end();
          else stream.keepAlive();
        });
      }, Math.min(idleMs / 2, 15_000));
      beat.unref();
      stream.onClose(() => {
        clearInterval(beat);
        if (session.channel === channel) {
          session.channel = undefined;
          session.onEnd = undefined;
          wire.listen(session);
        }
      });
    };
  }

  async function endSession(header: HeaderLookup): Promise<Reply> {
    const id = header('mcp-session-id')?.trim();
    if (id === undefined || id === '') return errorReply(rpcError('legacySessionRequired', NO_SESSION), undefined);
    const existed = await store.close(id);
    live.get(id)?.end();
    live.delete(id);
    if (!existed) return errorReply(rpcError('legacySessionNotFound', 'Session not found: it expired or was already deleted'), undefined);
    return { status: 200, body: undefined };
  }

  return {
    handleMessage,
    sessions: { openStream, endSession },
    close() {
      clearInterval(sweeper);
      for (const session of live.values()) session.end();
      live.clear();
    },
  };
}
