import type { ArmSample, ArmStatus } from '../driver/arm-driver.js';
import { describeHit, type ArmModel, type ArmPoseState, type MotionAllowances, type Vec3 } from '../model/arm-model.js';

/** Measured speeds may exceed a cap by this fraction before the monitor calls it a violation (sampling noise). */
const TOLERANCE = 0.02;

/** A limit the runtime monitor saw broken. Planning makes these impossible; the monitor is the safety net that proves it. */
export interface SafetyViolation {
  readonly kind: 'envelope' | 'joint_limit' | 'joint_speed' | 'joint_acceleration' | 'tcp_speed' | 'tcp_acceleration' | 'collision' | 'moved_while_stopped';
  readonly message: string;
  readonly simTimeMs: number;
}

/** The scene a motion runs in (objects and held object when it started) and what it may touch. */
export interface MonitoredMotion {
  readonly scene: Pick<ArmPoseState, 'held' | 'objects'>;
  readonly allowances: MotionAllowances;
}

/**
 * Checks every control sample the driver streams while the arm moves: TCP inside the envelope, joints
 * inside their limits, joint and TCP speeds and accelerations under their caps (TCP acceleration
 * measured as the change of TCP velocity between samples), and no contact of any moving body (links,
 * fingertips, the held object) with the table, the base, an object or the arm itself, with the running
 * motion's allowances. It also watches the state stream: while an emergency stop is latched, any joint
 * change is a violation. It runs in the server on what the driver reports, so it holds for any driver;
 * listeners decide what a violation does (the controller latches an emergency stop).
 */
export class SafetyMonitor {
  private readonly log: SafetyViolation[] = [];
  private readonly listeners: Array<(v: SafetyViolation) => void> = [];
  /** Joints at the previous sample, to catch motion while the arm should be still. */
  private lastJoints: readonly number[];
  private holdStill = false;
  /** Controller time from which the hold-still rule applies (samples already taken before the latch are not judged by it). */
  private holdSinceMs = -Infinity;
  /** TCP velocity and time at the previous sample while moving, for the acceleration check. */
  private lastVelocity: { v: Vec3; atMs: number } | null = null;
  private motion: MonitoredMotion | null = null;

  constructor(private readonly model: ArmModel, initial: Pick<ArmStatus, 'jointsDeg'>) {
    this.lastJoints = initial.jointsDeg;
  }

  get violations(): readonly SafetyViolation[] {
    return this.log;
  }

  onViolation(listener: (v: SafetyViolation) => void): void {
    this.listeners.push(listener);
  }

  /** While set (e-stop latched), any joint change is a violation: a stopped arm must not move. */
  setHoldStill(value: boolean, at: Pick<ArmStatus, 'jointsDeg' | 'timeMs'>): void {
    this.holdStill = value;
    this.holdSinceMs = at.timeMs;
    this.lastJoints = at.jointsDeg;
  }

  /** The samples that follow belong to this motion (its scene and allowances); null when it ended. */
  setMotion(motion: MonitoredMotion | null): void {
    this.motion = motion;
  }

  /** A snapshot of the state stream (between motions): only the hold-still rule applies. */
  checkStatus(status: ArmStatus): void {
    if (status.timeMs < this.holdSinceMs) return;
    this.checkStill(status.jointsDeg, status.timeMs);
    this.lastJoints = status.jointsDeg;
  }

  /** One control sample of a running motion. */
  checkSample(sample: ArmSample): void {
    const nowMs = sample.timeMs;
    const joints = sample.jointsDeg;
    if (nowMs > this.holdSinceMs) this.checkStill(joints, nowMs);
    this.lastJoints = joints;
    const moving = sample.state === 'moving' || sample.state === 'stopping';
    // The sample on which a motion ends is checked too (its last deceleration and its final pose).
    if (!moving && this.lastVelocity === null) return;
    const limits = this.model.limits;
    const pose = this.model.checkPose(sample.tcp, 0.01);
    if (!pose.ok) this.report({ kind: 'envelope', message: pose.violations.map((v) => v.message).join('; '), simTimeMs: nowMs });
    for (let j = 0; j < joints.length; j++) {
      const lim = limits.joints[j]!;
      const q = joints[j]!;
      if (q < lim.minDeg - 1e-6 || q > lim.maxDeg + 1e-6) this.report({ kind: 'joint_limit', message: `joint ${j + 1} at ${q.toFixed(2)}° is outside [${lim.minDeg}, ${lim.maxDeg}]°`, simTimeMs: nowMs });
      const v = Math.abs(sample.jointVelocitiesDegS[j]!);
      if (v > lim.maxVelocityDegS * (1 + TOLERANCE)) this.report({ kind: 'joint_speed', message: `joint ${j + 1} moves at ${v.toFixed(1)}°/s, above its ${lim.maxVelocityDegS}°/s cap`, simTimeMs: nowMs });
      const a = Math.abs(sample.jointAccelerationsDegS2[j]!);
      if (a > lim.maxAccelerationDegS2 * (1 + TOLERANCE)) this.report({ kind: 'joint_acceleration', message: `joint ${j + 1} accelerates at ${a.toFixed(0)}°/s², above its ${lim.maxAccelerationDegS2}°/s² cap`, simTimeMs: nowMs });
    }
    if (sample.tcpSpeedMmS > limits.maxTcpSpeedMmS * (1 + TOLERANCE)) {
      this.report({ kind: 'tcp_speed', message: `TCP moves at ${sample.tcpSpeedMmS.toFixed(1)} mm/s, above the ${limits.maxTcpSpeedMmS} mm/s cap`, simTimeMs: nowMs });
    }
    const velocity = sample.tcpVelocityMmS;
    // An emergency or protective stop freezes the arm at once by design (Category 0): not a commanded acceleration.
    const halted = sample.state === 'estop' || sample.state === 'fault';
    const previous = halted ? null : this.lastVelocity;
    if (previous !== null && nowMs > previous.atMs) {
      const accel = Math.hypot(velocity.x - previous.v.x, velocity.y - previous.v.y, velocity.z - previous.v.z) / ((nowMs - previous.atMs) / 1000);
      if (accel > limits.maxTcpAccelerationMmS2 * (1 + TOLERANCE)) {
        this.report({ kind: 'tcp_acceleration', message: `TCP accelerates at ${accel.toFixed(0)} mm/s², above the ${limits.maxTcpAccelerationMmS2} mm/s² cap`, simTimeMs: nowMs });
      }
    }
    this.lastVelocity = moving ? { v: velocity, atMs: nowMs } : null;
    const motion = this.motion;
    if (motion === null) return;
    // Planning keeps the clearance margin; the monitor flags actual contact (margin 0).
    const hit = this.model.collisionAt(joints, motion.scene, 0, motion.allowances);
    if (hit !== null) this.report({ kind: 'collision', message: describeHit(hit).replace(' would be ', ' is '), simTimeMs: nowMs });
  }

  private checkStill(joints: readonly number[], nowMs: number): void {
    if (this.holdStill && joints.some((q, i) => Math.abs(q - this.lastJoints[i]!) > 1e-9)) {
      this.report({ kind: 'moved_while_stopped', message: 'the arm moved while an emergency stop was latched', simTimeMs: nowMs });
    }
  }

  private report(violation: SafetyViolation): void {
    this.log.push(violation);
    for (const listener of this.listeners) listener(violation);
  }
}
