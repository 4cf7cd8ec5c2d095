import type { ArmPreset } from './arm-presets.js';
import { RAD_PER_DEG } from './angles.js';
import { armFramesRad } from './forward-kinematics.js';
import { distance, lerp, type Vec3 } from './vector3.js';

/** A link's collision volume: all points within `radiusMm` of the segment a–b (base frame, mm). */
export interface Capsule {
  readonly link: string;
  readonly a: Vec3;
  readonly b: Vec3;
  readonly radiusMm: number;
  readonly mountedOnBase: boolean;
  readonly jointedToBase: boolean;
}

/**
 * The arm's capsules for joint angles in degrees. Each DH row contributes its `d` offset and its `a`
 * offset as segments of that row's link. The last (tool) capsule is shortened by its radius so that it
 * ends exactly at the TCP: the gripper pads are at the TCP and are allowed to touch what they grasp.
 */
export function armCapsules(preset: ArmPreset, jointsDeg: readonly number[]): Capsule[] {
  const arm = armFramesRad(preset, jointsDeg.map((d) => d * RAD_PER_DEG));
  const capsules: Capsule[] = [];
  const last = preset.dh.length - 1;
  for (let i = 0; i <= last; i++) {
    const link = preset.links[i]!;
    const start = arm.frames[i]!.origin;
    const elbow = arm.elbowPoints[i]!;
    let end = arm.frames[i + 1]!.origin;
    const parts: Array<[Vec3, Vec3]> = [];
    if (distance(start, elbow) > 1e-6) parts.push([start, elbow]);
    if (distance(elbow, end) > 1e-6) parts.push([elbow, end]);
    if (i === last && parts.length > 0) {
      const tail = parts[parts.length - 1]!;
      const length = distance(tail[0], tail[1]);
      end = lerp(tail[0], tail[1], Math.max(0, (length - link.radiusMm) / length));
      parts[parts.length - 1] = [tail[0], end];
    }
    for (const [a, b] of parts) capsules.push({ link: link.name, a, b, radiusMm: link.radiusMm, mountedOnBase: link.mountedOnBase, jointedToBase: link.jointedToBase });
  }
  return capsules;
}
