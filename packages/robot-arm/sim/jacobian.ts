import type { ArmFrames } from './forward-kinematics.js';
import { cross, sub } from './vector3.js';

/**
 * Geometric Jacobian of the flange for revolute joints, 6 rows × n columns, row-major:
 * rows 0-2 linear velocity (mm per rad), rows 3-5 angular velocity (rad per rad), base frame.
 */
export function geometricJacobian(arm: ArmFrames): Float64Array {
  const n = arm.frames.length - 1;
  const tip = arm.frames[n]!.origin;
  const j = new Float64Array(6 * n);
  for (let i = 0; i < n; i++) {
    const f = arm.frames[i]!;
    const z = { x: f.rotation[2], y: f.rotation[5], z: f.rotation[8] };
    const v = cross(z, sub(tip, f.origin));
    j[i] = v.x;
    j[n + i] = v.y;
    j[2 * n + i] = v.z;
    j[3 * n + i] = z.x;
    j[4 * n + i] = z.y;
    j[5 * n + i] = z.z;
  }
  return j;
}
