import { checkArmCollision } from '../sim/collision-check.js';
import type { RobotSimulation } from '../sim/robot-simulation.js';
import { checkPose } from '../sim/workspace-envelope.js';

/** Measured speeds may exceed a cap by this fraction before the monitor calls it a violation (sampling noise). */
const TOLERANCE = 0.02;

/** A limit the runtime monitor saw broken. Planning makes these impossible; the monitor is the safety net that proves it. */
export interface SafetyViolation {
  readonly kind: 'envelope' | 'joint_limit' | 'joint_speed' | 'tcp_speed' | 'collision' | 'moved_while_stopped';
  readonly message: string;
  readonly simTimeMs: number;
}

/**
 * Checks the arm after every simulated clock step while it moves: TCP inside the envelope, joints inside
 * their limits, joint and TCP speeds under their caps, no link touching the table, the base or an object
 * (other than the one being grasped or held). Listeners decide what a violation does (the controller
 * latches an emergency stop).
 */
export class SafetyMonitor {
  private readonly log: SafetyViolation[] = [];
  private readonly listeners: Array<(v: SafetyViolation) => void> = [];
  private contacts: readonly string[] = [];
  /** Joints at the previous step, to catch motion while the arm should be still. */
  private lastJoints: readonly number[];
  private holdStill = false;

  constructor(private readonly sim: RobotSimulation) {
    this.lastJoints = sim.jointsDeg;
    sim.clock.onTick((nowMs) => this.check(nowMs));
  }

  get violations(): readonly SafetyViolation[] {
    return this.log;
  }

  onViolation(listener: (v: SafetyViolation) => void): void {
    this.listeners.push(listener);
  }

  /** Objects the fingertips may touch during the current motion (a grasp target). */
  allowContacts(ids: readonly string[]): void {
    this.contacts = ids;
  }

  /** While set (e-stop latched), any joint change is a violation: a stopped arm must not move. */
  setHoldStill(value: boolean): void {
    this.holdStill = value;
    this.lastJoints = this.sim.jointsDeg;
  }

  private check(nowMs: number): void {
    const status = this.sim.status();
    const joints = status.jointsDeg;
    if (this.holdStill && joints.some((q, i) => Math.abs(q - this.lastJoints[i]!) > 1e-9)) {
      this.report({ kind: 'moved_while_stopped', message: 'the arm moved while an emergency stop was latched', simTimeMs: nowMs });
    }
    this.lastJoints = joints;
    if (status.motion === null && status.state !== 'moving' && status.state !== 'stopping') return;
    const pose = checkPose(this.sim.envelope, status.tcp);
    if (!pose.ok) this.report({ kind: 'envelope', message: pose.violations.map((v) => v.message).join('; '), simTimeMs: nowMs });
    for (let j = 0; j < joints.length; j++) {
      const lim = this.sim.limits.joints[j]!;
      const q = joints[j]!;
      if (q < lim.minDeg - 1e-6 || q > lim.maxDeg + 1e-6) this.report({ kind: 'joint_limit', message: `joint ${j + 1} at ${q.toFixed(2)}° is outside [${lim.minDeg}, ${lim.maxDeg}]°`, simTimeMs: nowMs });
      const v = Math.abs(status.jointVelocitiesDegS[j]!);
      if (v > lim.maxVelocityDegS * (1 + TOLERANCE)) this.report({ kind: 'joint_speed', message: `joint ${j + 1} moves at ${v.toFixed(1)}°/s, above its ${lim.maxVelocityDegS}°/s cap`, simTimeMs: nowMs });
    }
    if (status.tcpSpeedMmS > this.sim.limits.maxTcpSpeedMmS * (1 + TOLERANCE)) {
      this.report({ kind: 'tcp_speed', message: `TCP moves at ${status.tcpSpeedMmS.toFixed(1)} mm/s, above the ${this.sim.limits.maxTcpSpeedMmS} mm/s cap`, simTimeMs: nowMs });
    }
    // Planning keeps a 5 mm margin; the monitor flags actual contact (margin 0).
    const allowed = status.heldObjectId === null ? this.contacts : [...this.contacts, status.heldObjectId];
    const hit = checkArmCollision(this.sim.preset, this.sim.collisionWorld(), joints, { marginMm: 0, toolContactObjectIds: allowed });
    if (hit !== null) this.report({ kind: 'collision', message: `link ${hit.link} touches ${hit.obstacle} (gap ${hit.distanceMm.toFixed(1)} mm)`, simTimeMs: nowMs });
  }

  private report(violation: SafetyViolation): void {
    this.log.push(violation);
    for (const listener of this.listeners) listener(violation);
  }
}
