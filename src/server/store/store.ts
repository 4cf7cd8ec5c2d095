/**
 * THE store interface: the memory a server needs beyond one request, behind one async contract so a
 * deployment of several instances swaps the in-memory default for a shared backend (Redis comes with
 * the scale-out work) without touching the callers. Four kinds of entry, each in its own key space:
 *
 * - claims: claim-once with expiry (single-use approvals and input states);
 * - token buckets and counters (rate limits);
 * - records with TTL, versioned for compare-and-set (tasks, legacy sessions);
 * - optional publish/subscribe (fan-out of notifications across instances).
 *
 * Values are JSON so any backend can hold them. Every method is atomic per key: two concurrent
 * `claimOnce` of one key resolve exactly one `claimed: true`.
 */
import type { JsonValue } from '../../protocol/json-rpc.js';
import { StoreError } from '../../errors/toolwright-error.js';

/** Time source of a store (inject one in tests instead of sleeping). */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

/** What a claim records: who claimed, and anything the claimant wants kept (e.g. who approved). */
export interface ClaimRecord {
  /** When the claim was made (ms since epoch, store clock). */
  readonly claimedAt: number;
  /** When the claim lapses and the key could be claimed again (ms since epoch). */
  readonly expiresAt: number;
  readonly value: JsonValue;
}

/** Outcome of {@link Store.claimOnce}. */
export type ClaimResult =
  | { readonly claimed: true; readonly record: ClaimRecord }
  | { readonly claimed: false; /** The live claim that was there first. */ readonly existing: ClaimRecord };

/** A token bucket: `capacity` tokens, refilled continuously at `refillPerSecond`. */
export interface TokenBucketRule {
  readonly capacity: number;
  readonly refillPerSecond: number;
}

/** Outcome of {@link Store.takeTokens}. */
export interface TokenBucketVerdict {
  /** Whether the tokens were taken (nothing is taken when not). */
  readonly allowed: boolean;
  /** Whole tokens left after this take. */
  readonly remaining: number;
  /** When not allowed: how long until enough tokens are back (ms); 0 when allowed. */
  readonly retryAfterMs: number;
}

/** A record with its version (1 on creation, +1 per write) and expiry. */
export interface StoredRecord {
  readonly value: JsonValue;
  readonly version: number;
  /** ms since epoch, or undefined for no expiry. */
  readonly expiresAt: number | undefined;
}

/** Outcome of {@link Store.compareAndSet}. */
export type CompareAndSetResult =
  | { readonly ok: true; readonly record: StoredRecord }
  | { readonly ok: false; /** What is there now (undefined: absent or expired). */ readonly current: StoredRecord | undefined };

/** Receives messages published on a channel. */
export type StoreListener = (message: JsonValue) => void;

/** The store every stateful part of a server shares (`createServer({ store })`). */
export interface Store {
  /**
   * Claims `key` until `expiresAt` if no live claim holds it. Atomic: of concurrent claims exactly one wins.
   * With `epoch`, the claim is made only while the store is still in that life ({@link Store.epoch}),
   * checked in the same atomic step; otherwise it rejects with {@link StoreEpochError} and claims nothing.
   */
  claimOnce(key: string, options: { expiresAt: number; value?: JsonValue; epoch?: string }): Promise<ClaimResult>;
  /**
   * The store's current life: an opaque value that changes whenever the store may have forgotten
   * claims (random per in-memory store; Redis keeps one in a key and makes a new one when the key is
   * gone, i.e. after Redis came back empty). Approvals are sealed under it and claimed with it, so
   * one sealed in an earlier life is refused rather than honoured a second time.
   * @throws StoreUnavailableError while a shared store has not told it yet (never connected).
   */
  epoch(): string;
  /** The live claim of `key`, if any. */
  getClaim(key: string): Promise<ClaimRecord | undefined>;

  /** Takes `cost` tokens (default 1) from the bucket `key`, created full on first use. */
  takeTokens(key: string, rule: TokenBucketRule, cost?: number): Promise<TokenBucketVerdict>;
  /** Adds `by` (default 1) to the counter `key` and returns the new value; the counter lapses `ttlMs` after it was created. */
  increment(key: string, options: { ttlMs: number; by?: number }): Promise<number>;

  /** The live record `key`, if any. */
  get(key: string): Promise<StoredRecord | undefined>;
  /** Writes `key` unconditionally (`ttlMs` omitted: no expiry). */
  set(key: string, value: JsonValue, options?: { ttlMs?: number }): Promise<StoredRecord>;
  /**
   * Writes `key` only if its current version is `expectedVersion` (0 = the key must be absent or
   * expired). Atomic per key.
   */
  compareAndSet(key: string, expectedVersion: number, value: JsonValue, options?: { ttlMs?: number }): Promise<CompareAndSetResult>;
  /** Removes the record `key`; true when a live record was removed. */
  delete(key: string): Promise<boolean>;

  /**
   * Delivers `message` to every subscriber of `channel` (on every instance, for shared backends).
   * Resolves to how many subscribers got it: listeners of this store, or for a shared backend its
   * subscribed connections (one per instance; Redis counts them in PUBLISH's reply). Legacy
   * sessions rely on 0 meaning that nobody listens (a GET stream's holder is gone).
   */
  publish?(channel: string, message: JsonValue): Promise<number>;
  /** Listens on `channel`; resolves to the function that stops listening. */
  subscribe?(channel: string, listener: StoreListener): Promise<() => void>;

  /** Releases connections and timers (the in-memory store holds none). */
  close?(): Promise<void>;
}

/**
 * Thrown (rejected) by a shared store that cannot be reached right now (connection down, refused
 * AUTH, no answer in time). Callers must treat the operation as not done: a call that needs the
 * store is refused (approvals fail closed), and the store reconnects by itself.
 */
export class StoreUnavailableError extends StoreError {
  readonly errorCode = 'store-unavailable' as const;
  constructor(readonly backend: string, reason: string, options?: { cause?: unknown }) {
    super(`store unavailable: ${backend}: ${reason}`, options);
    this.name = 'StoreUnavailableError';
  }
}

/**
 * Rejected by {@link Store.claimOnce} given an `epoch` that is not the store's current one: the store
 * lost its memory since (or the claimant read an older life), so nothing it claimed before can be
 * trusted to be remembered; the claim is refused and nothing was written.
 */
export class StoreEpochError extends StoreError {
  readonly errorCode = 'store-epoch' as const;
  constructor(readonly expected: string, readonly current: string) {
    super(`store epoch changed: the claim was sealed under epoch ${expected}, the store is now in epoch ${current} (it lost its memory, e.g. a Redis restarted empty)`);
    this.name = 'StoreEpochError';
  }
}

/** Thrown when a bounded store is full of live entries it must not drop (claims, records): it fails closed. */
export class StoreFullError extends StoreError {
  readonly errorCode = 'store-full' as const;
  constructor(readonly space: 'claims' | 'records', readonly maxEntries: number) {
    super(`store is full: ${maxEntries} live ${space}; refusing rather than forgetting one (raise maxEntries or use a shared store)`);
    this.name = 'StoreFullError';
  }
}
