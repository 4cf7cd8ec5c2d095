import { createHash } from 'node:crypto';
import { canonicalJson } from 'toolwright';
import type { TcpPose } from '../sim/forward-kinematics.js';
import type { Trajectory } from '../sim/trajectory.js';
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

/** Rounds for hashing so that equal plans hash equally across runs (1 µm, 1e-6°). */
function r6(v: number): number {
  return Math.round(v * 1e6) / 1e6;
}

/** The hash that approval is bound to: it covers everything the arm will physically do. */
export function hashPlanContent(content: {
  kind: string;
  presetId: string;
  targets: readonly PoseTarget[];
  speedFraction: number;
  timeScaling: string;
  path: string;
  trajectory: Trajectory;
  toolContactObjectIds: readonly string[];
  gripperAction: GripperAction | null;
  world: WorldState;
}): string {
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

/** Stored plans for `execute_trajectory`, expiring after `ttlMs` and capped in number (oldest dropped). */
export class PlanStore {
  private readonly plans = new Map<string, { plan: MotionPlan; expiresAt: number }>();

  constructor(
    readonly ttlMs = 10 * 60_000,
    readonly capacity = 32,
    private readonly now: () => number = Date.now,
  ) {}

  put(plan: MotionPlan): { expiresAt: number } {
    this.prune();
    this.plans.delete(plan.id);
    const expiresAt = this.now() + this.ttlMs;
    this.plans.set(plan.id, { plan, expiresAt });
    while (this.plans.size > this.capacity) this.plans.delete(this.plans.keys().next().value as string);
    return { expiresAt };
  }

  get(id: string): MotionPlan | undefined {
    this.prune();
    return this.plans.get(id)?.plan;
  }

  /** Drops a plan once executed: a plan runs at most once. */
  delete(id: string): void {
    this.plans.delete(id);
  }

  private prune(): void {
    const t = this.now();
    for (const [id, entry] of this.plans) if (entry.expiresAt <= t) this.plans.delete(id);
  }
}
