/**
 * Legacy (2025) Streamable HTTP sessions kept in THE store (store/store.ts), so any instance that
 * shares the store serves any session: a session is a record with a time to live (the idle
 * timeout), written with compare-and-set so two instances changing one session (a log level here,
 * the GET stream there) never lose each other's change. What cannot be a record (the open GET
 * stream, server-to-client requests awaiting answers, requests in flight) stays in the process
 * that holds it; instances reach it through the session's publish/subscribe channel
 * ({@link SessionEvent}), so a message for the GET stream held elsewhere, a client's answer or a
 * cancel arriving at another instance, and the end of a session reach the right process.
 *
 * The table is bounded: each instance admits at most `maxSessions` live sessions it opened itself
 * (with one instance, the classic bound), and answers `initialize` with 503 beyond that; nothing
 * live is evicted. A full store (StoreFullError) is refused the same way.
 */
import type { DeclaredClient } from '../../protocol/client-info.js';
import type { JsonObject, JsonValue } from '../../protocol/json-rpc.js';
import type { Clock, Store, StoredRecord } from '../store/store.js';

/** The durable part of one legacy session. */
export interface LegacySessionRecord {
  /** The `Mcp-Session-Id` minted at `initialize`. */
  readonly id: string;
  /** The negotiated 2025 revision. */
  readonly protocolVersion: string;
  /** The client capabilities declared at `initialize`. */
  readonly capabilities: Readonly<Record<string, unknown>>;
  /** The client's name and version declared at `initialize` (its clientInfo), if any; each request of the session carries it as `_meta`. */
  readonly clientInfo?: DeclaredClient;
  /** Set by `logging/setLevel`; undefined = the client never asked (every level is sent). */
  readonly logLevel?: string;
  /** URIs of `resources/subscribe`. */
  readonly subscriptions: readonly string[];
  /**
   * Counts the writes of `subscriptions` (absent: 0). Every write is a compare-and-set, so a
   * higher revision is a later list: the instance holding the GET stream keeps the highest it has
   * heard of, in whatever order the events and re-reads reach it.
   */
  readonly subscriptionsRevision?: number;
  /** Which instance holds the session's GET stream, and when it last said so (absent: no stream). */
  readonly stream?: { readonly instance: string; readonly seenAt: number };
  /**
   * Set when the session's first GET stream opens: from then on, messages for the GET stream are
   * kept in its replay buffer even while no stream is open, for the client to resume it.
   */
  readonly resumable?: true;
}

/** What `open` answers: the session exists now, or there is no room and when to try again. */
export type OpenOutcome = { readonly opened: true } | { readonly opened: false; readonly retryAfterMs: number };

/** What instances tell each other about one session, on its store channel. */
export type SessionEvent =
  /** A message for the GET stream (progress, logs, server-to-client requests of a call running elsewhere). */
  | { readonly from: string; readonly type: 'send'; readonly json: string }
  /** A client's answer to a server-to-client request one instance is waiting for. */
  | { readonly from: string; readonly type: 'answer'; readonly message: JsonObject }
  /** `notifications/cancelled` for a request running on another instance, named by its exact key ({@link requestKey}). */
  | { readonly from: string; readonly type: 'cancel'; readonly requestKey: string }
  /**
   * The subscriptions changed, as now stored: the GET stream's holder applies them as it hears
   * this (no store read), so a notification raised after the change was answered reaches it.
   */
  | { readonly from: string; readonly type: 'changed'; readonly subscriptions: readonly string[]; readonly revision: number }
  /** DELETE: every instance ends its part of the session. */
  | { readonly from: string; readonly type: 'end' }
  /**
   * An event appended to a stream's replay buffer (replay.ts), for the instance showing
   * that stream (a GET stream, or a POST's stream resumed by GET) if it is not the writer.
   */
  | { readonly from: string; readonly type: 'event'; readonly stream: string; readonly seq: number; readonly json: string; readonly final: boolean }
  /** An instance claimed the GET stream: one that kept filling its replay buffer after it dropped stops. */
  | { readonly from: string; readonly type: 'claimed' };

/** Distributes `Omit` over the union, so each event keeps its own fields. */
export type SessionEventBody = SessionEvent extends infer E ? (E extends SessionEvent ? Omit<E, 'from'> : never) : never;

/** Settings of a {@link LegacySessionTable}. */
export interface LegacySessionTableOptions {
  /** Live sessions this instance may have opened at once. */
  readonly maxSessions: number;
  /** A session unused for this long expires. */
  readonly idleMs: number;
  readonly clock: Clock;
  /** This instance's id in stream claims and events (unique per process). */
  readonly instance: string;
}

const SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const keyOf = (id: string): string => `legacy-session:${id}`;
// Each instance listens on its own channel while it may hold GET streams; a publish there that no one hears means it is gone.
const presenceOf = (instance: string): string => `legacy-instance:${instance}`;
// Contended writes to one session are rare (a few per GET stream); a write that loses this often is a bug.
const MAX_WRITE_ATTEMPTS = 8;
// Opening a full table re-reads the sessions it opened at most this often (a flood of initialize costs no store traffic).
const RECHECK_MS = 1000;

/** The legacy session table of one instance, on a (possibly shared) store. */
export class LegacySessionTable {
  readonly #store: Store;
  readonly #options: LegacySessionTableOptions;
  /** Sessions this instance opened, with the expiry it last saw (a lower bound: others may have used them since). */
  readonly #opened = new Map<string, number>();
  #checkedAt = -Infinity;
  #presence: Promise<() => void> | undefined;

  constructor(store: Store, options: LegacySessionTableOptions) {
    this.#store = store;
    this.#options = options;
  }

  /** The store the records live in (replay buffers live beside them, replay.ts). */
  get store(): Store {
    return this.#store;
  }

  /** This instance's id. */
  get instance(): string {
    return this.#options.instance;
  }

  /** Whether sessions can be reached across instances (the store has publish/subscribe). */
  get relays(): boolean {
    return this.#store.publish !== undefined && this.#store.subscribe !== undefined;
  }

  /** Adds `record` unless this instance already has `maxSessions` live sessions. */
  async open(record: LegacySessionRecord): Promise<OpenOutcome> {
    const now = this.#options.clock.now();
    if (this.#opened.size >= this.#options.maxSessions && now - this.#checkedAt >= RECHECK_MS) {
      this.#checkedAt = now;
      await Promise.all([...this.#opened.keys()].map(async (id) => {
        const found = await this.#store.get(keyOf(id));
        if (found === undefined) this.#opened.delete(id);
        else this.#opened.set(id, found.expiresAt ?? Infinity);
      }));
    }
    if (this.#opened.size >= this.#options.maxSessions) {
      const soonest = Math.min(...this.#opened.values());
      return { opened: false, retryAfterMs: Math.max(1000, soonest - now) };
    }
    const written = await this.#store.compareAndSet(keyOf(record.id), 0, record as unknown as JsonValue, { ttlMs: this.#options.idleMs });
    // A fresh random UUID that is taken means the id source is broken: refuse rather than share a session.
    if (!written.ok) throw new Error(`legacy session id ${record.id} exists already`);
    this.#opened.set(record.id, written.record.expiresAt ?? Infinity);
    return { opened: true };
  }

  /** The live record (its idle timer restarted), or undefined for unknown and expired ids. */
  async touch(id: string): Promise<LegacySessionRecord | undefined> {
    if (!SESSION_ID.test(id)) return undefined;
    const current = await this.#store.get(keyOf(id));
    if (current === undefined) return this.#gone(id);
    // A record refreshed within the last second (or tenth of the timeout) is not written again: a burst of calls costs one write.
    const slack = Math.min(1000, this.#options.idleMs / 10);
    const now = this.#options.clock.now();
    if (current.expiresAt !== undefined && current.expiresAt - now >= this.#options.idleMs - slack) return this.#seen(id, current);
    const refreshed = await this.#store.compareAndSet(keyOf(id), current.version, current.value, { ttlMs: this.#options.idleMs });
    // Lost to a concurrent write: that write refreshed the timer too.
    const record = refreshed.ok ? refreshed.record : refreshed.current;
    return record === undefined ? this.#gone(id) : this.#seen(id, record);
  }

  /**
   * Changes a live record with compare-and-set, retrying when another instance wrote it meanwhile.
   * `change` returns undefined to leave the record as it is (its idle timer still restarts).
   * Resolves to the record now stored, or undefined when the session is gone.
   */
  async update(id: string, change: (record: LegacySessionRecord) => LegacySessionRecord | undefined): Promise<LegacySessionRecord | undefined> {
    if (!SESSION_ID.test(id)) return undefined;
    for (let attempt = 0; attempt < MAX_WRITE_ATTEMPTS; attempt++) {
      const current = await this.#store.get(keyOf(id));
      if (current === undefined) return this.#gone(id);
      const value = current.value as unknown as LegacySessionRecord;
      const next = change(value) ?? value;
      const written = await this.#store.compareAndSet(keyOf(id), current.version, next as unknown as JsonValue, { ttlMs: this.#options.idleMs });
      if (written.ok) return this.#seen(id, written.record);
      if (written.current === undefined) return this.#gone(id);
    }
    throw new Error(`legacy session ${id}: ${MAX_WRITE_ATTEMPTS} concurrent writes in a row; giving up`);
  }

  /** Ends a session everywhere: removes its record and tells every instance; false when it did not exist. */
  async close(id: string): Promise<boolean> {
    if (!SESSION_ID.test(id)) return false;
    const existed = await this.#store.delete(keyOf(id));
    this.#opened.delete(id);
    await this.publish(id, { type: 'end' });
    return existed;
  }

  /** Tells the other instances about session `id` (nothing without publish/subscribe). */
  async publish(id: string, event: SessionEventBody): Promise<void> {
    await this.#store.publish?.(keyOf(id), { ...event, from: this.#options.instance } as unknown as JsonValue);
  }

  /** Listens to what other instances say about session `id`; resolves to the function that stops. */
  async subscribe(id: string, listener: (event: SessionEvent) => void): Promise<() => void> {
    if (this.#store.subscribe === undefined) return () => undefined;
    return this.#store.subscribe(keyOf(id), (message) => {
      const event = message as unknown as SessionEvent;
      if (typeof event === 'object' && event !== null && event.from !== this.#options.instance) listener(event);
    });
  }

  /**
   * Makes this instance answer {@link holderGone} probes (once; settles when listening). Called
   * before it claims a GET stream, so no other instance can think it gone while it holds one.
   */
  async present(): Promise<void> {
    if (!this.relays) return;
    this.#presence ??= this.#store.subscribe!(presenceOf(this.#options.instance), () => undefined);
    try {
      await this.#presence;
    } catch (error) {
      this.#presence = undefined;
      throw error;
    }
  }

  /**
   * Whether the instance `instance` is certainly gone (killed): nothing hears its presence channel,
   * as the store counts listeners (Redis drops a dead process's subscriber connection at once).
   * False when it may be there, and without publish/subscribe.
   */
  async holderGone(instance: string): Promise<boolean> {
    if (!this.relays) return false;
    return (await this.#store.publish!(presenceOf(instance), { probe: this.#options.instance })) === 0;
  }

  /** Stops answering presence probes (shutdown: the streams held here end with it). */
  stopPresence(): void {
    const presence = this.#presence;
    this.#presence = undefined;
    void presence?.then((stop) => stop(), () => undefined);
  }

  #seen(id: string, stored: StoredRecord): LegacySessionRecord {
    if (this.#opened.has(id)) this.#opened.set(id, stored.expiresAt ?? Infinity);
    return stored.value as unknown as LegacySessionRecord;
  }

  #gone(id: string): undefined {
    this.#opened.delete(id);
    return undefined;
  }
}
