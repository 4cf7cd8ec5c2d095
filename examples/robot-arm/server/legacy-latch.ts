/**
 * The default audit log used to live at `<tmp>/toolwright-robot-arm/audit.jsonl` (shared by every
 * checkout on the machine); it now lives in the checkout (`.data/`). An e-stop latched under the old
 * default must not be forgotten by that move, or an upgrade would quietly release a stopped arm. So
 * at start-up with the default path, a latch found at the old place and none at the new one is
 * carried over, still latched, and the operator is told where it came from. The old file is removed
 * once copied: the latch then belongs to this checkout, and only an operator's reset clears it.
 */
import { existsSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { tmpdir } from 'node:os';
import { LatchFile, latchPathFor } from './estop-latch-file.js';

/** Where the audit log named like `auditLog` was kept by default before it moved into the checkout. */
export function legacyDefaultAuditLogPath(auditLog: string, temporaryDirectory: string = tmpdir()): string {
  return join(temporaryDirectory, 'toolwright-robot-arm', basename(auditLog));
}

/** The latch files beside an audit log: the server's, and the robot-sim controller's. */
function latchFilesOf(auditLog: string): { server: string; controller: string } {
  return { server: latchPathFor(auditLog), controller: `${auditLog}.controller-estop.json` };
}

/**
 * Carries latched e-stops from the old default place to `auditLog`'s (never over a latch file
 * already there). Returns the lines to show the operator, one per latch carried over; none when
 * there was nothing to carry. A damaged old file is carried as latched (LatchFile's rule).
 */
export function adoptLegacyLatches(auditLog: string, legacyAuditLog: string): string[] {
  const lines: string[] = [];
  const from = latchFilesOf(legacyAuditLog);
  const to = latchFilesOf(auditLog);
  for (const which of ['server', 'controller'] as const) {
    if (!existsSync(from[which]) || existsSync(to[which])) continue;
    const latch = new LatchFile(from[which]).load();
    if (latch === null) continue;
    new LatchFile(to[which]).save({ ...latch, reason: `${latch.reason} (latched under the old default path ${from[which]}, carried over)` });
    rmSync(from[which], { force: true });
    lines.push(`robot-arm: an e-stop latched under the old default path ${from[which]} (${latch.source}, ${latch.at}) is carried over to ${to[which]}: the arm stays stopped until an operator resets it`);
  }
  return lines;
}
