import type { ArmPreset, JointLimit } from './arm-presets.js';
import { DEG_PER_RAD, RAD_PER_DEG } from './angles.js';
import { armFramesRad, tcpFrameRad } from './forward-kinematics.js';
import { inverseKinematics, TOOL_DOWN, type IkFailureCode, type OrientationTarget } from './inverse-kinematics.js';
import { geometricJacobian } from './jacobian.js';
import { JointPath } from './joint-path.js';
import { angleBetween, column, expMap, fromRpyDeg, mul, slerp, type Mat3 } from './rotation.js';
import { fitTimeScaling, type TimeScaling, type TimeScalingKind } from './time-scaling.js';
import { Trajectory, type TrajectorySegment } from './trajectory.js';
import { cross, distance, dot, isFiniteVec3, lerp, norm, type Vec3 } from './vector3.js';

/** The caps every plan must respect. They come from the preset or operator configuration, never from a tool call. */
export interface MotionLimits {
  readonly joints: readonly JointLimit[];
  readonly maxTcpSpeedMmS: number;
  readonly maxTcpAccelerationMmS2: number;
}

export function motionLimitsOf(preset: ArmPreset): MotionLimits {
  return { joints: preset.joints, maxTcpSpeedMmS: preset.maxTcpSpeedMmS, maxTcpAccelerationMmS2: preset.maxTcpAccelerationMmS2 };
}

/** A TCP goal in the base frame: position in millimetres, orientation defaulting to tool-down. */
export interface CartesianTarget {
  readonly position: Vec3;
  readonly orientation?: OrientationTarget;
}

export interface PlanOptions {
  /** Fraction (0.1–1.0) of the configured joint and TCP speed caps; default 0.5. Accelerations keep their caps. */
  readonly speedFraction?: number;
  /**
   * A lower TCP speed cap for this plan, mm/s (a person in the warning zone: `sim/presence-sensor.ts`);
   * the plan is timed so that its TCP stays under the smaller of this and the fraction of the preset's cap.
   */
  readonly tcpSpeedCapMmS?: number;
  /** Default `trapezoidal`. */
  readonly timeScaling?: TimeScalingKind;
  /** `linear` (default for Cartesian goals): the TCP moves on a straight line; `joint`: straight line in joint space. */
  readonly path?: 'linear' | 'joint';
}

export type PlanFailureCode = 'invalid_input' | 'joint_limit' | 'path_unreachable' | 'singularity' | Exclude<IkFailureCode, 'invalid_input' | 'joint_limit'>;

export type PlanResult =
  | { readonly ok: true; readonly trajectory: Trajectory }
  | {
      readonly ok: false;
      readonly code: PlanFailureCode;
      readonly message: string;
      /** For waypoint plans: index of the waypoint whose segment failed. */
      readonly waypointIndex?: number;
    };

/** Cartesian knots are placed every 2 mm or 1° of tool rotation, whichever is denser. */
const KNOT_SPACING_MM = 2;
const KNOT_SPACING_DEG = 1;
/** A straight line whose joints jump more than this between neighbouring knots is passing a singularity. */
const MAX_KNOT_JUMP_DEG = 5;
/** Plans aim slightly under every cap so sampled checks never see a cap exceeded by rounding. */
const DESIGN_MARGIN = 0.98;

/** Plans a straight joint-space move from `startDeg` to `goalDeg` under the caps. */
export function planJointMotion(preset: ArmPreset, limits: MotionLimits, startDeg: readonly number[], goalDeg: readonly number[], options: PlanOptions = {}): PlanResult {
  const bad = checkOptions(options) ?? checkJoints(preset, limits, startDeg, 'start') ?? checkJoints(preset, limits, goalDeg, 'goal');
  if (bad !== null) return bad;
  const path = new JointPath([toRad(startDeg), toRad(goalDeg)]);
  return { ok: true, trajectory: new Trajectory(preset, [timeSegment(preset, limits, path, 'joint', 0, options)]) };
}

/** Plans a move of the TCP to a Cartesian target (straight line by default, or a joint-space move). */
export function planPoseMotion(preset: ArmPreset, limits: MotionLimits, startDeg: readonly number[], target: CartesianTarget, options: PlanOptions = {}): PlanResult {
  return planWaypoints(preset, limits, startDeg, [target], options);
}

/**
 * Plans through Cartesian waypoints in order, stopping at each (no blending). The first segment starts
 * at the arm's current joints `startDeg`, so the current pose need not be listed.
 */
export function planWaypoints(preset: ArmPreset, limits: MotionLimits, startDeg: readonly number[], waypoints: readonly CartesianTarget[], options: PlanOptions = {}): PlanResult {
  const bad = checkOptions(options) ?? checkJoints(preset, limits, startDeg, 'start');
  if (bad !== null) return bad;
  if (waypoints.length === 0) return { ok: false, code: 'invalid_input', message: 'at least one waypoint is required' };
  const segments: TrajectorySegment[] = [];
  let current = toRad(startDeg);
  let t = 0;
  for (let w = 0; w < waypoints.length; w++) {
    const target = waypoints[w]!;
    const path = options.path === 'joint' ? jointPathTo(preset, limits, current, target) : linearPathTo(preset, current, target);
    if (!(path instanceof JointPath)) return { ...path, waypointIndex: w };
    const segment = timeSegment(preset, limits, path, options.path === 'joint' ? 'joint' : 'linear', t, options);
    segments.push(segment);
    t += segment.timing.durationS;
    current = path.knots[path.knots.length - 1]!;
  }
  return { ok: true, trajectory: new Trajectory(preset, segments) };
}

type PathFailure = { ok: false; code: PlanFailureCode; message: string };

function jointPathTo(preset: ArmPreset, limits: MotionLimits, startRad: Float64Array, target: CartesianTarget): JointPath | PathFailure {
  const invalid = checkTarget(target);
  if (invalid !== null) return invalid;
  const ik = inverseKinematics(preset, target, { seedDeg: Array.from(startRad, (v) => v * DEG_PER_RAD) });
  if (!ik.ok) return { ok: false, code: ik.code === 'invalid_input' ? 'invalid_input' : ik.code, message: ik.message };
  const limitProblem = checkJoints(preset, limits, ik.jointsDeg, 'goal');
  if (limitProblem !== null) return limitProblem;
  return new JointPath([startRad, toRad(ik.jointsDeg)]);
}

function linearPathTo(preset: ArmPreset, startRad: Float64Array, target: CartesianTarget): JointPath | PathFailure {
  const invalid = checkTarget(target);
  if (invalid !== null) return invalid;
  const start = tcpFrameRad(preset, startRad);
  const goalRotation = goalRotationFor(target.orientation ?? TOOL_DOWN, start.rotation);
  const lengthMm = distance(start.origin, target.position);
  const turnDeg = angleBetween(start.rotation, goalRotation) * DEG_PER_RAD;
  const count = Math.max(1, Math.ceil(Math.max(lengthMm / KNOT_SPACING_MM, turnDeg / KNOT_SPACING_DEG)));
  const knots: Float64Array[] = [startRad];
  let previous = startRad;
  for (let i = 1; i <= count; i++) {
    const u = i / count;
    const position = lerp(start.origin, target.position, u);
    const rotation = slerp(start.rotation, goalRotation, u);
    const ik = inverseKinematics(preset, { position, orientation: { kind: 'matrix', rotation } }, {
      seedDeg: Array.from(previous, (v) => v * DEG_PER_RAD),
      seedOnly: true,
      positionToleranceMm: 0.005,
      orientationToleranceDeg: 0.005,
      maxIterations: 100,
    });
    const where = `${(u * 100).toFixed(0)}% along the line, at (${position.x.toFixed(1)}, ${position.y.toFixed(1)}, ${position.z.toFixed(1)}) mm`;
    if (!ik.ok) {
      const code: PlanFailureCode = ik.code === 'joint_limit' ? 'joint_limit' : 'path_unreachable';
      return { ok: false, code, message: `the straight line cannot be followed ${where}: ${ik.message}` };
    }
    const q = toRad(ik.jointsDeg);
    let jump = 0;
    for (let j = 0; j < q.length; j++) {
      const step = (q[j]! - previous[j]!) * DEG_PER_RAD;
      jump = Math.max(jump, Math.abs(step));
      const unwrapped = step - Math.round(step / 360) * 360;
      if (Math.abs(step) > MAX_KNOT_JUMP_DEG && Math.abs(unwrapped) <= MAX_KNOT_JUMP_DEG) {
        // A whole-turn jump: the joint would have to continue past its range, and the solver wrapped it.
        const lim = preset.joints[j]!;
        const edge = previous[j]! * DEG_PER_RAD + unwrapped > lim.maxDeg ? lim.maxDeg : lim.minDeg;
        return { ok: false, code: 'joint_limit', message: `the straight line cannot be followed ${where}: joint ${j + 1} would have to pass its limit of ${edge}°; use a joint-space move or other waypoints` };
      }
    }
    if (jump > MAX_KNOT_JUMP_DEG) {
      return { ok: false, code: 'singularity', message: `the straight line passes too close to a singular configuration ${where} (a joint would jump ${jump.toFixed(1)}° within ${KNOT_SPACING_MM} mm); use a joint-space move or other waypoints` };
    }
    knots.push(q);
    previous = q;
  }
  return new JointPath(knots);
}

function goalRotationFor(orientation: OrientationTarget, current: Mat3): Mat3 {
  switch (orientation.kind) {
    case 'rpy': return fromRpyDeg(orientation.rpyDeg);
    case 'matrix': return orientation.rotation;
    case 'free': return current;
    case 'tool_down': {
      // The smallest rotation that points the tool straight down keeps its current heading.
      const z = column(current, 2);
      const down = { x: 0, y: 0, z: -1 };
      const axis = cross(z, down);
      const s = norm(axis);
      const angle = Math.atan2(s, dot(z, down));
      if (s < 1e-12) return angle < 1e-6 ? current : mul(expMap({ x: Math.PI, y: 0, z: 0 }), current);
      return mul(expMap({ x: (axis.x / s) * angle, y: (axis.y / s) * angle, z: (axis.z / s) * angle }), current);
    }
  }
}

/** The TCP speed a plan is timed for: the fraction of the preset's cap, or the plan's own lower cap. */
function tcpSpeedCapOf(limits: MotionLimits, fraction: number, options: PlanOptions): number {
  const own = options.tcpSpeedCapMmS;
  return own !== undefined && own > 0 ? Math.min(limits.maxTcpSpeedMmS * fraction, own) : limits.maxTcpSpeedMmS * fraction;
}

/** Fits the fastest profile of the requested kind, then stretches it until sampled joint and TCP values are under every cap. */
function timeSegment(preset: ArmPreset, limits: MotionLimits, path: JointPath, kind: 'joint' | 'linear', startTimeS: number, options: PlanOptions): TrajectorySegment {
  const fraction = options.speedFraction ?? 0.5;
  const profile = options.timeScaling ?? 'trapezoidal';
  const probes = 64;
  const maxDq = new Array<number>(path.dof).fill(0);
  let maxDp = 0;
  const h = 1e-4;
  for (let i = 0; i <= probes; i++) {
    const s = i / probes;
    const { dq } = path.evaluate(s);
    for (let j = 0; j < path.dof; j++) maxDq[j] = Math.max(maxDq[j]!, Math.abs(dq[j]!));
    const a = tcpFrameRad(preset, path.evaluate(Math.max(0, s - h)).q).origin;
    const b = tcpFrameRad(preset, path.evaluate(Math.min(1, s + h)).q).origin;
    maxDp = Math.max(maxDp, distance(a, b) / (Math.min(1, s + h) - Math.max(0, s - h)));
  }
  const tcpCap = tcpSpeedCapOf(limits, fraction, options);
  let rv = maxDp / tcpCap;
  let ra = maxDp / limits.maxTcpAccelerationMmS2;
  for (let j = 0; j < path.dof; j++) {
    const lim = limits.joints[j]!;
    rv = Math.max(rv, (maxDq[j]! * DEG_PER_RAD) / (lim.maxVelocityDegS * fraction));
    ra = Math.max(ra, (maxDq[j]! * DEG_PER_RAD) / lim.maxAccelerationDegS2);
  }
  let timing = fitTimeScaling(profile, rv, ra);
  if (timing.durationS > 0) {
    const ratio = worstRatios(preset, limits, fraction, tcpCap, path, timing);
    const k = Math.max(1, ratio.speed / DESIGN_MARGIN, Math.sqrt(ratio.acceleration / DESIGN_MARGIN));
    timing = timing.stretched(k);
  }
  const brakingDeceleration = ra > 0 ? Math.max(timing.peakAcceleration, DESIGN_MARGIN / ra) : timing.peakAcceleration;
  return { kind, path, timing, startTimeS, brakingDeceleration };
}

/** Largest value/cap ratios for joint speed, joint acceleration, TCP speed and TCP acceleration on dense samples. */
function worstRatios(preset: ArmPreset, limits: MotionLimits, fraction: number, tcpCap: number, path: JointPath, timing: TimeScaling): { speed: number; acceleration: number } {
  const T = timing.durationS;
  const count = Math.min(4000, Math.max(400, Math.ceil(T / 0.001)));
  let speed = 0, acceleration = 0;
  let previousV: Vec3 | null = null;
  const dt = T / count;
  for (let i = 0; i <= count; i++) {
    const at = timing.at(i * dt);
    const { q, dq, ddq } = path.evaluate(at.s);
    const qd = new Float64Array(path.dof);
    for (let j = 0; j < path.dof; j++) {
      const lim = limits.joints[j]!;
      qd[j] = dq[j]! * at.sd;
      speed = Math.max(speed, (Math.abs(qd[j]!) * DEG_PER_RAD) / (lim.maxVelocityDegS * fraction));
      const qdd = ddq[j]! * at.sd * at.sd + dq[j]! * at.sdd;
      acceleration = Math.max(acceleration, (Math.abs(qdd) * DEG_PER_RAD) / lim.maxAccelerationDegS2);
    }
    const jac = geometricJacobian(armFramesRad(preset, q));
    const n = path.dof;
    const v = { x: 0, y: 0, z: 0 };
    for (let j = 0; j < n; j++) {
      v.x += jac[j]! * qd[j]!;
      v.y += jac[n + j]! * qd[j]!;
      v.z += jac[2 * n + j]! * qd[j]!;
    }
    speed = Math.max(speed, norm(v) / tcpCap);
    if (previousV !== null) {
      const a = Math.hypot(v.x - previousV.x, v.y - previousV.y, v.z - previousV.z) / dt;
      acceleration = Math.max(acceleration, a / limits.maxTcpAccelerationMmS2);
    }
    previousV = v;
  }
  return { speed, acceleration };
}

function checkOptions(options: PlanOptions): PathFailure | null {
  const f = options.speedFraction;
  if (f !== undefined && !(Number.isFinite(f) && f >= 0.1 && f <= 1)) {
    return { ok: false, code: 'invalid_input', message: `speedFraction must be a number from 0.1 to 1.0 (a fraction of the configured speed caps), got ${String(f)}` };
  }
  if (options.timeScaling !== undefined && options.timeScaling !== 'trapezoidal' && options.timeScaling !== 'quintic') {
    return { ok: false, code: 'invalid_input', message: `timeScaling must be "trapezoidal" or "quintic", got ${String(options.timeScaling)}` };
  }
  if (options.path !== undefined && options.path !== 'linear' && options.path !== 'joint') {
    return { ok: false, code: 'invalid_input', message: `path must be "linear" or "joint", got ${String(options.path)}` };
  }
  return null;
}

function checkJoints(preset: ArmPreset, limits: MotionLimits, jointsDeg: readonly number[], what: 'start' | 'goal'): PathFailure | null {
  if (!Array.isArray(jointsDeg) || jointsDeg.length !== preset.joints.length) {
    return { ok: false, code: 'invalid_input', message: `${what} joints must be ${preset.joints.length} angles in degrees` };
  }
  for (let j = 0; j < jointsDeg.length; j++) {
    const v = jointsDeg[j]!;
    if (typeof v !== 'number' || !Number.isFinite(v)) return { ok: false, code: 'invalid_input', message: `${what} joint ${j + 1} must be a finite angle in degrees, got ${String(v)}` };
    const lim = limits.joints[j]!;
    if (v < lim.minDeg - 1e-6 || v > lim.maxDeg + 1e-6) {
      return { ok: false, code: 'joint_limit', message: `${what} joint ${j + 1} is ${v.toFixed(2)}°, outside its range [${lim.minDeg}, ${lim.maxDeg}]°` };
    }
  }
  return null;
}

function checkTarget(target: CartesianTarget): PathFailure | null {
  if (target === null || typeof target !== 'object' || target.position === null || typeof target.position !== 'object' || !isFiniteVec3(target.position)) {
    return { ok: false, code: 'invalid_input', message: 'target position must be {x, y, z} with finite numbers in millimetres (base frame)' };
  }
  const o = target.orientation;
  if (o !== undefined && o.kind === 'rpy' && ![o.rpyDeg.rollDeg, o.rpyDeg.pitchDeg, o.rpyDeg.yawDeg].every((v) => typeof v === 'number' && Number.isFinite(v))) {
    return { ok: false, code: 'invalid_input', message: 'target roll/pitch/yaw must be finite numbers in degrees' };
  }
  return null;
}

function toRad(deg: readonly number[]): Float64Array {
  return Float64Array.from(deg, (d) => d * RAD_PER_DEG);
}
