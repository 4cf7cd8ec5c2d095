import type { ArmPreset } from './arm-presets.js';
import { armCapsules, FINGER_LENGTH_MM, FINGERTIPS_LINK, outsideSpheres, selfCollisionPairs, subSegment, type Capsule } from './arm-capsules.js';
import { RAD_PER_DEG } from './angles.js';
import { tcpFrameRad } from './forward-kinematics.js';
import { heldCapsuleGap, heldContainingCapsule, heldPose, heldTableGap, type HeldObject } from './held-object-shape.js';
import { boundingSphere, pointSegmentDistance, segmentDistance, segmentSegmentDistance, type Obstacle } from './obstacle-geometry.js';
import { obstacleOf, type SceneObjectSpec } from './scene-objects.js';
import { distance, type Vec3 } from './vector3.js';

export type { HeldObject } from './held-object-shape.js';

/** Everything the arm must stay clear of: the table plane, the robot's own base housing and the objects. */
export interface CollisionWorld {
  readonly tableZMm: number;
  readonly baseRadiusMm: number;
  readonly baseHeightMm: number;
  readonly objects: readonly SceneObjectSpec[];
}

export interface CollisionOptions {
  /** Required gap between every moving body (links, held object) and anything else, mm; default 5. */
  readonly marginMm?: number;
  /** Objects the fingertip pads may touch in this configuration (a grasp target at the end of its approach). */
  readonly toolContactObjectIds?: readonly string[];
  /**
   * An object carried in the gripper: it moves with the tool and is checked like a link. Its lift-off
   * floors (`HeldObject.liftOffFloorsMm`, fixed at the grasp) are the only exception to the margin.
   */
  readonly held?: HeldObject | null;
}

/**
 * The first overlap found: which body (a link, `fingertips`, or `held:<id>`) came too close to which
 * obstacle (`table`, `robot_base`, an object id, or `arm:<link>` for the arm itself), and the rule.
 */
export interface CollisionHit {
  readonly link: string;
  readonly obstacle: string;
  /** Signed gap between surfaces, mm (negative = penetration). */
  readonly distanceMm: number;
  /** The gap the rule required, mm. */
  readonly requiredMm: number;
  /** The rule applied, in words (for refusal messages). */
  readonly rule: string;
}

export interface PathCollision extends CollisionHit {
  readonly tS: number;
  readonly jointsDeg: readonly number[];
}

export const ROBOT_BASE_ID = 'robot_base';
export const TABLE_ID = 'table';
/**
 * Slack below a held object's lift-off floor: in total, over every motion since the grasp, it may get
 * this much closer than it was when picked up (the floor is fixed at the grasp, never re-based).
 */
export const LIFT_OFF_SLACK_MM = 0.01;
/** Clearances are inclusive: a gap equal to the requirement passes, compared within IK rounding (mm). */
export const CLEARANCE_ROUNDING_MM = 0.001;

/** Checks one arm configuration (joint angles in degrees). Returns the first hit or null. */
export function checkArmCollision(preset: ArmPreset, world: CollisionWorld, jointsDeg: readonly number[], options: CollisionOptions = {}): CollisionHit | null {
  const margin = options.marginMm ?? 5;
  const held = options.held ?? null;
  const table: Obstacle = { kind: 'table', id: TABLE_ID, zMm: world.tableZMm };
  const base = baseObstacle(world);
  const objects = world.objects.filter((o) => o.id !== held?.object.id).map((o) => obstacleOf(o));
  const padContact = new Set(options.toolContactObjectIds ?? []);
  const capsules = armCapsules(preset, jointsDeg);
  for (const capsule of capsules) {
    if (capsule.mountedOnBase) continue;
    const obstacles: Obstacle[] = [table];
    if (!capsule.jointedToBase) obstacles.push(base);
    for (const o of objects) if (!(capsule.link === FINGERTIPS_LINK && padContact.has(o.id))) obstacles.push(o);
    for (const obstacle of obstacles) {
      const bound = boundingSphere(obstacle);
      if (bound !== null && pointSegmentDistance(bound.center, capsule.a, capsule.b) - bound.radiusMm - capsule.radiusMm >= margin) continue;
      const gap = segmentDistance(obstacle, capsule.a, capsule.b).distanceMm - capsule.radiusMm;
      if (gap < margin - CLEARANCE_ROUNDING_MM) return { link: capsule.link, obstacle: obstacle.id, distanceMm: gap, requiredMm: margin, rule: ruleFor(capsule.link, obstacle.id, margin, padContact.size > 0) };
    }
  }
  const self = selfCollision(preset, capsules, margin);
  if (self !== null) return self;
  if (held !== null) return heldCollision(preset, jointsDeg, held, capsules, { table, base, objects }, margin);
  return null;
}

function ruleFor(link: string, obstacle: string, margin: number, padsMayTouchTarget: boolean): string {
  const body = link === FINGERTIPS_LINK ? 'the fingertips' : `link ${link}`;
  const pads = padsMayTouchTarget && (link === 'tool' || link === FINGERTIPS_LINK) ? ` (only the fingertip pads may touch the grasp target, and only in the last ${PAD_CONTACT_WINDOW_MM} mm of the approach)` : '';
  return `every moving body keeps ${margin} mm from ${obstacle === TABLE_ID ? 'the table' : obstacle === ROBOT_BASE_ID ? 'the robot base' : 'objects'}; ${body} broke it${pads}`;
}

function baseObstacle(world: CollisionWorld): Obstacle {
  return { kind: 'cylinder', id: ROBOT_BASE_ID, center: { x: 0, y: 0, z: world.tableZMm + world.baseHeightMm / 2 }, radiusMm: world.baseRadiusMm, heightMm: world.baseHeightMm };
}

/** Every capsule pair that can meet (see `selfCollisionPairs`), outside the housings of folding joints. */
function selfCollision(preset: ArmPreset, capsules: readonly Capsule[], margin: number): CollisionHit | null {
  for (const pair of selfCollisionPairs(preset).pairs) {
    const gap = pairGap(capsules, pair.first, pair.second, pair.housings);
    if (gap < margin - CLEARANCE_ROUNDING_MM) {
      const a = capsules[pair.first]!, b = capsules[pair.second]!;
      return { link: b.link, obstacle: `arm:${a.link}`, distanceMm: gap, requiredMm: margin, rule: `links keep ${margin} mm from each other outside the joint housings` };
    }
  }
  return null;
}

/** Gap between two capsules, ignoring the parts inside the given joint housings. */
export function pairGap(capsules: readonly Capsule[], first: number, second: number, housings: ReadonlyArray<{ capsule: number; radiusMm: number }>): number {
  const a = capsules[first]!, b = capsules[second]!;
  const radii = a.radiusMm + b.radiusMm;
  if (housings.length === 0) return segmentSegmentDistance(a.a, a.b, b.a, b.b) - radii;
  const spheres = housings.map((h) => ({ center: capsules[h.capsule]!.b, radiusMm: h.radiusMm }));
  let best = Number.POSITIVE_INFINITY;
  for (const pa of outsideSpheres(a.a, a.b, spheres)) {
    const [a1, a2] = subSegment(a.a, a.b, pa);
    for (const pb of outsideSpheres(b.a, b.b, spheres)) {
      const [b1, b2] = subSegment(b.a, b.b, pb);
      best = Math.min(best, segmentSegmentDistance(a1, a2, b1, b2) - radii);
    }
  }
  return best;
}

/**
 * The held object as its own shape: exact against the table (its lowest point) and against the arm's
 * links other than the gripper holding it; a capsule that contains it against the base and the objects.
 */
function heldCollision(
  preset: ArmPreset,
  jointsDeg: readonly number[],
  held: HeldObject,
  capsules: readonly Capsule[],
  world: { table: Obstacle; base: Obstacle; objects: readonly Obstacle[] },
  margin: number,
): CollisionHit | null {
  const pose = heldPose(tcpFrameRad(preset, jointsDeg.map((d) => d * RAD_PER_DEG)), held);
  const link = `held:${held.object.id}`;
  const floors = held.liftOffFloorsMm ?? {};
  for (const [obstacle, gap] of heldGaps(preset, held, pose, capsules, world)) {
    const floor = Object.hasOwn(floors, obstacle) ? floors[obstacle] : undefined;
    const required = floor !== undefined ? Math.min(margin, floor - LIFT_OFF_SLACK_MM) : margin;
    if (gap < required - CLEARANCE_ROUNDING_MM) {
      const rule = required < margin
        ? `a held object picked up ${floor!.toFixed(3)} mm from ${obstacle} may never get more than ${LIFT_OFF_SLACK_MM} mm closer than that, over all its motions; elsewhere it keeps ${margin} mm`
        : `a held object keeps ${margin} mm from the table, the base, objects and the arm`;
      return { link, obstacle, distanceMm: gap, requiredMm: required, rule };
    }
  }
  return null;
}

/** Gaps of the held object to everything it could meet, by obstacle id (arm links as `arm:<link>`). */
function heldGaps(preset: ArmPreset, held: HeldObject, pose: ReturnType<typeof heldPose>, capsules: readonly Capsule[], world: { table: Obstacle; base: Obstacle; objects: readonly Obstacle[] }): Map<string, number> {
  const gaps = new Map<string, number>();
  const put = (id: string, gap: number): void => {
    gaps.set(id, Math.min(gaps.get(id) ?? Number.POSITIVE_INFINITY, gap));
  };
  put(TABLE_ID, heldTableGap(held.object, pose, world.table.kind === 'table' ? world.table.zMm : 0));
  const hull = heldContainingCapsule(held.object, pose);
  for (const o of [world.base, ...world.objects]) {
    const bound = boundingSphere(o);
    if (bound !== null && pointSegmentDistance(bound.center, hull.a, hull.b) - bound.radiusMm - hull.radiusMm > 1000) continue;
    put(o.id, segmentDistance(o, hull.a, hull.b).distanceMm - hull.radiusMm);
  }
  const gripperBody = preset.dh.length - 1;
  for (const c of capsules) {
    if (c.body === gripperBody || c.mountedOnBase) continue;
    if (distance(c.a, pose.center) > 2000) continue;
    put(`arm:${c.link}`, heldCapsuleGap(held.object, pose, c.a, c.b, c.radiusMm));
  }
  return gaps;
}

/**
 * The lift-off floors of an object at the moment it is grasped in this configuration: its gaps to the
 * obstacles it is closer to than `marginMm` (see `HeldObject.liftOffFloorsMm`). Called once per grasp.
 */
export function liftOffFloors(preset: ArmPreset, world: CollisionWorld, jointsDeg: readonly number[], held: HeldObject, marginMm: number): Record<string, number> {
  const table: Obstacle = { kind: 'table', id: TABLE_ID, zMm: world.tableZMm };
  const objects = world.objects.filter((o) => o.id !== held.object.id).map((o) => obstacleOf(o));
  const pose = heldPose(tcpFrameRad(preset, jointsDeg.map((d) => d * RAD_PER_DEG)), held);
  const floors: Record<string, number> = {};
  for (const [id, gap] of heldGaps(preset, held, pose, armCapsules(preset, jointsDeg), { table, base: baseObstacle(world), objects })) {
    if (gap < marginMm) floors[id] = gap;
  }
  return floors;
}

export interface PathCollisionOptions extends Omit<CollisionOptions, 'toolContactObjectIds'> {
  /**
   * Objects the fingertip pads may touch, and only while the TCP is within the finger length (50 mm)
   * of the path's end (the last part of a grasp approach) or of its start (leaving an object).
   */
  readonly toolContactObjectIds?: readonly string[];
}

/**
 * How close (TCP distance, mm) to the path's end (or start) the fingertip pads may touch the objects
 * named in `toolContactObjectIds`: the finger length plus the clearance, which is how far the fingertips
 * can descend over an object before the palm comes within the clearance of its top.
 */
export const PAD_CONTACT_WINDOW_MM = FINGER_LENGTH_MM + 5;

/** Where along a path the fingertip pads may touch the objects named in `toolContactObjectIds`. */
export function padContactAllowed(tcp: Vec3, start: Vec3, end: Vec3): boolean {
  return distance(tcp, end) <= PAD_CONTACT_WINDOW_MM || distance(tcp, start) <= PAD_CONTACT_WINDOW_MM;
}

/** Checks every sample of a path and returns the first colliding one (by time), or null if the path is clear. */
export function checkPathCollision(
  preset: ArmPreset,
  world: CollisionWorld,
  samples: readonly { readonly tS: number; readonly jointsDeg: readonly number[]; readonly tcp: Vec3 }[],
  options: PathCollisionOptions = {},
): PathCollision | null {
  if (samples.length === 0) return null;
  const held = options.held ?? null;
  const start = samples[0]!.tcp, end = samples[samples.length - 1]!.tcp;
  const contacts = options.toolContactObjectIds ?? [];
  const step = pathCheckStepMm(options.marginMm ?? 5);
  const check = (tS: number, jointsDeg: readonly number[], tcp: Vec3): PathCollision | null => {
    const pads = contacts.length > 0 && padContactAllowed(tcp, start, end) ? contacts : [];
    const hit = checkArmCollision(preset, world, jointsDeg, { ...options, toolContactObjectIds: pads });
    if (hit === null) return null;
    const target = contacts.includes(hit.obstacle) && (hit.link === 'tool' || hit.link === FINGERTIPS_LINK) && pads.length === 0;
    return { ...hit, ...(target ? { rule: `${hit.rule} (only the fingertip pads may touch the grasp target, and only in the last ${PAD_CONTACT_WINDOW_MM} mm of the approach)` } : {}), tS, jointsDeg };
  };
  let previous: { tS: number; jointsDeg: readonly number[]; points: Vec3[] } | null = null;
  for (const sample of samples) {
    const points = bodyPoints(preset, sample.jointsDeg, held);
    if (previous !== null) {
      // Between two samples no point of the arm may move more than `step`: add checks in between.
      const moved = Math.max(...points.map((p, i) => distance(p, previous!.points[i]!)));
      const extra = Math.ceil(moved / step) - 1;
      for (let k = 1; k <= extra; k++) {
        const f = k / (extra + 1);
        const q = sample.jointsDeg.map((v, j) => previous!.jointsDeg[j]! + (v - previous!.jointsDeg[j]!) * f);
        const tS = previous.tS + (sample.tS - previous.tS) * f;
        const hit = check(tS, q, tcpOf(preset, q));
        if (hit !== null) return hit;
      }
    }
    const hit = check(sample.tS, sample.jointsDeg, sample.tcp);
    if (hit !== null) return hit;
    previous = { tS: sample.tS, jointsDeg: sample.jointsDeg, points };
  }
  return null;
}

/**
 * Path-check resolution: no point of any moving body travels more than half the smallest clearance
 * between two checked configurations (at least 0.5 mm), so nothing can pass through a gap unseen.
 */
export function pathCheckStepMm(marginMm: number): number {
  return Math.max(0.5, marginMm / 2);
}

/** The capsule end points: the arm's outermost points move no faster than the fastest of these. */
function bodyPoints(preset: ArmPreset, jointsDeg: readonly number[], held: HeldObject | null): Vec3[] {
  const points = armCapsules(preset, jointsDeg).flatMap((c) => [c.a, c.b]);
  if (held === null) return points;
  const hull = heldContainingCapsule(held.object, heldPose(tcpFrameRad(preset, jointsDeg.map((d) => d * RAD_PER_DEG)), held));
  return [...points, hull.a, hull.b];
}

function tcpOf(preset: ArmPreset, jointsDeg: readonly number[]): Vec3 {
  return tcpFrameRad(preset, jointsDeg.map((d) => d * RAD_PER_DEG)).origin;
}
