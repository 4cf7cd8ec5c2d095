import { createHash } from 'node:crypto';
import { canonicalJson } from 'toolwright';
import type { ArmModel, TcpPose, Trajectory } from '../model/arm-model.js';
import type { WorldState } from './world-binding.js';

/** A TCP target as tools receive it: millimetres and degrees, base frame. */
export interface PoseTarget {
  readonly x_mm: number;
  readonly y_mm: number;
  readonly z_mm: number;
  /** Absent: the tool points straight down (-z), keeping its current heading. */
  readonly orientation?: { readonly roll_deg: number; readonly pitch_deg: number; readonly yaw_deg: number };
}

/** The gripper closing at the end of a grasp approach (all of it is hashed, so an approval covers it). */
export interface GripperAction {
  /** Commanded force, newtons: the most any strategy applies (suction applies exactly this). */
  readonly force_n: number;
  readonly strategy: 'parallel' | 'suction' | 'adaptive';
  /** The object the gripper closes on, when one is at the target. */
  readonly object_id?: string;
  /** What that object tolerates (null: robust), newtons. */
  readonly object_max_force_n?: number | null;
  /** The least force that holds it with the safety factor, newtons. */
  readonly required_force_n?: number;
  /** The force was chosen by default for the object's class (force_n omitted). */
  readonly default_for_class?: string;
}

/** A checked, time-parameterised motion that passed every planning stage. Immutable. */
export interface MotionPlan {
  /** `plan-` + the first 16 hex digits of the hash: the same motion from the same pose gets the same id. */
  readonly id: string;
  /** SHA-256 (hex) of the canonical plan content: targets, every sampled joint vector, timing, and the world it was computed against. */
  readonly hash: string;
  readonly kind: 'pose' | 'waypoints' | 'grasp_approach';
  readonly presetId: string;
  readonly targets: readonly PoseTarget[];
  readonly speedFraction: number;
  readonly timeScaling: 'trapezoidal' | 'quintic';
  readonly path: 'linear' | 'joint';
  readonly trajectory: Trajectory;
  /** Objects the fingertips may touch on this path (the grasp target only). */
  readonly toolContactObjectIds: readonly string[];
  /** What the gripper does when the path ends (grasps); part of the hash, so an approval covers it too. */
  readonly gripperAction: GripperAction | null;
  /** The world the plan was computed against (arm, held object, objects); part of the hash, so an approval binds it. */
  readonly world: WorldState;
  readonly startTcp: TcpPose;
  readonly endTcp: TcpPose;
  /** Largest TCP displacement from the start anywhere on the path, mm. */
  readonly maxDisplacementMm: number;
  /** Largest excursion of any joint from its start anywhere on the path, degrees (not just start vs end). */
  readonly maxJointTravelDeg: number;
}

/** What a plan's hash covers: everything the arm will physically do, and the world it was computed against. */
export interface PlanContent {
  readonly kind: MotionPlan['kind'];
  readonly presetId: string;
  readonly targets: readonly PoseTarget[];
  readonly speedFraction: number;
  readonly timeScaling: MotionPlan['timeScaling'];
  readonly path: MotionPlan['path'];
  readonly trajectory: Trajectory;
  readonly toolContactObjectIds: readonly string[];
  readonly gripperAction: GripperAction | null;
  readonly world: WorldState;
}

/** Rounds for hashing so that equal plans hash equally across runs (1 µm, 1e-6°). */
function r6(v: number): number {
  return Math.round(v * 1e6) / 1e6;
}

/** The hash that approval is bound to: it covers everything the arm will physically do. */
export function hashPlanContent(content: PlanContent): string {
  const t = content.trajectory;
  const canonical = canonicalJson({
    kind: content.kind,
    preset: content.presetId,
    targets: content.targets,
    speed: content.speedFraction,
    scaling: content.timeScaling,
    path: content.path,
    contacts: content.toolContactObjectIds,
    gripper: content.gripperAction,
    world: content.world,
    duration_s: r6(t.durationS),
    samples: t.samples.map((s) => [r6(s.tS), ...s.jointsDeg.map(r6)]),
  });
  return createHash('sha256').update(canonical).digest('hex');
}

export function planIdFor(hash: string): string {
  return `plan-${hash.slice(0, 16)}`;
}

/** The plan of this content: its hash and id, and what the model derives from its trajectory (TCP ends, largest excursions). */
export function motionPlanOf(model: ArmModel, content: PlanContent): MotionPlan {
  const { trajectory } = content;
  const hash = hashPlanContent(content);
  const start = trajectory.samples[0]!.tcp;
  let maxDisplacementMm = 0;
  for (const s of trajectory.samples) maxDisplacementMm = Math.max(maxDisplacementMm, Math.hypot(s.tcp.x - start.x, s.tcp.y - start.y, s.tcp.z - start.z));
  // Excursion, not start-to-end travel: a joint that swings out and back counts by how far it went.
  let maxJointTravelDeg = 0;
  for (const s of trajectory.samples) {
    for (let j = 0; j < s.jointsDeg.length; j++) maxJointTravelDeg = Math.max(maxJointTravelDeg, Math.abs(s.jointsDeg[j]! - trajectory.startJointsDeg[j]!));
  }
  return {
    ...content,
    id: planIdFor(hash),
    hash,
    startTcp: model.tcp(trajectory.startJointsDeg),
    endTcp: model.tcp(trajectory.endJointsDeg),
    maxDisplacementMm,
    maxJointTravelDeg,
  };
}
