import type { ArmPreset } from './arm-presets.js';
import { RAD_PER_DEG } from './angles.js';
import { armFramesRad } from './forward-kinematics.js';
import { pointSegmentDistance } from './obstacle-geometry.js';
import { add, distance, lerp, scale, sub, type Vec3 } from './vector3.js';

/**
 * A link's collision volume: all points within `radiusMm` of the segment a–b (base frame, mm).
 * `body` is the DH row (rigid body) it belongs to. The last row is split in two: `tool` (the gripper
 * body, whose rounded end is the palm) and `fingertips` (the pads, from the palm down to the TCP), so
 * the pads alone may touch an object being grasped.
 */
export interface Capsule {
  readonly link: string;
  readonly a: Vec3;
  readonly b: Vec3;
  readonly radiusMm: number;
  readonly body: number;
  readonly mountedOnBase: boolean;
  readonly jointedToBase: boolean;
}

/** Finger length: the palm sits this far up the tool axis from the fingertips (the TCP), mm. */
export const FINGER_LENGTH_MM = 50;

/** The link name of the fingertip pads (the only part allowed to touch a grasp target). */
export const FINGERTIPS_LINK = 'fingertips';

/**
 * The arm's capsules for joint angles in degrees. Each DH row contributes its `d` offset and its `a`
 * offset as segments of that row's link, shifted by the link's `axisOffsetMm` along its joint axis
 * (joined to the previous line by a housing along that axis). The last row ends exactly at the TCP.
 */
export function armCapsules(preset: ArmPreset, jointsDeg: readonly number[], fingerLengthMm = FINGER_LENGTH_MM): Capsule[] {
  const arm = armFramesRad(preset, jointsDeg.map((d) => d * RAD_PER_DEG));
  const capsules: Capsule[] = [];
  const last = preset.dh.length - 1;
  let previousOffset = 0;
  for (let i = 0; i <= last; i++) {
    const link = preset.links[i]!;
    const frame = arm.frames[i]!;
    const axis: Vec3 = { x: frame.rotation[2], y: frame.rotation[5], z: frame.rotation[8] };
    const offset = link.axisOffsetMm ?? 0;
    const shift = scale(axis, offset);
    const parts: Array<[Vec3, Vec3]> = [];
    const lineStart = add(frame.origin, scale(axis, previousOffset));
    const start = add(frame.origin, shift);
    const elbow = add(arm.elbowPoints[i]!, shift);
    const end = add(arm.frames[i + 1]!.origin, shift);
    if (offset !== previousOffset && preset.dh[i]!.dMm === 0) parts.push([lineStart, start]);
    // A d offset runs along the same axis as the housing, so it starts where the previous line ended.
    if (distance(start, elbow) > 1e-6) parts.push([offset !== previousOffset ? lineStart : start, elbow]);
    if (distance(elbow, end) > 1e-6) parts.push([elbow, end]);
    previousOffset = offset;
    const push = (l: string, a: Vec3, b: Vec3): void => {
      capsules.push({ link: l, a, b, radiusMm: link.radiusMm, body: i, mountedOnBase: link.mountedOnBase, jointedToBase: link.jointedToBase });
    };
    if (i < last) {
      for (const [a, b] of parts) push(link.name, a, b);
      continue;
    }
    for (const [a, b] of parts.slice(0, -1)) push(link.name, a, b);
    const [a, tcp] = parts[parts.length - 1]!;
    const length = distance(a, tcp);
    const up = scale(sub(a, tcp), 1 / length);
    const r = link.radiusMm;
    // Gripper body: its rounded end reaches down to the palm, fingerLength above the TCP.
    const palmEnd = Math.min(length, fingerLengthMm + r);
    push(link.name, a, add(tcp, scale(up, palmEnd)));
    // Fingertip pads: from the TCP (rounded end exactly at it) up to the palm.
    push(FINGERTIPS_LINK, add(tcp, scale(up, Math.min(r, length))), add(tcp, scale(up, Math.min(Math.max(r, fingerLengthMm), length))));
  }
  return capsules;
}

/**
 * A pair of capsules the self-collision check compares, and the joint housings (spheres around folding
 * joints between them) whose inside is ignored: there the two links meet in the joint itself.
 */
export interface SelfCollisionPair {
  readonly first: number;
  readonly second: number;
  readonly housings: readonly JointHousing[];
}

/** A folding joint (neither neighbour lies on its axis): a sphere around the shared end point. */
export interface JointHousing {
  /** The joint number (1-based): joint k sits between DH rows k−2 and k−1. */
  readonly joint: number;
  /** Index of the capsule whose end `b` is the joint point. */
  readonly capsule: number;
  readonly radiusMm: number;
}

/** Why a capsule pair is not compared: only pairs that cannot meet by construction are excluded. */
export interface ExcludedPair {
  readonly first: number;
  readonly second: number;
  readonly reason: 'same_rigid_body' | 'on_joint_axis';
}

/** Beyond the two link radii, the housing of a folding joint reaches this far (mm). */
export const JOINT_HOUSING_EXTRA_MM = 5;

const pairCache = new WeakMap<ArmPreset, { pairs: SelfCollisionPair[]; excluded: ExcludedPair[] }>();

/**
 * Every capsule pair the self-collision check compares, derived from the geometry (home pose):
 * all pairs on different rigid bodies, except a pair on consecutive bodies where one capsule lies on the
 * axis of the joint between them: turning that joint spins it in place, so their relative position never
 * changes (the overlap there is the joint itself). Folding joints get a housing sphere of radius
 * r₁ + r₂ + 5 mm around the point where the two links meet; pairs across that joint ignore its inside.
 */
export function selfCollisionPairs(preset: ArmPreset): { pairs: readonly SelfCollisionPair[]; excluded: readonly ExcludedPair[] } {
  const cached = pairCache.get(preset);
  if (cached !== undefined) return cached;
  const caps = armCapsules(preset, preset.homeDeg);
  const arm = armFramesRad(preset, preset.homeDeg.map((d) => d * RAD_PER_DEG));
  const onAxis = (c: Capsule, joint: number): boolean => {
    // Joint k (1-based) turns about frame k−1's z axis.
    const f = arm.frames[joint - 1]!;
    const axis: Vec3 = { x: f.rotation[2], y: f.rotation[5], z: f.rotation[8] };
    const off = (p: Vec3): number => {
      const d = sub(p, f.origin);
      const along = d.x * axis.x + d.y * axis.y + d.z * axis.z;
      return distance(d, scale(axis, along));
    };
    return off(c.a) < 1e-6 && off(c.b) < 1e-6;
  };
  const housings: JointHousing[] = [];
  for (let joint = 2; joint <= preset.dh.length; joint++) {
    const parentBody = joint - 2, childBody = joint - 1;
    for (let i = 0; i < caps.length; i++) {
      if (caps[i]!.body !== parentBody) continue;
      for (let j = 0; j < caps.length; j++) {
        const c = caps[j]!;
        if (c.body !== childBody || distance(caps[i]!.b, c.a) > 1e-6) continue;
        if (onAxis(caps[i]!, joint) || onAxis(c, joint)) continue;
        housings.push({ joint, capsule: i, radiusMm: caps[i]!.radiusMm + c.radiusMm + JOINT_HOUSING_EXTRA_MM });
      }
    }
  }
  const pairs: SelfCollisionPair[] = [];
  const excluded: ExcludedPair[] = [];
  for (let i = 0; i < caps.length; i++) {
    for (let j = i + 1; j < caps.length; j++) {
      const a = caps[i]!, b = caps[j]!;
      if (a.body === b.body) {
        excluded.push({ first: i, second: j, reason: 'same_rigid_body' });
        continue;
      }
      const [lo, hi] = a.body < b.body ? [a, b] : [b, a];
      if (hi.body === lo.body + 1 && (onAxis(lo, hi.body + 1) || onAxis(hi, hi.body + 1))) {
        excluded.push({ first: i, second: j, reason: 'on_joint_axis' });
        continue;
      }
      // A housing matters to a pair only where both capsules reach into it (they meet at that joint).
      const reaches = (c: Capsule, h: JointHousing): boolean => pointSegmentDistance(caps[h.capsule]!.b, c.a, c.b) < h.radiusMm;
      pairs.push({ first: i, second: j, housings: housings.filter((h) => h.joint > lo.body + 1 && h.joint <= hi.body + 1 && reaches(a, h) && reaches(b, h)) });
    }
  }
  const result = { pairs, excluded };
  pairCache.set(preset, result);
  return result;
}

/** The parts of segment a–b (as parameter intervals in [0, 1]) outside every sphere. */
export function outsideSpheres(a: Vec3, b: Vec3, spheres: ReadonlyArray<{ center: Vec3; radiusMm: number }>): Array<[number, number]> {
  let parts: Array<[number, number]> = [[0, 1]];
  const d = sub(b, a);
  const dd = d.x * d.x + d.y * d.y + d.z * d.z;
  for (const s of spheres) {
    const m = sub(a, s.center);
    const bq = m.x * d.x + m.y * d.y + m.z * d.z;
    const c = m.x * m.x + m.y * m.y + m.z * m.z - s.radiusMm * s.radiusMm;
    let inside: [number, number] | null = null;
    if (dd < 1e-12) inside = c < 0 ? [0, 1] : null;
    else {
      const disc = bq * bq - dd * c;
      if (disc > 0) inside = [(-bq - Math.sqrt(disc)) / dd, (-bq + Math.sqrt(disc)) / dd];
    }
    if (inside === null) continue;
    const [lo, hi] = inside;
    parts = parts.flatMap(([p, q]): Array<[number, number]> => {
      const out: Array<[number, number]> = [];
      if (lo > p) out.push([p, Math.min(q, lo)]);
      if (hi < q) out.push([Math.max(p, hi), q]);
      return out.filter(([x, y]) => y >= x);
    });
  }
  return parts;
}

/** The sub-segment of a–b for a parameter interval. */
export function subSegment(a: Vec3, b: Vec3, [p, q]: [number, number]): [Vec3, Vec3] {
  return [lerp(a, b, p), lerp(a, b, q)];
}
