/**
 * A Redis store that fails closed when Redis forgets. Two checks, both before any claim is granted:
 *
 * 1. Persistence (redis-persistence.ts): at start and after every reconnect, Redis must keep every
 *    write (AOF, no eviction), else claims are refused and `start()` rejects — unless the operator
 *    allowed a volatile store, which is then a warning.
 * 2. A monotonic claim counter kept outside Redis (claim-counter-file.ts). Each granted claim, in
 *    the same Lua script as the claim itself, adds one to this instance's counter in Redis
 *    (`count:<instance>` of the hash `<prefix>claim-guard`); the answer is written to the file.
 *    A Redis counter lower than the file's means Redis lost acknowledged writes (it came back
 *    empty, or from an older snapshot, or a replica without the last writes took over). Then every
 *    claim of a key family (`approval:elicitation`, `approval:operator`, ...) that expires at or before the
 *    latest expiry this instance ever claimed in it is refused: the approvals and single-use
 *    request states issued before the loss, any of which may have been redeemed already. The
 *    fence goes to the file and to Redis (`fence:<family>`), where every instance's claim script
 *    checks it, and is logged.
 *
 * Cost per claim: the same one round trip as an unguarded claim (one EVALSHA instead of one SET)
 * plus one 1 KiB pwrite, shared by the claims Redis answers in one batch. Limits (docs/scale-out.md): each instance detects the loss of its own
 * claims only, so for the moment between Redis coming back and the instance that made a lost
 * claim reconnecting, another instance may still honour that approval; the fence is by expiry,
 * so a new approval that expires sooner than an old one of its family is refused too (fail closed).
 */
import type { JsonValue } from '../../protocol/json-rpc.js';
import { ClaimCounterFile, MAX_FAMILIES } from './claim-counter-file.js';
import { randomBytes } from 'node:crypto';
import { epochCheckLua, redisClaimKey, redisEpochKey } from './redis-scripts.js';
import type { RedisStore } from './redis-store.js';
import { checkRedisPersistence, VolatileStoreError } from './redis-persistence.js';
import { StoreEpochError, StoreUnavailableError } from './store.js';
import type { ClaimRecord, ClaimResult } from './store.js';

// KEYS[1] the claim, KEYS[2] the guard hash, KEYS[3] the store's epoch; ARGV record, expiresAt,
// instance, count known here, family, '1' when the claim is sealed in an epoch ('0' when not), that
// epoch, a fresh epoch.
// The epoch (store.ts) is checked in the same step: it catches a Redis that came back empty for every
// instance, the counter catches one that came back from an older snapshot for this one.
const CLAIM = `if ARGV[6] == '1' then
${epochCheckLua(3, 7, 8)}
end
local have = tonumber(redis.call('HGET', KEYS[2], 'count:' .. ARGV[3]) or '0')
if have < tonumber(ARGV[4]) then return {'lost', tostring(have)} end
local fence = redis.call('HGET', KEYS[2], 'fence:' .. ARGV[5])
if fence and tonumber(ARGV[2]) <= tonumber(fence) then return {'fenced', fence} end
local held = redis.call('GET', KEYS[1])
if held then return {'held', held} end
redis.call('SET', KEYS[1], ARGV[1], 'PXAT', ARGV[2])
return {'claimed', tostring(redis.call('HINCRBY', KEYS[2], 'count:' .. ARGV[3], 1))}`;

// KEYS[1] the guard hash; ARGV instance, count, then family, fence pairs. Raises each to at least the value given.
const SYNC = `local function raise(field, value)
  local now = tonumber(redis.call('HGET', KEYS[1], field) or '0')
  if now < tonumber(value) then redis.call('HSET', KEYS[1], field, value) end
end
raise('count:' .. ARGV[1], ARGV[2])
for i = 3, #ARGV, 2 do raise('fence:' .. ARGV[i], ARGV[i + 1]) end
return 1`;

const RECHECK_VOLATILE_MS = 5000;

/** Options of {@link guardRedisStore}. */
export interface ClaimGuardOptions {
  /** The counter file (default: a free slot in the Toolwright state folder, see claim-counter-file.ts). */
  counterFile?: string;
  /** Serve on a Redis that does not keep every write, with a warning (`--allow-volatile-store`). */
  allowVolatile?: boolean;
  /** Where warnings and the lost-writes line go (one line each, no trailing newline). Default: stderr. */
  log?: (line: string) => void;
  /** Environment for the state folder (tests). */
  env?: NodeJS.ProcessEnv;
}

/** A Redis store whose claims are guarded; {@link GuardedRedisStore.start} checks before serving. */
export interface GuardedRedisStore extends RedisStore {
  /**
   * Checks persistence and the counter. Rejects with {@link VolatileStoreError} on a Redis that
   * does not keep every write (unless allowed); resolves false when Redis cannot be reached yet
   * (claims are then checked when it is), true when checked.
   */
  start(): Promise<boolean>;
  /** The counter file in use. */
  readonly counterPath: string;
}

/** The family of a claim key: everything before its last `:` (`approval:operator:<id>` → `approval:operator`). */
function familyOf(key: string): string {
  const cut = key.lastIndexOf(':');
  return cut < 0 ? '' : key.slice(0, cut);
}

/** Wraps `store` (every member but `claimOnce` and `close` passes through, including ones added later). */
export function guardRedisStore(store: RedisStore, options: ClaimGuardOptions = {}): GuardedRedisStore {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const counter = options.counterFile !== undefined ? ClaimCounterFile.open(options.counterFile) : ClaimCounterFile.openDefault(store.label, store.keyPrefix, options.env);
  const state = counter.state;
  const guardKey = `${store.keyPrefix}claim-guard`;
  // unverified: check before the next claim; volatile: refused until a reconnect finds it durable.
  let status: 'unverified' | 'verified' | 'volatile' = 'unverified';
  let volatileReason = '';
  let volatileSince = 0;
  let verifying: Promise<void> | undefined;
  let losing: Promise<void> | undefined;

  // Claims answered in one batch from Redis share one file write: it runs after their continuations (a microtask queued behind them).
  let saving: Promise<void> | undefined;
  const saveSoon = (): Promise<void> => (saving ??= new Promise<void>((resolve, reject) => queueMicrotask(() => {
    saving = undefined;
    try {
      counter.save();
      resolve();
    } catch (error) {
      reject(error);
    }
  })));

  const sync = (): Promise<unknown> => store.evalScript(SYNC, [guardKey], [state.instance, String(state.count), ...Object.entries(state.fences).flatMap(([family, fence]) => [family, String(fence)])]);

  /** Redis lost writes: fence every family at its latest expiry, in the file, then in Redis. */
  function lost(have: number): Promise<void> {
    losing ??= (async () => {
      for (const [family, horizon] of Object.entries(state.horizons)) state.fences[family] = Math.max(state.fences[family] ?? 0, horizon);
      counter.save();
      const fences = Object.entries(state.fences).map(([family, fence]) => `${family || '(no family)'} expiring by ${new Date(fence).toISOString()}`).join(', ');
      log(`toolwright: error: the store lost writes: ${store.label} counts ${have} claims of this instance, ${state.count} were acknowledged (counter ${counter.path}); Redis restarted empty or from an older snapshot. Claims issued before now are refused, never honoured twice${fences !== '' ? ` (${fences})` : ''}; their callers must start again.`);
      await sync();
    })().finally(() => {
      losing = undefined;
    });
    return losing;
  }

  async function verify(): Promise<void> {
    const verdict = await checkRedisPersistence(store.command);
    if (!verdict.durable) {
      const error = new VolatileStoreError(store.label, verdict);
      if (options.allowVolatile !== true) {
        status = 'volatile';
        volatileReason = verdict.problems.join('; ');
        volatileSince = Date.now();
        throw error;
      }
      log(`toolwright: warning: ${store.label} does not keep every write (${verdict.problems.join('; ')}); serving anyway (--allow-volatile-store): the claim counter refuses the approvals this instance issued before a Redis restart, but other instances' approvals can run twice`);
    }
    const have = Number((await store.command<string | null>(['HGET', guardKey, `count:${state.instance}`])) ?? 0);
    if (have < state.count) await lost(have);
    else if (Object.keys(state.fences).length > 0) await sync();
    status = 'verified';
  }

  function verified(): Promise<void> {
    verifying ??= verify().finally(() => {
      verifying = undefined;
    });
    return verifying;
  }

  const stopListening = store.onReconnect(() => {
    status = 'unverified';
    verified().catch((error: unknown) => log(`toolwright: ${error instanceof VolatileStoreError ? 'error' : 'warning'}: ${error instanceof Error ? error.message : String(error)}`));
  });

  function refused(family: string, expiresAt: number, why: string): ClaimResult {
    log(`toolwright: refused a claim of ${family || '(no family)'} expiring ${new Date(expiresAt).toISOString()}: ${why}`);
    return { claimed: false, existing: { claimedAt: Date.now(), expiresAt, value: { outcome: 'refused', reason: why } } };
  }

  async function claimOnce(key: string, claimOptions: { expiresAt: number; value?: JsonValue; epoch?: string }): Promise<ClaimResult> {
    const { expiresAt, value = null, epoch: sealedIn } = claimOptions;
    // Lapsed claims are granted and not kept (the store's own rule); nothing to count.
    if (!Number.isFinite(expiresAt) || expiresAt <= Date.now()) return store.claimOnce(key, claimOptions);
    const family = familyOf(key);
    const lossFence = 'issued before the store lost writes (it may have been redeemed already)';
    if (expiresAt <= (state.fences[family] ?? 0)) return refused(family, expiresAt, lossFence);
    if (status !== 'verified') {
      // Checked again at most every few seconds, so `CONFIG SET appendonly yes` takes effect without a restart.
      if (status === 'volatile' && Date.now() - volatileSince < RECHECK_VOLATILE_MS) throw new StoreUnavailableError(`redis ${store.label}`, `it does not keep every write (${volatileReason}); claims are refused until it does`);
      await verified().catch((error: unknown) => {
        if (error instanceof StoreUnavailableError) throw error;
        throw new StoreUnavailableError(`redis ${store.label}`, error instanceof Error ? error.message : String(error), { cause: error });
      });
      // The check may just have found lost writes and fenced this family: the same answer whether it ran here or on reconnect.
      if (expiresAt <= (state.fences[family] ?? 0)) return refused(family, expiresAt, lossFence);
    }
    if (state.horizons[family] === undefined && Object.keys(state.horizons).length >= MAX_FAMILIES) {
      throw new RangeError(`claim counter ${counter.path}: a claim of a ${MAX_FAMILIES + 1}th key family (${family}); the counter tracks at most ${MAX_FAMILIES}`);
    }
    const record = { claimedAt: Date.now(), expiresAt, value };
    for (let attempt = 0; attempt < 2; attempt++) {
      const [verdict, detail] = await store.evalScript<[string, string]>(CLAIM, [redisClaimKey(store.keyPrefix, key), guardKey, redisEpochKey(store.keyPrefix)], [JSON.stringify(record), String(Math.ceil(expiresAt)), state.instance, String(state.count), family, sealedIn === undefined ? '0' : '1', sealedIn ?? '', randomBytes(12).toString('base64url')]);
      if (verdict === 'epoch') throw new StoreEpochError(sealedIn ?? '', detail);
      if (verdict === 'lost') {
        await lost(Number(detail));
        if (expiresAt <= (state.fences[family] ?? 0)) return refused(family, expiresAt, lossFence);
        continue;
      }
      if (verdict === 'fenced') return refused(family, expiresAt, lossFence);
      if (verdict === 'held') return { claimed: false, existing: JSON.parse(detail) as ClaimRecord };
      state.count = Math.max(state.count, Number(detail));
      state.horizons[family] = Math.max(state.horizons[family] ?? 0, expiresAt);
      // Written before the claim is reported: nothing runs on a claim the file does not count.
      await saveSoon();
      return { claimed: true, record };
    }
    throw new StoreUnavailableError(`redis ${store.label}`, 'the claim counter kept finding lost writes; refusing the claim');
  }

  const guarded = Object.create(store) as GuardedRedisStore;
  return Object.assign(guarded, {
    counterPath: counter.path,
    claimOnce,
    async start(): Promise<boolean> {
      if (!store.connected) return false;
      try {
        await verified();
        return true;
      } catch (error) {
        if (error instanceof VolatileStoreError) throw error;
        if (error instanceof StoreUnavailableError && !store.connected) return false;
        throw error;
      }
    },
    async close(): Promise<void> {
      stopListening();
      try {
        await store.close();
      } finally {
        counter.close();
      }
    },
  });
}
