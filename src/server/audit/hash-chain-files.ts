/**
 * The file-level parts of a hash-chain log ({@link HashChainLog}): the lock that keeps one process
 * per log file, recovery of the last complete record whatever its size, the names of rotated files,
 * and the cutting of an oversized record before it is written.
 */
import { existsSync, fstatSync, linkSync, readdirSync, readFileSync, readSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { StoreError } from '../../errors/toolwright-error.js';

/** Another live process (or another open log in this one) holds the log's lock file. */
export class HashChainLogLockedError extends StoreError {
  readonly errorCode = 'log-locked' as const;
  override readonly name = 'HashChainLogLockedError';
}

/** The end of the "in use" message when the caller gives none: what to do about it. */
export const DEFAULT_LOCKED_HINT = 'one writer per log: stop that process or open another file';

/** The lock file beside a log: `<log>.lock`, holding the holder's pid. */
export function lockPathOf(path: string): string {
  return `${path}.lock`;
}

function alive(pid: number): boolean {
  try { process.kill(pid, 0); return true; } catch (error) { return (error as NodeJS.ErrnoException).code === 'EPERM'; }
}

function readOrUndefined(file: string): string | undefined {
  try { return readFileSync(file, 'utf8'); } catch { return undefined; }
}

/** How deep a takeover of a takeover claim may go (a process dying inside a takeover, twice) before we ask for a human. */
const MAX_TAKEOVER_DEPTH = 2;

/**
 * Takes the lock for `path`: `<path>.lock`, holding the holder's pid. A lock left by a process that
 * no longer runs (SIGKILL, crash) is taken over; one held by a live process is refused with a
 * message naming it. Returns the lock's path, to remove on close.
 *
 * Why this is safe when several processes start at once:
 * - A lock appears with its pid already in it: it is written to a temp file and link()ed into
 *   place, which fails if the lock exists. So an empty or half-written lock is never a live one.
 * - A lock holding a dead pid P is replaced only by the process that holds the claim file
 *   `<lock>.takeover-P` (itself taken by this same function, so an exclusive create), and only
 *   after re-reading, while holding the claim, that the lock still holds P. The lock is never
 *   unlinked on takeover but replaced by rename() (atomic), so no one else can create a fresh
 *   lock in between, and nothing but a claim-P holder changes a lock holding P (the owner P is
 *   dead; release removes only one's own pid). A late contender that read P before the takeover
 *   then either finds the claim held (refused, naming the taker) or finds the lock no longer P.
 */
export function acquireLock(path: string, lockedHint: string = DEFAULT_LOCKED_HINT): string {
  const lock = lockPathOf(path);
  const refused = (holder: number, how = 'in use by'): HashChainLogLockedError =>
    new HashChainLogLockedError(`audit log ${path} is ${how} process ${holder}${holder === process.pid ? ' (this process)' : ''} (lock ${lock}); ${lockedHint}`);
  const outcome = takeFile(lock, 0);
  if (outcome === true) return lock;
  if (typeof outcome === 'number') throw refused(outcome);
  if (outcome.takenOverBy !== undefined) throw refused(outcome.takenOverBy, 'being taken over by');
  throw new HashChainLogLockedError(`audit log ${path}: could not take the lock ${lock} (${outcome.reason})`);
}

type TakeOutcome = true | number | { takenOverBy?: number; reason: string };

/** Takes `file` for this process: true, or the live holder's pid, or why not. See {@link acquireLock}. */
function takeFile(file: string, depth: number): TakeOutcome {
  const temp = `${file}.${process.pid}.tmp`;
  try {
    for (let attempt = 0; attempt < 3; attempt++) {
      writeFileSync(temp, `${process.pid}\n`);
      try {
        linkSync(temp, file);
        return true;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const content = readOrUndefined(file);
      if (content === undefined) continue; // released meanwhile: create it again
      const holder = Number.parseInt(content, 10);
      if (Number.isInteger(holder) && holder > 0 && alive(holder)) return holder;
      // Stale: its process is gone (or the content is not a pid, e.g. an old half-written lock).
      if (depth >= MAX_TAKEOVER_DEPTH) return { reason: `takeovers of its stale holder keep being interrupted; remove ${file} and its .takeover-* files by hand` };
      const claim = `${file}.takeover-${Number.isInteger(holder) && holder > 0 ? holder : 'unreadable'}`;
      const claimed = takeFile(claim, depth + 1);
      if (typeof claimed === 'number') return { takenOverBy: claimed, reason: `process ${claimed} is taking it over` };
      if (claimed !== true) return claimed;
      try {
        if (readOrUndefined(file) !== content) continue; // someone finished a takeover first: look again
        renameSync(temp, file);
        return true;
      } finally {
        releaseLock(claim);
      }
    }
    return { reason: 'it keeps being re-created' };
  } finally {
    try { unlinkSync(temp); } catch { /* renamed into place, or never written */ }
  }
}

/** Removes the lock file if this process holds it. */
export function releaseLock(lock: string): void {
  try {
    if (Number.parseInt(readFileSync(lock, 'utf8'), 10) === process.pid) unlinkSync(lock);
  } catch { /* already gone */ }
}

/**
 * Numbers of the rotated files of `path`, ascending: N of each `<log>.N` beside it. Taken from the
 * file names, never from `path` as spelt: `./calls.jsonl` or `a//b.jsonl` name the same files as
 * their normalised form, and cutting a joined name at the length of the spelling read the wrong N.
 */
function rotatedNumbers(path: string): number[] {
  const dir = dirname(path);
  const prefix = `${basename(path)}.`;
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.startsWith(prefix) && /^\d+$/.test(name.slice(prefix.length)))
    .map((name) => Number(name.slice(prefix.length)))
    .sort((a, b) => a - b);
}

/** Rotated files of `path`, oldest first: `<log>.1`, `<log>.2`, ... */
export function rotatedFiles(path: string): string[] {
  const dir = dirname(path);
  const name = basename(path);
  return rotatedNumbers(path).map((n) => join(dir, `${name}.${n}`));
}

/** The name the current file takes when it is rotated: one past the highest N on disk. */
export function nextRotatedName(path: string): string {
  const numbers = rotatedNumbers(path);
  const last = numbers.length === 0 ? 0 : numbers[numbers.length - 1]!;
  return join(dirname(path), `${basename(path)}.${last + 1}`);
}

/** The last complete record line of a file, found by reading backwards in chunks (no size limit). */
export interface Tail { line: string | undefined; seq: number; endsWithNewline: boolean; size: number }

const CHUNK = 1 << 16;

/** Finds the last line of the open file `fd` that `parseSeq` accepts (torn lines are skipped). */
export function readTail(fd: number, parseSeq: (line: string) => number | undefined): Tail {
  const size = fstatSync(fd).size;
  if (size === 0) return { line: undefined, seq: 0, endsWithNewline: true, size };
  const last = Buffer.alloc(1);
  readSync(fd, last, 0, 1, size - 1);
  const endsWithNewline = last[0] === 0x0a;
  // Walk line ends from the back: each candidate line is [start, end); torn lines are skipped.
  let end = endsWithNewline ? size - 1 : size;
  while (end > 0) {
    const start = lineStart(fd, end);
    const buffer = Buffer.alloc(end - start);
    readSync(fd, buffer, 0, buffer.length, start);
    const line = buffer.toString('utf8');
    const seq = parseSeq(line);
    if (seq !== undefined) return { line, seq, endsWithNewline, size };
    end = start === 0 ? 0 : start - 1;
  }
  return { line: undefined, seq: 0, endsWithNewline, size };
}

/** Offset just after the last "\n" before `end` (0 when none). */
function lineStart(fd: number, end: number): number {
  const buffer = Buffer.alloc(CHUNK);
  let position = end;
  while (position > 0) {
    const from = Math.max(0, position - CHUNK);
    const length = position - from;
    readSync(fd, buffer, 0, length, from);
    const at = buffer.subarray(0, length).lastIndexOf(0x0a);
    if (at !== -1) return from + at + 1;
    position = from;
  }
  return 0;
}

/** How a field of an oversized record is kept: its JSON cut to a prefix, with the full size. */
export interface CutField { truncated: true; bytes: number | null; prefix: string }

/**
 * The record's fields, each small field kept and each large one (or one that cannot be serialised,
 * e.g. nested 174,000 levels deep) replaced by a {@link CutField}, so the line fits `maxBytes`.
 * Returns undefined when the record fits as it is.
 */
export function cutRecord(fields: Record<string, unknown>, maxBytes: number): Record<string, unknown> | undefined {
  const sizes = new Map<string, number | null>();
  let total = 0;
  for (const [key, value] of Object.entries(fields)) {
    let bytes: number | null;
    try { bytes = Buffer.byteLength(JSON.stringify(value) ?? ''); } catch { bytes = null; }
    sizes.set(key, bytes);
    total += bytes ?? maxBytes;
  }
  if (total <= maxBytes - 256) return undefined;
  const share = Math.max(64, Math.floor(maxBytes / (2 * Math.max(1, sizes.size))));
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) {
    const bytes = sizes.get(key)!;
    if (bytes !== null && bytes <= share) { out[key] = value; continue; }
    let prefix = '';
    try { prefix = (JSON.stringify(value) ?? '').slice(0, share); } catch (error) { prefix = `(not serialisable: ${(error as Error).message})`; }
    const cut: CutField = { truncated: true, bytes, prefix };
    out[key] = cut;
  }
  return out;
}
