/**
 * The default {@link Store}: process memory, size-bounded per key space. Full of live entries, the
 * claim and record spaces refuse new keys ({@link StoreFullError}: forgetting a claim would let an
 * approval be replayed), while buckets and counters drop their oldest key (that subject merely gets
 * a fresh allowance). Expired entries are swept lazily and whenever a space reaches its bound.
 * One process only: several instances need a shared backend behind the same interface.
 */
import type { JsonValue } from '../../protocol/json-rpc.js';
import { randomBytes } from 'node:crypto';
import { StoreEpochError, StoreFullError } from './store.js';
import type { ClaimRecord, ClaimResult, Clock, CompareAndSetResult, Store, StoredRecord, StoreListener, TokenBucketRule, TokenBucketVerdict } from './store.js';

/** Options of {@link createMemoryStore}. */
export interface MemoryStoreOptions {
  /** Most live entries per key space (claims, buckets, counters, records); default 100000. */
  maxEntries?: number;
  /** Time source (default `Date`). */
  clock?: Clock;
}

interface Bucket {
  tokens: number;
  updatedAt: number;
  /** When the bucket would be full again, after which it is indistinguishable from a new one. */
  expiresAt: number;
}

interface Counter {
  value: number;
  expiresAt: number;
}

const systemClock: Clock = { now: () => Date.now() };

function sweep<V extends { expiresAt: number | undefined }>(map: Map<string, V>, now: number): void {
  for (const [key, entry] of map) if (entry.expiresAt !== undefined && entry.expiresAt <= now) map.delete(key);
}

function live<V extends { expiresAt: number | undefined }>(map: Map<string, V>, key: string, now: number): V | undefined {
  const entry = map.get(key);
  if (entry === undefined) return undefined;
  if (entry.expiresAt !== undefined && entry.expiresAt <= now) {
    map.delete(key);
    return undefined;
  }
  return entry;
}

/** Makes room for one new key: sweeps expired entries, then drops the oldest or fails closed. */
function admit<V extends { expiresAt: number | undefined }>(map: Map<string, V>, max: number, now: number, full: 'drop-oldest' | StoreFullError): void {
  if (map.size < max) return;
  sweep(map, now);
  if (map.size < max) return;
  if (full !== 'drop-oldest') throw full;
  const oldest = map.keys().next();
  if (oldest.done !== true) map.delete(oldest.value);
}

function checkTtl(ttlMs: number | undefined, what: string): void {
  if (ttlMs !== undefined && !(Number.isFinite(ttlMs) && ttlMs > 0)) throw new RangeError(`${what}: ttlMs must be a positive number, got ${String(ttlMs)}`);
}

/** Creates an in-memory store (the default of `createServer`). */
export function createMemoryStore(options: MemoryStoreOptions = {}): Store {
  const max = options.maxEntries ?? 100_000;
  if (!Number.isInteger(max) || max < 1) throw new RangeError(`createMemoryStore: maxEntries must be a positive integer, got ${String(max)}`);
  const clock = options.clock ?? systemClock;
  const claims = new Map<string, ClaimRecord>();
  const buckets = new Map<string, Bucket>();
  const counters = new Map<string, Counter>();
  const records = new Map<string, StoredRecord>();
  const channels = new Map<string, Set<StoreListener>>();
  // This store's memory lives and dies with this object: one random epoch for its whole life.
  const epoch = randomBytes(12).toString('base64url');

  function write(key: string, value: JsonValue, version: number, ttlMs: number | undefined, now: number): StoredRecord {
    const record: StoredRecord = { value, version, expiresAt: ttlMs === undefined ? undefined : now + ttlMs };
    if (!records.has(key)) admit(records, max, now, new StoreFullError('records', max));
    records.set(key, record);
    return record;
  }

  // Each method does all its work synchronously before its promise settles, so operations on one
  // key never interleave: that is what makes claimOnce and compareAndSet atomic here.
  return {
    epoch: () => epoch,
    async claimOnce(key, { expiresAt, value = null, epoch: sealedIn }): Promise<ClaimResult> {
      const now = clock.now();
      if (!Number.isFinite(expiresAt)) throw new RangeError('claimOnce: expiresAt must be a finite time');
      if (sealedIn !== undefined && sealedIn !== epoch) throw new StoreEpochError(sealedIn, epoch);
      const existing = live(claims, key, now);
      if (existing !== undefined) return { claimed: false, existing };
      const record: ClaimRecord = { claimedAt: now, expiresAt, value };
      // A claim that has already lapsed is granted but not kept: it could not be claimed "again" by anyone who matters.
      if (expiresAt > now) {
        admit(claims, max, now, new StoreFullError('claims', max));
        claims.set(key, record);
      }
      return { claimed: true, record };
    },
    async getClaim(key) {
      return live(claims, key, clock.now());
    },
    async takeTokens(key, rule: TokenBucketRule, cost = 1): Promise<TokenBucketVerdict> {
      const { capacity, refillPerSecond } = rule;
      if (!(Number.isFinite(capacity) && capacity > 0)) throw new RangeError(`takeTokens: capacity must be a positive number, got ${String(capacity)}`);
      if (!(Number.isFinite(refillPerSecond) && refillPerSecond > 0)) throw new RangeError(`takeTokens: refillPerSecond must be a positive number, got ${String(refillPerSecond)}`);
      if (!(Number.isFinite(cost) && cost >= 0)) throw new RangeError(`takeTokens: cost must be a non-negative number, got ${String(cost)}`);
      const now = clock.now();
      // An expired bucket is a full one: it is refilled in place rather than dropped and made anew
      // (a caller slower than the refill finds it expired on every call).
      let bucket = buckets.get(key);
      let tokens = capacity;
      if (bucket !== undefined && bucket.expiresAt > now) tokens = Math.min(capacity, bucket.tokens + ((now - bucket.updatedAt) / 1000) * refillPerSecond);
      const allowed = cost <= tokens;
      if (allowed) tokens -= cost;
      const refillMs = ((capacity - tokens) / refillPerSecond) * 1000;
      if (bucket === undefined) {
        admit(buckets, max, now, 'drop-oldest');
        bucket = { tokens, updatedAt: now, expiresAt: now + refillMs };
        buckets.set(key, bucket);
      } else {
        bucket.tokens = tokens;
        bucket.updatedAt = now;
        bucket.expiresAt = now + refillMs;
      }
      const retryAfterMs = allowed ? 0 : Math.ceil(((cost - tokens) / refillPerSecond) * 1000);
      return { allowed, remaining: Math.floor(tokens), retryAfterMs };
    },
    async increment(key, { ttlMs, by = 1 }) {
      checkTtl(ttlMs, 'increment');
      if (!Number.isFinite(by)) throw new RangeError(`increment: by must be a finite number, got ${String(by)}`);
      const now = clock.now();
      const counter = live(counters, key, now);
      if (counter !== undefined) return (counter.value += by);
      admit(counters, max, now, 'drop-oldest');
      counters.set(key, { value: by, expiresAt: now + ttlMs });
      return by;
    },
    async get(key) {
      return live(records, key, clock.now());
    },
    async set(key, value, setOptions = {}) {
      checkTtl(setOptions.ttlMs, 'set');
      const now = clock.now();
      const current = live(records, key, now);
      return write(key, value, (current?.version ?? 0) + 1, setOptions.ttlMs, now);
    },
    async compareAndSet(key, expectedVersion, value, casOptions = {}): Promise<CompareAndSetResult> {
      checkTtl(casOptions.ttlMs, 'compareAndSet');
      if (!Number.isInteger(expectedVersion) || expectedVersion < 0) throw new RangeError(`compareAndSet: expectedVersion must be a non-negative integer, got ${String(expectedVersion)}`);
      const now = clock.now();
      const current = live(records, key, now);
      if ((current?.version ?? 0) !== expectedVersion) return { ok: false, current };
      return { ok: true, record: write(key, value, expectedVersion + 1, casOptions.ttlMs, now) };
    },
    async delete(key) {
      const existed = live(records, key, clock.now()) !== undefined;
      records.delete(key);
      return existed;
    },
    async publish(channel, message) {
      const listeners = channels.get(channel);
      if (listeners === undefined) return 0;
      // Every listener gets the message even if one throws; the failures are reported together afterwards.
      const failures: unknown[] = [];
      let delivered = 0;
      for (const listener of [...listeners]) {
        try {
          listener(message);
          delivered++;
        } catch (error) {
          failures.push(error);
        }
      }
      if (failures.length > 0) throw new AggregateError(failures, `publish: ${failures.length} listener(s) of ${JSON.stringify(channel)} threw`);
      return delivered;
    },
    async subscribe(channel, listener) {
      let listeners = channels.get(channel);
      if (listeners === undefined) channels.set(channel, (listeners = new Set()));
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) channels.delete(channel);
      };
    },
    async close() {
      channels.clear();
    },
  };
}
