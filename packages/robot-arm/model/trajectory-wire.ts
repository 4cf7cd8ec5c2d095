/**
 * A trajectory as plain JSON for the controller socket and the plan store, and back. The wire form is the trajectory's
 * definition (per segment: the joint-path knots, the time-scaling profile, the braking deceleration),
 * not only its samples: a controlled stop decelerates along the path, so the controller needs the
 * path itself. The samples the server checked and a human approved are bound by their digest: the
 * controller rebuilds the trajectory, recomputes the digest over its own samples and refuses to run
 * anything whose digest differs (`trajectory_mismatch`).
 */
import type { ArmPreset } from '../sim/arm-presets.js';
import { JointPath } from '../sim/joint-path.js';
import { quintic, trapezoidal, type TimeScaling } from '../sim/time-scaling.js';
import { Trajectory, type TrajectorySegment } from '../sim/trajectory.js';
import { trajectoryDigest } from '../sim/trajectory-digest.js';

/** Most segments and knots a wire trajectory may carry (the planner's 16 waypoints use far fewer). */
const MAX_SEGMENTS = 64;
const MAX_KNOTS = 4096;
/** Longest motion accepted, s: the controller samples every 4 ms, so this also bounds its work. */
const MAX_DURATION_S = 600;

export interface WireTimeScaling {
  readonly kind: 'trapezoidal' | 'quintic';
  readonly durationS: number;
  /** Trapezoidal only: the acceleration phase as a fraction of the duration, (0, 0.5]. */
  readonly accelFraction?: number;
}

export interface WireSegment {
  readonly kind: 'joint' | 'linear';
  /** Knots of the joint path, radians. */
  readonly knotsRad: readonly (readonly number[])[];
  readonly timing: WireTimeScaling;
  readonly startTimeS: number;
  readonly brakingDeceleration: number;
}

export interface WireTrajectory {
  readonly presetId: string;
  readonly segments: readonly WireSegment[];
  /** `trajectoryDigest` of the trajectory as the server planned it. */
  readonly digest: string;
}

function wireTiming(timing: TimeScaling): WireTimeScaling {
  if (timing.kind === 'quintic' || timing.durationS === 0) return { kind: timing.kind, durationS: timing.durationS };
  // A trapezoid cruises at peakRate = 1 / (T − ta): the fraction ta / T is recovered from it.
  const accelFraction = Math.min(0.5, Math.max(1e-12, 1 - 1 / (timing.peakRate * timing.durationS)));
  return { kind: 'trapezoidal', durationS: timing.durationS, accelFraction };
}

/** The wire form of a planned trajectory. */
export function encodeTrajectory(trajectory: Trajectory): WireTrajectory {
  return {
    presetId: trajectory.presetId,
    segments: trajectory.segments.map((s) => ({
      kind: s.kind,
      knotsRad: s.path.knots.map((k) => Array.from(k)),
      timing: wireTiming(s.timing),
      startTimeS: s.startTimeS,
      brakingDeceleration: s.brakingDeceleration,
    })),
    digest: trajectoryDigest(trajectory),
  };
}

/** Why a wire trajectory was refused. */
export interface WireTrajectoryProblem {
  readonly code: 'bad_args' | 'wrong_arm' | 'trajectory_mismatch';
  readonly message: string;
}

const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** Rebuilds a trajectory for `preset` from untrusted JSON, checking its shape and its digest. */
export function decodeTrajectory(value: unknown, preset: ArmPreset): { trajectory: Trajectory } | WireTrajectoryProblem {
  const bad = (message: string): WireTrajectoryProblem => ({ code: 'bad_args', message: `trajectory: ${message}` });
  if (typeof value !== 'object' || value === null) return bad('must be an object');
  const wire = value as Partial<Record<keyof WireTrajectory, unknown>>;
  if (wire.presetId !== preset.id) return { code: 'wrong_arm', message: `the trajectory is for preset ${String(wire.presetId)}, but this controller drives ${preset.id}` };
  if (typeof wire.digest !== 'string' || !/^[0-9a-f]{64}$/.test(wire.digest)) return bad('digest must be 64 hex digits');
  if (!Array.isArray(wire.segments) || wire.segments.length === 0 || wire.segments.length > MAX_SEGMENTS) return bad(`segments must be a list of 1 to ${MAX_SEGMENTS}`);
  const dof = preset.joints.length;
  let knotCount = 0;
  const segments: TrajectorySegment[] = [];
  for (const [i, raw] of wire.segments.entries()) {
    if (typeof raw !== 'object' || raw === null) return bad(`segment ${i} must be an object`);
    const s = raw as Partial<Record<keyof WireSegment, unknown>>;
    if (s.kind !== 'joint' && s.kind !== 'linear') return bad(`segment ${i}: kind must be joint or linear`);
    if (!finite(s.startTimeS) || s.startTimeS < 0 || !finite(s.brakingDeceleration) || s.brakingDeceleration < 0) return bad(`segment ${i}: startTimeS and brakingDeceleration must be finite and >= 0`);
    if (!Array.isArray(s.knotsRad) || s.knotsRad.length < 2) return bad(`segment ${i}: knotsRad needs at least two knots`);
    knotCount += s.knotsRad.length;
    if (knotCount > MAX_KNOTS) return bad(`more than ${MAX_KNOTS} knots`);
    if (!s.knotsRad.every((k: unknown) => Array.isArray(k) && k.length === dof && k.every(finite))) return bad(`segment ${i}: every knot must be ${dof} finite angles (rad)`);
    const t = s.timing as Partial<Record<keyof WireTimeScaling, unknown>> | null | undefined;
    if (typeof t !== 'object' || t === null || !finite(t.durationS) || t.durationS < 0 || s.startTimeS + t.durationS > MAX_DURATION_S) return bad(`segment ${i}: timing.durationS must be >= 0 and the motion end within ${MAX_DURATION_S} s`);
    let timing: TimeScaling;
    if (t.kind === 'quintic') timing = quintic(t.durationS);
    else if (t.kind === 'trapezoidal') {
      const fraction = t.durationS === 0 ? 0.5 : t.accelFraction;
      if (!finite(fraction) || !(fraction > 0 && fraction <= 0.5)) return bad(`segment ${i}: timing.accelFraction must be in (0, 0.5]`);
      timing = trapezoidal(t.durationS, fraction);
    } else return bad(`segment ${i}: timing.kind must be trapezoidal or quintic`);
    segments.push({ kind: s.kind, path: new JointPath((s.knotsRad as number[][]).map((k) => Float64Array.from(k))), timing, startTimeS: s.startTimeS, brakingDeceleration: s.brakingDeceleration });
  }
  const trajectory = new Trajectory(preset, segments);
  const digest = trajectoryDigest(trajectory);
  if (digest !== wire.digest) return { code: 'trajectory_mismatch', message: `the trajectory rebuilt by the controller has digest ${digest.slice(0, 12)}…, not the ${wire.digest.slice(0, 12)}… the server checked; nothing was run` };
  return { trajectory };
}
