/** The options of a hash-chain log ({@link HashChainLog}), checked before anything is opened. */
import type { HashChainLog } from './hash-chain-log.js';

/** When appended lines reach the disk. */
export type HashChainFsync = 'every-entry' | 'never';

/** Options of {@link openHashChainLog}. */
export interface HashChainLogOptions {
  /**
   * `every-entry` (default): each `append` is written and fsync'd before it returns, so what it
   * records is on disk before the caller goes on (a `kill -9` right after loses nothing).
   * `never`: lines are kept in order and written together on the next turn of the event loop, at
   * `flush()`, `close()` and process exit; the OS decides when they reach the disk. A crash can
   * lose the last lines, never reorder or corrupt the ones written.
   */
  fsync?: HashChainFsync;
  /**
   * With `fsync: 'never'`: write the kept lines at most this many milliseconds after the first of
   * them was appended (0 to 1000; default 0, the next turn of the event loop). A busy server then
   * writes many calls' lines, and seals the head, once per interval instead of once per turn; a crash
   * (not an exit: `flush()`, `close()` and process exit still write at once) can lose the lines of
   * the last interval. The head is sealed with each write, so it is at most that far behind.
   */
  flushWithinMs?: number;
  /** A record whose line would be longer has its large fields cut, each marked with its size (default 64 KiB, at least 1024). */
  maxRecordBytes?: number;
  /** The file is rotated (renamed `<path>.N`) once it reaches this size, the chain carried on (default 64 MiB, at least 1024). */
  maxFileBytes?: number;
  /**
   * `true` (default): verify the current file (and the head) when opening, and refuse to extend a
   * broken chain. `'report'`: verify every file and the head, keep the verdict in `openVerdict`,
   * and go on (for a caller that must keep recording and deal with the break itself). `false`:
   * no verification beyond what continuing a keyed chain needs.
   */
  verifyOnOpen?: boolean | 'report';
  /**
   * The chain's key file (needs `head`). With it every line is linked to the one before by
   * HMAC-SHA-256 under the key: a chain_keyed record (naming the key's id) starts the keyed links,
   * at seq 1 of a new log or after the last record of an unkeyed one. Created (0600, its folder
   * 0700) when absent and the log is not keyed yet; a keyed log whose key is gone is refused. Must
   * not be inside the log's folder. Default: none (an unkeyed chain, plain hashes).
   */
  key?: string;
  /**
   * The sealed head file (needs `key`): the last record's seq and link, MAC'd, written after each
   * record (fsync'd with `fsync: 'every-entry'`); truncation is detected against it. Created 0600.
   * Must not be inside the log's folder.
   */
  head?: string;
  /** The end of the message when another process holds the log: what the user should do. */
  lockedHint?: string;
}

function positiveSize(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!(Number.isInteger(value) && value >= 1024)) throw new RangeError(`hash-chain log: ${name} must be an integer >= 1024, got ${String(value)}`);
  return value;
}

/**
 * The options with their defaults, or a RangeError naming the bad one: checked before anything is
 * opened, so a caller that opens later (the audit middleware) still refuses bad options at once.
 * @internal
 */
export function checkHashChainLogOptions(options: HashChainLogOptions): { fsync: HashChainFsync; flushWithinMs: number; maxRecordBytes: number; maxFileBytes: number } {
  const fsync = options.fsync ?? 'every-entry';
  if (fsync !== 'every-entry' && fsync !== 'never') throw new RangeError(`hash-chain log: fsync must be "every-entry" or "never", got ${JSON.stringify(fsync)}`);
  const flushWithinMs = options.flushWithinMs ?? 0;
  if (!(Number.isInteger(flushWithinMs) && flushWithinMs >= 0 && flushWithinMs <= 1000)) throw new RangeError(`hash-chain log: flushWithinMs must be an integer from 0 to 1000, got ${String(options.flushWithinMs)}`);
  if (flushWithinMs > 0 && fsync !== 'never') throw new RangeError(`hash-chain log: flushWithinMs applies to fsync: "never" only (every-entry writes each line before append returns)`);
  return {
    fsync,
    flushWithinMs,
    maxRecordBytes: positiveSize('maxRecordBytes', options.maxRecordBytes, 64 * 1024),
    maxFileBytes: positiveSize('maxFileBytes', options.maxFileBytes, 64 * 1024 * 1024),
  };
}
