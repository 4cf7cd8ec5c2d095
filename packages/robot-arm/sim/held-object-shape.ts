import type { Frame } from './forward-kinematics.js';
import { segmentDistance, type Obstacle } from './obstacle-geometry.js';
import { apply, mul, transpose, type Mat3 } from './rotation.js';
import { heightOf, type SceneObjectSpec } from './scene-objects.js';
import { add, scale, sub, type Vec3 } from './vector3.js';

/**
 * A grasped object: where its centre sits in the tool frame (mm) and how it is turned relative to the
 * tool, both fixed at the moment of the grasp. It moves rigidly with the tool.
 */
export interface HeldObject {
  readonly object: SceneObjectSpec;
  readonly offsetInToolMm: Vec3;
  /** The object's own axes (upright, yawed) expressed in the tool frame at the grasp. */
  readonly rotationInTool: Mat3;
  /**
   * Lift-off floors, fixed at the grasp: the object's gap (mm) to each obstacle it was closer to than
   * the clearance when it was picked up (the table it rested on, a neighbour), by obstacle id. No
   * motion, and no sequence of motions, may take it below that gap minus `LIFT_OFF_SLACK_MM`; every
   * other obstacle gets the full clearance. Absent or empty: the full clearance everywhere.
   */
  readonly liftOffFloorsMm?: Readonly<Record<string, number>>;
}

/** The held object's pose in the base frame for a tool frame. */
export interface HeldPose {
  readonly center: Vec3;
  readonly rotation: Mat3;
}

export function heldPose(tool: Frame, held: HeldObject): HeldPose {
  return { center: add(tool.origin, apply(tool.rotation, held.offsetInToolMm)), rotation: mul(tool.rotation, held.rotationInTool) };
}

/** The object as an upright obstacle at the origin of its own frame (the frame distances are measured in). */
function localShape(object: SceneObjectSpec): Obstacle {
  const origin = { x: 0, y: 0, z: 0 };
  switch (object.shape) {
    case 'box': return { kind: 'box', id: object.id, center: origin, sizeMm: object.sizeMm, yawDeg: 0 };
    case 'cylinder': return { kind: 'cylinder', id: object.id, center: origin, radiusMm: object.sizeMm.x / 2, heightMm: object.sizeMm.z };
    case 'sphere': return { kind: 'sphere', id: object.id, center: origin, radiusMm: object.sizeMm.x / 2 };
  }
}

/** The rotation of an upright object turned by its yaw (its own axes in the base frame). */
export function uprightRotation(yawDeg: number): Mat3 {
  const c = Math.cos((yawDeg * Math.PI) / 180), s = Math.sin((yawDeg * Math.PI) / 180);
  return [c, -s, 0, s, c, 0, 0, 0, 1];
}

/**
 * Height of the object's lowest point above the plane z = tableZ (exact for every shape and any tilt):
 * the table clearance of a held object.
 */
export function heldTableGap(object: SceneObjectSpec, pose: HeldPose, tableZMm: number): number {
  const r = pose.rotation;
  // Row 2 of the rotation: how much each local axis points up.
  const ux = r[6], uy = r[7], uz = r[8];
  let drop: number;
  switch (object.shape) {
    case 'sphere': drop = object.sizeMm.x / 2; break;
    case 'box': drop = (Math.abs(ux) * object.sizeMm.x + Math.abs(uy) * object.sizeMm.y + Math.abs(uz) * object.sizeMm.z) / 2; break;
    case 'cylinder': drop = (Math.abs(uz) * object.sizeMm.z + Math.sqrt(Math.max(0, 1 - uz * uz)) * object.sizeMm.x) / 2; break;
  }
  return pose.center.z - drop - tableZMm;
}

/**
 * Exact gap between the held object's surface and a capsule (segment a–b, radius): the segment is moved
 * into the object's own frame, where the object is an upright convex shape.
 */
export function heldCapsuleGap(object: SceneObjectSpec, pose: HeldPose, a: Vec3, b: Vec3, radiusMm: number): number {
  const inverse = transpose(pose.rotation);
  const la = apply(inverse, sub(a, pose.center));
  const lb = apply(inverse, sub(b, pose.center));
  return segmentDistance(localShape(object), la, lb).distanceMm - radiusMm;
}

/**
 * A capsule that contains the held object whole (along its longest axis), for distances to other
 * objects and the base. Conservative at the ends by up to its radius.
 */
export function heldContainingCapsule(object: SceneObjectSpec, pose: HeldPose): { a: Vec3; b: Vec3; radiusMm: number } {
  const col = (i: 0 | 1 | 2): Vec3 => ({ x: pose.rotation[i], y: pose.rotation[3 + i], z: pose.rotation[6 + i] });
  if (object.shape === 'sphere') return { a: pose.center, b: pose.center, radiusMm: object.sizeMm.x / 2 };
  if (object.shape === 'cylinder') {
    const half = heightOf(object) / 2;
    return { a: add(pose.center, scale(col(2), -half)), b: add(pose.center, scale(col(2), half)), radiusMm: object.sizeMm.x / 2 };
  }
  const halves = [object.sizeMm.x / 2, object.sizeMm.y / 2, object.sizeMm.z / 2];
  const longest = halves.indexOf(Math.max(...halves)) as 0 | 1 | 2;
  const others = halves.filter((_, i) => i !== longest);
  const axis = col(longest);
  return { a: add(pose.center, scale(axis, -halves[longest]!)), b: add(pose.center, scale(axis, halves[longest]!)), radiusMm: Math.hypot(others[0]!, others[1]!) };
}
