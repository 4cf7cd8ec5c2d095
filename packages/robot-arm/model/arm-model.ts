/**
 * The arm as pure geometry and limits, shared by every driver and by the server's safety stages:
 * preset, joint and Cartesian limits, workspace envelope, kinematics, planner and collision checker.
 * No clock and no mutable arm state: every question takes the arm's state (joints, held object,
 * objects on the table) as an argument, so the same answer comes from a simulator's state or from a
 * snapshot streamed by a real controller.
 */
import { getArmPreset, type ArmPreset, type ArmPresetId } from '../sim/arm-presets.js';
import { RAD_PER_DEG } from '../sim/angles.js';
import { checkArmCollision, checkPathCollision, liftOffFloors, PAD_CONTACT_WINDOW_MM, padContactAllowed, type CollisionHit, type CollisionWorld, type HeldObject, type PathCollision } from '../sim/collision-check.js';
import { armFramesRad, forwardKinematics, tcpFrameRad, type Frame, type TcpPose } from '../sim/forward-kinematics.js';
import { defaultGripForceN, GRASP_LATERAL_TOLERANCE_MM, requiredGripForceN, type GraspStrategy } from '../sim/gripper.js';
import { beside, limitText } from '../sim/limit-digits.js';
import { pathTcpSpeedCapMmS, type PresenceStatus } from '../sim/presence-sensor.js';
import { MAX_RELEASE_DROP_MM, planRelease, type ReleasePlan } from '../sim/release-landing.js';
import { heightOf, OBJECT_LABELS, type SceneObjectSpec, type SceneObjectState } from '../sim/scene-objects.js';
import { TOOL_DOWN, type OrientationTarget } from '../sim/inverse-kinematics.js';
import { Trajectory } from '../sim/trajectory.js';
import { motionLimitsOf, planJointMotion, planWaypoints, type CartesianTarget, type MotionLimits, type PlanOptions, type PlanResult } from '../sim/trajectory-planner.js';
import type { Vec3 } from '../sim/vector3.js';
import { checkPathEnvelope, checkPose, createEnvelope, type EnvelopeCheck, type EnvelopeOverrides, type EnvelopeViolation, type WorkspaceEnvelope } from '../sim/workspace-envelope.js';
import { decodeTrajectory, encodeTrajectory, type WireTrajectory, type WireTrajectoryProblem } from './trajectory-wire.js';

export type { ArmPreset, ArmPresetId, CartesianTarget, CollisionHit, EnvelopeCheck, GraspStrategy, HeldObject, MotionLimits, OrientationTarget, PathCollision, PlanOptions, PlanResult, ReleasePlan, SceneObjectSpec, SceneObjectState, TcpPose, Vec3, WireTrajectory, WireTrajectoryProblem, WorkspaceEnvelope };
/**
 * The model's vocabulary, for the server and the console (which never import the simulator): the
 * planner's "tool pointing down" orientation, the object classes the camera names, and the digits a
 * limit refusal prints (`beside`: enough to be on the value's side of the limit).
 */
export { beside, OBJECT_LABELS, TOOL_DOWN, Trajectory };

/** Options of {@link createArmModel}. */
export interface ArmModelOptions {
  /** Arm preset id or a full preset; default `ur5e`. */
  readonly preset?: ArmPresetId | ArmPreset;
  readonly envelope?: EnvelopeOverrides;
  /** Required clearance between every moving body and every obstacle, mm; default 5. */
  readonly collisionMarginMm?: number;
}

/** What the model needs to know about the arm's state to answer a question: a driver's status carries it. */
export interface ArmPoseState {
  readonly jointsDeg: readonly number[];
  /** The object in the gripper and where it sits in the tool frame, or null. */
  readonly held: HeldObject | null;
  /** Every object of the cell (the held one included, flagged `held`). */
  readonly objects: readonly SceneObjectState[];
}

export type TrajectoryProblemCode = 'not_a_plan' | 'wrong_arm' | 'stale_start' | 'limit_exceeded' | 'outside_envelope' | 'collision';

export type TrajectoryCheck =
  | { readonly ok: true }
  | {
      readonly ok: false;
      readonly code: TrajectoryProblemCode;
      readonly message: string;
      readonly envelope?: { readonly tS: number; readonly violations: readonly EnvelopeViolation[] };
      readonly collision?: PathCollision;
    };

/**
 * What a running motion may touch and where it started and ends: the allowances of the every-sample
 * collision check during the motion (fingertip pads near the ends of a grasp approach). Built once
 * when the motion starts. A held object's lift-off floors are not here: they are fixed at the grasp
 * (`HeldObject.liftOffFloorsMm`) and never re-based per motion.
 */
export interface MotionAllowances {
  readonly contacts: readonly string[];
  readonly start: Vec3;
  readonly end: Vec3;
}

/** Joints must match the plan's first state this closely to execute it (degrees). */
export const START_MATCH_TOLERANCE_DEG = 0.01;
/** A planned path may touch an envelope limit within this much (IK rounding); limits are inclusive. */
export const ENVELOPE_ROUNDING_MM = 0.001;
/** Slack on limit comparisons for rounding in sampled peaks. */
const LIMIT_SLACK = 1.001;

/** The arm model: immutable after construction; every method is a pure function of its arguments. */
export class ArmModel {
  readonly preset: ArmPreset;
  readonly envelope: WorkspaceEnvelope;
  readonly limits: MotionLimits;
  readonly collisionMarginMm: number;
  /**
   * How far from a grasp approach's start or end the fingertip pads may touch its target, mm: the
   * finger length plus the clearance (the collision checker's rule; approval texts quote it).
   */
  readonly padContactWindowMm = PAD_CONTACT_WINDOW_MM;
  /** How far (horizontally, mm) the TCP may be from an object's centre for the gripper to close on it. */
  readonly graspLateralToleranceMm = GRASP_LATERAL_TOLERANCE_MM;
  /** The farthest a released object may fall onto the table, mm. */
  readonly maxReleaseDropMm = MAX_RELEASE_DROP_MM;

  constructor(options: ArmModelOptions = {}) {
    this.preset = typeof options.preset === 'object' ? options.preset : getArmPreset(options.preset ?? 'ur5e');
    this.envelope = createEnvelope(this.preset, options.envelope);
    this.limits = motionLimitsOf(this.preset);
    const margin = options.collisionMarginMm ?? 5;
    if (!(Number.isFinite(margin) && margin >= 0)) throw new RangeError(`collisionMarginMm must be a finite number >= 0, got ${margin}`);
    this.collisionMarginMm = margin;
    Object.freeze(this);
  }

  /** The TCP pose for these joints (mm, degrees, base frame). */
  tcp(jointsDeg: readonly number[]): TcpPose {
    return forwardKinematics(this.preset, [...jointsDeg]);
  }

  /** Where each joint sits for these joints (the base, then every link frame's origin to the TCP), mm, base frame. */
  jointOrigins(jointsDeg: readonly number[]): Vec3[] {
    return armFramesRad(this.preset, jointsDeg.map((d) => d * RAD_PER_DEG)).frames.map((f) => f.origin);
  }

  /** The TCP frame (origin and rotation) for these joints. */
  tcpFrame(jointsDeg: readonly number[]): Frame {
    return tcpFrameRad(this.preset, jointsDeg.map((d) => d * RAD_PER_DEG));
  }

  /** One TCP position against the reach sphere, the table clearance and the base keep-out. */
  checkPose(position: Vec3, toleranceMm = 0): EnvelopeCheck {
    return checkPose(this.envelope, position, toleranceMm);
  }

  /** The obstacles as the collision checker sees them in this state (a held object is not an obstacle). */
  collisionWorld(state: Pick<ArmPoseState, 'objects'>): CollisionWorld {
    return { tableZMm: this.envelope.tableZMm, baseRadiusMm: this.preset.baseRadiusMm, baseHeightMm: this.preset.baseHeightMm, objects: state.objects.filter((o) => !o.held) };
  }

  /** Plans from `fromJointsDeg` through TCP targets (straight lines unless `options.path` is `joint`). */
  planWaypoints(fromJointsDeg: readonly number[], waypoints: readonly CartesianTarget[], options?: PlanOptions): PlanResult {
    return planWaypoints(this.preset, this.limits, fromJointsDeg, waypoints, options);
  }

  /** Plans a joint-space move from `fromJointsDeg` to `goalDeg`. */
  planJointMotion(fromJointsDeg: readonly number[], goalDeg: readonly number[], options?: PlanOptions): PlanResult {
    return planJointMotion(this.preset, this.limits, fromJointsDeg, goalDeg, options);
  }

  /**
   * Everything that must hold for a trajectory to run from `state`, in order: it came from the
   * planner, is for this arm, starts at the state's joints, stays within joint, speed and acceleration
   * caps, keeps every sample inside the envelope and collides with nothing at any sample.
   */
  validateTrajectory(trajectory: Trajectory, state: ArmPoseState, options: { readonly contactAllowedWith?: readonly string[] } = {}): TrajectoryCheck {
    if (!(trajectory instanceof Trajectory)) return { ok: false, code: 'not_a_plan', message: 'only trajectories built by the planner can be executed' };
    if (trajectory.presetId !== this.preset.id) {
      return { ok: false, code: 'wrong_arm', message: `the plan is for preset ${trajectory.presetId}, but this arm is ${this.preset.id}` };
    }
    const offset = Math.max(...trajectory.startJointsDeg.map((v, i) => Math.abs(v - state.jointsDeg[i]!)));
    if (offset > START_MATCH_TOLERANCE_DEG) {
      return { ok: false, code: 'stale_start', message: `the plan starts ${offset.toFixed(3)}° away from the arm's current joints; plan again from the current position` };
    }
    const limitProblem = this.checkPeaks(trajectory);
    if (limitProblem !== null) return { ok: false, code: 'limit_exceeded', message: limitProblem };
    const outside = checkPathEnvelope(this.envelope, trajectory.samples, ENVELOPE_ROUNDING_MM);
    if (outside !== null) {
      return { ok: false, code: 'outside_envelope', message: `at t = ${outside.tS.toFixed(3)} s: ${outside.violations.map((v) => v.message).join('; ')}`, envelope: outside };
    }
    const hit = checkPathCollision(this.preset, this.collisionWorld(state), trajectory.samples, {
      marginMm: this.collisionMarginMm,
      toolContactObjectIds: options.contactAllowedWith ?? [],
      held: state.held,
    });
    if (hit !== null) return { ok: false, code: 'collision', message: `at t = ${hit.tS.toFixed(3)} s ${describeHit(hit)}`, collision: hit };
    return { ok: true };
  }

  /** The allowances of a motion about to start from `state` (see {@link MotionAllowances}). */
  motionAllowances(trajectory: Trajectory, contactAllowedWith: readonly string[] = []): MotionAllowances {
    return {
      contacts: contactAllowedWith,
      start: trajectory.samples[0]!.tcp,
      end: trajectory.samples[trajectory.samples.length - 1]!.tcp,
    };
  }

  /** The lift-off floors of `held` grasped in `state` (see `HeldObject.liftOffFloorsMm`): computed once, at the grasp. */
  liftOffFloors(state: ArmPoseState, held: HeldObject): Record<string, number> {
    return liftOffFloors(this.preset, this.collisionWorld(state), state.jointsDeg, held, this.collisionMarginMm);
  }

  /**
   * The collision check of one configuration: `jointsDeg` in the scene of `state`, with a running
   * motion's allowances (none when idle). The runtime monitor uses margin 0 (actual contact).
   */
  collisionAt(jointsDeg: readonly number[], state: Pick<ArmPoseState, 'held' | 'objects'>, marginMm: number, allowances: MotionAllowances | null = null): CollisionHit | null {
    const pads = allowances !== null && allowances.contacts.length > 0 && padContactAllowed(this.tcp(jointsDeg), allowances.start, allowances.end) ? allowances.contacts : [];
    return checkArmCollision(this.preset, this.collisionWorld(state), jointsDeg, {
      marginMm,
      toolContactObjectIds: pads,
      held: state.held,
    });
  }

  /**
   * Where the held object would land if released in `state` (straight down onto the table), or why a
   * release is refused: nothing held, it would land on another object, drop too far, or is not upright.
   */
  planRelease(state: ArmPoseState): ReleasePlan {
    if (state.held === null) return { ok: false, code: 'not_holding', message: 'the gripper holds nothing' };
    const id = state.held.object.id;
    const object = state.objects.find((o) => o.id === id);
    if (object === undefined) return { ok: false, code: 'not_holding', message: `the held object ${id} is not among the cell's objects` };
    return planRelease(object, this.tcpFrame(state.jointsDeg), state.held, state.objects, this.envelope.tableZMm);
  }

  /** An object's height along z, mm (its extent when it stands upright). */
  objectHeightMm(object: SceneObjectSpec): number {
    return heightOf(object);
  }

  /** The force this arm's gripper uses on `object` by default (its class's force within the gripper's range and the object's limit), or null when no force is both. */
  defaultGripForceN(object: SceneObjectSpec): number | null {
    return defaultGripForceN(object, this.preset.gripper);
  }

  /** The least force that holds `object` with the safety factor, newtons (jaws or suction). */
  requiredGripForceN(object: SceneObjectSpec, strategy: GraspStrategy): number {
    return requiredGripForceN(object, strategy);
  }

  /**
   * The TCP speed a whole path may run at with the person where the presence sensor sees them: the
   * smallest speed the separation allows over the path's TCP points, mm/s (0: no motion allowed).
   */
  presenceSpeedCapMmS(presence: Pick<PresenceStatus, 'config' | 'person' | 'limits'>, tcpPoints: Iterable<Vec3>): number {
    return pathTcpSpeedCapMmS(presence, tcpPoints);
  }

  /** A trajectory of this arm as plain JSON (its definition and the digest of its samples), for a socket or a store. */
  encodeTrajectory(trajectory: Trajectory): WireTrajectory {
    return encodeTrajectory(trajectory);
  }

  /** Rebuilds a trajectory of this arm from untrusted JSON; refused when its shape, arm or digest is wrong. */
  decodeTrajectory(value: unknown): { trajectory: Trajectory } | WireTrajectoryProblem {
    return decodeTrajectory(value, this.preset);
  }

  private checkPeaks(trajectory: Trajectory): string | null {
    const p = trajectory.peaks;
    for (let j = 0; j < this.limits.joints.length; j++) {
      const lim = this.limits.joints[j]!;
      if (p.peakJointSpeedDegS[j]! > lim.maxVelocityDegS * LIMIT_SLACK) return `joint ${j + 1} would reach ${beside(p.peakJointSpeedDegS[j]!, lim.maxVelocityDegS)}°/s, above its ${lim.maxVelocityDegS}°/s cap`;
      if (p.peakJointAccelerationDegS2[j]! > lim.maxAccelerationDegS2 * LIMIT_SLACK) return `joint ${j + 1} would reach ${beside(p.peakJointAccelerationDegS2[j]!, lim.maxAccelerationDegS2)}°/s², above its ${lim.maxAccelerationDegS2}°/s² cap`;
    }
    if (p.peakTcpSpeedMmS > this.limits.maxTcpSpeedMmS * LIMIT_SLACK) return `the TCP would reach ${beside(p.peakTcpSpeedMmS, this.limits.maxTcpSpeedMmS)} mm/s, above the ${this.limits.maxTcpSpeedMmS} mm/s cap`;
    if (p.peakTcpAccelerationMmS2 > this.limits.maxTcpAccelerationMmS2 * 1.02) return `the TCP would reach ${beside(p.peakTcpAccelerationMmS2, this.limits.maxTcpAccelerationMmS2, 0)} mm/s², above the ${this.limits.maxTcpAccelerationMmS2} mm/s² cap`;
    for (const sample of trajectory.samples) {
      for (let j = 0; j < sample.jointsDeg.length; j++) {
        const lim = this.limits.joints[j]!;
        const v = sample.jointsDeg[j]!;
        if (v < lim.minDeg - 1e-6 || v > lim.maxDeg + 1e-6) return `joint ${j + 1} would reach ${beside(v, v < lim.minDeg ? lim.minDeg : lim.maxDeg, 2)}° at t = ${sample.tS.toFixed(3)} s, outside its range [${lim.minDeg}, ${lim.maxDeg}]°`;
      }
    }
    return null;
  }
}

/** Builds an arm model; see {@link ArmModelOptions} for the defaults. */
export function createArmModel(options: ArmModelOptions = {}): ArmModel {
  return new ArmModel(options);
}

/** A collision hit in words: which body, how close to what, and the rule that applied. */
export function describeHit(hit: CollisionHit): string {
  const body = hit.link.startsWith('held:') ? `the held object ${hit.link.slice(5)}` : hit.link === 'fingertips' ? 'the fingertips' : `link ${hit.link}`;
  const what = hit.obstacle.startsWith('arm:') ? `link ${hit.obstacle.slice(4)}` : hit.obstacle === 'table' ? 'the table' : hit.obstacle === 'robot_base' ? 'the robot base' : hit.obstacle;
  const gap = hit.distanceMm < 0 ? `${beside(-hit.distanceMm, -hit.requiredMm)} mm inside ${what}` : `within ${beside(hit.distanceMm, hit.requiredMm)} mm of ${what}`;
  return `${body} would be ${gap}; rule: ${hit.rule} (required gap ${limitText(hit.requiredMm)} mm)`;
}
