import type { ArmPreset } from './arm-presets.js';
import { armCapsules, type Capsule } from './arm-capsules.js';
import { RAD_PER_DEG } from './angles.js';
import { tcpFrameRad } from './forward-kinematics.js';
import { boundingSphere, pointSegmentDistance, segmentDistance, segmentSegmentDistance, type Obstacle } from './obstacle-geometry.js';
import { apply, column } from './rotation.js';
import { heightOf, horizontalRadius, obstacleOf, type SceneObjectSpec } from './scene-objects.js';
import { add, scale, type Vec3 } from './vector3.js';

/** Everything the arm must stay clear of: the table plane, the robot's own base housing and the objects. */
export interface CollisionWorld {
  readonly tableZMm: number;
  readonly baseRadiusMm: number;
  readonly baseHeightMm: number;
  readonly objects: readonly SceneObjectSpec[];
}

export interface CollisionOptions {
  /** Required gap between a link surface and an obstacle, mm; default 5. */
  readonly marginMm?: number;
  /** Objects the tool capsule (the gripper) may touch: the one about to be grasped. */
  readonly toolContactObjectIds?: readonly string[];
  /** An object carried in the gripper: it moves with the tool, so it is checked like a link and not as an obstacle. */
  readonly held?: HeldObject | null;
}

/**
 * The first overlap found: which link (or `held:<id>`) hit which obstacle: `table`, `robot_base`, an
 * object id, or `arm:<link>` when the arm would hit itself.
 */
export interface CollisionHit {
  readonly link: string;
  readonly obstacle: string;
  /** Signed gap between surfaces, mm (negative = penetration). Below the margin counts as a hit. */
  readonly distanceMm: number;
}

export interface PathCollision extends CollisionHit {
  readonly tS: number;
  readonly jointsDeg: readonly number[];
}

/** A grasped object and where its centre sits in the tool frame (mm), fixed at the moment of the grasp. */
export interface HeldObject {
  readonly object: SceneObjectSpec;
  readonly offsetInToolMm: Vec3;
}

/**
 * Links this many places apart in the chain (or further) are checked against each other. Closer pairs
 * share a joint housing in the DH simplification, so their capsules overlap by construction.
 */
export const SELF_COLLISION_MIN_LINK_GAP = 3;

/** How far a held object may press into the table surface (rounding of a resting contact), mm. */
export const RESTING_CONTACT_TOLERANCE_MM = 0.5;

export const ROBOT_BASE_ID = 'robot_base';
export const TABLE_ID = 'table';

/** Checks one arm configuration (joint angles in degrees). Returns the first hit or null. */
export function checkArmCollision(preset: ArmPreset, world: CollisionWorld, jointsDeg: readonly number[], options: CollisionOptions = {}): CollisionHit | null {
  const margin = options.marginMm ?? 5;
  const held = options.held ?? null;
  const table: Obstacle = { kind: 'table', id: TABLE_ID, zMm: world.tableZMm };
  const base: Obstacle = { kind: 'cylinder', id: ROBOT_BASE_ID, center: { x: 0, y: 0, z: world.tableZMm + world.baseHeightMm / 2 }, radiusMm: world.baseRadiusMm, heightMm: world.baseHeightMm };
  const objects = world.objects.filter((o) => o.id !== held?.object.id).map((o) => ({ id: o.id, obstacle: obstacleOf(o) }));
  const toolContact = new Set(options.toolContactObjectIds ?? []);

  const capsules: Array<Capsule & { readonly only?: 'table' | 'not_table' }> = armCapsules(preset, jointsDeg);
  if (held !== null) capsules.push(...heldObjectCapsules(preset, jointsDeg, held));
  for (const capsule of capsules) {
    if (capsule.mountedOnBase) continue;
    const obstacles: Obstacle[] = [];
    if (capsule.only !== 'not_table') obstacles.push(table);
    if (capsule.only !== 'table') {
      if (!capsule.jointedToBase) obstacles.push(base);
      for (const o of objects) if (!(capsule.link === 'tool' && toolContact.has(o.id))) obstacles.push(o.obstacle);
    }
    // A held object may rest on the table (it was lifted from there); it must only not sink into it.
    const required = capsule.only === 'table' ? -RESTING_CONTACT_TOLERANCE_MM : margin;
    for (const obstacle of obstacles) {
      const bound = boundingSphere(obstacle);
      if (bound !== null && pointSegmentDistance(bound.center, capsule.a, capsule.b) - bound.radiusMm - capsule.radiusMm >= required) continue;
      const gap = segmentDistance(obstacle, capsule.a, capsule.b).distanceMm - capsule.radiusMm;
      if (gap < required) return { link: capsule.link, obstacle: obstacle.id, distanceMm: gap };
    }
  }
  return selfCollision(preset, capsules, margin);
}

/** Pairs of arm links far enough apart in the chain to be checked, and a held object against the upper links. */
function selfCollision(preset: ArmPreset, capsules: ReadonlyArray<Capsule & { readonly only?: 'table' | 'not_table' }>, margin: number): CollisionHit | null {
  const index = (link: string): number => {
    const i = preset.links.findIndex((l) => l.name === link);
    // A held object hangs from the last link.
    return i === -1 ? preset.links.length - 1 : i;
  };
  for (let i = 0; i < capsules.length; i++) {
    const a = capsules[i]!;
    if (a.mountedOnBase || a.only === 'table') continue;
    for (let j = i + 1; j < capsules.length; j++) {
      const b = capsules[j]!;
      if (b.mountedOnBase || b.only === 'table') continue;
      if (Math.abs(index(b.link) - index(a.link)) < SELF_COLLISION_MIN_LINK_GAP) continue;
      const gap = segmentSegmentDistance(a.a, a.b, b.a, b.b) - a.radiusMm - b.radiusMm;
      if (gap < margin) return { link: b.link, obstacle: `arm:${a.link}`, distanceMm: gap };
    }
  }
  return null;
}

/** Checks every sample of a path and returns the first colliding one (by time), or null if the path is clear. */
export function checkPathCollision(
  preset: ArmPreset,
  world: CollisionWorld,
  samples: readonly { readonly tS: number; readonly jointsDeg: readonly number[] }[],
  options: CollisionOptions = {},
): PathCollision | null {
  for (const sample of samples) {
    const hit = checkArmCollision(preset, world, sample.jointsDeg, options);
    if (hit !== null) return { ...hit, tS: sample.tS, jointsDeg: sample.jointsDeg };
  }
  return null;
}

/**
 * A held object as two capsules along the tool axis through its centre: a slim one that matches its
 * height (so it can be set down on the table) checked against the table, and a fat one that contains it
 * whole, checked against the base and the other objects.
 */
export function heldObjectCapsules(preset: ArmPreset, jointsDeg: readonly number[], held: HeldObject): Array<Capsule & { readonly only: 'table' | 'not_table' }> {
  const frame = tcpFrameRad(preset, jointsDeg.map((d) => d * RAD_PER_DEG));
  const axis: Vec3 = column(frame.rotation, 2);
  const center = add(frame.origin, apply(frame.rotation, held.offsetInToolMm));
  const height = heightOf(held.object);
  const wide = horizontalRadius(held.object);
  const slim = Math.min(wide, height / 2);
  const capsule = (radius: number, only: 'table' | 'not_table'): Capsule & { readonly only: 'table' | 'not_table' } => {
    const half = Math.max(0, height / 2 - radius);
    return { link: `held:${held.object.id}`, a: add(center, scale(axis, -half)), b: add(center, scale(axis, half)), radiusMm: radius, mountedOnBase: false, jointedToBase: false, only };
  };
  return [capsule(slim, 'table'), capsule(wide, 'not_table')];
}
