/**
 * The default audit log used to live at `<tmp>/toolwright-robot-arm/audit.jsonl` (shared by every
 * checkout on the machine); it now lives in the checkout (`.data/`). An e-stop latched under the old
 * default must not be forgotten by that move, or an upgrade would quietly release a stopped arm. So
 * at start-up with the default path, a latch found at the old place and none at the new one is
 * carried over, still latched, and the operator is told where it came from.
 *
 * The old file stays where it is: other checkouts (older versions among them) may still read it, and
 * deleting it would release their arms. A small `<latch>.carried.json` beside the new latch records
 * which old latch (file and time) was carried, so an operator's reset here is not undone by carrying
 * the same latch again at the next start; a newer latch at the old place is carried again.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { tmpdir } from 'node:os';
import { AuditLog, AuditLogLockedError } from './audit-log.js';
import { LatchFile, latchPathFor } from './estop-latch-file.js';

/** Where the audit log named like `auditLog` was kept by default before it moved into the checkout. */
export function legacyDefaultAuditLogPath(auditLog: string, temporaryDirectory: string = tmpdir()): string {
  return join(temporaryDirectory, 'toolwright-robot-arm', basename(auditLog));
}

/** The latch files beside an audit log: the server's, and the robot-sim controller's. */
function latchFilesOf(auditLog: string): { server: string; controller: string } {
  return { server: latchPathFor(auditLog), controller: `${auditLog}.controller-estop.json` };
}

function alreadyCarried(marker: string, from: string, at: string): boolean {
  try {
    const seen = JSON.parse(readFileSync(marker, 'utf8')) as { from?: unknown; at?: unknown };
    return seen.from === from && seen.at === at;
  } catch {
    return false;
  }
}

/**
 * Carries latched e-stops from the old default place (`legacyAuditLog`'s latch files) to
 * `auditLog`'s, never over a latch file already there and never the same old latch twice. Returns
 * the lines to show the operator, one per latch carried. A damaged old file is carried as latched
 * (LatchFile's rule). The caller must hold `auditLog`'s lock (see {@link carryLegacyLatchesAtStart}).
 */
export function adoptLegacyLatches(auditLog: string, legacyAuditLog: string): string[] {
  const lines: string[] = [];
  const from = latchFilesOf(legacyAuditLog);
  const to = latchFilesOf(auditLog);
  for (const which of ['server', 'controller'] as const) {
    if (!existsSync(from[which]) || existsSync(to[which])) continue;
    const latch = new LatchFile(from[which]).load();
    const marker = `${to[which]}.carried.json`;
    if (latch === null || alreadyCarried(marker, from[which], latch.at)) continue;
    new LatchFile(to[which]).save({ ...latch, reason: `${latch.reason} (latched under the old default path ${from[which]}, carried over)` });
    writeFileSync(marker, `${JSON.stringify({ from: from[which], at: latch.at })}\n`, { mode: 0o600 });
    lines.push(
      `robot-arm: an e-stop latched under the old default path ${from[which]} (${latch.source}, ${latch.at}) is carried over to ${to[which]}: ` +
        'the arm stays stopped until an operator resets it. The old file is left for other checkouts that may use it; delete it once none does.',
    );
  }
  return lines;
}

/**
 * What main.ts runs before anything uses the log's files: when `auditLog` is in the default
 * directory (`defaultAuditLog`'s), carries old-default latches under the log's lock, so that no
 * running server of this checkout has its files written beside it. A log another process holds is
 * left alone (that start fails on the lock anyway).
 */
export function carryLegacyLatchesAtStart(auditLog: string, defaultAuditLog: string, temporaryDirectory: string = tmpdir()): string[] {
  if (dirname(auditLog) !== dirname(defaultAuditLog)) return [];
  let held: AuditLog;
  try {
    held = new AuditLog(auditLog);
  } catch (error) {
    if (error instanceof AuditLogLockedError) return [];
    throw error;
  }
  try {
    return adoptLegacyLatches(auditLog, legacyDefaultAuditLogPath(auditLog, temporaryDirectory));
  } finally {
    held.close();
  }
}
