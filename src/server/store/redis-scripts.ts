/**
 * The keys and Lua scripts of the Redis store (redis-store.ts) and its add-ons
 * (claim-counter-guard.ts): every script Redis runs atomically for us, with its SHA for EVALSHA.
 */
import { createHash } from 'node:crypto';

/** The Redis key of the claim `key` in a store with prefix `keyPrefix`, as the store's `claimOnce` writes it. */
export function redisClaimKey(keyPrefix: string, key: string): string {
  return keyPrefix + 'claim:' + key;
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

export const sha1 = (text: string): string => createHash('sha1').update(text).digest('hex');
/**
 * The store's epoch check (store.ts) as a Lua prelude, shared with claim-counter-guard.ts so that a
 * guarded claim checks the epoch in the same atomic step: KEYS[key] the epoch, ARGV[sealed] the
 * epoch the claim was sealed in, ARGV[fresh] a new epoch for a Redis that lost the key. Returns
 * {'epoch', current} from the script when the epochs differ.
 */
export function epochCheckLua(key: number, sealed: number, fresh: number): string {
  return `local e = redis.call('GET', KEYS[${key}])
if not e then redis.call('SET', KEYS[${key}], ARGV[${fresh}]); e = ARGV[${fresh}] end
if e ~= ARGV[${sealed}] then return {'epoch', e} end`;
}

/** The Redis key of a store's epoch. */
export function redisEpochKey(keyPrefix: string): string {
  return keyPrefix + 'epoch';
}

// KEYS[1] epoch, KEYS[2] claim; ARGV sealed epoch, record, pxat, a fresh epoch. Checks the epoch and
// claims in one atomic step: {'epoch', current}, {'held', previous} or {'claimed', ''}.
const CLAIM_IN_EPOCH = `${epochCheckLua(1, 1, 4)}
local previous = redis.call('SET', KEYS[2], ARGV[2], 'NX', 'PXAT', ARGV[3], 'GET')
if previous then return {'held', previous} end
return {'claimed', ''}`;

export const SCRIPTS = { CLAIM_IN_EPOCH, TAKE_TOKENS, INCREMENT, GET_RECORD, WRITE_RECORD } as const;
export const SHAS = Object.fromEntries(Object.entries(SCRIPTS).map(([name, text]) => [name, sha1(text)])) as Record<keyof typeof SCRIPTS, string>;
