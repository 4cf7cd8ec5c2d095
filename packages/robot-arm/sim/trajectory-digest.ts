import { createHash } from 'node:crypto';
import type { Trajectory } from './trajectory.js';
import type { Vec3 } from './vector3.js';

/** A plain-data description of a trajectory, suitable for showing to a human approver or logging. */
export interface TrajectorySummary {
  readonly presetId: string;
  readonly durationS: number;
  readonly startJointsDeg: readonly number[];
  readonly endJointsDeg: readonly number[];
  readonly startTcpMm: Vec3;
  readonly endTcpMm: Vec3;
  readonly segments: ReadonlyArray<{
    readonly kind: 'joint' | 'linear';
    readonly timeScaling: 'trapezoidal' | 'quintic';
    readonly startTimeS: number;
    readonly durationS: number;
    readonly endTcpMm: Vec3;
  }>;
  readonly peakTcpSpeedMmS: number;
  readonly peakTcpAccelerationMmS2: number;
  readonly peakJointSpeedDegS: readonly number[];
  readonly peakJointAccelerationDegS2: readonly number[];
  readonly sampleCount: number;
}

/** Rounds to 0.001 (mm, degrees, seconds) so the summary is readable and stable across platforms. */
function r(v: number): number {
  const rounded = Math.round(v * 1000) / 1000;
  return Object.is(rounded, -0) ? 0 : rounded;
}

function rv(v: Vec3): Vec3 {
  return { x: r(v.x), y: r(v.y), z: r(v.z) };
}

export function summarizeTrajectory(trajectory: Trajectory): TrajectorySummary {
  const samples = trajectory.samples;
  return {
    presetId: trajectory.presetId,
    durationS: r(trajectory.durationS),
    startJointsDeg: trajectory.startJointsDeg.map(r),
    endJointsDeg: trajectory.endJointsDeg.map(r),
    startTcpMm: rv(samples[0]!.tcp),
    endTcpMm: rv(samples[samples.length - 1]!.tcp),
    segments: trajectory.segments.map((s) => ({
      kind: s.kind,
      timeScaling: s.timing.kind,
      startTimeS: r(s.startTimeS),
      durationS: r(s.timing.durationS),
      endTcpMm: rv(trajectory.stateAt(s.startTimeS + s.timing.durationS).tcp),
    })),
    peakTcpSpeedMmS: r(trajectory.peaks.peakTcpSpeedMmS),
    peakTcpAccelerationMmS2: r(trajectory.peaks.peakTcpAccelerationMmS2),
    peakJointSpeedDegS: trajectory.peaks.peakJointSpeedDegS.map(r),
    peakJointAccelerationDegS2: trajectory.peaks.peakJointAccelerationDegS2.map(r),
    sampleCount: samples.length,
  };
}

/**
 * SHA-256 (hex) over the summary and every sampled joint state (rounded to 1e-6°): two trajectories
 * share a digest only if they move the arm the same way, so an approval can be bound to it.
 */
export function trajectoryDigest(trajectory: Trajectory): string {
  const hash = createHash('sha256');
  hash.update(JSON.stringify(summarizeTrajectory(trajectory)));
  for (const s of trajectory.samples) {
    hash.update(`${s.tS.toFixed(6)}:${s.jointsDeg.map((v) => v.toFixed(6)).join(',')};`);
  }
  return hash.digest('hex');
}
