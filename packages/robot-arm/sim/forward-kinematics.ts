import type { ArmPreset } from './arm-presets.js';
import { RAD_PER_DEG } from './angles.js';
import { IDENTITY, apply, mul, type Mat3, toRpyDeg, type RpyDeg } from './rotation.js';
import { add, type Vec3, ZERO } from './vector3.js';

/** A rigid transform in the base frame: rotation and origin in millimetres. */
export interface Frame {
  readonly rotation: Mat3;
  readonly origin: Vec3;
}

/** The tool centre point in the base frame (millimetres, roll/pitch/yaw in degrees). */
export interface TcpPose extends RpyDeg {
  readonly x: number;
  readonly y: number;
  readonly z: number;
}

/** Every DH frame from the base (index 0) to the flange (index 6), plus the point between each row's d and a offsets. */
export interface ArmFrames {
  readonly frames: readonly Frame[];
  /** `elbowPoints[i]` is frame i's origin moved by row i's `d` along its z axis: where row i's `a` offset begins. */
  readonly elbowPoints: readonly Vec3[];
}

/**
 * Forward kinematics on radians. The TCP is the flange centre (no tool offset), which is what the
 * UR5e reference values (q = 0 → (-817.2, -232.9, 62.8) mm) describe.
 */
export function armFramesRad(preset: ArmPreset, qRad: ArrayLike<number>): ArmFrames {
  const frames: Frame[] = [{ rotation: IDENTITY, origin: ZERO }];
  const elbowPoints: Vec3[] = [];
  let rotation: Mat3 = IDENTITY;
  let origin: Vec3 = ZERO;
  for (let i = 0; i < preset.dh.length; i++) {
    const row = preset.dh[i]!;
    const theta = qRad[i]! + row.thetaOffsetDeg * RAD_PER_DEG;
    const alpha = row.alphaDeg * RAD_PER_DEG;
    const ct = Math.cos(theta), st = Math.sin(theta), ca = Math.cos(alpha), sa = Math.sin(alpha);
    const local: Mat3 = [ct, -st * ca, st * sa, st, ct * ca, -ct * sa, 0, sa, ca];
    const zAxis: Vec3 = { x: rotation[2], y: rotation[5], z: rotation[8] };
    const elbow = add(origin, { x: zAxis.x * row.dMm, y: zAxis.y * row.dMm, z: zAxis.z * row.dMm });
    elbowPoints.push(elbow);
    origin = add(origin, apply(rotation, { x: row.aMm * ct, y: row.aMm * st, z: row.dMm }));
    rotation = mul(rotation, local);
    frames.push({ rotation, origin });
  }
  return { frames, elbowPoints };
}

/** Flange frame for joint angles in radians. */
export function tcpFrameRad(preset: ArmPreset, qRad: ArrayLike<number>): Frame {
  const { frames } = armFramesRad(preset, qRad);
  return frames[frames.length - 1]!;
}

/** TCP pose for joint angles in degrees. */
export function forwardKinematics(preset: ArmPreset, jointsDeg: readonly number[]): TcpPose {
  return frameToPose(tcpFrameRad(preset, jointsDeg.map((d) => d * RAD_PER_DEG)));
}

export function frameToPose(frame: Frame): TcpPose {
  return { x: frame.origin.x, y: frame.origin.y, z: frame.origin.z, ...toRpyDeg(frame.rotation) };
}
