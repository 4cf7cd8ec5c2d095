import { DEG_PER_RAD } from './angles.js';
import type { Frame } from './forward-kinematics.js';
import { FRAGILE_DROP_LIMIT_MM, GRASP_MAX_TILT_DEG } from './gripper.js';
import { heldPose, heldTableGap, type HeldObject } from './held-object-shape.js';
import { heightOf, horizontalRadius, type SceneObjectState } from './scene-objects.js';
import type { Vec3 } from './vector3.js';

/**
 * The highest a released object may fall (its lowest point above the table), mm, for every object:
 * fragile ones break above `FRAGILE_DROP_LIMIT_MM` (the same 50 mm), robust ones would bounce and roll.
 */
export const MAX_RELEASE_DROP_MM = 50;

export type ReleasePlan =
  | {
      readonly ok: true;
      readonly objectId: string;
      /** Where the object comes to rest (its centre, on the table), mm. */
      readonly position: Vec3;
      readonly yawDeg: number;
      /** How far its lowest point falls before touching the table, mm. */
      readonly dropHeightMm: number;
      readonly breaks: boolean;
    }
  | {
      readonly ok: false;
      readonly code: 'not_holding' | 'would_land_on_object' | 'drop_too_high' | 'not_upright';
      readonly message: string;
      readonly objectId?: string;
      /** For `would_land_on_object`: the object it would land on. */
      readonly landsOn?: string;
      readonly dropHeightMm?: number;
    };

/**
 * Release as a motion of the object: it falls straight down from where it is held. Refused when it is
 * tilted more than the grasp tilt limit (it would topple), when its footprint (the circle around its
 * vertical axis that contains it) overlaps another object's (it would land on it; objects do not stack),
 * or when it would fall more than `MAX_RELEASE_DROP_MM`.
 */
export function planRelease(object: SceneObjectState, tool: Frame, held: HeldObject, objects: readonly SceneObjectState[], tableZMm: number): ReleasePlan {
  const pose = heldPose(tool, held);
  const id = object.id;
  const tiltDeg = Math.acos(Math.min(1, Math.abs(pose.rotation[8]))) * DEG_PER_RAD;
  if (object.shape !== 'sphere' && tiltDeg > GRASP_MAX_TILT_DEG) {
    return { ok: false, code: 'not_upright', objectId: id, message: `${id} is tilted ${tiltDeg.toFixed(1)}° from upright; it would topple when released (at most ${GRASP_MAX_TILT_DEG}°). Turn the tool back toward straight down first` };
  }
  const radius = horizontalRadius(object);
  for (const other of objects) {
    if (other.id === id || other.held) continue;
    const apart = Math.hypot(other.position.x - pose.center.x, other.position.y - pose.center.y);
    const needed = radius + horizontalRadius(other);
    if (apart < needed) {
      return { ok: false, code: 'would_land_on_object', objectId: id, landsOn: other.id, message: `${id} would land on ${other.id}: their centres would be ${apart.toFixed(1)} mm apart horizontally, and their footprints need ${needed.toFixed(1)} mm (objects do not stack). Move it to a free spot on the table first` };
    }
  }
  const drop = Math.max(0, heldTableGap(object, pose, tableZMm));
  if (drop > MAX_RELEASE_DROP_MM) {
    return { ok: false, code: 'drop_too_high', objectId: id, dropHeightMm: drop, message: `${id} would fall ${drop.toFixed(1)} mm; releases may drop an object at most ${MAX_RELEASE_DROP_MM} mm. Lower it first` };
  }
  return {
    ok: true,
    objectId: id,
    position: { x: pose.center.x, y: pose.center.y, z: tableZMm + heightOf(object) / 2 },
    yawDeg: object.yawDeg,
    dropHeightMm: drop,
    breaks: object.maxGripForceN !== null && drop > FRAGILE_DROP_LIMIT_MM,
  };
}
