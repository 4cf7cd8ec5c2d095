/**
 * What the robot does about a broken audit chain: it refuses motion (moves, trajectories, grasps,
 * releases) until an operator acknowledges the break through the reset (SIGUSR2 or the console's
 * reset); status, sensing, planning and stop_arm stay available, since an operator needs them.
 *
 * The break and its acknowledgement are records of the chain itself (`audit_chain_broken` with the
 * problems found, `audit_break_acknowledged` naming the operator), so a restart neither forgets an
 * unacknowledged break (motion stays refused) nor asks again about one already acknowledged (the
 * same problems found again are the same break). The head is resealed after the break record, so a
 * cut-off end, once on the record, is not reported as new at every start.
 */
import type { AuditLog } from './audit-log.js';
import type { Refusal } from './safety-stages.js';

/** Problems kept in a break record (the count says how many there were). */
const MAX_PROBLEMS = 20;

const BROKEN = 'audit_chain_broken';
const ACKNOWLEDGED = 'audit_break_acknowledged';

/** An unacknowledged break: the record that reported it and what it found. */
export interface AuditBreak {
  readonly seq: number;
  readonly problems: readonly string[];
  readonly problemCount: number;
}

function sameProblems(a: unknown, b: readonly string[]): boolean {
  return Array.isArray(a) && a.length === b.length && a.every((problem, i) => problem === b[i]);
}

export class AuditChainGate {
  readonly #audit: AuditLog;
  #broken: AuditBreak | undefined;

  /** Reads the verdict the log reached when it opened, and records a break not yet on the record. Call before any other append. */
  constructor(audit: AuditLog) {
    this.#audit = audit;
    const verdict = audit.openVerdict;
    // The last break on the record, and whether an acknowledgement of it follows.
    let last: (AuditBreak & { acknowledged: boolean }) | undefined;
    for (const record of verdict?.records ?? []) {
      if (record.type === BROKEN && Array.isArray(record.problems)) {
        last = { seq: record.seq, problems: record.problems as string[], problemCount: Number(record.problem_count ?? record.problems.length), acknowledged: false };
      } else if (record.type === ACKNOWLEDGED && last !== undefined && record.broken_seq === last.seq) {
        last.acknowledged = true;
      }
    }
    if (verdict !== undefined && !verdict.ok) {
      const problems = verdict.problems.slice(0, MAX_PROBLEMS);
      if (last !== undefined && sameProblems(last.problems, problems) && last.problemCount === verdict.problems.length) {
        if (!last.acknowledged) this.#broken = last;
        return;
      }
      const stored = audit.append({ type: BROKEN, problems, problem_count: verdict.problems.length });
      this.#broken = { seq: stored.seq, problems, problemCount: verdict.problems.length };
      return;
    }
    if (last !== undefined && !last.acknowledged) this.#broken = last;
  }

  /** The break that holds motion, or undefined. */
  get broken(): AuditBreak | undefined {
    return this.#broken;
  }

  /** Stage `state_gate` for a command that moves the arm or the gripper: refused while the break is unacknowledged. */
  motionRefusal(): Refusal | null {
    const broken = this.#broken;
    if (broken === undefined) return null;
    const more = broken.problemCount - 1;
    return {
      stage: 'state_gate',
      code: 'audit_chain_broken',
      message: `the audit log's chain is broken (${broken.problems[0] ?? 'see the audit log'}${more > 0 ? `; and ${more} more` : ''}); motions are refused until an operator acknowledges it with the reset (kill -USR2 ${process.pid} or the console's e-stop reset). Status, sensing, planning and stop_arm stay available`,
    };
  }

  /** The operator's acknowledgement (the reset): on the record, and motion allowed again. False when nothing was broken. */
  acknowledge(operator: string): boolean {
    const broken = this.#broken;
    if (broken === undefined) return false;
    this.#audit.append({ type: ACKNOWLEDGED, operator, broken_seq: broken.seq });
    this.#broken = undefined;
    return true;
  }
}
