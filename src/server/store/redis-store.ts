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
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import type { createClient as CreateClient } from '@redis/client';
import type { JsonValue } from '../../protocol/json-rpc.js';
import { StoreUnavailableError } from './store.js';
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
}

// Server time in ms, read inside a script (allowed since Redis 5 with effects replication).
const NOW = "local t = redis.call('TIME'); local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)";

// KEYS[1] bucket; ARGV capacity, refillPerSecond, cost. Returns {allowed, remaining, retryAfterMs}.
const TAKE_TOKENS = `${NOW}
local capacity, rate, cost = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local b = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = capacity
if b[1] then tokens = math.min(capacity, tonumber(b[1]) + (now - tonumber(b[2])) / 1000 * rate) end
local allowed = 0
if cost <= tokens then tokens = tokens - cost; allowed = 1 end
local refillMs = math.ceil((capacity - tokens) / rate * 1000)
if refillMs > 0 then
  redis.call('HSET', KEYS[1], 'tokens', string.format('%.17g', tokens), 'at', now)
  redis.call('PEXPIRE', KEYS[1], refillMs)
else
  redis.call('DEL', KEYS[1])
end
local retry = 0
if allowed == 0 then retry = math.ceil((cost - tokens) / rate * 1000) end
return {allowed, math.floor(tokens), retry}`;

// KEYS[1] counter; ARGV by, ttlMs. The TTL is set when the counter is created, not on each add.
const INCREMENT = `local v = redis.call('INCRBYFLOAT', KEYS[1], ARGV[1])
if redis.call('PTTL', KEYS[1]) < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return v`;

// Records are hashes {v = JSON, ver = n}. Each script answers {v, ver, pttl, now} or nil.
const GET_RECORD = `${NOW}
local r = redis.call('HMGET', KEYS[1], 'v', 'ver')
if not r[1] then return nil end
return {r[1], tonumber(r[2]), redis.call('PTTL', KEYS[1]), now}`;

// KEYS[1] record; ARGV expectedVersion ('' = unconditional), value, ttlMs ('' = none).
// Answers {1, v, ver, pttl, now} when written, {0, v|false, ver, pttl, now} when the version differs.
const WRITE_RECORD = `${NOW}
local r = redis.call('HMGET', KEYS[1], 'v', 'ver')
local current = tonumber(r[2]) or 0
if ARGV[1] ~= '' and current ~= tonumber(ARGV[1]) then
  return {0, r[1] or false, current, redis.call('PTTL', KEYS[1]), now}
end
local ver = current + 1
redis.call('HSET', KEYS[1], 'v', ARGV[2], 'ver', ver)
if ARGV[3] ~= '' then redis.call('PEXPIRE', KEYS[1], ARGV[3]) else redis.call('PERSIST', KEYS[1]) end
return {1, ARGV[2], ver, redis.call('PTTL', KEYS[1]), now}`;

const sha1 = (text: string): string => createHash('sha1').update(text).digest('hex');
const SCRIPTS = { TAKE_TOKENS, INCREMENT, GET_RECORD, WRITE_RECORD } as const;
const SHAS = Object.fromEntries(Object.entries(SCRIPTS).map(([name, text]) => [name, sha1(text)])) as Record<keyof typeof SCRIPTS, string>;

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
  client.on('ready', () => {
    outage = false;
    lastError = undefined;
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

  async function script<T>(name: keyof typeof SCRIPTS, key: string, args: string[]): Promise<T> {
    try {
      return await send<T>(['EVALSHA', SHAS[name], '1', key, ...args]);
    } catch (error) {
      // A fresh or restarted Redis has no script cache yet: send the text once.
      if (error instanceof StoreUnavailableError && /NOSCRIPT/.test(error.message)) return send<T>(['EVAL', SCRIPTS[name], '1', key, ...args]);
      throw error;
    }
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
    },
    async claimOnce(key, { expiresAt, value = null }): Promise<ClaimResult> {
      if (!Number.isFinite(expiresAt)) throw new RangeError('claimOnce: expiresAt must be a finite time');
      const now = Date.now();
      const record: ClaimRecord = { claimedAt: now, expiresAt, value };
      // Like the memory store: a claim that has already lapsed is granted but not kept.
      if (expiresAt <= now) return { claimed: true, record };
      const previous = await send<string | null>(['SET', prefix + 'claim:' + key, JSON.stringify(record), 'NX', 'PXAT', String(Math.ceil(expiresAt)), 'GET']);
      return previous === null ? { claimed: true, record } : { claimed: false, existing: JSON.parse(previous) as ClaimRecord };
    },
    async getClaim(key) {
      const text = await send<string | null>(['GET', prefix + 'claim:' + key]);
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
