/**
 * A {@link Store} in Redis, so several server instances share single-use approvals, rate limits,
 * records and notifications. Client: `@redis/client` (the core of node-redis, maintained by Redis
 * itself, no runtime dependencies; the `redis` meta-package only adds module commands we do not use).
 *
 * Atomicity: a claim is one `SET key value NX PXAT t GET` (claims and reports the holder in one
 * command, never get-then-set); buckets, counters and compare-and-set are Lua scripts, which Redis
 * runs atomically. Buckets and record expiry use the Redis server's clock (`TIME` in the script),
 * so instances with skewed clocks still agree; claims expire at the absolute time the caller gives.
 *
 * Failure: commands are not queued while disconnected (`disableOfflineQueue`) and each has a
 * deadline, so a store that is down rejects with {@link StoreUnavailableError} at once: callers
 * refuse the call (approvals fail closed) while calls that need no store keep working. The client
 * reconnects by itself with capped backoff. Redis must not evict keys (`maxmemory-policy
 * noeviction`, the default): an evicted claim would let an approval be replayed.
 */
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import type { createClient as CreateClient } from '@redis/client';
import type { JsonValue } from '../../protocol/json-rpc.js';
import { redisClaimKey, redisEpochKey, SCRIPTS, sha1, SHAS } from './redis-scripts.js';
import { StoreEpochError, StoreUnavailableError } from './store.js';
import type { ClaimRecord, ClaimResult, CompareAndSetResult, Store, StoredRecord, StoreListener, TokenBucketRule, TokenBucketVerdict } from './store.js';

/** Options of {@link createRedisStore}. */
export interface RedisStoreOptions {
  /** `redis://[user:password@]host:port[/db]` or `rediss://...` (TLS). */
  url: string;
  /** Prefix of every key and channel, so several deployments can share one Redis (default `toolwright:`). */
  keyPrefix?: string;
  /** A command without an answer after this long is failed as unavailable (default 2000 ms). */
  commandTimeoutMs?: number;
  /** TLS settings for `rediss://` (e.g. a private CA); ignored for `redis://`. */
  tls?: { ca?: string | Buffer; rejectUnauthorized?: boolean; servername?: string };
  /** Told about connection errors (once per outage) and listener failures; default: silent. */
  onError?: (error: Error) => void;
}

/** A Redis-backed store: the {@link Store} contract plus connection state. */
export interface RedisStore extends Store {
  /** Resolves once connected (at most `timeoutMs`, default 5000), or rejects with the reason it is not. */
  ready(timeoutMs?: number): Promise<void>;
  /** Whether commands can be sent right now. */
  readonly connected: boolean;
  /** Where it connects, with any password masked (for logs). */
  readonly label: string;
  publish(channel: string, message: JsonValue): Promise<number>;
  subscribe(channel: string, listener: StoreListener): Promise<() => void>;
  close(): Promise<void>;
  /** The prefix of every key (add-ons in their own files name keys with it, e.g. `redisClaimKey`). */
  readonly keyPrefix: string;
  /** Sends one command with the store's deadline; every failure is a {@link StoreUnavailableError}. For add-ons (persistence check, claim counter). */
  command<T>(args: string[]): Promise<T>;
  /** Runs a Lua script (EVALSHA, its text once after a Redis restart) with the store's deadline. */
  evalScript<T>(text: string, keys: string[], args: string[]): Promise<T>;
  /** Calls `listener` each time the connection becomes ready again after the first time (Redis restarted, network back); returns the function that stops it. */
  onReconnect(listener: () => void): () => void;
}


function checkTtl(ttlMs: number | undefined, what: string): void {
  if (ttlMs !== undefined && !(Number.isFinite(ttlMs) && ttlMs > 0)) throw new RangeError(`${what}: ttlMs must be a positive number, got ${String(ttlMs)}`);
}

/** The URL with its password masked, or a RangeError for anything but redis:// and rediss://. */
function parseUrl(url: string): { label: string; tls: boolean } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new RangeError(`createRedisStore: url must look like redis://host:port or rediss://host:port, got ${JSON.stringify(url)}`);
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') throw new RangeError(`createRedisStore: url scheme must be redis: or rediss:, got ${JSON.stringify(parsed.protocol)}`);
  if (parsed.hostname === '') throw new RangeError(`createRedisStore: url has no host: ${JSON.stringify(url)}`);
  if (parsed.password !== '') parsed.password = '***';
  return { label: parsed.href, tls: parsed.protocol === 'rediss:' };
}

function toRecord(reply: unknown[], offset: number): StoredRecord | undefined {
  const [v, ver, pttl, now] = reply.slice(offset) as [string | null, number, number, number];
  if (v === null || v === undefined) return undefined;
  return { value: JSON.parse(v) as JsonValue, version: Number(ver), expiresAt: Number(pttl) >= 0 ? Number(now) + Number(pttl) : undefined };
}

const require = createRequire(import.meta.url);
let createClientOnce: typeof CreateClient | undefined;

/**
 * `@redis/client`, loaded on the first Redis store: it takes some 100 ms to load, and the package
 * root exports this file, so a static import put that on every server's cold start, Redis or not.
 */
function createClient(...args: Parameters<typeof CreateClient>): ReturnType<typeof CreateClient> {
  createClientOnce ??= (require('@redis/client') as typeof import('@redis/client')).createClient;
  return createClientOnce(...args);
}

/**
 * Creates a Redis store and starts connecting in the background (await {@link RedisStore.ready}
 * to know it is up). Calls made while it is down reject with {@link StoreUnavailableError}.
 */
export function createRedisStore(options: RedisStoreOptions): RedisStore {
  const { label, tls } = parseUrl(options.url);
  const prefix = options.keyPrefix ?? 'toolwright:';
  const timeoutMs = options.commandTimeoutMs ?? 2000;
  if (!(Number.isFinite(timeoutMs) && timeoutMs > 0)) throw new RangeError(`createRedisStore: commandTimeoutMs must be a positive number, got ${String(timeoutMs)}`);
  const backend = `redis ${label}`;
  const client = createClient({
    url: options.url,
    disableOfflineQueue: true,
    socket: {
      connectTimeout: Math.max(timeoutMs, 1000),
      // Reconnect forever, backing off to 2 s: the store comes back by itself when Redis does.
      reconnectStrategy: (retries: number) => Math.min(50 * 2 ** retries, 2000),
      ...(tls && options.tls !== undefined ? { tls: true as const, ...options.tls } : {}),
    },
  });
  let lastError: Error | undefined;
  let outage = false;
  let closing = false;
  client.on('error', (error: Error) => {
    lastError = error;
    if (!outage) {
      outage = true;
      options.onError?.(new StoreUnavailableError(backend, error.message, { cause: error }));
    }
  });
  const reconnectListeners = new Set<() => void>();
  let readyBefore = false;
  const epochKey = redisEpochKey(prefix);
  // The epoch as last read from Redis: read at every (re)connect and by every claim that checks it.
  let epoch: string | undefined;
  let epochRead: Promise<void> | undefined;
  client.on('ready', () => {
    outage = false;
    lastError = undefined;
    epochRead = readEpoch();
    if (readyBefore) for (const listener of [...reconnectListeners]) listener();
    readyBefore = true;
  });
  const connecting = client.connect().then(
    () => undefined,
    (error: unknown) => {
      lastError = error instanceof Error ? error : new Error(String(error));
    },
  );

  /** Runs one command with a deadline; every failure becomes StoreUnavailableError. */
  async function send<T>(args: string[]): Promise<T> {
    if (closing) throw new StoreUnavailableError(backend, 'the store was closed');
    if (!client.isReady) throw new StoreUnavailableError(backend, `not connected${lastError !== undefined ? ` (${lastError.message})` : ''}; reconnecting`);
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new StoreUnavailableError(backend, `no answer within ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      return await Promise.race([client.sendCommand<T>(args), deadline]);
    } catch (error) {
      if (error instanceof StoreUnavailableError) throw error;
      const message = error instanceof Error ? error.message : String(error);
      throw new StoreUnavailableError(backend, message, { cause: error });
    } finally {
      clearTimeout(timer);
    }
  }

  async function evalScript<T>(text: string, sha: string, keys: string[], args: string[]): Promise<T> {
    try {
      return await send<T>(['EVALSHA', sha, String(keys.length), ...keys, ...args]);
    } catch (error) {
      // A fresh or restarted Redis has no script cache yet: send the text once.
      if (error instanceof StoreUnavailableError && /NOSCRIPT/.test(error.message)) return send<T>(['EVAL', text, String(keys.length), ...keys, ...args]);
      throw error;
    }
  }
  const script = <T>(name: keyof typeof SCRIPTS, key: string, args: string[]): Promise<T> => evalScript<T>(SCRIPTS[name], SHAS[name], [key], args);
  const addOnShas = new Map<string, string>();

  /** Reads the epoch, creating it when Redis has none (a new Redis, or one that came back empty). */
  async function readEpoch(): Promise<void> {
    const fresh = randomBytes(12).toString('base64url');
    try {
      const previous = await send<string | null>(['SET', epochKey, fresh, 'NX', 'GET']);
      epoch = previous ?? fresh;
    } catch {
      // Left as it was; the next (re)connect or epoch-checked claim reads it again.
    }
  }

  async function claimInEpoch(key: string, sealedIn: string, record: ClaimRecord): Promise<ClaimResult> {
    const [verdict, detail] = await evalScript<[string, string]>(SCRIPTS.CLAIM_IN_EPOCH, SHAS.CLAIM_IN_EPOCH, [epochKey, redisClaimKey(prefix, key)], [sealedIn, JSON.stringify(record), String(Math.ceil(record.expiresAt)), randomBytes(12).toString('base64url')]);
    if (verdict === 'epoch') {
      epoch = detail;
      throw new StoreEpochError(sealedIn, detail);
    }
    return verdict === 'held' ? { claimed: false, existing: JSON.parse(detail) as ClaimRecord } : { claimed: true, record };
  }

  async function writeRecord(key: string, expected: number | undefined, value: JsonValue, ttlMs: number | undefined): Promise<[boolean, StoredRecord | undefined]> {
    const reply = await script<unknown[]>('WRITE_RECORD', prefix + 'record:' + key, [expected === undefined ? '' : String(expected), JSON.stringify(value), ttlMs === undefined ? '' : String(Math.ceil(ttlMs))]);
    return [Number(reply[0]) === 1, toRecord(reply, 1)];
  }

  // Pub/sub needs a connection of its own; opened on the first subscribe.
  let subscriber: ReturnType<typeof client.duplicate> | undefined;
  let subscriberUp: Promise<void> | undefined;
  async function withDeadline<T>(work: Promise<T>, what: string): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new StoreUnavailableError(backend, `${what}: no answer within ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      return await Promise.race([work, late]);
    } finally {
      clearTimeout(timer);
    }
  }
  const channels = new Map<string, Set<StoreListener>>();

  return {
    label,
    keyPrefix: prefix,
    command: send,
    evalScript<T>(text: string, keys: string[], args: string[]): Promise<T> {
      let sha = addOnShas.get(text);
      if (sha === undefined) addOnShas.set(text, (sha = sha1(text)));
      return evalScript<T>(text, sha, keys, args);
    },
    onReconnect(listener) {
      reconnectListeners.add(listener);
      return () => reconnectListeners.delete(listener);
    },
    get connected() {
      return client.isReady;
    },
    async ready(wait = 5000) {
      if (client.isReady) return;
      let timer: NodeJS.Timeout | undefined;
      const up = new Promise<void>((resolve) => client.once('ready', () => resolve()));
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new StoreUnavailableError(backend, `not reachable within ${wait} ms${lastError !== undefined ? ` (${lastError.message})` : ''}`)), wait);
      });
      try {
        await Promise.race([up, late, connecting.then(() => (client.isReady ? undefined : up))]);
      } finally {
        clearTimeout(timer);
      }
      // The epoch read of this connection (a Redis that came back empty has a new one).
      await (epochRead ??= readEpoch());
    },
    epoch() {
      if (epoch === undefined) throw new StoreUnavailableError(backend, `its epoch is not known yet (not connected${lastError !== undefined ? `: ${lastError.message}` : ''})`);
      return epoch;
    },
    async claimOnce(key, { expiresAt, value = null, epoch: sealedIn }): Promise<ClaimResult> {
      if (!Number.isFinite(expiresAt)) throw new RangeError('claimOnce: expiresAt must be a finite time');
      const now = Date.now();
      const record: ClaimRecord = { claimedAt: now, expiresAt, value };
      if (sealedIn !== undefined) {
        if (expiresAt > now) return claimInEpoch(key, sealedIn, record);
        if (epoch !== undefined && sealedIn !== epoch) throw new StoreEpochError(sealedIn, epoch);
      }
      // Like the memory store: a claim that has already lapsed is granted but not kept.
      if (expiresAt <= now) return { claimed: true, record };
      const previous = await send<string | null>(['SET', redisClaimKey(prefix, key), JSON.stringify(record), 'NX', 'PXAT', String(Math.ceil(expiresAt)), 'GET']);
      return previous === null ? { claimed: true, record } : { claimed: false, existing: JSON.parse(previous) as ClaimRecord };
    },
    async getClaim(key) {
      const text = await send<string | null>(['GET', redisClaimKey(prefix, key)]);
      return text === null ? undefined : (JSON.parse(text) as ClaimRecord);
    },
    async takeTokens(key, rule: TokenBucketRule, cost = 1): Promise<TokenBucketVerdict> {
      const { capacity, refillPerSecond } = rule;
      if (!(Number.isFinite(capacity) && capacity > 0)) throw new RangeError(`takeTokens: capacity must be a positive number, got ${String(capacity)}`);
      if (!(Number.isFinite(refillPerSecond) && refillPerSecond > 0)) throw new RangeError(`takeTokens: refillPerSecond must be a positive number, got ${String(refillPerSecond)}`);
      if (!(Number.isFinite(cost) && cost >= 0)) throw new RangeError(`takeTokens: cost must be a non-negative number, got ${String(cost)}`);
      const [allowed, remaining, retryAfterMs] = await script<[number, number, number]>('TAKE_TOKENS', prefix + 'bucket:' + key, [String(capacity), String(refillPerSecond), String(cost)]);
      return { allowed: Number(allowed) === 1, remaining: Number(remaining), retryAfterMs: Number(retryAfterMs) };
    },
    async increment(key, { ttlMs, by = 1 }) {
      checkTtl(ttlMs, 'increment');
      if (!Number.isFinite(by)) throw new RangeError(`increment: by must be a finite number, got ${String(by)}`);
      return Number(await script<string>('INCREMENT', prefix + 'counter:' + key, [String(by), String(Math.ceil(ttlMs))]));
    },
    async get(key) {
      const reply = await script<unknown[] | null>('GET_RECORD', prefix + 'record:' + key, []);
      return reply === null ? undefined : toRecord(reply, 0);
    },
    async set(key, value, setOptions = {}) {
      checkTtl(setOptions.ttlMs, 'set');
      return (await writeRecord(key, undefined, value, setOptions.ttlMs))[1] as StoredRecord;
    },
    async compareAndSet(key, expectedVersion, value, casOptions = {}): Promise<CompareAndSetResult> {
      checkTtl(casOptions.ttlMs, 'compareAndSet');
      if (!Number.isInteger(expectedVersion) || expectedVersion < 0) throw new RangeError(`compareAndSet: expectedVersion must be a non-negative integer, got ${String(expectedVersion)}`);
      const [ok, record] = await writeRecord(key, expectedVersion, value, casOptions.ttlMs);
      return ok ? { ok: true, record: record as StoredRecord } : { ok: false, current: record };
    },
    async delete(key) {
      return Number(await send<number>(['DEL', prefix + 'record:' + key])) > 0;
    },
    async publish(channel, message) {
      return Number(await send<number>(['PUBLISH', prefix + channel, JSON.stringify(message)]));
    },
    async subscribe(channel, listener) {
      try {
        if (subscriber === undefined) {
          subscriber = client.duplicate();
          subscriber.on('error', (error: Error) => options.onError?.(new StoreUnavailableError(backend, `subscriber: ${error.message}`, { cause: error })));
          subscriberUp = subscriber.connect().then(() => undefined);
          subscriberUp.catch(() => undefined);
        }
        await withDeadline(subscriberUp as Promise<void>, 'subscriber connection');
        let listeners = channels.get(channel);
        if (listeners === undefined) {
          const set = (listeners = new Set());
          channels.set(channel, set);
          await withDeadline(subscriber.subscribe(prefix + channel, (text: string) => {
            let message: JsonValue;
            try {
              message = JSON.parse(text) as JsonValue;
            } catch {
              options.onError?.(new Error(`store channel ${JSON.stringify(channel)}: dropped a message that is not JSON`));
              return;
            }
            for (const each of [...set]) {
              try {
                each(message);
              } catch (error) {
                options.onError?.(error instanceof Error ? error : new Error(String(error)));
              }
            }
          }), 'subscribe');
        }
        listeners.add(listener);
        const own = listeners;
        return () => {
          own.delete(listener);
          if (own.size === 0 && channels.get(channel) === own) {
            channels.delete(channel);
            void subscriber?.unsubscribe(prefix + channel).catch(() => undefined);
          }
        };
      } catch (error) {
        if (error instanceof StoreUnavailableError) throw error;
        throw new StoreUnavailableError(backend, `subscribe: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
      }
    },
    async close() {
      closing = true;
      channels.clear();
      const all = [client, ...(subscriber !== undefined ? [subscriber] : [])];
      // Connected: finish what was sent. Still (re)connecting: stop trying (destroy ends the retry loop).
      for (const each of all) {
        if (each.isReady) await each.close().catch(() => each.destroy());
        else if (each.isOpen) each.destroy();
      }
      await connecting;
    },
  };
}
