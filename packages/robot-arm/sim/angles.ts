/** Degrees are the unit at the simulator's API; radians are used inside the maths. */
export const DEG_PER_RAD = 180 / Math.PI;
export const RAD_PER_DEG = Math.PI / 180;

export function degToRad(deg: number): number {
  return deg * RAD_PER_DEG;
}

export function radToDeg(rad: number): number {
  return rad * DEG_PER_RAD;
}

/** Wraps an angle into (-180, 180] degrees. */
export function wrapDeg(deg: number): number {
  let wrapped = ((deg + 180) % 360 + 360) % 360 - 180;
  if (wrapped === -180) wrapped = 180;
  return wrapped;
}
