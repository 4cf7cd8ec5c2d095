import type { ArmPreset } from '../sim/arm-presets.js';

/** The frame every coordinate is given in; repeated in descriptions so no model has to guess. */
export const BASE_FRAME = 'robot base frame (right-handed, +z up, origin at the centre of the base mounting flange on the table), millimetres';

/** Outer bounds for TCP coordinates: anything beyond the arm's physical reach is refused by the schema already. */
export function coordinateBounds(preset: ArmPreset): { xy: number; zMax: number } {
  return { xy: preset.reachMm, zMax: Math.ceil(preset.reachMm + preset.dh[0]!.dMm) };
}

/** `{x_mm, y_mm, z_mm}` in the base frame, bounded by the arm's reach. */
export function positionSchema(preset: ArmPreset, description: string) {
  const { xy, zMax } = coordinateBounds(preset);
  return {
    type: 'object',
    description: `${description} In the ${BASE_FRAME}.`,
    properties: {
      x_mm: { type: 'number', minimum: -xy, maximum: xy, description: `X in millimetres, ${-xy} to ${xy}.` },
      y_mm: { type: 'number', minimum: -xy, maximum: xy, description: `Y in millimetres, ${-xy} to ${xy}.` },
      z_mm: { type: 'number', minimum: 0, maximum: zMax, description: `Z (height above the table) in millimetres, 0 to ${zMax}.` },
    },
    required: ['x_mm', 'y_mm', 'z_mm'],
    additionalProperties: false,
  } as const;
}

export const ORIENTATION_SCHEMA = {
  type: 'object',
  description: 'Tool orientation as roll/pitch/yaw in degrees (fixed X-Y-Z axes of the robot base frame). Omit to point the tool straight down (-z).',
  properties: {
    roll_deg: { type: 'number', minimum: -180, maximum: 180, description: 'Roll about base X, degrees, -180 to 180.' },
    pitch_deg: { type: 'number', minimum: -180, maximum: 180, description: 'Pitch about base Y, degrees, -180 to 180.' },
    yaw_deg: { type: 'number', minimum: -180, maximum: 180, description: 'Yaw about base Z, degrees, -180 to 180.' },
  },
  required: ['roll_deg', 'pitch_deg', 'yaw_deg'],
  additionalProperties: false,
} as const;

export function speedSchema(preset: ArmPreset) {
  return {
    type: 'number',
    minimum: 0.1,
    maximum: 1,
    default: 0.5,
    description: `Fraction of the speed caps, 0.1 to 1.0 (1.0 = TCP at most ${preset.maxTcpSpeedMmS} mm/s). Default 0.5.`,
  } as const;
}

export const TIME_SCALING_SCHEMA = {
  type: 'string',
  enum: ['trapezoidal', 'quintic'],
  default: 'trapezoidal',
  description: 'Velocity profile: trapezoidal (faster) or quintic (smoother). Default trapezoidal.',
} as const;

/** A TCP target as the tools accept it. */
export interface PositionArg {
  readonly x_mm: number;
  readonly y_mm: number;
  readonly z_mm: number;
}

export interface OrientationArg {
  readonly roll_deg: number;
  readonly pitch_deg: number;
  readonly yaw_deg: number;
}
