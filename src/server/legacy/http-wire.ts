/**
 * The 2025 (legacy, stateful) wire over Streamable HTTP, for dual-era servers (digest §1.4):
 * `initialize` opens a session (`Mcp-Session-Id`), which every later request must name (404 once
 * it is unknown or expired); GET opens the session's event stream (change notifications, and
 * server-to-client requests or progress for POSTs that accept no stream); DELETE ends it. Session
 * records live in the server's store (session-store.ts), so with a shared store any instance
 * serves any session: the instance holding the GET stream is named in the record, and what another
 * instance has for that stream reaches it through the store's publish/subscribe. The session table
 * is bounded: when `maxSessions` live sessions exist, `initialize` gets 503 with `Retry-After` and
 * no live session is ever evicted. Only 2025 requests come here: the era router
 * (src/server/era-router/http.ts) sends everything else to the pipeline, and authenticates what it
 * sends here first. What a session answers itself and how its requests reach the pipeline is
 * session.ts; JSON-RPC batches (2025-03-26 sessions only) are batch.ts; the SSE
 * streams (the GET stream's claim, event ids, replay and `Last-Event-ID` resumption, a POST that
 * outlives its connection) are streams.ts and replay.ts.
 */
import { randomUUID } from 'node:crypto';
import { declaredClient } from '../../protocol/client-info.js';
import { isJsonObject, isJsonRpcId } from '../../protocol/json-rpc.js';
import type { JsonObject, JsonRpcId } from '../../protocol/json-rpc.js';
import type { HeaderLookup, InboundMessage, Reply, SessionEndpoint } from '../../transport/message-dispatcher.js';
import type { ServerLogger } from '../pipeline/create-pipeline.js';
import { acceptsBatches, DEFAULT_MAX_BATCH_SIZE, holdsInitialize, initializeInBatch, notOneMessage, runBatch } from './batch.js';
import { LegacySessionTable } from './session-store.js';
import type { LegacySessionRecord, SessionEvent } from './session-store.js';
import { errorReply } from '../pipeline/reply.js';
import type { AuthInfo } from '../contract/tool-types.js';
import { LegacySessionWire, LiveSession } from './session.js';
import { LegacyStreams } from './streams.js';
import type { HeldSession } from './streams.js';
import { negotiateLegacyVersion } from './translate.js';
import { rpcError } from '../outcomes.js';
import { StoreFullError, StoreUnavailableError } from '../store/store.js';
import type { Clock, Store } from '../store/store.js';

/** Options of the legacy wire (`createServer({ legacy })`). Session records live in the server's `store`. */
export interface LegacyWireOptions {
  /** HTTP sessions unused for this long expire; later requests naming them get 404 (default 30 minutes). */
  sessionIdleMs?: number;
  /** Live HTTP sessions at most (per instance that opens them); beyond that `initialize` gets 503 and nothing is evicted (default 1000). */
  maxSessions?: number;
  /** How long to wait for a client's answer to a server-to-client request (default 5 minutes). */
  inputTimeoutMs?: number;
  /** Input-required rounds per call before giving up (default 10). */
  maxInputRounds?: number;
  /** Messages per JSON-RPC batch at most (2025-03-26 sessions only; default 32); a larger batch is refused whole and nothing in it runs. */
  maxBatchSize?: number;
  /** Events kept per stream for `Last-Event-ID` resumption (default 100); older ones are dropped and a resumption needing them gets 410. */
  replayMaxEvents?: number;
  /** Bytes of event data kept per stream for resumption (default 1 MiB); the newest event (a call's answer) is always kept. */
  replayMaxBytes?: number;
}

/** What the HTTP legacy wire shares with the rest of the server. */
export interface LegacyWireEnvironment {
  /** Where session records live and how instances reach each other (the server's store). */
  readonly store: Store;
  readonly clock: Clock;
  readonly logger: ServerLogger;
}

/** The legacy wire of one server: POST, GET and DELETE of its HTTP sessions. */
export interface LegacyHttpWire {
  /**
   * One POST the era router classified as 2025, its body already parsed; `auth` is the caller the
   * router authenticated (undefined without an `authorize` option).
   */
  handle(message: InboundMessage, parsed: unknown, auth: AuthInfo | undefined): Promise<Reply>;
  /** GET (the session's stream) and DELETE (end the session). */
  readonly sessions: SessionEndpoint;
  /** Ends every session's part held here (server shutdown); the records stay for other instances. */
  close(): void;
}

const NO_SESSION = 'Bad request: Mcp-Session-Id header is required; send initialize first';
const STORE_DOWN = 'Service unavailable: the shared store cannot be reached; nothing was done; retry shortly';

function positive(value: number | undefined, fallback: number, name: string): number {
  const v = value ?? fallback;
  if (!(Number.isFinite(v) && v > 0)) throw new TypeError(`createServer: legacy.${name} must be a positive number, got ${String(value)}`);
  return v;
}

/** Resolves legacy wire options once (shared by HTTP and stdio). */
export function resolveLegacyOptions(options: LegacyWireOptions = {}): Required<LegacyWireOptions> {
  if ('store' in options) throw new TypeError('createServer: legacy.store is gone; legacy sessions live in the server\'s store (createServer({ store }))');
  return {
    sessionIdleMs: positive(options.sessionIdleMs, 30 * 60_000, 'sessionIdleMs'),
    maxSessions: positive(options.maxSessions, 1000, 'maxSessions'),
    inputTimeoutMs: positive(options.inputTimeoutMs, 5 * 60_000, 'inputTimeoutMs'),
    maxInputRounds: positive(options.maxInputRounds, 10, 'maxInputRounds'),
    maxBatchSize: positive(options.maxBatchSize, DEFAULT_MAX_BATCH_SIZE, 'maxBatchSize'),
    replayMaxEvents: positive(options.replayMaxEvents, 100, 'replayMaxEvents'),
    replayMaxBytes: positive(options.replayMaxBytes, 1024 * 1024, 'replayMaxBytes'),
  };
}

/** Reads `initialize` params into a new session record, or the error to answer. */
export function initializeRecord(params: JsonObject): LegacySessionRecord | 'invalid' {
  if (typeof params.protocolVersion !== 'string' || !isJsonObject(params.capabilities)) return 'invalid';
  const clientInfo = declaredClient(params.clientInfo);
  return { id: randomUUID(), protocolVersion: negotiateLegacyVersion(params.protocolVersion), capabilities: params.capabilities, ...(clientInfo !== undefined ? { clientInfo } : {}), subscriptions: [] };
}

/**
 * The 2025 sessions of one HTTP endpoint. `wire` is the server's session logic; `options` must
 * come from {@link resolveLegacyOptions}.
 */
export function createLegacyHttpWire(
  wire: LegacySessionWire,
  options: ReturnType<typeof resolveLegacyOptions>,
  env: LegacyWireEnvironment,
): LegacyHttpWire {
  const { sessionIdleMs: idleMs } = options;
  const { clock, logger } = env;
  const table = new LegacySessionTable(env.store, { maxSessions: options.maxSessions, idleMs, clock, instance: randomUUID() });
  // An open stream is use: it keeps the session from expiring, and the comment keeps proxies from cutting it.
  // Each beat also renews the stream's claim in the record (one store write per open stream every 5 s).
  const beatMs = Math.min(idleMs / 2, 5_000);
  // A holder that has not renewed its claim for three beats is gone. A killed holder is found out at
  // once (table.holderGone: nothing hears its presence channel), so its client gets its stream back on
  // its next GET; the stale bound covers stores that cannot count listeners.
  const staleMs = 3 * beatMs;
  const live = new Map<string, HeldSession>();
  // Process-local halves of sessions that went quiet are dropped; their records expire in the store.
  const sweeper = setInterval(() => {
    const now = Date.now();
    for (const [id, session] of live) {
      streams.sweep(session, now, idleMs);
      if (session.channel === undefined && session.inflight.size === 0 && session.pending.size === 0 && now - (session.seen ?? now) > idleMs) drop(id);
    }
  }, Math.min(idleMs, 60_000));
  sweeper.unref();

  function drop(id: string): void {
    const session = live.get(id);
    if (session === undefined) return;
    live.delete(id);
    session.end();
    streams.endSession(id);
    void session.unsubscribe?.then((stop) => stop(), () => undefined);
  }

  const holdsStream = (record: LegacySessionRecord): boolean => record.stream !== undefined && clock.now() - record.stream.seenAt < staleMs;
  const streams = new LegacyStreams({
    table, clock, logger, wire, beatMs, holdsStream,
    bounds: { maxEvents: options.replayMaxEvents, maxBytes: options.replayMaxBytes, ttlMs: idleMs },
    sessionOf: (header) => sessionOf(header),
    storeDown: (error) => storeDown(error, undefined),
  });

  /** What another instance said about a session this process has a part of. */
  function onEvent(session: HeldSession, event: SessionEvent): void {
    switch (event.type) {
      case 'send':
        session.channel?.(event.json);
        return;
      case 'answer':
        if (isJsonRpcId(event.message.id)) session.pending.get(event.message.id)?.(event.message);
        return;
      case 'cancel':
        session.inflight.get(event.requestKey)?.cancel();
        return;
      case 'changed':
        // Applied as heard, with no store read in between: the store delivers this before any
        // notification raised after the change was answered, so that notification finds the new filter.
        if (session.adopt({ ...session.record, subscriptions: event.subscriptions, subscriptionsRevision: event.revision }) && session.channel !== undefined) wire.listen(session);
        return;
      case 'end':
        drop(session.record.id);
        return;
      default:
        streams.heard(session, event);
    }
  }

  async function liveOf(record: LegacySessionRecord): Promise<HeldSession> {
    let session = live.get(record.id);
    if (session === undefined) {
      const created: HeldSession = new LiveSession(record);
      session = created;
      created.requestIdPrefix = `tw-${table.instance.slice(0, 8)}-`;
      live.set(record.id, created);
      if (table.relays) {
        const id = record.id;
        created.relay = {
          send: (json) => {
            const holder = created.record.stream;
            if (holder === undefined || holder.instance === table.instance || !holdsStream(created.record)) {
              // No stream open anywhere, but the client had one: kept in its replay buffer for when it resumes.
              return created.record.resumable === true && streams.channelOf(id)(json);
            }
            void table.publish(id, { type: 'send', json }).catch((error: unknown) => logger.error('legacy session: cannot relay to the GET stream', { error: String(error) }));
            return true;
          },
          answer: (message) => void table.publish(id, { type: 'answer', message }).catch(() => undefined),
          cancel: (requestKey) => void table.publish(id, { type: 'cancel', requestKey }).catch(() => undefined),
          // Not delivered (store down): the record has the change, and the holder reads it at its next beat.
          changed: (changed) => table.publish(id, { type: 'changed', subscriptions: changed.subscriptions, revision: changed.subscriptionsRevision ?? 0 })
            .catch((error: unknown) => logger.error('legacy session: cannot tell the GET stream of a subscription change', { error: String(error) })),
        };
        // Heard before this request goes on, so an answer to anything it asks cannot be missed.
        created.unsubscribe = table.subscribe(id, (event) => onEvent(created, event));
        try {
          await created.unsubscribe;
        } catch (error) {
          // Not listening: forget this half, so the next request tries again (this one is refused).
          live.delete(id);
          throw error;
        }
      }
    }
    if (session.adopt(record) && session.channel !== undefined) wire.listen(session);
    session.seen = Date.now();
    return session;
  }

  async function sessionOf(header: HeaderLookup, requestId?: JsonRpcId): Promise<HeldSession | Reply> {
    const id = header('mcp-session-id')?.trim();
    if (id === undefined || id === '') return errorReply(rpcError('legacySessionRequired', NO_SESSION), requestId);
    const record = await table.touch(id);
    if (record === undefined) {
      drop(id);
      return errorReply(rpcError('legacySessionNotFound', 'Session not found: it expired or was deleted; send initialize again'), requestId);
    }
    return liveOf(record);
  }

  async function initialize(m: JsonObject, sessionHeader: string | undefined): Promise<Reply> {
    const id = m.id as string | number;
    if (sessionHeader !== undefined) return errorReply(rpcError('legacySessionRequired', 'Invalid request: initialize must not carry an Mcp-Session-Id; it opens a new session'), id);
    const record = initializeRecord(isJsonObject(m.params) ? m.params : {});
    if (record === 'invalid') return errorReply(rpcError('legacyInvalidInitialize', 'Invalid params: initialize needs a string protocolVersion and a capabilities object'), id);
    let opened;
    try {
      opened = await table.open(record);
    } catch (error) {
      if (!(error instanceof StoreFullError)) throw error;
      opened = { opened: false as const, retryAfterMs: 1000 };
    }
    if (!opened.opened) {
      const seconds = Math.ceil(opened.retryAfterMs / 1000);
      return errorReply(rpcError('legacySessionsFull', `Server busy: all ${options.maxSessions} sessions are in use; retry in ${seconds} s`), id, { 'Retry-After': String(seconds) });
    }
    return { status: 200, body: JSON.stringify({ jsonrpc: '2.0', id, result: wire.initializeResult(record) }), headers: { 'Mcp-Session-Id': record.id } };
  }

  async function handle(message: InboundMessage, parsed: unknown, auth: AuthInfo | undefined): Promise<Reply> {
    const header = message.header as HeaderLookup;
    const sessionHeader = header('mcp-session-id')?.trim();
    // A batch opening a session: 2025-03-26 forbids initialize in a batch, and without a session nothing else in it can run.
    if (sessionHeader === undefined && Array.isArray(parsed) && holdsInitialize(parsed)) return initializeInBatch();
    if (Array.isArray(parsed)) return batch(parsed, message, header, header('mcp-protocol-version')?.trim(), auth);
    const m = isJsonObject(parsed) ? parsed : undefined;
    if (m === undefined || m.jsonrpc !== '2.0') return notOneMessage();
    const requestId = isJsonRpcId(m.id) ? m.id : undefined;
    try {
      // The router sends `initialize` here only without a 2026-07-28 claim.
      if (m.method === 'initialize' && m.id !== undefined) return await initialize(m, sessionHeader);
      const session = await sessionOf(header, requestId);
      if (!(session instanceof LiveSession)) return session;
      const post = streams.post(session, message);
      return await post.finish(await wire.handle(session, m, post, (change) => table.update(session.record.id, change), auth));
    } catch (error) {
      return storeDown(error, requestId);
    }
  }

  /** A JSON-RPC batch naming a session (batch.ts): run in a 2025-03-26 session, refused as always for later revisions. */
  async function batch(members: unknown[], message: InboundMessage, header: HeaderLookup, versionHeader: string | undefined, auth: AuthInfo | undefined): Promise<Reply> {
    if (versionHeader !== undefined && !acceptsBatches(versionHeader)) return notOneMessage();
    try {
      const session = await sessionOf(header);
      if (!(session instanceof LiveSession)) return session;
      if (!acceptsBatches(session.record.protocolVersion)) return notOneMessage();
      const post = streams.post(session, message);
      return await post.finish(await runBatch(members, post, options.maxBatchSize, (m, member) => wire.handle(session, m, member, (change) => table.update(session.record.id, change), auth)
        .catch((error: unknown) => storeDown(error, isJsonRpcId(m.id) ? m.id : undefined))));
    } catch (error) {
      return storeDown(error, undefined);
    }
  }

  /** A store that cannot be reached refuses the request (503, nothing done); anything else is a bug and propagates. */
  function storeDown(error: unknown, id: JsonRpcId | undefined): Reply {
    if (!(error instanceof StoreUnavailableError)) throw error;
    logger.error(`legacy session refused: ${error.message}`, {});
    return errorReply(rpcError('storeUnavailable', STORE_DOWN), id);
  }

  async function endSession(header: HeaderLookup): Promise<Reply> {
    const id = header('mcp-session-id')?.trim();
    if (id === undefined || id === '') return errorReply(rpcError('legacySessionRequired', NO_SESSION), undefined);
    let existed: boolean;
    try {
      existed = await table.close(id);
    } catch (error) {
      return storeDown(error, undefined);
    }
    drop(id);
    if (!existed) return errorReply(rpcError('legacySessionNotFound', 'Session not found: it expired or was already deleted'), undefined);
    return { status: 200, body: undefined };
  }

  return {
    handle,
    sessions: { openStream: (header) => streams.open(header), endSession },
    close() {
      clearInterval(sweeper);
      for (const id of [...live.keys()]) drop(id);
      table.stopPresence();
    },
  };
}
