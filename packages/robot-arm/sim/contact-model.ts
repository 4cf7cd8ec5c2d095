import { FINGER_LENGTH_MM } from './arm-capsules.js';
import type { HeldObject } from './collision-check.js';
import type { Frame } from './forward-kinematics.js';
import { GRAVITY_MS2 } from './gripper.js';
import { signedDistance, type Obstacle } from './obstacle-geometry.js';
import { apply, column } from './rotation.js';
import { heightOf, obstacleOf, widthAcross, type SceneObjectState } from './scene-objects.js';
import { add, cross, scale, sub, type Vec3 } from './vector3.js';

/** Force (N) and torque (N·m) in base-frame axes, torque about the TCP (where the sensor sits). */
export interface Wrench {
  readonly Fx: number;
  readonly Fy: number;
  readonly Fz: number;
  readonly Mx: number;
  readonly My: number;
  readonly Mz: number;
}

export const ZERO_WRENCH: Wrench = Object.freeze({ Fx: 0, Fy: 0, Fz: 0, Mx: 0, My: 0, Mz: 0 });

export interface ContactPoint {
  readonly obstacle: string;
  readonly penetrationMm: number;
  readonly forceN: number;
}

export interface ContactModel {
  /** Surface stiffness seen through the gripper's compliance, N/mm. */
  readonly stiffnessNPerMm: number;
  /** Finger length: the palm sits this far up the tool axis from the fingertips (the TCP), mm. */
  readonly fingerLengthMm: number;
  /** Current jaw opening, mm; objects narrower than this pass between the open fingers. */
  readonly jawOpeningMm: number;
}

export const DEFAULT_CONTACT_MODEL: ContactModel = Object.freeze({ stiffnessNPerMm: 3, fingerLengthMm: FINGER_LENGTH_MM, jawOpeningMm: 85 });

/**
 * What the wrist force/torque sensor would read without noise: the weight of a held object (with its
 * lever arm) plus spring-like contact forces where the fingertips (the TCP) press into the table or an
 * object too wide to pass between the jaws, or where the palm presses onto an object between the jaws.
 */
export function contactWrench(
  tcp: Frame,
  tableZMm: number,
  objects: readonly SceneObjectState[],
  held: HeldObject | null,
  model: ContactModel = DEFAULT_CONTACT_MODEL,
): { wrench: Wrench; contacts: ContactPoint[] } {
  let force: Vec3 = { x: 0, y: 0, z: 0 };
  let torque: Vec3 = { x: 0, y: 0, z: 0 };
  const contacts: ContactPoint[] = [];
  if (held !== null) {
    const weight: Vec3 = { x: 0, y: 0, z: -held.object.massKg * GRAVITY_MS2 };
    const lever = scale(apply(tcp.rotation, held.offsetInToolMm), 1e-3);
    force = add(force, weight);
    torque = add(torque, cross(lever, weight));
  }
  const tip = tcp.origin;
  const axis = column(tcp.rotation, 2);
  const palm = sub(tip, scale(axis, model.fingerLengthMm));
  const press = (obstacle: Obstacle, point: Vec3): void => {
    const depth = -signedDistance(obstacle, point);
    if (depth <= 0) return;
    const normal = outwardNormal(obstacle, point);
    const magnitude = model.stiffnessNPerMm * depth;
    const f = scale(normal, magnitude);
    force = add(force, f);
    torque = add(torque, cross(scale(sub(point, tip), 1e-3), f));
    contacts.push({ obstacle: obstacle.id, penetrationMm: depth, forceN: magnitude });
  };
  press({ kind: 'table', id: 'table', zMm: tableZMm }, tip);
  const closingYawDeg = Math.atan2(column(tcp.rotation, 0).y, column(tcp.rotation, 0).x) * (180 / Math.PI);
  for (const o of objects) {
    if (o.held || o.id === held?.object.id) continue;
    const obstacle = obstacleOf(o);
    const fitsBetweenJaws = held === null && widthAcross(o, closingYawDeg) <= model.jawOpeningMm && heightOf(o) > 0;
    press(obstacle, fitsBetweenJaws ? palm : tip);
  }
  return { wrench: { Fx: force.x, Fy: force.y, Fz: force.z, Mx: torque.x, My: torque.y, Mz: torque.z }, contacts };
}

/** Unit gradient of the signed distance (central differences): the direction that pushes the point out. */
function outwardNormal(obstacle: Obstacle, p: Vec3): Vec3 {
  const h = 0.01;
  const g = {
    x: signedDistance(obstacle, { x: p.x + h, y: p.y, z: p.z }) - signedDistance(obstacle, { x: p.x - h, y: p.y, z: p.z }),
    y: signedDistance(obstacle, { x: p.x, y: p.y + h, z: p.z }) - signedDistance(obstacle, { x: p.x, y: p.y - h, z: p.z }),
    z: signedDistance(obstacle, { x: p.x, y: p.y, z: p.z + h }) - signedDistance(obstacle, { x: p.x, y: p.y, z: p.z - h }),
  };
  const n = Math.hypot(g.x, g.y, g.z);
  return n < 1e-12 ? { x: 0, y: 0, z: 1 } : { x: g.x / n, y: g.y / n, z: g.z / n };
}
