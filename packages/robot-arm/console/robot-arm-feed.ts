/**
 * The real robot's {@link ArmFeed}: what the console draws, read from the simulated cell the robot
 * server drives, and the operator's e-stop and reset through the controller and the audit log (each
 * action recorded naming the operator). The simulation has no change events, so while a page listens
 * the feed samples it at a fixed rate (default 30/s, above the 20/s the view needs) and sends a state
 * only when it changed; its own actions (e-stop, reset) are sent at once. The audit tail comes from
 * the log's append listener; the chain is verified from the file when the feed starts, then link by
 * link as records are appended.
 */
import { readAuditLogChain, type StoredAuditRecord } from '../server/audit-log.js';
import type { RobotServer } from '../server/create-robot-server.js';
import type { PresenceStatus, PresenceUpdate } from '../driver/arm-driver.js';
import { armEnvelopeOf, armObjectsOf, armStateOf } from '../view/arm-view-state.js';
import type { ArmAuditEntry, ArmFeed, ArmFeedEvent, ArmObject, ArmSnapshot, ArmState, AuditVerification, Point } from '../view/arm-feed.js';

/** Options of {@link RobotArmFeed}. */
export interface RobotArmFeedOptions {
  /** How often the simulation is sampled while a page listens (default 30/s). */
  samplesPerSecond?: number;
  /** How many audit records a snapshot carries (default 100). */
  auditTail?: number;
}


function auditEntry(record: StoredAuditRecord, hash: string): ArmAuditEntry {
  const { seq, time, prev: _prev, type, ...fields } = record;
  const parts: string[] = [];
  for (const key of ['tool', 'action', 'operator', 'outcome', 'reason', 'plan_hash'] as const) {
    const value = fields[key];
    if (typeof value === 'string' && value !== '') parts.push(`${key} ${key === 'plan_hash' ? value.slice(0, 16) : value}`);
  }
  const approval = fields.approval as { decision?: unknown; approvedBy?: { operator?: unknown } } | null | undefined;
  if (typeof approval?.decision === 'string') parts.push(`approval ${approval.decision}${typeof approval.approvedBy?.operator === 'string' ? ` by ${approval.approvedBy.operator}` : ''}`);
  return { seq, time, kind: type, summary: parts.join(', '), hash };
}

/** The console's view of one robot server. Call `close()` when the console closes. */
export class RobotArmFeed implements ArmFeed {
  readonly #robot: RobotServer;
  readonly #listeners = new Set<(event: ArmFeedEvent) => void>();
  readonly #periodMs: number;
  readonly #tailSize: number;
  readonly #tail: ArmAuditEntry[] = [];
  #verification: AuditVerification | undefined;
  #lastHash = '';
  #trace: Point[] = [];
  #lastState = '';
  #lastObjects = '';
  #wasMoving = false;
  #timer: NodeJS.Timeout | undefined;
  readonly #stopAudit: () => void;
  readonly #detachOperator: () => void;

  constructor(robot: RobotServer, options: RobotArmFeedOptions = {}) {
    this.#robot = robot;
    this.#periodMs = 1000 / (options.samplesPerSecond ?? 30);
    this.#tailSize = options.auditTail ?? 100;
    this.#verify();
    this.#stopAudit = robot.audit.onAppend((record, lineHash) => this.#onAudit(record, lineHash));
    // A console exists now: under approver `either`, calls of clients that cannot elicit wait for it.
    this.#detachOperator = robot.approval.attachOperator();
  }

  snapshot(): ArmSnapshot {
    return {
      envelope: armEnvelopeOf(this.#robot.controller),
      objects: this.#objects(),
      state: this.#state(),
      trace: [...this.#trace],
      audit: [...this.#tail],
      verification: this.#verify(),
    };
  }

  subscribe(listener: (event: ArmFeedEvent) => void): () => void {
    this.#listeners.add(listener);
    this.#timer ??= setInterval(() => this.sample(), this.#periodMs).unref();
    return () => {
      this.#listeners.delete(listener);
      if (this.#listeners.size === 0 && this.#timer !== undefined) {
        clearInterval(this.#timer);
        this.#timer = undefined;
      }
    };
  }

  /** Reads the simulation once and reports what changed (the timer calls it; so may a test). */
  sample(): void {
    const state = this.#state();
    if (state.moving && !this.#wasMoving) {
      this.#trace = [];
      this.#emit({ type: 'trace-reset' });
    }
    this.#wasMoving = state.moving;
    if (state.moving) this.#trace.push(state.tcp);
    const key = JSON.stringify([state.joints, state.gripper, state.moving, state.estop, state.fault, state.presence]);
    if (key !== this.#lastState) {
      this.#lastState = key;
      this.#emit({ type: 'state', state });
    }
    const objects = this.#objects();
    const objectsKey = JSON.stringify(objects);
    if (objectsKey !== this.#lastObjects) {
      this.#lastObjects = objectsKey;
      this.#emit({ type: 'objects', objects });
    }
  }

  emergencyStop(operator: string, reason: string): void {
    this.#robot.audit.append({ type: 'operator_action', action: 'emergency_stop', operator, reason });
    // The latch is set synchronously inside stop(); the promise only waits for the arm to be at rest.
    void this.#robot.controller.stop('emergency', `${operator}: ${reason}`, 'operator');
    this.sample();
  }

  /** Operator action: sets the presence sensor (zones, person); audited with the operator's name by the robot. */
  async setPresence(operator: string, update: PresenceUpdate): Promise<PresenceStatus> {
    try {
      return await this.#robot.setPresence(update, operator);
    } finally {
      this.sample();
    }
  }

  /**
   * The console's reset, the same as SIGUSR2: clears a latched e-stop, acknowledges a protective-stop
   * fault (refused while a person is in the protective zone) and a broken audit chain; true when any was cleared.
   */
  async resetEmergencyStop(operator: string): Promise<boolean> {
    try {
      // The audit break first: a failed e-stop release (it throws) must not leave it unacknowledged.
      const acknowledged = this.#robot.acknowledgeAuditBreak(operator);
      if (acknowledged) {
        const was = this.#verify();
        // Links made from here on are checked as they come (the next record's event carries this).
        this.#verification = { ok: true, records: was.records, message: `the audit chain's break was acknowledged by ${operator}; ${was.records} records, the chain goes on from here` };
      }
      const cleared = await this.#robot.clearEmergencyStop(operator);
      const faultCleared = await this.#robot.clearFault(operator);
      return cleared || faultCleared || acknowledged;
    } finally {
      this.sample();
    }
  }

  close(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
    this.#listeners.clear();
    this.#stopAudit();
    this.#detachOperator();
  }

  #state(): ArmState {
    return armStateOf(this.#robot.controller);
  }

  #objects(): ArmObject[] {
    return armObjectsOf(this.#robot.controller);
  }

  /** The whole chain from disk, once (at construction); afterwards each appended record is checked against the last. */
  #verify(): AuditVerification {
    if (this.#verification !== undefined) return this.#verification;
    const audit = this.#robot.audit;
    const { records, chainBreaks, tornLines } = readAuditLogChain(audit.path, audit.chainFiles ?? { key: false });
    const broken = chainBreaks[0];
    // A break the robot holds motion for (a cut-off end, a missing head, ...) may no longer show in the links.
    const held = this.#robot.auditChain.broken;
    this.#verification = held !== undefined
      ? { ok: false, records: records.length, brokenAt: broken ?? held.seq, message: `the audit chain is broken (${held.problems[0] ?? 'see the audit log'}); motion is refused until the operator's reset acknowledges it` }
      : broken === undefined
      ? { ok: true, records: records.length, message: `${records.length} records, every ${audit.chainFiles === undefined ? 'hash' : 'MAC'} links to the one before${tornLines > 0 ? ` (${tornLines} torn line(s) from a crash skipped)` : ''}` }
      : { ok: false, records: records.length, brokenAt: broken, message: `record ${broken} does not link to the record before it (edited or removed lines)` };
    this.#lastHash = this.#robot.audit.lastHash;
    this.#tail.push(...records.slice(-this.#tailSize).map((r, i, all) => auditEntry(r, all[i + 1]?.prev ?? this.#lastHash)));
    return this.#verification;
  }

  #onAudit(record: StoredAuditRecord, lineHash: string): void {
    const entry = auditEntry(record, lineHash);
    this.#tail.push(entry);
    if (this.#tail.length > this.#tailSize) this.#tail.shift();
    const was = this.#verify();
    const links = record.prev === this.#lastHash;
    this.#lastHash = lineHash;
    this.#verification = was.ok && !links
      ? { ok: false, records: was.records + 1, brokenAt: record.seq, message: `record ${record.seq} does not link to the record before it` }
      : { ...was, records: was.records + 1, ...(was.ok ? { message: `${was.records + 1} records, every hash links to the one before` } : {}) };
    this.#emit({ type: 'audit', entry, verification: this.#verification });
  }

  #emit(event: ArmFeedEvent): void {
    for (const listener of [...this.#listeners]) listener(event);
  }
}
