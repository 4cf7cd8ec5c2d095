import type { GripperSpec } from './arm-presets.js';
import { DEG_PER_RAD } from './angles.js';
import { uprightRotation, type HeldObject } from './held-object-shape.js';
import type { Frame } from './forward-kinematics.js';
import { apply, column, mul, transpose } from './rotation.js';
import { heightOf, widthAcross, type ObjectLabel, type SceneObjectSpec, type SceneObjectState } from './scene-objects.js';
import { sub } from './vector3.js';

export const GRAVITY_MS2 = 9.81;
/** Grip must hold this many times the object's weight (slip margin against accelerations and pad wear). */
export const GRASP_SAFETY_FACTOR = 2;
/** The jaws must be centred on the object's vertical axis within this distance. */
export const GRASP_LATERAL_TOLERANCE_MM = 15;
/** The tool axis may tilt at most this much from straight down for a top grasp. */
export const GRASP_MAX_TILT_DEG = 20;
/** Suction cup: 30 mm diameter at 60 kPa vacuum. */
export const SUCTION_HOLD_FORCE_N = 60e3 * Math.PI * 0.015 * 0.015;
/** A fragile object dropped from higher than this (bottom above the table) breaks. */
export const FRAGILE_DROP_LIMIT_MM = 50;

export type GraspStrategy = 'parallel' | 'suction' | 'adaptive';

export type GraspFailureCode =
  | 'invalid_input'
  | 'already_holding'
  | 'not_aligned'
  | 'no_object'
  | 'object_broken'
  | 'too_wide'
  | 'over_payload'
  | 'not_suctionable'
  | 'slipped'
  | 'force_above_object_limit';

export type GraspOutcome =
  | {
      readonly ok: true;
      readonly objectId: string;
      readonly strategy: GraspStrategy;
      /** Force the jaws actually apply (adaptive grasps use no more than needed), newtons. */
      readonly appliedForceN: number;
      /** Force needed to hold the object with the safety factor, newtons (for suction: the hold force needed). */
      readonly requiredForceN: number;
      readonly held: HeldObject;
    }
  | {
      readonly ok: false;
      readonly code: GraspFailureCode;
      readonly message: string;
      readonly objectId?: string;
      readonly appliedForceN?: number;
      readonly requiredForceN?: number;
    };

export interface GraspRequest {
  /** Commanded grip force, newtons, within the gripper's range (5–30 N); never clamped. */
  readonly forceN: number;
  readonly strategy?: GraspStrategy;
}

/**
 * Decides what happens when the gripper closes at the TCP `tcp`. Plain physics, no randomness:
 * parallel jaws hold when 2·μ·F ≥ m·g·safety and break a fragile object when F exceeds what it tolerates;
 * `adaptive` raises force only until the object stops slipping (never above the command); `suction`
 * needs a flat top and holds with a fixed vacuum force.
 */
export function attemptGrasp(gripper: GripperSpec, payloadKg: number, tcp: Frame, objects: readonly SceneObjectState[], holding: boolean, request: GraspRequest): GraspOutcome {
  const strategy = request.strategy ?? 'parallel';
  if (strategy !== 'parallel' && strategy !== 'suction' && strategy !== 'adaptive') {
    return { ok: false, code: 'invalid_input', message: `grasp strategy must be parallel, suction or adaptive, got ${String(strategy)}` };
  }
  const force = request.forceN;
  if (typeof force !== 'number' || !Number.isFinite(force) || force < gripper.minForceN || force > gripper.maxForceN) {
    return { ok: false, code: 'invalid_input', message: `grip force must be a number of newtons from ${gripper.minForceN} to ${gripper.maxForceN}, got ${String(force)}` };
  }
  if (holding) return { ok: false, code: 'already_holding', message: 'the gripper already holds an object; release it first' };

  const toolAxis = column(tcp.rotation, 2);
  const tiltDeg = Math.acos(Math.min(1, Math.max(-1, -toolAxis.z))) * DEG_PER_RAD;
  if (tiltDeg > GRASP_MAX_TILT_DEG) {
    return { ok: false, code: 'not_aligned', message: `the tool axis is tilted ${tiltDeg.toFixed(1)}° from straight down; grasps need at most ${GRASP_MAX_TILT_DEG}°` };
  }

  const p = tcp.origin;
  let target: SceneObjectState | null = null;
  let bestOffset = Number.POSITIVE_INFINITY;
  for (const o of objects) {
    if (o.held) continue;
    const lateral = Math.hypot(p.x - o.position.x, p.y - o.position.y);
    const half = heightOf(o) / 2;
    const top = o.position.z + half, bottom = o.position.z - half;
    const zOk = strategy === 'suction' ? Math.abs(p.z - top) <= 5 : p.z >= bottom && p.z <= top;
    if (lateral <= GRASP_LATERAL_TOLERANCE_MM && zOk && lateral < bestOffset) {
      target = o;
      bestOffset = lateral;
    }
  }
  const where = `TCP (${p.x.toFixed(1)}, ${p.y.toFixed(1)}, ${p.z.toFixed(1)}) mm`;
  if (target === null) {
    const rule = strategy === 'suction' ? 'within 5 mm of its top face' : 'between its bottom and top';
    return { ok: false, code: 'no_object', message: `no object to grasp at ${where}: the TCP must be within ${GRASP_LATERAL_TOLERANCE_MM} mm of an object's vertical axis and ${rule}` };
  }
  const id = target.id;
  if (target.condition === 'broken') return { ok: false, code: 'object_broken', message: `object ${id} is broken and cannot be grasped`, objectId: id };
  if (target.massKg > payloadKg) {
    return { ok: false, code: 'over_payload', message: `object ${id} weighs ${target.massKg} kg, above the arm's ${payloadKg} kg payload`, objectId: id };
  }
  const weightN = target.massKg * GRAVITY_MS2;
  // Checked before the jaws or the cup touch anything: the commanded force is the most any strategy applies.
  if (target.maxGripForceN !== null && force > target.maxGripForceN) {
    return {
      ok: false,
      code: 'force_above_object_limit',
      message: `the commanded ${force} N is above the ${target.maxGripForceN} N that ${id} tolerates; nothing touched it. Use at most ${target.maxGripForceN} N (the default for a ${target.label} is ${defaultGripForceN(target, gripper) ?? 'none'} N)`,
      objectId: id,
    };
  }
  const held: HeldObject = { object: target, offsetInToolMm: apply(transpose(tcp.rotation), sub(target.position, p)), rotationInTool: mul(transpose(tcp.rotation), uprightRotation(target.yawDeg)) };

  if (strategy === 'suction') {
    const requiredForceN = weightN * GRASP_SAFETY_FACTOR;
    if (target.shape === 'sphere') return { ok: false, code: 'not_suctionable', message: `object ${id} has no flat top for the suction cup`, objectId: id };
    // The vacuum is regulated to the commanded force (the cup could pull up to SUCTION_HOLD_FORCE_N).
    const applied = Math.min(force, SUCTION_HOLD_FORCE_N);
    if (applied < requiredForceN) {
      return { ok: false, code: 'slipped', message: `suction at ${applied.toFixed(1)} N cannot hold object ${id}: it needs ${requiredForceN.toFixed(1)} N (weight × ${GRASP_SAFETY_FACTOR})`, objectId: id, appliedForceN: applied, requiredForceN };
    }
    return { ok: true, objectId: id, strategy, appliedForceN: applied, requiredForceN, held };
  }

  const closingYawDeg = Math.atan2(column(tcp.rotation, 0).y, column(tcp.rotation, 0).x) * DEG_PER_RAD;
  const width = widthAcross(target, closingYawDeg);
  if (width > gripper.strokeMm) {
    return { ok: false, code: 'too_wide', message: `object ${id} is ${width.toFixed(1)} mm wide across the jaws; the gripper opens ${gripper.strokeMm} mm`, objectId: id };
  }
  const requiredForceN = (weightN * GRASP_SAFETY_FACTOR) / (2 * target.frictionCoefficient);
  const applied = strategy === 'adaptive' ? Math.min(force, Math.max(gripper.minForceN, requiredForceN)) : force;
  if (applied < requiredForceN) {
    return {
      ok: false,
      code: 'slipped',
      message: `object ${id} slipped: ${applied.toFixed(1)} N of grip with friction ${target.frictionCoefficient} holds less than its ${target.massKg} kg needs (${requiredForceN.toFixed(1)} N with safety factor ${GRASP_SAFETY_FACTOR})`,
      objectId: id,
      appliedForceN: applied,
      requiredForceN,
    };
  }
  return { ok: true, objectId: id, strategy, appliedForceN: applied, requiredForceN, held };
}

/**
 * Grip force used when none is given, per object class (newtons): enough to hold a typical object of
 * that class with the safety factor, well under what a fragile one tolerates.
 */
export const DEFAULT_GRIP_FORCE_BY_LABEL: Readonly<Record<ObjectLabel, number>> = Object.freeze({
  cup: 12,
  egg: 6,
  wood_block: 15,
  bottle: 28,
  tray: 15,
  sponge: 6,
  apple: 10,
  tennis_ball: 10,
  box: 15,
});

/**
 * The default grip force for this object: its class default, never above what the object tolerates or
 * the gripper's maximum, never below the gripper's minimum; null when no force in the gripper's range
 * is safe for it (its limit is below the gripper's minimum).
 */
export function defaultGripForceN(object: SceneObjectSpec, gripper: GripperSpec): number | null {
  const ceiling = Math.min(gripper.maxForceN, object.maxGripForceN ?? Number.POSITIVE_INFINITY);
  if (ceiling < gripper.minForceN) return null;
  return Math.max(gripper.minForceN, Math.min(DEFAULT_GRIP_FORCE_BY_LABEL[object.label], ceiling));
}

/**
 * The least force that holds this object with the safety factor (newtons): jaws `m·g·safety / (2·μ)`,
 * suction `m·g·safety`. Compared with the commanded force before anything touches the object.
 */
export function requiredGripForceN(object: SceneObjectSpec, strategy: GraspStrategy): number {
  const weightN = object.massKg * GRAVITY_MS2;
  return strategy === 'suction' ? weightN * GRASP_SAFETY_FACTOR : (weightN * GRASP_SAFETY_FACTOR) / (2 * object.frictionCoefficient);
}
