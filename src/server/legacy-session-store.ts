/**
 * Where legacy (2025) Streamable HTTP sessions live. The table is kept behind a small interface so
 * a shared store (several server processes behind one load balancer) can back it later: a session
 * is a small JSON record with a time to live, created only when there is room, refreshed on use,
 * and never evicted while it is live, so a flood of `initialize` requests cannot push out real
 * users (the server answers 503 instead).
 *
 * What is NOT in the record stays in the process that holds the connection: requests in flight,
 * server-to-client requests awaiting answers, and the GET stream (legacy-session-runtime.ts).
 */

/** The durable part of one legacy session. */
export interface LegacySessionRecord {
  /** The `Mcp-Session-Id` minted at `initialize`. */
  readonly id: string;
  /** The negotiated 2025 revision. */
  readonly protocolVersion: string;
  /** The client capabilities declared at `initialize`. */
  readonly capabilities: Readonly<Record<string, unknown>>;
  /** Set by `logging/setLevel`; undefined = the client never asked (every level is sent). */
  logLevel?: string;
  /** URIs of `resources/subscribe`. */
  subscriptions: string[];
}

/** What `open` answers: the session exists now, or there is no room and when to try again. */
export type OpenOutcome = { readonly opened: true } | { readonly opened: false; readonly retryAfterMs: number };

/**
 * The session table. Every method may be synchronous or return a promise. `ttlMs` is the idle
 * timeout: a record not touched for that long is gone.
 */
export interface LegacySessionStore {
  /** Adds `record` unless the table holds `maxSessions` live records already. */
  open(record: LegacySessionRecord, ttlMs: number): OpenOutcome | Promise<OpenOutcome>;
  /** The live record (its idle timer restarted), or undefined for unknown and expired ids. */
  touch(id: string, ttlMs: number): LegacySessionRecord | undefined | Promise<LegacySessionRecord | undefined>;
  /** Stores a changed record (log level, subscriptions); a record that expired meanwhile stays gone. */
  save(record: LegacySessionRecord, ttlMs: number): void | Promise<void>;
  /** Ends a session; false when it did not exist. */
  close(id: string): boolean | Promise<boolean>;
}

interface Entry {
  record: LegacySessionRecord;
  expiresAt: number;
}

/**
 * The default in-process table: bounded by `maxSessions`, records expire `ttlMs` after their last
 * use. Expired records are removed when room is needed and by `sweep()`; nothing live is evicted.
 */
export class MemorySessionStore implements LegacySessionStore {
  readonly #entries = new Map<string, Entry>();
  readonly #maxSessions: number;
  readonly #now: () => number;

  /** `now` is injectable so tests can move time without waiting. */
  constructor(maxSessions: number, now: () => number = Date.now) {
    if (!Number.isInteger(maxSessions) || maxSessions < 1) throw new TypeError(`maxSessions must be a positive integer, got ${String(maxSessions)}`);
    this.#maxSessions = maxSessions;
    this.#now = now;
  }

  /** Live sessions right now. */
  get size(): number {
    this.sweep();
    return this.#entries.size;
  }

  open(record: LegacySessionRecord, ttlMs: number): OpenOutcome {
    const now = this.#now();
    if (this.#entries.size >= this.#maxSessions) this.sweep();
    if (this.#entries.size >= this.#maxSessions) {
      let soonest = Infinity;
      for (const entry of this.#entries.values()) soonest = Math.min(soonest, entry.expiresAt);
      return { opened: false, retryAfterMs: Math.max(1000, soonest - now) };
    }
    this.#entries.set(record.id, { record, expiresAt: now + ttlMs });
    return { opened: true };
  }

  touch(id: string, ttlMs: number): LegacySessionRecord | undefined {
    const entry = this.#entries.get(id);
    if (entry === undefined) return undefined;
    const now = this.#now();
    if (entry.expiresAt <= now) {
      this.#entries.delete(id);
      return undefined;
    }
    entry.expiresAt = now + ttlMs;
    return entry.record;
  }

  save(record: LegacySessionRecord, ttlMs: number): void {
    const entry = this.#entries.get(record.id);
    if (entry === undefined) return;
    entry.record = record;
    entry.expiresAt = this.#now() + ttlMs;
  }

  close(id: string): boolean {
    return this.#entries.delete(id);
  }

  /** Removes expired records; returns their ids. */
  sweep(): string[] {
    const now = this.#now();
    const gone: string[] = [];
    for (const [id, entry] of this.#entries) {
      if (entry.expiresAt <= now) {
        this.#entries.delete(id);
        gone.push(id);
      }
    }
    return gone;
  }
}
