/** One row of a standard (distal) Denavit–Hartenberg table: T = Rz(θ + offset)·Tz(d)·Tx(a)·Rx(α). */
export interface DhRow {
  readonly aMm: number;
  readonly dMm: number;
  readonly alphaDeg: number;
  readonly thetaOffsetDeg: number;
}

/** Software limits of one joint, enforced by the planner; they are configuration, never tool input. */
export interface JointLimit {
  readonly minDeg: number;
  readonly maxDeg: number;
  readonly maxVelocityDegS: number;
  readonly maxAccelerationDegS2: number;
}

/** The collision capsule of the link that a DH row moves (the row's d and a offsets as segments). */
export interface LinkShape {
  readonly name: string;
  readonly radiusMm: number;
  /** Links rigidly mounted on the base never move relative to it, so they are not checked against it or the table. */
  readonly mountedOnBase: boolean;
  /** The first moving link: its joint sits on the base housing, so it is checked against the table and objects but not the base. */
  readonly jointedToBase: boolean;
  /**
   * How far the link's housing runs beside the DH line, along its own joint axis (mm; default 0). The
   * UR5e's upper arm and forearm lie in parallel planes (shoulder offset 138 mm, elbow offset −131 mm,
   * which cancel in the DH table), which is what lets its elbow fold without the links meeting.
   * Only allowed where the previous row has α = 0 (parallel joint axes), so the offset is well defined.
   */
  readonly axisOffsetMm?: number;
}

export interface GripperSpec {
  readonly strokeMm: number;
  readonly minForceN: number;
  readonly maxForceN: number;
  readonly defaultForceN: number;
}

export interface ForceTorqueSensorSpec {
  readonly sampleRateHz: number;
  readonly forceRangeN: number;
  readonly torqueRangeNm: number;
  readonly forceNoiseStdN: number;
  readonly torqueNoiseStdNm: number;
}

/** A complete arm model: geometry, limits and the tools mounted on it. Millimetres and degrees throughout. */
export interface ArmPreset {
  readonly id: ArmPresetId;
  readonly displayName: string;
  readonly dh: readonly DhRow[];
  readonly joints: readonly JointLimit[];
  readonly links: readonly LinkShape[];
  readonly reachMm: number;
  readonly payloadKg: number;
  /** Radius of the base housing (a vertical cylinder from the table up to `baseHeightMm`). */
  readonly baseRadiusMm: number;
  readonly baseHeightMm: number;
  readonly homeDeg: readonly number[];
  /** Cartesian caps: ISO 10218-1 reduced speed (250 mm/s) and conservative acceleration. */
  readonly maxTcpSpeedMmS: number;
  readonly maxTcpAccelerationMmS2: number;
  /**
   * The TCP deceleration a controlled stop reaches at least, mm/s² (a_stop of the stopping distance
   * v*t_r + v^2/(2*a_stop) used by speed and separation monitoring). Half the TCP acceleration cap:
   * on some paths a joint's acceleration cap binds before the TCP's.
   */
  readonly stopDecelerationMmS2: number;
  /** Workspace defaults: the reach sphere sits well inside the physical reach. */
  readonly envelopeReachMm: number;
  readonly gripper: GripperSpec;
  readonly ftSensor: ForceTorqueSensorSpec;
}

export type ArmPresetId = 'ur5e' | 'xarm6';

const ur5eSensor: ForceTorqueSensorSpec = {
  sampleRateHz: 500,
  forceRangeN: 50,
  torqueRangeNm: 10,
  forceNoiseStdN: 1.2,
  torqueNoiseStdNm: 0.07,
};

const parallelGripper: GripperSpec = { strokeMm: 85, minForceN: 5, maxForceN: 30, defaultForceN: 15 };

/**
 * Universal Robots UR5e, UR's published standard DH parameters. Joints are ±360° in hardware; the
 * simulator uses ±180° on every joint (the research note's default; MuJoCo Menagerie limits the elbow
 * so) and 60°/s of the 180°/s hardware speed. The price: some straight tool-down lines close to the
 * table run out of wrist-1 range; the planner says so and a joint-space move or other waypoints work.
 */
export const UR5E: ArmPreset = deepFreeze({
  id: 'ur5e',
  displayName: 'Universal Robots UR5e',
  dh: [
    { aMm: 0, dMm: 162.5, alphaDeg: 90, thetaOffsetDeg: 0 },
    { aMm: -425, dMm: 0, alphaDeg: 0, thetaOffsetDeg: 0 },
    { aMm: -392.2, dMm: 0, alphaDeg: 0, thetaOffsetDeg: 0 },
    { aMm: 0, dMm: 133.3, alphaDeg: 90, thetaOffsetDeg: 0 },
    { aMm: 0, dMm: 99.7, alphaDeg: -90, thetaOffsetDeg: 0 },
    { aMm: 0, dMm: 99.6, alphaDeg: 0, thetaOffsetDeg: 0 },
  ],
  joints: Array.from({ length: 6 }, () => ({ minDeg: -180, maxDeg: 180, maxVelocityDegS: 60, maxAccelerationDegS2: 300 })),
  links: [
    { name: 'shoulder', radiusMm: 60, mountedOnBase: true, jointedToBase: false },
    { name: 'upper_arm', radiusMm: 55, mountedOnBase: false, jointedToBase: true, axisOffsetMm: 138 },
    { name: 'forearm', radiusMm: 45, mountedOnBase: false, jointedToBase: false, axisOffsetMm: 7 },
    { name: 'wrist_1', radiusMm: 42, mountedOnBase: false, jointedToBase: false },
    { name: 'wrist_2', radiusMm: 42, mountedOnBase: false, jointedToBase: false },
    { name: 'tool', radiusMm: 38, mountedOnBase: false, jointedToBase: false },
  ],
  reachMm: 850,
  payloadKg: 5,
  baseRadiusMm: 80,
  baseHeightMm: 162.5,
  homeDeg: [0, -90, 90, -90, -90, 0],
  maxTcpSpeedMmS: 250,
  maxTcpAccelerationMmS2: 1000,
  stopDecelerationMmS2: 500,
  envelopeReachMm: 800,
  gripper: parallelGripper,
  ftSensor: ur5eSensor,
});

/**
 * UFactory xArm 6 (docs.ufactory.cc standard DH; joint ranges from the SDK's x_config.py). Its wrist is
 * not spherical, which is fine: inverse kinematics here is numeric.
 */
export const XARM6: ArmPreset = deepFreeze({
  id: 'xarm6',
  displayName: 'UFactory xArm 6',
  dh: [
    { aMm: 0, dMm: 267, alphaDeg: -90, thetaOffsetDeg: 0 },
    { aMm: 289.48866, dMm: 0, alphaDeg: 0, thetaOffsetDeg: -79.34995 },
    { aMm: 77.5, dMm: 0, alphaDeg: -90, thetaOffsetDeg: 79.34995 },
    { aMm: 0, dMm: 342.5, alphaDeg: 90, thetaOffsetDeg: 0 },
    { aMm: 76, dMm: 0, alphaDeg: -90, thetaOffsetDeg: 0 },
    { aMm: 0, dMm: 97, alphaDeg: 0, thetaOffsetDeg: 0 },
  ],
  joints: [
    { minDeg: -360, maxDeg: 360, maxVelocityDegS: 60, maxAccelerationDegS2: 300 },
    { minDeg: -118, maxDeg: 120, maxVelocityDegS: 60, maxAccelerationDegS2: 300 },
    { minDeg: -225, maxDeg: 11, maxVelocityDegS: 60, maxAccelerationDegS2: 300 },
    { minDeg: -360, maxDeg: 360, maxVelocityDegS: 60, maxAccelerationDegS2: 300 },
    { minDeg: -97, maxDeg: 180, maxVelocityDegS: 60, maxAccelerationDegS2: 300 },
    { minDeg: -360, maxDeg: 360, maxVelocityDegS: 60, maxAccelerationDegS2: 300 },
  ],
  links: [
    { name: 'shoulder', radiusMm: 55, mountedOnBase: true, jointedToBase: false },
    { name: 'upper_arm', radiusMm: 45, mountedOnBase: false, jointedToBase: true },
    { name: 'elbow', radiusMm: 45, mountedOnBase: false, jointedToBase: false },
    { name: 'forearm', radiusMm: 38, mountedOnBase: false, jointedToBase: false },
    { name: 'wrist', radiusMm: 35, mountedOnBase: false, jointedToBase: false },
    { name: 'tool', radiusMm: 32, mountedOnBase: false, jointedToBase: false },
  ],
  reachMm: 700,
  payloadKg: 5,
  baseRadiusMm: 65,
  baseHeightMm: 200,
  homeDeg: [0, 0, 0, 0, 0, 0],
  maxTcpSpeedMmS: 250,
  maxTcpAccelerationMmS2: 1000,
  stopDecelerationMmS2: 500,
  envelopeReachMm: 650,
  gripper: { strokeMm: 84, minForceN: 5, maxForceN: 30, defaultForceN: 15 },
  ftSensor: ur5eSensor,
});

export const ARM_PRESETS: Readonly<Record<ArmPresetId, ArmPreset>> = Object.freeze({ ur5e: UR5E, xarm6: XARM6 });

export function getArmPreset(id: string): ArmPreset {
  if (id === 'ur5e' || id === 'xarm6') return ARM_PRESETS[id];
  throw new RangeError(`unknown arm preset "${id}"; expected one of: ${Object.keys(ARM_PRESETS).join(', ')}`);
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value as Record<string, unknown>)) deepFreeze(child);
  }
  return value;
}
