import type { ArmPreset } from './arm-presets.js';
import { DEG_PER_RAD, RAD_PER_DEG } from './angles.js';
import { armFramesRad, type Frame } from './forward-kinematics.js';
import { geometricJacobian } from './jacobian.js';
import { solveLinear } from './linear-solve.js';
import { column, fromRpyDeg, logMap, mul, transpose, type Mat3, type RpyDeg } from './rotation.js';
import { SeededRandom } from './seeded-random.js';
import { cross, dot, isFiniteVec3, norm, sub, type Vec3 } from './vector3.js';

/**
 * What the tool's orientation must be:
 * - `rpy`: exact roll/pitch/yaw in degrees (see rotation.ts for the convention);
 * - `tool_down`: tool z axis pointing straight down (-z of the base frame), rotation about it free;
 * - `free`: position only;
 * - `matrix`: an exact rotation matrix (used by the straight-line planner).
 */
export type OrientationTarget =
  | { readonly kind: 'rpy'; readonly rpyDeg: RpyDeg }
  | { readonly kind: 'tool_down' }
  | { readonly kind: 'free' }
  | { readonly kind: 'matrix'; readonly rotation: Mat3 };

export const TOOL_DOWN: OrientationTarget = Object.freeze({ kind: 'tool_down' });

export interface IkTarget {
  /** TCP position in the base frame, millimetres. */
  readonly position: Vec3;
  /** Defaults to `tool_down`. */
  readonly orientation?: OrientationTarget;
}

export interface IkOptions {
  /** Joint angles (degrees) to start from, normally the arm's current joints. */
  readonly seedDeg: readonly number[];
  readonly positionToleranceMm?: number;
  readonly orientationToleranceDeg?: number;
  readonly maxIterations?: number;
  /** Extra deterministic random starts tried after the seed and the preset's home pose. */
  readonly restarts?: number;
  readonly randomSeed?: number;
  /** Only start from `seedDeg` (no home or random starts): keeps consecutive solutions on one branch. */
  readonly seedOnly?: boolean;
}

export type IkFailureCode = 'invalid_input' | 'unreachable' | 'joint_limit' | 'did_not_converge';

export type IkResult =
  | {
      readonly ok: true;
      readonly jointsDeg: number[];
      readonly positionErrorMm: number;
      readonly orientationErrorDeg: number;
      readonly iterations: number;
    }
  | {
      readonly ok: false;
      readonly code: IkFailureCode;
      readonly message: string;
      /** Smallest position error (mm) any attempt reached. */
      readonly bestPositionErrorMm: number;
    };

/** Orientation rows are weighted so that 1 rad of error counts like 200 mm of position error. */
const ORIENTATION_WEIGHT_MM_PER_RAD = 200;
const MAX_STEP_RAD = 0.35;

interface Attempt {
  readonly q: Float64Array;
  readonly positionErrorMm: number;
  readonly orientationErrorRad: number;
  readonly converged: boolean;
  readonly iterations: number;
}

/**
 * Damped least squares (Levenberg–Marquardt damping) inverse kinematics, seeded from the current
 * joints. Tries the seed, then the home pose, then a few deterministic random starts; each start is
 * solved without limits and wrapped by ±360° into them, then, if that fails, solved with the joints
 * clamped to their limits at every step.
 */
export function inverseKinematics(preset: ArmPreset, target: IkTarget, options: IkOptions): IkResult {
  const orientation = target.orientation ?? TOOL_DOWN;
  const invalid = validate(preset, target, orientation, options.seedDeg);
  if (invalid !== null) return { ok: false, code: 'invalid_input', message: invalid, bestPositionErrorMm: Number.NaN };
  const tolP = options.positionToleranceMm ?? 0.01;
  const tolO = (options.orientationToleranceDeg ?? 0.01) * RAD_PER_DEG;
  const maxIterations = options.maxIterations ?? 300;
  const seedRad = Float64Array.from(options.seedDeg, (d) => d * RAD_PER_DEG);
  const goal = makeGoal(target.position, orientation);

  const random = new SeededRandom(options.randomSeed ?? 1);
  const starts: Float64Array[] = [seedRad];
  if (options.seedOnly !== true) starts.push(Float64Array.from(preset.homeDeg, (d) => d * RAD_PER_DEG));
  for (let r = 0; r < (options.seedOnly === true ? 0 : options.restarts ?? 10); r++) {
    starts.push(Float64Array.from(preset.joints, (lim) => random.uniform(Math.max(lim.minDeg, -180), Math.min(lim.maxDeg, 180)) * RAD_PER_DEG));
  }

  let best = Number.POSITIVE_INFINITY;
  let limitBlocked: string | null = null;
  for (const start of starts) {
    const free = solve(preset, goal, start, false, tolP, tolO, maxIterations);
    best = Math.min(best, free.positionErrorMm);
    if (free.converged) {
      const fitted = wrapIntoLimits(preset, free.q, seedRad);
      if (fitted.ok) return success(preset, goal, fitted.q, free.iterations);
      limitBlocked ??= fitted.message;
    }
    const clamped = solve(preset, goal, start, true, tolP, tolO, maxIterations);
    best = Math.min(best, clamped.positionErrorMm);
    if (clamped.converged) return success(preset, goal, clamped.q, free.iterations + clamped.iterations);
  }

  const p = target.position;
  const where = `(${p.x.toFixed(1)}, ${p.y.toFixed(1)}, ${p.z.toFixed(1)}) mm`;
  if (limitBlocked !== null) {
    return { ok: false, code: 'joint_limit', message: `the solutions found for TCP ${where} violate a joint limit: ${limitBlocked}`, bestPositionErrorMm: best };
  }
  const positionOnly = options.seedOnly === true || positionReachable(preset, target.position, seedRad, tolP, maxIterations);
  if (!positionOnly) {
    return { ok: false, code: 'unreachable', message: `TCP position ${where} is outside the arm's reach in any orientation`, bestPositionErrorMm: best };
  }
  return {
    ok: false,
    code: 'did_not_converge',
    message: `inverse kinematics did not converge for TCP ${where} with orientation ${describeOrientation(orientation)}; closest attempt was ${best.toFixed(2)} mm away`,
    bestPositionErrorMm: best,
  };
}

interface Goal {
  readonly position: Vec3;
  readonly orientation: OrientationTarget;
  readonly rotation: Mat3 | null;
}

function makeGoal(position: Vec3, orientation: OrientationTarget): Goal {
  return { position, orientation, rotation: orientation.kind === 'rpy' ? fromRpyDeg(orientation.rpyDeg) : orientation.kind === 'matrix' ? orientation.rotation : null };
}

/** Orientation error as a rotation vector (rad) taking the current tool rotation towards the goal. */
function orientationError(goal: Goal, tip: Frame): Vec3 {
  if (goal.orientation.kind === 'free') return { x: 0, y: 0, z: 0 };
  if (goal.rotation !== null) return logMap(mul(goal.rotation, transpose(tip.rotation)));
  const zNow = column(tip.rotation, 2);
  const zGoal = { x: 0, y: 0, z: -1 };
  const axis = cross(zNow, zGoal);
  const s = norm(axis);
  const angle = Math.atan2(s, dot(zNow, zGoal));
  if (s < 1e-12) return angle < 1e-6 ? { x: 0, y: 0, z: 0 } : { x: angle, y: 0, z: 0 };
  return { x: (axis.x / s) * angle, y: (axis.y / s) * angle, z: (axis.z / s) * angle };
}

function residual(preset: ArmPreset, goal: Goal, q: Float64Array): { e: Float64Array; posErr: number; oriErr: number; jac: Float64Array; rows: number } {
  const arm = armFramesRad(preset, q);
  const tip = arm.frames[arm.frames.length - 1]!;
  const ep = sub(goal.position, tip.origin);
  const eo = orientationError(goal, tip);
  const full = geometricJacobian(arm);
  const n = q.length;
  const kind = goal.orientation.kind;
  const rows = kind === 'free' ? 3 : kind === 'tool_down' ? 5 : 6;
  const fullOrientation = kind === 'rpy' || kind === 'matrix';
  const e = new Float64Array(rows);
  const jac = new Float64Array(rows * n);
  e[0] = ep.x; e[1] = ep.y; e[2] = ep.z;
  for (let i = 0; i < 3 * n; i++) jac[i] = full[i]!;
  if (fullOrientation) {
    e[3] = eo.x * ORIENTATION_WEIGHT_MM_PER_RAD;
    e[4] = eo.y * ORIENTATION_WEIGHT_MM_PER_RAD;
    e[5] = eo.z * ORIENTATION_WEIGHT_MM_PER_RAD;
    for (let i = 3 * n; i < 6 * n; i++) jac[i] = full[i]! * ORIENTATION_WEIGHT_MM_PER_RAD;
  } else if (kind === 'tool_down') {
    // Only tilts about base x and y matter; rotation about the vertical tool axis is left free.
    e[3] = eo.x * ORIENTATION_WEIGHT_MM_PER_RAD;
    e[4] = eo.y * ORIENTATION_WEIGHT_MM_PER_RAD;
    for (let i = 0; i < 2 * n; i++) jac[3 * n + i] = full[3 * n + i]! * ORIENTATION_WEIGHT_MM_PER_RAD;
  }
  return { e, posErr: norm(ep), oriErr: norm(eo), jac, rows };
}

function cost(e: Float64Array): number {
  let s = 0;
  for (const v of e) s += v * v;
  return s;
}

function solve(preset: ArmPreset, goal: Goal, start: Float64Array, clampToLimits: boolean, tolP: number, tolO: number, maxIterations: number): Attempt {
  const n = start.length;
  let q = Float64Array.from(start);
  if (clampToLimits) clamp(preset, q);
  let r = residual(preset, goal, q);
  let lambda = 1;
  let iterations = 0;
  for (; iterations < maxIterations; iterations++) {
    if (r.posErr < tolP && r.oriErr < tolO) return { q, positionErrorMm: r.posErr, orientationErrorRad: r.oriErr, converged: true, iterations };
    const step = dlsStep(r.jac, r.e, r.rows, n, lambda);
    if (step === null) break;
    let largest = 0;
    for (const v of step) largest = Math.max(largest, Math.abs(v));
    const k = largest > MAX_STEP_RAD ? MAX_STEP_RAD / largest : 1;
    const candidate = new Float64Array(n);
    for (let i = 0; i < n; i++) candidate[i] = q[i]! + step[i]! * k;
    if (clampToLimits) clamp(preset, candidate);
    const next = residual(preset, goal, candidate);
    if (cost(next.e) < cost(r.e)) {
      q = candidate;
      r = next;
      lambda = Math.max(lambda / 3, 1e-6);
    } else {
      lambda *= 4;
      if (lambda > 1e7) break;
    }
  }
  const converged = r.posErr < tolP && r.oriErr < tolO;
  return { q, positionErrorMm: r.posErr, orientationErrorRad: r.oriErr, converged, iterations };
}

/** Δq = Jᵀ (J Jᵀ + λ² I)⁻¹ e. */
function dlsStep(jac: Float64Array, e: Float64Array, rows: number, n: number, lambda: number): Float64Array | null {
  const a = new Float64Array(rows * rows);
  for (let i = 0; i < rows; i++) {
    for (let k = 0; k < rows; k++) {
      let s = 0;
      for (let c = 0; c < n; c++) s += jac[i * n + c]! * jac[k * n + c]!;
      a[i * rows + k] = s + (i === k ? lambda * lambda : 0);
    }
  }
  const y = solveLinear(a, e, rows);
  if (y === null) return null;
  const dq = new Float64Array(n);
  for (let c = 0; c < n; c++) {
    let s = 0;
    for (let i = 0; i < rows; i++) s += jac[i * n + c]! * y[i]!;
    dq[c] = s;
  }
  return dq;
}

function clamp(preset: ArmPreset, q: Float64Array): void {
  for (let i = 0; i < q.length; i++) {
    const lim = preset.joints[i]!;
    q[i] = Math.min(lim.maxDeg * RAD_PER_DEG, Math.max(lim.minDeg * RAD_PER_DEG, q[i]!));
  }
}

/** Each joint may be shifted by whole turns; pick the shift inside the limits that is closest to the seed. */
function wrapIntoLimits(preset: ArmPreset, q: Float64Array, seed: Float64Array): { ok: true; q: Float64Array } | { ok: false; message: string } {
  const out = new Float64Array(q.length);
  for (let i = 0; i < q.length; i++) {
    const lim = preset.joints[i]!;
    const deg = q[i]! * DEG_PER_RAD;
    let chosen: number | null = null;
    for (let turns = -3; turns <= 3; turns++) {
      const candidate = deg + turns * 360;
      if (candidate < lim.minDeg - 1e-9 || candidate > lim.maxDeg + 1e-9) continue;
      if (chosen === null || Math.abs(candidate - seed[i]! * DEG_PER_RAD) < Math.abs(chosen - seed[i]! * DEG_PER_RAD)) chosen = candidate;
    }
    if (chosen === null) {
      return { ok: false, message: `joint ${i + 1} would need ${wrapText(deg)}°, outside its range [${lim.minDeg}, ${lim.maxDeg}]°` };
    }
    out[i] = Math.min(lim.maxDeg, Math.max(lim.minDeg, chosen)) * RAD_PER_DEG;
  }
  return { ok: true, q: out };
}

function wrapText(deg: number): string {
  const wrapped = ((deg + 180) % 360 + 360) % 360 - 180;
  return wrapped.toFixed(1);
}

function success(preset: ArmPreset, goal: Goal, q: Float64Array, iterations: number): IkResult {
  const r = residual(preset, goal, q);
  return {
    ok: true,
    jointsDeg: Array.from(q, (v) => v * DEG_PER_RAD),
    positionErrorMm: r.posErr,
    orientationErrorDeg: r.oriErr * DEG_PER_RAD,
    iterations,
  };
}

function positionReachable(preset: ArmPreset, position: Vec3, seed: Float64Array, tolP: number, maxIterations: number): boolean {
  const goal = makeGoal(position, { kind: 'free' });
  const random = new SeededRandom(7);
  for (let attempt = 0; attempt < 6; attempt++) {
    const start = attempt === 0 ? seed : Float64Array.from(preset.joints, () => random.uniform(-Math.PI, Math.PI));
    if (solve(preset, goal, start, false, tolP, 1, maxIterations).converged) return true;
  }
  return false;
}

function describeOrientation(o: OrientationTarget): string {
  if (o.kind === 'rpy') return `roll ${o.rpyDeg.rollDeg.toFixed(2)}°, pitch ${o.rpyDeg.pitchDeg.toFixed(2)}°, yaw ${o.rpyDeg.yawDeg.toFixed(2)}°`;
  if (o.kind === 'matrix') return 'as given (rotation matrix)';
  return o.kind === 'tool_down' ? 'tool pointing down' : 'free';
}

function validate(preset: ArmPreset, target: IkTarget, orientation: OrientationTarget, seedDeg: readonly number[]): string | null {
  if (!isFiniteVec3(target.position)) return 'target position must be three finite numbers in millimetres';
  if (orientation.kind === 'rpy') {
    const o = orientation.rpyDeg;
    if (![o.rollDeg, o.pitchDeg, o.yawDeg].every(Number.isFinite)) return 'target roll/pitch/yaw must be finite numbers in degrees';
  }
  if (orientation.kind === 'matrix' && !orientation.rotation.every(Number.isFinite)) return 'target rotation matrix must hold finite numbers';
  if (seedDeg.length !== preset.joints.length) return `seed must have ${preset.joints.length} joint angles in degrees, got ${seedDeg.length}`;
  if (!seedDeg.every(Number.isFinite)) return 'seed joint angles must be finite numbers in degrees';
  return null;
}
