/**
 * Whether the server knows the arm's state now. It does not when the link to the arm's controller is
 * lost (process killed, socket closed, heartbeat missed) and not yet back, or when the last report is
 * older than the age the state gate plans from (a controller stopped mid-motion goes quiet before its
 * heartbeat bound passes). Then the arm may be anywhere along its path: answers say "unknown" and show
 * the last report with its age, never "not moving".
 */
import type { ArmStatus } from '../driver/arm-driver.js';

export type StateKnowledge =
  | { readonly known: true }
  | { readonly known: false; readonly reason: string; readonly lastReportAgeMs: number };

/** Fault kinds that mean nobody hears from the arm (a `link_recovered` fault has re-read its state). */
function unreachable(status: Pick<ArmStatus, 'fault'>): boolean {
  const fault = status.fault;
  return fault !== null && (fault.kind === 'disconnected' || fault.kind === 'timeout') && fault.code !== 'link_recovered';
}

export function stateKnowledge(status: Pick<ArmStatus, 'asOf' | 'fault'>, maxStatusAgeMs: number, now = Date.now()): StateKnowledge {
  const lastReportAgeMs = Math.max(0, now - status.asOf);
  if (unreachable(status)) return { known: false, reason: `the arm controller is unreachable (${status.fault!.kind}: ${status.fault!.message})`, lastReportAgeMs };
  if (lastReportAgeMs > maxStatusAgeMs) return { known: false, reason: `the arm controller has not reported for ${lastReportAgeMs} ms (more than ${maxStatusAgeMs} ms)`, lastReportAgeMs };
  return { known: true };
}
