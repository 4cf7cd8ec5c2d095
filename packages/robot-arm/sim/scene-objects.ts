import type { ArmPresetId } from './arm-presets.js';
import type { Obstacle } from './obstacle-geometry.js';
import { isFiniteVec3, type Vec3 } from './vector3.js';

/**
 * Labels the camera may report. A fixed vocabulary: perception output must be data, never free text
 * that a model could read as an instruction (a label printed on an object is not a label here).
 */
export const OBJECT_LABELS = ['cup', 'egg', 'wood_block', 'bottle', 'tray', 'sponge', 'apple', 'tennis_ball', 'box'] as const;
export type ObjectLabel = (typeof OBJECT_LABELS)[number];

export type ObjectShape = 'box' | 'cylinder' | 'sphere';

/** Object ids are short machine tokens, checked when a scene is built. */
export const OBJECT_ID_PATTERN = /^[a-z][a-z0-9_-]{0,31}$/;

/** An object on the table (base frame, millimetres, kilograms, newtons). */
export interface SceneObjectSpec {
  readonly id: string;
  readonly label: ObjectLabel;
  readonly shape: ObjectShape;
  /** Box: extents along its own x, y, z. Cylinder: x = diameter, z = height (y ignored). Sphere: x = diameter. */
  readonly sizeMm: Vec3;
  /** Centre of the object. */
  readonly position: Vec3;
  /** Rotation about the vertical axis, degrees (boxes only; round objects have none). */
  readonly yawDeg: number;
  readonly massKg: number;
  /** Coulomb friction between the gripper pads and the object. */
  readonly frictionCoefficient: number;
  /** Squeezing harder than this breaks the object; null when it is not fragile. */
  readonly maxGripForceN: number | null;
}

export type ObjectCondition = 'intact' | 'broken';

/** The live state of an object: its spec plus where it is now and what happened to it. */
export interface SceneObjectState extends SceneObjectSpec {
  readonly condition: ObjectCondition;
  readonly held: boolean;
}

/** Width the gripper jaws must span, for jaws closing along the horizontal direction `closingYawDeg`. */
export function widthAcross(object: SceneObjectSpec, closingYawDeg: number): number {
  if (object.shape !== 'box') return object.sizeMm.x;
  const d = ((closingYawDeg - object.yawDeg) * Math.PI) / 180;
  return Math.abs(object.sizeMm.x * Math.cos(d)) + Math.abs(object.sizeMm.y * Math.sin(d));
}

export function heightOf(object: SceneObjectSpec): number {
  return object.shape === 'sphere' ? object.sizeMm.x : object.sizeMm.z;
}

/** Radius of the smallest vertical cylinder around the object's axis that contains it. */
export function horizontalRadius(object: SceneObjectSpec): number {
  return object.shape === 'box' ? Math.hypot(object.sizeMm.x, object.sizeMm.y) / 2 : object.sizeMm.x / 2;
}

export function obstacleOf(object: SceneObjectSpec): Obstacle {
  switch (object.shape) {
    case 'box': return { kind: 'box', id: object.id, center: object.position, sizeMm: object.sizeMm, yawDeg: object.yawDeg };
    case 'cylinder': return { kind: 'cylinder', id: object.id, center: object.position, radiusMm: object.sizeMm.x / 2, heightMm: object.sizeMm.z };
    case 'sphere': return { kind: 'sphere', id: object.id, center: object.position, radiusMm: object.sizeMm.x / 2 };
  }
}

/** Validates operator-supplied objects; throws a RangeError naming the object and field. */
export function validateSceneObjects(objects: readonly SceneObjectSpec[]): SceneObjectSpec[] {
  const seen = new Set<string>();
  return objects.map((o, index) => {
    const where = `scene object #${index}`;
    if (typeof o.id !== 'string' || !OBJECT_ID_PATTERN.test(o.id)) throw new RangeError(`${where}: id must match ${OBJECT_ID_PATTERN} (lowercase letters, digits, _ and -, at most 32 characters)`);
    if (seen.has(o.id)) throw new RangeError(`${where}: duplicate id "${o.id}"`);
    seen.add(o.id);
    if (!(OBJECT_LABELS as readonly string[]).includes(o.label)) throw new RangeError(`${where} (${o.id}): label must be one of ${OBJECT_LABELS.join(', ')}`);
    if (o.shape !== 'box' && o.shape !== 'cylinder' && o.shape !== 'sphere') throw new RangeError(`${where} (${o.id}): shape must be box, cylinder or sphere`);
    const size = o.sizeMm;
    const sizes = o.shape === 'box' ? [size.x, size.y, size.z] : o.shape === 'cylinder' ? [size.x, size.z] : [size.x];
    if (!sizes.every((v) => Number.isFinite(v) && v > 0 && v <= 1000)) throw new RangeError(`${where} (${o.id}): sizes must be in (0, 1000] mm`);
    if (!isFiniteVec3(o.position)) throw new RangeError(`${where} (${o.id}): position must be finite millimetres`);
    if (!Number.isFinite(o.yawDeg)) throw new RangeError(`${where} (${o.id}): yawDeg must be finite`);
    if (!(Number.isFinite(o.massKg) && o.massKg > 0 && o.massKg <= 50)) throw new RangeError(`${where} (${o.id}): massKg must be in (0, 50] kg`);
    if (!(Number.isFinite(o.frictionCoefficient) && o.frictionCoefficient >= 0.05 && o.frictionCoefficient <= 1.5)) throw new RangeError(`${where} (${o.id}): frictionCoefficient must be in [0.05, 1.5]`);
    if (o.maxGripForceN !== null && !(Number.isFinite(o.maxGripForceN) && o.maxGripForceN > 0)) throw new RangeError(`${where} (${o.id}): maxGripForceN must be a positive number of newtons or null`);
    const normalised: SceneObjectSpec = {
      id: o.id,
      label: o.label,
      shape: o.shape,
      sizeMm: o.shape === 'box' ? { ...size } : o.shape === 'cylinder' ? { x: size.x, y: size.x, z: size.z } : { x: size.x, y: size.x, z: size.x },
      position: { ...o.position },
      yawDeg: o.shape === 'box' ? o.yawDeg : 0,
      massKg: o.massKg,
      frictionCoefficient: o.frictionCoefficient,
      maxGripForceN: o.maxGripForceN,
    };
    return normalised;
  });
}

/**
 * A small default table scene that exercises every grasp outcome at the 5–30 N gripper range:
 * the egg breaks above 8 N, the block slips below ~6.6 N, the full bottle needs ~25 N, the tray is wider
 * than the gripper opens. Positions are for the UR5e (which faces −x); the xArm 6 gets them mirrored.
 */
export function defaultSceneObjects(presetId: ArmPresetId): SceneObjectSpec[] {
  const mirror = presetId === 'xarm6' ? -1 : 1;
  const at = (x: number, y: number, z: number): Vec3 => ({ x: x * mirror, y: y * mirror, z });
  return [
    { id: 'cup-1', label: 'cup', shape: 'cylinder', sizeMm: { x: 80, y: 80, z: 100 }, position: at(-420, -220, 50), yawDeg: 0, massKg: 0.3, frictionCoefficient: 0.5, maxGripForceN: 25 },
    { id: 'egg-1', label: 'egg', shape: 'sphere', sizeMm: { x: 45, y: 45, z: 45 }, position: at(-330, -380, 22.5), yawDeg: 0, massKg: 0.06, frictionCoefficient: 0.4, maxGripForceN: 8 },
    { id: 'block-1', label: 'wood_block', shape: 'box', sizeMm: { x: 50, y: 50, z: 50 }, position: at(-500, 0, 25), yawDeg: 15, massKg: 0.3, frictionCoefficient: 0.45, maxGripForceN: null },
    { id: 'bottle-1', label: 'bottle', shape: 'cylinder', sizeMm: { x: 70, y: 70, z: 200 }, position: at(-200, 420, 100), yawDeg: 0, massKg: 0.9, frictionCoefficient: 0.35, maxGripForceN: null },
    { id: 'tray-1', label: 'tray', shape: 'box', sizeMm: { x: 220, y: 160, z: 25 }, position: at(-450, 330, 12.5), yawDeg: 0, massKg: 0.4, frictionCoefficient: 0.5, maxGripForceN: null },
  ];
}
