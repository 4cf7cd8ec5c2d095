/**
 * Does this Redis keep every write? Approvals and single-use request states are claims in the
 * store: a Redis that restarts and forgets a claim lets the same approval run twice. So a store
 * that holds claims must log every write to its append-only file (AOF) and must not evict keys.
 *
 * Read with `CONFIG GET` where it is allowed; managed Redis often disables or renames CONFIG (the
 * command errors), and then `INFO persistence` / `INFO memory` tell the same (less precisely: INFO
 * does not show `appendfsync`).
 *
 * Accepted: `appendonly yes` with `appendfsync always` or `everysec` (Redis writes the AOF before it
 * answers; `everysec` can lose the last second on an operating-system crash, which the claim counter,
 * claim-counter-guard.ts, then detects), and `maxmemory-policy noeviction`. Refused: no AOF (RDB
 * snapshots alone lose every write since the last one), `appendfsync no` (tens of seconds may sit
 * unflushed), and any eviction policy.
 */
import { StoreUnavailableError } from './store.js';
import { DefinitionError } from '../../errors/toolwright-error.js';

/** What was found, and how. */
export interface PersistenceVerdict {
  /** Whether every acknowledged write survives a Redis restart (see the module comment). */
  readonly durable: boolean;
  /** Where the answer came from: CONFIG GET, or INFO because CONFIG is disabled. */
  readonly source: 'config' | 'info';
  readonly appendonly: boolean;
  /** `always`, `everysec`, `no`, or undefined when only INFO could be read. */
  readonly appendfsync: string | undefined;
  /** undefined when INFO does not say (older Redis). */
  readonly maxmemoryPolicy: string | undefined;
  /** Why it is not durable, each with its fix; empty when durable. */
  readonly problems: readonly string[];
}

/** Thrown at start by a store that holds claims on a Redis that does not keep every write. */
export class VolatileStoreError extends DefinitionError {
  readonly errorCode = 'volatile-store' as const;
  constructor(readonly label: string, readonly verdict: PersistenceVerdict) {
    super(`refusing to keep approvals and claims in ${label}: it does not keep every write (${verdict.problems.join('; ')}). Fix: ${fixOf(verdict)}; or, knowing that a Redis restart then lets an approval run twice, pass --allow-volatile-store (createServer: guardRedisStore(store, { allowVolatile: true }))`);
    this.name = 'VolatileStoreError';
  }
}

function fixOf(verdict: PersistenceVerdict): string {
  const fixes: string[] = [];
  if (!verdict.appendonly || verdict.appendfsync === 'no') fixes.push('run Redis with `appendonly yes` and `appendfsync everysec` (or always), in redis.conf or `CONFIG SET appendonly yes` then `CONFIG REWRITE`');
  if (verdict.maxmemoryPolicy !== undefined && verdict.maxmemoryPolicy !== 'noeviction') fixes.push('set `maxmemory-policy noeviction`');
  return fixes.join(', and ');
}

/** `CONFIG GET a b` answers a flat [name, value, ...] list (RESP2) or a map (RESP3). */
function configMap(reply: unknown): Map<string, string> {
  const map = new Map<string, string>();
  if (Array.isArray(reply)) {
    for (let i = 0; i + 1 < reply.length; i += 2) map.set(String(reply[i]), String(reply[i + 1]));
  } else if (reply instanceof Map) {
    for (const [k, v] of reply) map.set(String(k), String(v));
  } else if (typeof reply === 'object' && reply !== null) {
    for (const [k, v] of Object.entries(reply)) map.set(k, String(v));
  }
  return map;
}

/** The `name:value` lines of an INFO section. */
function infoFields(text: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const line of text.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0 && !line.startsWith('#')) map.set(line.slice(0, colon), line.slice(colon + 1).trim());
  }
  return map;
}

function judge(source: 'config' | 'info', appendonly: boolean, appendfsync: string | undefined, maxmemoryPolicy: string | undefined): PersistenceVerdict {
  const problems: string[] = [];
  if (!appendonly) problems.push('appendonly is no: writes since the last RDB snapshot are lost when Redis restarts');
  else if (appendfsync === 'no') problems.push('appendfsync is no: the operating system decides when the AOF reaches the disk');
  if (maxmemoryPolicy !== undefined && maxmemoryPolicy !== 'noeviction') problems.push(`maxmemory-policy is ${maxmemoryPolicy}: Redis may evict a claim`);
  return { durable: problems.length === 0, source, appendonly, appendfsync, maxmemoryPolicy, problems };
}

/**
 * Asks Redis how it persists. `command` sends one command (RedisStore.command). Rejects with
 * StoreUnavailableError when Redis cannot be reached, or when neither CONFIG nor INFO answers.
 */
export async function checkRedisPersistence(command: <T>(args: string[]) => Promise<T>): Promise<PersistenceVerdict> {
  let config: Map<string, string> | undefined;
  try {
    config = configMap(await command<unknown>(['CONFIG', 'GET', 'appendonly', 'appendfsync', 'maxmemory-policy']));
  } catch (error) {
    // Down is down; any other refusal (unknown command, NOPERM, renamed) means CONFIG is not ours to use.
    if (!(error instanceof StoreUnavailableError) || /not connected|no answer within|was closed/.test(error.message)) throw error;
  }
  if (config !== undefined && config.has('appendonly')) {
    return judge('config', config.get('appendonly') === 'yes', config.get('appendfsync'), config.get('maxmemory-policy'));
  }
  const persistence = infoFields(String(await command<unknown>(['INFO', 'persistence'])));
  const aof = persistence.get('aof_enabled');
  if (aof === undefined) throw new StoreUnavailableError('redis', 'neither CONFIG GET nor INFO persistence tells whether the AOF is on');
  const memory = infoFields(String(await command<unknown>(['INFO', 'memory'])));
  return judge('info', aof === '1', undefined, memory.get('maxmemory_policy'));
}
