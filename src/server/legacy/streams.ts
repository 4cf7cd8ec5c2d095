/**
 * The SSE streams of legacy (2025) HTTP sessions: the GET stream (one per session across every
 * instance, claimed in the session record) and each POST's stream, every event with an id and kept
 * in the stream's replay buffer (replay.ts), and GET with `Last-Event-ID` resuming either
 * on any instance sharing the store. http-wire.ts routes requests here.
 *
 * A dropped stream is not a cancelled request (2025 revisions: "disconnection SHOULD NOT be
 * interpreted as the client cancelling its request"): a POST keeps running when its client goes,
 * its events and answer go on into its buffer, and a resumed stream delivers them. Only
 * `notifications/cancelled` and the end of the session cancel.
 */
import type { JsonRpcNotification } from '../../protocol/json-rpc.js';
import { echoExactId } from '../../protocol/json-rpc.js';
import type { EventStream, HeaderLookup, InboundMessage, Reply } from '../../transport/message-dispatcher.js';
import type { ServerLogger } from '../pipeline/create-pipeline.js';
import type { LegacySessionRecord, LegacySessionTable, SessionEvent } from './session-store.js';
import { errorReply } from '../pipeline/reply.js';
import { LiveSession } from './session.js';
import type { LegacySessionWire } from './session.js';
import { eventIdOf, getStreamOf, MAX_LAST_EVENT_ID_LENGTH, newPostStream, parseEventId, ReplayLog } from './replay.js';
import { StreamAttachment, type Refill } from './stream-attachment.js';
import type { ReplayBounds, StreamEvent } from './replay.js';
import { rpcError } from '../outcomes.js';
import type { Clock } from '../store/store.js';

/** A session's part in this process, with when it was last used here and how to stop hearing about it. */
export interface HeldSession extends LiveSession {
  seen?: number;
  unsubscribe?: Promise<() => void>;
  /** When the GET stream held here dropped; its channel keeps filling the replay buffer until a stream is claimed again. */
  detachedAt?: number;
  /**
   * Counts the GET stream claims taken here: a stream that ended lets go of the claim only if no
   * newer one was taken since (a client reconnecting at once must not lose its new claim to the
   * old stream's late release).
   */
  claimGeneration?: number;
  /** A GET stream is being opened here (claimed, not yet served): a second GET meanwhile is refused like one while it is open. */
  opening?: boolean;
}

/** What the streams share with the rest of the wire. */
export interface StreamContext {
  readonly table: LegacySessionTable;
  readonly clock: Clock;
  readonly logger: ServerLogger;
  readonly wire: LegacySessionWire;
  readonly bounds: ReplayBounds;
  /** How often an open GET stream renews its claim (and sends a keep-alive comment). */
  readonly beatMs: number;
  /** Whether the record names a live holder of the GET stream. */
  holdsStream(record: LegacySessionRecord): boolean;
  /** The session a request names, or the reply refusing it. */
  sessionOf(header: HeaderLookup): Promise<HeldSession | Reply>;
  /** The reply for a store that cannot be reached (anything else rethrown). */
  storeDown(error: unknown): Reply;
}

const GONE = 'Session not found: it expired or was deleted; send initialize again';
const CONFLICT = 'Conflict: this session already has an open GET stream';

/** The streams of one wire (one instance). */
export class LegacyStreams {
  readonly #ctx: StreamContext;
  readonly #replay: ReplayLog;
  /** Open streams showing a stream's events here, by `<session>:<stream>`. */
  readonly #attached = new Map<string, StreamAttachment>();

  constructor(ctx: StreamContext) {
    this.#ctx = ctx;
    this.#replay = new ReplayLog(ctx.table.store, ctx.bounds, ctx.clock);
  }

  /**
   * Appends a message to a stream's buffer, then shows it where the stream is open: `local` (the
   * POST's own connection), a stream attached here, or (through the store) another instance.
   */
  emit(sessionId: string, stream: string, json: string, final: boolean, local?: (event: StreamEvent) => void): Promise<StreamEvent> {
    return this.#replay.append(sessionId, stream, json, final, (event) => {
      local?.(event);
      this.#attached.get(`${sessionId}:${stream}`)?.deliver(event);
      // Published even when shown here: a resumption on another instance may have read the buffer
      // before this append, and only this tells it (the cost: one publish per event with a shared store).
      if (this.#ctx.table.relays) {
        void this.#ctx.table.publish(sessionId, { type: 'event', stream, seq: event.seq, json, final })
          .catch((error: unknown) => this.#ctx.logger.error('legacy session: cannot relay a stream event', { error: String(error) }));
      }
    });
  }

  /** The GET stream's channel: every message is kept for replay, whether or not a stream is open now. */
  channelOf(sessionId: string): (json: string) => boolean {
    const stream = getStreamOf(sessionId);
    return (json) => {
      void this.emit(sessionId, stream, json, false).catch((error: unknown) => this.#ctx.logger.error('legacy session: cannot keep a GET stream event', { error: String(error) }));
      return true;
    };
  }

  /** What another instance said that concerns streams shown here. */
  heard(session: HeldSession, event: SessionEvent): void {
    if (event.type === 'event') {
      this.#attached.get(`${session.record.id}:${event.stream}`)?.deliver({ seq: event.seq, id: eventIdOf(event.stream, event.seq), json: event.json, final: event.final, restart: false });
    } else if (event.type === 'claimed' && session.detachedAt !== undefined) this.#undetach(session);
  }

  /** Stops filling the replay buffer of a GET stream that dropped here (claimed again, or idle too long). */
  #undetach(session: HeldSession): void {
    session.detachedAt = undefined;
    session.channel = undefined;
    this.#ctx.wire.listen(session);
  }

  /** Sweeps a GET stream that dropped here longer than `idleMs` ago. */
  sweep(session: HeldSession, now: number, idleMs: number): void {
    if (session.detachedAt !== undefined && now - session.detachedAt > idleMs) this.#undetach(session);
  }

  /** The session ended (DELETE, expiry, shutdown): the POST streams resumed here end with it. */
  endSession(sessionId: string): void {
    for (const [key, attachment] of this.#attached) {
      if (!key.startsWith(`${sessionId}:`)) continue;
      this.#attached.delete(key);
      attachment.end();
    }
  }

  /** Wraps a POST of a session so its stream is resumable and a disconnect does not cancel it. */
  post(session: LiveSession, message: InboundMessage): ResumablePost {
    return new ResumablePost(this, session.record.id, message, this.#ctx.logger);
  }

  /** GET: opens the session's GET stream, or with `Last-Event-ID` resumes a stream after that event. */
  async open(header: HeaderLookup): Promise<Reply | ((stream: EventStream) => void)> {
    if (!/text\/event-stream/i.test(header('accept') ?? '')) return errorReply(rpcError('legacyNotAcceptable', 'Not acceptable: the GET stream is text/event-stream; send Accept: text/event-stream'), undefined);
    const lastEventId = header('last-event-id');
    // Checked before the session is even read: a hostile header costs nothing and replays nothing.
    const resumeFrom = lastEventId === undefined ? undefined : parseEventId(lastEventId.trim());
    if (lastEventId !== undefined && resumeFrom === undefined) {
      const shown = lastEventId.length > MAX_LAST_EVENT_ID_LENGTH ? `${lastEventId.length} characters (at most ${MAX_LAST_EVENT_ID_LENGTH})` : JSON.stringify(lastEventId);
      return errorReply(rpcError('legacyReplayBadEventId', `Bad request: Last-Event-ID ${shown} is not an event id of this server; nothing was replayed`), undefined);
    }
    try {
      const found = await this.#ctx.sessionOf(header);
      if (!(found instanceof LiveSession)) return found;
      const session: HeldSession = found;
      const id = session.record.id;
      if (resumeFrom !== undefined && resumeFrom.stream !== getStreamOf(id)) return await this.#resume(id, resumeFrom, undefined);
      // Marked before the first await: two GETs racing on this instance would both pass the claim (same instance).
      if (session.opening === true) return errorReply(rpcError('legacyStreamConflict', CONFLICT), undefined);
      session.opening = true;
      let served = false;
      try {
        const opened = await this.#openGet(session, resumeFrom);
        served = typeof opened === 'function';
        return opened;
      } finally {
        if (!served) session.opening = false;
      }
    } catch (error) {
      return this.#ctx.storeDown(error);
    }
  }

  /** Claims and prepares the session's GET stream (open() has marked it opening). */
  async #openGet(session: HeldSession, resumeFrom: { stream: string; seq: number } | undefined): Promise<Reply | ((stream: EventStream) => void)> {
    const id = session.record.id;
    const refused = await this.#claim(session);
    if (refused !== undefined) return refused;
    const generation = (session.claimGeneration = (session.claimGeneration ?? 0) + 1);
    // A plain GET shows what comes after the last event issued now, so an event relayed out of order
    // at its start is seen as missing rather than taken as the first.
    const stream = getStreamOf(id);
    const after = resumeFrom?.seq ?? (await this.#replay.position(id, stream));
    const attachment = new StreamAttachment(after, this.#refillOf(id, stream));
    if (resumeFrom !== undefined) {
      const resumed = await this.#resume(id, resumeFrom, attachment);
      if (typeof resumed !== 'function') {
        await this.#release(session, generation);
        return resumed;
      }
    }
    // Only now, the stream being served here: an instance still filling the buffer of a GET
    // stream that dropped there stops (a refused resumption leaves it filling).
    await this.#ctx.table.publish(id, { type: 'claimed' });
    return (stream) => this.#serveGet(session, attachment, stream, generation);
  }

  /** How an attachment showing `stream` reads its buffer again when an event arrived ahead of a missing one. */
  #refillOf(sessionId: string, stream: string): Refill {
    return async (after) => {
      const found = await this.#replay.lookup(sessionId, { stream, seq: after }, { acrossRestart: true });
      return found.ok ? found.events : 'gone';
    };
  }

  /** Claims the GET stream in the record (one per session across every instance); a Reply when refused. */
  async #claim(session: HeldSession): Promise<Reply | undefined> {
    const { table, clock } = this.#ctx;
    if (session.channel !== undefined && session.detachedAt === undefined) return errorReply(rpcError('legacyStreamConflict', CONFLICT), undefined);
    await table.present();
    // A claim held elsewhere is taken over when its instance is gone, provided nobody renewed or replaced it since.
    const held = session.record.stream;
    const orphan = held !== undefined && held.instance !== table.instance && this.#ctx.holdsStream(session.record) && (await table.holderGone(held.instance)) ? held : undefined;
    let taken = false;
    const claimed = await table.update(session.record.id, (r) => {
      const mayTake = orphan !== undefined && r.stream?.instance === orphan.instance && r.stream.seenAt === orphan.seenAt;
      if (r.stream !== undefined && r.stream.instance !== table.instance && this.#ctx.holdsStream(r) && !mayTake) {
        taken = true;
        return undefined;
      }
      return { ...r, stream: { instance: table.instance, seenAt: clock.now() }, resumable: true };
    });
    if (claimed === undefined) return errorReply(rpcError('legacySessionNotFound', GONE), undefined);
    session.adopt(claimed);
    if (taken) return errorReply(rpcError('legacyStreamConflict', CONFLICT), undefined);
    return undefined;
  }

  /** Lets go of claim `generation`, so the client may open its next GET stream on any instance at once. */
  async #release(session: HeldSession, generation: number): Promise<void> {
    const { table } = this.#ctx;
    const mine = (r: LegacySessionRecord): boolean => r.stream?.instance === table.instance && session.claimGeneration === generation;
    await table.update(session.record.id, (r) => (mine(r) ? { ...r, stream: undefined } : undefined)).catch(() => undefined);
  }

  /**
   * Shows a stream's events after `after`: attaches first (live events wait), then reads the
   * buffer, so nothing falls between the read and the live events; each is written once.
   */
  async #resume(sessionId: string, from: { stream: string; seq: number }, given: StreamAttachment | undefined): Promise<Reply | ((stream: EventStream) => void)> {
    const lastEventId = eventIdOf(from.stream, from.seq);
    const key = `${sessionId}:${from.stream}`;
    const attachment = given ?? new StreamAttachment(from.seq, this.#refillOf(sessionId, from.stream));
    // A second resumption of one POST stream replaces the first (the client lost that one too).
    const previous = this.#attached.get(key);
    this.#attached.set(key, attachment);
    previous?.end();
    const lookup = await this.#replay.lookup(sessionId, from).catch((error: unknown) => {
      this.#attached.delete(key);
      throw error;
    });
    if (!lookup.ok) {
      if (this.#attached.get(key) === attachment) this.#attached.delete(key);
      const why = lookup.reason === 'evicted'
        ? `the events after it were dropped from the replay buffer (at most ${this.#ctx.bounds.maxEvents} events and ${this.#ctx.bounds.maxBytes} bytes per stream are kept, for ${this.#ctx.bounds.ttlMs} ms after the last)`
        : 'it names no stream of this session (another session\'s, never issued, or expired)';
      return errorReply(rpcError('legacyReplayGone', `Gone: cannot resume after Last-Event-ID ${lastEventId}: ${why}; nothing was replayed; open the GET stream without Last-Event-ID`), undefined);
    }
    for (const event of lookup.events) attachment.deliver(event);
    if (given !== undefined) return () => undefined;
    return (stream) => {
      attachment.bind(stream);
      // A call may run long with nothing to say (waiting for an operator): idle proxies must not cut
      // it, and the session it runs in must not idle out under it.
      const beat = setInterval(() => {
        stream.keepAlive();
        void this.#ctx.table.touch(sessionId).catch(() => undefined);
      }, this.#ctx.beatMs);
      beat.unref();
      stream.onClose(() => {
        clearInterval(beat);
        if (this.#attached.get(key) === attachment) this.#attached.delete(key);
      });
    };
  }

  /** Serves an open GET stream: renews the claim, keeps proxies from cutting it, lets go when it ends. */
  #serveGet(session: HeldSession, attachment: StreamAttachment, stream: EventStream, generation: number): void {
    const { table, clock, logger, wire } = this.#ctx;
    const id = session.record.id;
    const key = `${id}:${getStreamOf(id)}`;
    this.#attached.set(key, attachment);
    attachment.bind(stream);
    const channel = this.channelOf(id);
    session.channel = channel;
    session.opening = false;
    session.detachedAt = undefined;
    session.onEnd = () => stream.end();
    wire.listen(session);
    const beat = setInterval(() => {
      // Renews this instance's claim, never another's: a claim taken over (this instance was thought gone) ends this stream.
      table.update(id, (r) => (r.stream === undefined || r.stream.instance === table.instance ? { ...r, stream: { instance: table.instance, seenAt: clock.now() } } : undefined)).then((record) => {
        if (record === undefined || record.stream?.instance !== table.instance) return stream.end();
        stream.keepAlive();
        // A subscription change whose event never arrived (store reconnecting) is caught up here.
        if (session.channel === channel && session.adopt(record)) wire.listen(session);
      }, (error: unknown) => logger.error('legacy session: cannot renew the GET stream', { error: error instanceof Error ? error.message : String(error) }));
    }, this.#ctx.beatMs);
    beat.unref();
    stream.onClose(() => {
      clearInterval(beat);
      if (this.#attached.get(key) === attachment) this.#attached.delete(key);
      if (session.channel !== channel) return;
      session.onEnd = undefined;
      // The channel stays: change notifications and messages meant for the GET stream go on into its
      // replay buffer until the client resumes (here or elsewhere) or the session idles out.
      session.detachedAt = Date.now();
      void this.#release(session, generation);
    });
  }
}

/**
 * A POST of a legacy session as the session sees it: its messages become events with ids in its
 * stream's replay buffer (the stream is minted at its first event), written to the POST's own
 * connection while it is there; its signal does not follow the connection, so a client that goes
 * away does not cancel the call (its answer waits in the buffer for a GET with `Last-Event-ID`).
 */
export class ResumablePost implements InboundMessage {
  readonly body: string | Uint8Array;
  readonly transport: InboundMessage['transport'];
  readonly header: HeaderLookup | undefined;
  parsed: unknown;
  readonly #streams: LegacyStreams;
  readonly #sessionId: string;
  readonly #original: InboundMessage;
  readonly #logger: ServerLogger;
  #controller: AbortController | undefined;
  #stream: string | undefined;

  constructor(streams: LegacyStreams, sessionId: string, original: InboundMessage, logger: ServerLogger) {
    this.#streams = streams;
    this.#sessionId = sessionId;
    this.#original = original;
    this.#logger = logger;
    this.body = original.body;
    this.transport = original.transport;
    this.header = original.header;
    this.parsed = original.parsed;
  }

  /** Never aborted by the connection; the session cancels calls through `notifications/cancelled` or its end. */
  get signal(): AbortSignal {
    this.#controller ??= new AbortController();
    return this.#controller.signal;
  }

  isAborted(): boolean {
    return false;
  }

  /** The POST's own connection: what `ctx.connectionLost` follows, while the call runs on. */
  get connectionSignal(): AbortSignal {
    return this.#original.signal;
  }

  notify(notification: JsonRpcNotification): void {
    const json = JSON.stringify(notification);
    const stream = (this.#stream ??= newPostStream());
    const original = this.#original;
    void this.#streams.emit(this.#sessionId, stream, json, false, (event) => {
      if (!original.isAborted()) original.notifyEvent?.(event.json, event.id);
    }).catch((error: unknown) => {
      // Not kept (store down): still shown to a client that is there, without an id.
      this.#logger.error('legacy session: cannot keep a POST stream event', { error: String(error) });
      original.notify(notification);
    });
  }

  /**
   * The call's answer: when the POST became a stream, its messages are appended (the last marked
   * final) and the reply carries their ids; a plain JSON answer (no stream) is returned as is.
   */
  async finish(reply: Reply): Promise<Reply> {
    const stream = this.#stream;
    if (stream === undefined || reply.body === undefined) return reply;
    try {
      // Appends to one stream are written and shown in order, so the answer comes after the progress sent before it.
      // The ids as the client wrote them (exact digits), as the transport writes them.
      const messages = reply.events ?? [echoExactId(this.body, reply.body)];
      const eventIds: string[] = [];
      for (const [i, json] of messages.entries()) eventIds.push((await this.#streams.emit(this.#sessionId, stream, json, i === messages.length - 1)).id);
      return { ...reply, eventIds };
    } catch (error) {
      this.#logger.error('legacy session: cannot keep a POST answer for replay', { error: String(error) });
      return reply;
    }
  }
}
