import { RAD_PER_DEG } from './angles.js';
import { lerp, type Vec3 } from './vector3.js';

/** Obstacles the arm can hit, base frame, millimetres. Every shape is convex, so distances along a segment are unimodal. */
export type Obstacle =
  | { readonly kind: 'table'; readonly id: string; readonly zMm: number }
  | { readonly kind: 'cylinder'; readonly id: string; readonly center: Vec3; readonly radiusMm: number; readonly heightMm: number }
  | { readonly kind: 'box'; readonly id: string; readonly center: Vec3; readonly sizeMm: Vec3; readonly yawDeg: number }
  | { readonly kind: 'sphere'; readonly id: string; readonly center: Vec3; readonly radiusMm: number };

/** Signed distance from a point to the obstacle (mm): positive outside, negative inside (penetration depth). */
export function signedDistance(obstacle: Obstacle, p: Vec3): number {
  switch (obstacle.kind) {
    case 'table':
      return p.z - obstacle.zMm;
    case 'sphere':
      return Math.hypot(p.x - obstacle.center.x, p.y - obstacle.center.y, p.z - obstacle.center.z) - obstacle.radiusMm;
    case 'cylinder': {
      // Vertical cylinder centred at `center`.
      const radial = Math.hypot(p.x - obstacle.center.x, p.y - obstacle.center.y) - obstacle.radiusMm;
      const axial = Math.abs(p.z - obstacle.center.z) - obstacle.heightMm / 2;
      return boxLike(radial, axial, 0, 2);
    }
    case 'box': {
      const yaw = -obstacle.yawDeg * RAD_PER_DEG;
      const dx = p.x - obstacle.center.x, dy = p.y - obstacle.center.y;
      const lx = Math.cos(yaw) * dx - Math.sin(yaw) * dy;
      const ly = Math.sin(yaw) * dx + Math.cos(yaw) * dy;
      const lz = p.z - obstacle.center.z;
      return boxLike(Math.abs(lx) - obstacle.sizeMm.x / 2, Math.abs(ly) - obstacle.sizeMm.y / 2, Math.abs(lz) - obstacle.sizeMm.z / 2, 3);
    }
  }
}

/** Signed distance to an axis-aligned box given the per-axis excess (the standard box SDF). */
function boxLike(qx: number, qy: number, qz: number, dims: 2 | 3): number {
  const outside = dims === 2 ? Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) : Math.hypot(Math.max(qx, 0), Math.max(qy, 0), Math.max(qz, 0));
  const inside = Math.min(dims === 2 ? Math.max(qx, qy) : Math.max(qx, qy, qz), 0);
  return outside + inside;
}

/**
 * Smallest signed distance from the segment a–b to the obstacle, and where on the segment it occurs
 * (t ∈ [0, 1]). The signed distance to a convex set is convex along a line, so golden-section search finds it.
 */
export function segmentDistance(obstacle: Obstacle, a: Vec3, b: Vec3): { distanceMm: number; t: number } {
  if (obstacle.kind === 'table') {
    return a.z <= b.z ? { distanceMm: a.z - obstacle.zMm, t: 0 } : { distanceMm: b.z - obstacle.zMm, t: 1 };
  }
  const f = (t: number): number => signedDistance(obstacle, lerp(a, b, t));
  const ratio = (Math.sqrt(5) - 1) / 2;
  let lo = 0, hi = 1;
  let x1 = hi - ratio * (hi - lo), x2 = lo + ratio * (hi - lo);
  let f1 = f(x1), f2 = f(x2);
  for (let i = 0; i < 48 && hi - lo > 1e-7; i++) {
    if (f1 <= f2) {
      hi = x2; x2 = x1; f2 = f1;
      x1 = hi - ratio * (hi - lo); f1 = f(x1);
    } else {
      lo = x1; x1 = x2; f1 = f2;
      x2 = lo + ratio * (hi - lo); f2 = f(x2);
    }
  }
  // The minimum can sit at an end point; compare explicitly.
  const candidates: Array<[number, number]> = [[0, f(0)], [1, f(1)], [(lo + hi) / 2, f((lo + hi) / 2)]];
  let best = candidates[0]!;
  for (const c of candidates) if (c[1] < best[1]) best = c;
  return { distanceMm: best[1], t: best[0] };
}

/** Centre and radius of a sphere containing the obstacle (null for the unbounded table), for cheap culling. */
export function boundingSphere(obstacle: Obstacle): { center: Vec3; radiusMm: number } | null {
  switch (obstacle.kind) {
    case 'table': return null;
    case 'sphere': return { center: obstacle.center, radiusMm: obstacle.radiusMm };
    case 'cylinder': return { center: obstacle.center, radiusMm: Math.hypot(obstacle.radiusMm, obstacle.heightMm / 2) };
    case 'box': return { center: obstacle.center, radiusMm: Math.hypot(obstacle.sizeMm.x, obstacle.sizeMm.y, obstacle.sizeMm.z) / 2 };
  }
}

/** Distance from point p to the segment a–b. */
export function pointSegmentDistance(p: Vec3, a: Vec3, b: Vec3): number {
  const abx = b.x - a.x, aby = b.y - a.y, abz = b.z - a.z;
  const len2 = abx * abx + aby * aby + abz * abz;
  let t = len2 > 0 ? ((p.x - a.x) * abx + (p.y - a.y) * aby + (p.z - a.z) * abz) / len2 : 0;
  t = Math.min(1, Math.max(0, t));
  return Math.hypot(a.x + abx * t - p.x, a.y + aby * t - p.y, a.z + abz * t - p.z);
}

/** Shortest distance between segments p1–q1 and p2–q2 (closest-point method for two segments). */
export function segmentSegmentDistance(p1: Vec3, q1: Vec3, p2: Vec3, q2: Vec3): number {
  const d1 = { x: q1.x - p1.x, y: q1.y - p1.y, z: q1.z - p1.z };
  const d2 = { x: q2.x - p2.x, y: q2.y - p2.y, z: q2.z - p2.z };
  const r = { x: p1.x - p2.x, y: p1.y - p2.y, z: p1.z - p2.z };
  const a = d1.x * d1.x + d1.y * d1.y + d1.z * d1.z;
  const e = d2.x * d2.x + d2.y * d2.y + d2.z * d2.z;
  const f = d2.x * r.x + d2.y * r.y + d2.z * r.z;
  const eps = 1e-12;
  let s: number, t: number;
  if (a <= eps && e <= eps) return Math.hypot(r.x, r.y, r.z);
  if (a <= eps) {
    s = 0;
    t = clamp01(f / e);
  } else {
    const c = d1.x * r.x + d1.y * r.y + d1.z * r.z;
    if (e <= eps) {
      t = 0;
      s = clamp01(-c / a);
    } else {
      const b = d1.x * d2.x + d1.y * d2.y + d1.z * d2.z;
      const denom = a * e - b * b;
      s = denom > eps ? clamp01((b * f - c * e) / denom) : 0;
      t = (b * s + f) / e;
      if (t < 0) {
        t = 0;
        s = clamp01(-c / a);
      } else if (t > 1) {
        t = 1;
        s = clamp01((b - c) / a);
      }
    }
  }
  const c1 = { x: p1.x + d1.x * s, y: p1.y + d1.y * s, z: p1.z + d1.z * s };
  const c2 = { x: p2.x + d2.x * t, y: p2.y + d2.y * t, z: p2.z + d2.z * t };
  return Math.hypot(c1.x - c2.x, c1.y - c2.y, c1.z - c2.z);
}

function clamp01(v: number): number {
  return Math.min(1, Math.max(0, v));
}
