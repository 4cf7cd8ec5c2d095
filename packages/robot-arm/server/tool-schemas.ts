import type { ArmPreset } from '../model/arm-model.js';

/** The frame every coordinate is given in; repeated in descriptions so no model has to guess. */
export const BASE_FRAME = 'robot base frame (right-handed, +z up, origin at the base centre on the table)';

/** Outer bounds for TCP coordinates: anything beyond the arm's physical reach is refused by the schema already. */
export function coordinateBounds(preset: ArmPreset): { xy: number; zMax: number } {
  return { xy: preset.reachMm, zMax: Math.ceil(preset.reachMm + preset.dh[0]!.dMm) };
}

/** `{x_mm, y_mm, z_mm}` in the base frame, bounded by the arm's reach. */
export function positionSchema(preset: ArmPreset, description: string, frame: 'append' | 'stated' = 'append') {
  const { xy, zMax } = coordinateBounds(preset);
  return {
    type: 'object',
    // 'stated': the caller's description already names the unit and frame (to stay within the lint budget).
    description: frame === 'append' ? `${description} Millimetres, ${BASE_FRAME}.` : description,
    properties: {
      x_mm: { type: 'number', minimum: -xy, maximum: xy, description: 'X, mm.' },
      y_mm: { type: 'number', minimum: -xy, maximum: xy, description: 'Y, mm.' },
      z_mm: { type: 'number', minimum: 0, maximum: zMax, description: 'Z (height above the table), mm.' },
    },
    required: ['x_mm', 'y_mm', 'z_mm'],
    additionalProperties: false,
  } as const;
}

export const ORIENTATION_SCHEMA = {
  type: 'object',
  description: 'Tool roll/pitch/yaw, degrees, about base X, Y, Z. Omit: tool points down.',
  properties: {
    roll_deg: { type: 'number', minimum: -180, maximum: 180, description: 'Roll about base X, degrees.' },
    pitch_deg: { type: 'number', minimum: -180, maximum: 180, description: 'Pitch about base Y, degrees.' },
    yaw_deg: { type: 'number', minimum: -180, maximum: 180, description: 'Yaw about base Z, degrees.' },
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
    description: `Fraction of the speed caps, 0.1 to 1.0 (1.0 = TCP ${preset.maxTcpSpeedMmS} mm/s).`,
  } as const;
}

export const TIME_SCALING_SCHEMA = {
  type: 'string',
  enum: ['trapezoidal', 'quintic'],
  default: 'trapezoidal',
  description: 'Velocity profile: trapezoidal (faster) or quintic (smoother). Default trapezoidal.',
} as const;
