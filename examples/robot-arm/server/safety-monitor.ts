import { describeHit, type RobotSimulation } from '../sim/robot-simulation.js';
import type { Vec3 } from '../sim/vector3.js';
import { checkPose } from '../sim/workspace-envelope.js';

/** Measured speeds may exceed a cap by this fraction before the monitor calls it a violation (sampling noise). */
const TOLERANCE = 0.02;

/** A limit the runtime monitor saw broken. Planning makes these impossible; the monitor is the safety net that proves it. */
export interface SafetyViolation {
  readonly kind: 'envelope' | 'joint_limit' | 'joint_speed' | 'joint_acceleration' | 'tcp_speed' | 'tcp_acceleration' | 'collision' | 'moved_while_stopped';
  readonly message: string;
  readonly simTimeMs: number;
}

/**
 * Checks the arm after every simulated clock step while it moves: TCP inside the envelope, joints inside
 * their limits, joint and TCP speeds and accelerations under their caps (TCP acceleration measured as the
 * change of TCP velocity over the step), and no contact of any moving body (links, fingertips, the held
 * object) with the table, the base, an object or the arm itself, with the running motion's allowances
 * (fingertip pads on a grasp target at the end of the approach). Listeners decide what a violation does
 * (the controller latches an emergency stop). It runs in the server process, where the simulated motion
 * is executed.
 */
export class SafetyMonitor {
  private readonly log: SafetyViolation[] = [];
  private readonly listeners: Array<(v: SafetyViolation) => void> = [];
  /** Joints at the previous step, to catch motion while the arm should be still. */
  private lastJoints: readonly number[];
  private holdStill = false;
  /** TCP velocity and time at the previous step while moving, for the acceleration check. */
  private lastVelocity: { v: Vec3; atMs: number } | null = null;

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
    const moving = status.motion !== null || status.state === 'moving' || status.state === 'stopping';
    // The step on which a motion ends is checked too (its last deceleration and its final pose).
    if (!moving && this.lastVelocity === null) return;
    const pose = checkPose(this.sim.envelope, status.tcp, 0.01);
    if (!pose.ok) this.report({ kind: 'envelope', message: pose.violations.map((v) => v.message).join('; '), simTimeMs: nowMs });
    for (let j = 0; j < joints.length; j++) {
      const lim = this.sim.limits.joints[j]!;
      const q = joints[j]!;
      if (q < lim.minDeg - 1e-6 || q > lim.maxDeg + 1e-6) this.report({ kind: 'joint_limit', message: `joint ${j + 1} at ${q.toFixed(2)}° is outside [${lim.minDeg}, ${lim.maxDeg}]°`, simTimeMs: nowMs });
      const v = Math.abs(status.jointVelocitiesDegS[j]!);
      if (v > lim.maxVelocityDegS * (1 + TOLERANCE)) this.report({ kind: 'joint_speed', message: `joint ${j + 1} moves at ${v.toFixed(1)}°/s, above its ${lim.maxVelocityDegS}°/s cap`, simTimeMs: nowMs });
      const a = Math.abs(status.jointAccelerationsDegS2[j]!);
      if (a > lim.maxAccelerationDegS2 * (1 + TOLERANCE)) this.report({ kind: 'joint_acceleration', message: `joint ${j + 1} accelerates at ${a.toFixed(0)}°/s², above its ${lim.maxAccelerationDegS2}°/s² cap`, simTimeMs: nowMs });
    }
    if (status.tcpSpeedMmS > this.sim.limits.maxTcpSpeedMmS * (1 + TOLERANCE)) {
      this.report({ kind: 'tcp_speed', message: `TCP moves at ${status.tcpSpeedMmS.toFixed(1)} mm/s, above the ${this.sim.limits.maxTcpSpeedMmS} mm/s cap`, simTimeMs: nowMs });
    }
    const velocity = status.tcpVelocityMmS;
    // An emergency or protective stop freezes the arm at once by design (Category 0): not a commanded acceleration.
    const halted = status.state === 'estop' || status.state === 'fault';
    const previous = halted ? null : this.lastVelocity;
    if (previous !== null && nowMs > previous.atMs) {
      const accel = Math.hypot(velocity.x - previous.v.x, velocity.y - previous.v.y, velocity.z - previous.v.z) / ((nowMs - previous.atMs) / 1000);
      if (accel > this.sim.limits.maxTcpAccelerationMmS2 * (1 + TOLERANCE)) {
        this.report({ kind: 'tcp_acceleration', message: `TCP accelerates at ${accel.toFixed(0)} mm/s², above the ${this.sim.limits.maxTcpAccelerationMmS2} mm/s² cap`, simTimeMs: nowMs });
      }
    }
    this.lastVelocity = moving ? { v: velocity, atMs: nowMs } : null;
    // Planning keeps the clearance margin; the monitor flags actual contact (margin 0).
    const hit = this.sim.collisionNow(0);
    if (hit !== null) this.report({ kind: 'collision', message: describeHit(hit).replace(' would be ', ' is '), simTimeMs: nowMs });
  }

  private report(violation: SafetyViolation): void {
    this.log.push(violation);
    for (const listener of this.listeners) listener(violation);
  }
}
