/**
 * A checked motion plan as the console shows it before approval (the `details` of the held call):
 * the TCP path, duration, peak speed, grip force and the plan hash the operator approves.
 */
import type { Trajectory } from '../model/arm-model.js';
import type { PlannedMotion, Point } from './arm-feed.js';

/** What a view draws of a checked plan (the server's MotionPlan is one): declared here so that view/ stays below server/. */
export interface ShownPlan {
  readonly trajectory: Pick<Trajectory, 'samples' | 'durationS' | 'peaks'>;
  readonly gripperAction: { readonly force_n: number } | null;
  readonly hash: string;
}

/** At most this many path points go to the console: enough to draw, small for pages and records. */
const MAX_PATH_POINTS = 200;

/** A base-frame position as a console point, rounded to 0.1 mm. */
export function pointOf(v: { readonly x: number; readonly y: number; readonly z: number }): Point {
  return [Math.round(v.x * 10) / 10, Math.round(v.y * 10) / 10, Math.round(v.z * 10) / 10];
}

/** The plan's TCP samples (thinned to {@link MAX_PATH_POINTS}, first and last kept) and its figures. */
export function plannedMotionOf(plan: ShownPlan): PlannedMotion {
  const samples = plan.trajectory.samples;
  const stride = Math.max(1, Math.ceil(samples.length / MAX_PATH_POINTS));
  const path: Point[] = [];
  for (let i = 0; i < samples.length; i += stride) path.push(pointOf(samples[i]!.tcp));
  if (samples.length > 0 && (samples.length - 1) % stride !== 0) path.push(pointOf(samples[samples.length - 1]!.tcp));
  return { kind: 'arm-motion', path, durationS: plan.trajectory.durationS, peakSpeedMmS: plan.trajectory.peaks.peakTcpSpeedMmS, gripForceN: plan.gripperAction?.force_n ?? null, planHash: plan.hash };
}

/** Gravity, mm/s². */
const G_MM_S2 = 9_810;

/**
 * A release as the console shows it before approval: the arm does not move, so the path drawn is the
 * object's computed fall, straight down from where it is held to where it lands; duration and peak
 * speed are those of the free fall.
 */
export function plannedReleaseOf(landing: { readonly objectId: string; readonly position: { readonly x: number; readonly y: number; readonly z: number }; readonly dropHeightMm: number }, planHash: string): PlannedMotion {
  const to = pointOf(landing.position);
  const drop = Math.max(0, landing.dropHeightMm);
  const from = pointOf({ ...landing.position, z: landing.position.z + drop });
  return {
    kind: 'arm-motion',
    path: [from, to],
    durationS: Math.sqrt((2 * drop) / G_MM_S2),
    peakSpeedMmS: Math.sqrt(2 * G_MM_S2 * drop),
    gripForceN: null,
    planHash,
    release: { objectId: landing.objectId, dropMm: Math.round(drop * 10) / 10 },
  };
}
