/**
 * The gripper state a restarted controller takes over from the one that stopped (its pose file): the
 * object in the gripper with the grip fixed at its grasp, and which objects are broken. A simulation
 * started with it holds that object (a grasp is refused, a release computes the fall from that grip)
 * and keeps broken objects broken. It is checked against the scene and the arm's pose before the
 * simulation starts: a grip on an object that is not there, or is not where that grip carries it, is
 * refused rather than guessed.
 */
import type { Frame } from './forward-kinematics.js';
import { heldPose, type HeldObject } from './held-object-shape.js';
import { mul, transpose, type Mat3 } from './rotation.js';
import type { SceneObjectState } from './scene-objects.js';
import { isFiniteVec3, sub, type Vec3 } from './vector3.js';

/** A grasp in progress, as `heldObject()` reports it (without the object's own state). */
export interface RestoredGrip {
  readonly objectId: string;
  /** Where the object's centre sits in the tool frame, mm. */
  readonly offsetInToolMm: Vec3;
  /** The object's own axes in the tool frame (a rotation matrix, row-major). */
  readonly rotationInTool: Mat3;
  /** The lift-off floors fixed at the grasp (`HeldObject.liftOffFloorsMm`); absent in files of older controllers. */
  readonly liftOffFloorsMm?: Readonly<Record<string, number>>;
}

/** What the gripper held and what was broken when the previous controller stopped. */
export interface RestoredGripper {
  /** The object in the gripper, or null (the gripper is open). */
  readonly held: RestoredGrip | null;
  /** Ids of the objects that are broken. */
  readonly brokenObjectIds: readonly string[];
}

/**
 * How far a held object's recorded centre may lie from where its grip carries it, mm. The pose file
 * writes both from one snapshot, so they agree to rounding; anything more means the file does not fit.
 */
export const RESTORED_GRIP_TOLERANCE_MM = 0.5;

const ROTATION_TOLERANCE = 1e-6;

function isRotation(m: Mat3): boolean {
  if (m.length !== 9 || !m.every(Number.isFinite)) return false;
  const product = mul(transpose(m), m);
  const identity = [1, 0, 0, 0, 1, 0, 0, 0, 1];
  const determinant = m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6]) + m[2] * (m[3] * m[7] - m[4] * m[6]);
  return product.every((v, i) => Math.abs(v - identity[i]!) <= ROTATION_TOLERANCE) && Math.abs(determinant - 1) <= ROTATION_TOLERANCE;
}

/** Checks that `brokenObjectIds` names objects of the scene; throws a RangeError naming the first that is not. */
export function checkBrokenIds(brokenObjectIds: readonly string[], objects: ReadonlyMap<string, SceneObjectState>): ReadonlySet<string> {
  for (const id of brokenObjectIds) {
    if (!objects.has(id)) throw new RangeError(`restored gripper: broken object ${JSON.stringify(id)} is not in the scene`);
  }
  return new Set(brokenObjectIds);
}

/**
 * The held object this grip describes at the tool frame `tool`; throws a RangeError when the object is
 * not in the scene, the grip is not a rigid one, or the object is not where the grip carries it.
 */
export function checkRestoredGrip(grip: RestoredGrip, objects: ReadonlyMap<string, SceneObjectState>, tool: Frame): HeldObject {
  const object = objects.get(grip.objectId);
  if (object === undefined) throw new RangeError(`restored gripper: the held object ${JSON.stringify(grip.objectId)} is not in the scene`);
  if (!isFiniteVec3(grip.offsetInToolMm)) throw new RangeError(`restored gripper: offsetInToolMm of ${object.id} must be finite millimetres`);
  if (!Array.isArray(grip.rotationInTool) || !isRotation(grip.rotationInTool)) throw new RangeError(`restored gripper: rotationInTool of ${object.id} must be a rotation matrix (9 numbers, orthonormal, determinant 1)`);
  const floors = grip.liftOffFloorsMm;
  if (floors !== undefined && !(typeof floors === 'object' && floors !== null && Object.values(floors).every(Number.isFinite))) throw new RangeError(`restored gripper: liftOffFloorsMm of ${object.id} must map obstacle ids to finite millimetres`);
  const held: HeldObject = { object, offsetInToolMm: grip.offsetInToolMm, rotationInTool: grip.rotationInTool, ...(floors !== undefined ? { liftOffFloorsMm: floors } : {}) };
  const carried = heldPose(tool, held).center;
  const d = sub(carried, object.position);
  const apart = Math.hypot(d.x, d.y, d.z);
  if (!(apart <= RESTORED_GRIP_TOLERANCE_MM)) {
    throw new RangeError(`restored gripper: ${object.id} is recorded ${apart.toFixed(1)} mm from where the gripper holds it at these joints (at most ${RESTORED_GRIP_TOLERANCE_MM} mm)`);
  }
  return held;
}
