/**
 * One writer per file: a lock file beside it (`<file>.lock`) holding the holder's pid, taken
 * atomically and taken over from a holder that is gone. Used by the audit log (one writer per log)
 * and the file claim counter; it lives below both because it knows nothing of either.
 */
import { linkSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
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
