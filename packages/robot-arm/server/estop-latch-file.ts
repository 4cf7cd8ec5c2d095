/**
 * The emergency-stop latch on disk, so that no restart clears it: a latched e-stop outlives the server
 * process (and the controller), and only an operator's reset removes it. The state file lives next to
 * the audit log; it is written to a temporary name, fsync'd and renamed over the old one, and the
 * directory is fsync'd, so after a crash it holds either the old state or the new, never half of one.
 * A file that cannot be read or parsed counts as latched: when in doubt, the arm stays stopped.
 */
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { EmergencyStopInfo } from './robot-controller.js';

const SOURCES: ReadonlySet<string> = new Set<EmergencyStopInfo['source']>(['stop_arm', 'safety_monitor', 'watchdog', 'operator']);

/** Where the latch of the audit log at `auditPath` is kept: `<audit log>.estop.json` beside it. */
export function latchPathFor(auditPath: string): string {
  return join(dirname(auditPath), `${basename(auditPath)}.estop.json`);
}

function fsyncDirectory(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** What the controller needs to keep its latch across restarts. */
export interface LatchStore {
  /** The latch as last saved, or null when none is latched. */
  load(): EmergencyStopInfo | null;
  /** Saves the latch (null: cleared by an operator); durable when it returns. */
  save(latch: EmergencyStopInfo | null): void;
}

/** A {@link LatchStore} in one small JSON file. */
export class LatchFile implements LatchStore {
  constructor(readonly path: string) {}

  load(): EmergencyStopInfo | null {
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      return { reason: `the emergency-stop state file ${this.path} cannot be read (${(error as Error).message}); treated as latched`, source: 'operator', at: new Date().toISOString() };
    }
    try {
      const value = JSON.parse(text) as Partial<Record<keyof EmergencyStopInfo, unknown>>;
      if (typeof value.reason === 'string' && typeof value.at === 'string' && typeof value.source === 'string' && SOURCES.has(value.source)) {
        return { reason: value.reason, source: value.source as EmergencyStopInfo['source'], at: value.at };
      }
    } catch {
      // fall through: unparsable counts as latched
    }
    return { reason: `the emergency-stop state file ${this.path} is damaged; treated as latched`, source: 'operator', at: new Date().toISOString() };
  }

  save(latch: EmergencyStopInfo | null): void {
    if (latch === null) {
      rmSync(this.path, { force: true });
    } else {
      const temporary = `${this.path}.${process.pid}.tmp`;
      const fd = openSync(temporary, 'w', 0o600);
      try {
        writeSync(fd, `${JSON.stringify({ latched: true, reason: latch.reason, source: latch.source, at: latch.at })}\n`);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      renameSync(temporary, this.path);
    }
    fsyncDirectory(dirname(this.path));
  }
}
