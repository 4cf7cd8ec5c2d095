import { DEG_PER_RAD, RAD_PER_DEG } from './angles.js';
import type { Vec3 } from './vector3.js';

/** A 3×3 rotation matrix, row-major. */
export type Mat3 = readonly [number, number, number, number, number, number, number, number, number];

/**
 * Orientation as roll/pitch/yaw in degrees, xArm convention: fixed axes X then Y then Z,
 * so R = Rz(yaw)·Ry(pitch)·Rx(roll). Tool pointing straight down is roll 180, pitch 0.
 */
export interface RpyDeg {
  readonly rollDeg: number;
  readonly pitchDeg: number;
  readonly yawDeg: number;
}

export const IDENTITY: Mat3 = [1, 0, 0, 0, 1, 0, 0, 0, 1];

export function mul(a: Mat3, b: Mat3): Mat3 {
  const at = (i: number, j: number): number => a[i * 3]! * b[j]! + a[i * 3 + 1]! * b[3 + j]! + a[i * 3 + 2]! * b[6 + j]!;
  return [at(0, 0), at(0, 1), at(0, 2), at(1, 0), at(1, 1), at(1, 2), at(2, 0), at(2, 1), at(2, 2)];
}

export function transpose(a: Mat3): Mat3 {
  return [a[0], a[3], a[6], a[1], a[4], a[7], a[2], a[5], a[8]];
}

export function apply(a: Mat3, v: Vec3): Vec3 {
  return {
    x: a[0] * v.x + a[1] * v.y + a[2] * v.z,
    y: a[3] * v.x + a[4] * v.y + a[5] * v.z,
    z: a[6] * v.x + a[7] * v.y + a[8] * v.z,
  };
}

/** Column `i` of the matrix: the i-th axis of the rotated frame expressed in the parent frame. */
export function column(a: Mat3, i: 0 | 1 | 2): Vec3 {
  return { x: a[i], y: a[3 + i], z: a[6 + i] };
}

export function rotX(rad: number): Mat3 {
  const c = Math.cos(rad), s = Math.sin(rad);
  return [1, 0, 0, 0, c, -s, 0, s, c];
}

export function rotY(rad: number): Mat3 {
  const c = Math.cos(rad), s = Math.sin(rad);
  return [c, 0, s, 0, 1, 0, -s, 0, c];
}

export function rotZ(rad: number): Mat3 {
  const c = Math.cos(rad), s = Math.sin(rad);
  return [c, -s, 0, s, c, 0, 0, 0, 1];
}

export function fromRpyDeg(rpy: RpyDeg): Mat3 {
  return mul(rotZ(rpy.yawDeg * RAD_PER_DEG), mul(rotY(rpy.pitchDeg * RAD_PER_DEG), rotX(rpy.rollDeg * RAD_PER_DEG)));
}

export function toRpyDeg(r: Mat3): RpyDeg {
  const sp = -r[6];
  // Near pitch ±90° roll and yaw are coupled; put everything into yaw so the result stays defined.
  if (Math.abs(sp) > 1 - 1e-12) {
    const pitch = Math.sign(sp) * Math.PI / 2;
    const yaw = Math.atan2(-r[1], r[4]);
    return { rollDeg: 0, pitchDeg: pitch * DEG_PER_RAD, yawDeg: yaw * DEG_PER_RAD };
  }
  return {
    rollDeg: Math.atan2(r[7], r[8]) * DEG_PER_RAD,
    pitchDeg: Math.asin(sp) * DEG_PER_RAD,
    yawDeg: Math.atan2(r[3], r[0]) * DEG_PER_RAD,
  };
}

/** Rotation vector (axis × angle, radians) of `r`. */
export function logMap(r: Mat3): Vec3 {
  const cosAngle = Math.min(1, Math.max(-1, (r[0] + r[4] + r[8] - 1) / 2));
  const angle = Math.acos(cosAngle);
  if (angle < 1e-9) return { x: (r[7] - r[5]) / 2, y: (r[2] - r[6]) / 2, z: (r[3] - r[1]) / 2 };
  if (Math.PI - angle < 1e-6) {
    // sin(angle) ≈ 0: read the axis from the symmetric part, choosing the largest diagonal for stability.
    const xx = Math.sqrt(Math.max(0, (r[0] + 1) / 2));
    const yy = Math.sqrt(Math.max(0, (r[4] + 1) / 2));
    const zz = Math.sqrt(Math.max(0, (r[8] + 1) / 2));
    let axis: Vec3;
    if (xx >= yy && xx >= zz) axis = { x: xx, y: (r[1] + r[3]) / (4 * xx), z: (r[2] + r[6]) / (4 * xx) };
    else if (yy >= zz) axis = { x: (r[1] + r[3]) / (4 * yy), y: yy, z: (r[5] + r[7]) / (4 * yy) };
    else axis = { x: (r[2] + r[6]) / (4 * zz), y: (r[5] + r[7]) / (4 * zz), z: zz };
    return { x: axis.x * angle, y: axis.y * angle, z: axis.z * angle };
  }
  const k = angle / (2 * Math.sin(angle));
  return { x: (r[7] - r[5]) * k, y: (r[2] - r[6]) * k, z: (r[3] - r[1]) * k };
}

/** Rotation matrix of a rotation vector (axis × angle, radians), Rodrigues' formula. */
export function expMap(w: Vec3): Mat3 {
  const angle = Math.hypot(w.x, w.y, w.z);
  if (angle < 1e-12) return IDENTITY;
  const x = w.x / angle, y = w.y / angle, z = w.z / angle;
  const c = Math.cos(angle), s = Math.sin(angle), t = 1 - c;
  return [
    t * x * x + c, t * x * y - s * z, t * x * z + s * y,
    t * x * y + s * z, t * y * y + c, t * y * z - s * x,
    t * x * z - s * y, t * y * z + s * x, t * z * z + c,
  ];
}

/** Angle in radians of the rotation taking `a` to `b`. */
export function angleBetween(a: Mat3, b: Mat3): number {
  const w = logMap(mul(b, transpose(a)));
  return Math.hypot(w.x, w.y, w.z);
}

/** Spherical interpolation from `a` (t = 0) to `b` (t = 1) about a fixed axis. */
export function slerp(a: Mat3, b: Mat3, t: number): Mat3 {
  const w = logMap(mul(b, transpose(a)));
  return mul(expMap({ x: w.x * t, y: w.y * t, z: w.z * t }), a);
}

