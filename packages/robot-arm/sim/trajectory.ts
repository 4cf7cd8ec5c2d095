import type { ArmPreset } from './arm-presets.js';
import { DEG_PER_RAD } from './angles.js';
import { armFramesRad, frameToPose, type TcpPose } from './forward-kinematics.js';
import { geometricJacobian } from './jacobian.js';
import type { JointPath } from './joint-path.js';
import type { PathTiming, TimeScaling } from './time-scaling.js';
import type { Vec3 } from './vector3.js';

/** One stop-to-stop piece of a trajectory: a joint path and how fast it is traversed. */
export interface TrajectorySegment {
  /** `joint`: straight line in joint space; `linear`: straight line of the TCP in Cartesian space. */
  readonly kind: 'joint' | 'linear';
  readonly path: JointPath;
  readonly timing: TimeScaling;
  readonly startTimeS: number;
  /**
   * Path deceleration (1/s²) a controlled stop may use on this segment: what the acceleration caps allow
   * to first order, never less than the profile's own peak. The executor verifies it against the caps
   * when a stop is requested and backs off if the path's curvature would push a joint over.
   */
  readonly brakingDeceleration: number;
}

/** The arm's kinematic state at one instant (mm, degrees, seconds, base frame). */
export interface MotionState {
  readonly tS: number;
  readonly jointsDeg: number[];
  readonly jointVelocitiesDegS: number[];
  readonly jointAccelerationsDegS2: number[];
  readonly tcp: TcpPose;
  readonly tcpVelocityMmS: Vec3;
  readonly tcpSpeedMmS: number;
}

/** A state kept in the trajectory's sample list (every `sampleIntervalS`, plus the final instant). */
export interface TrajectorySample {
  readonly tS: number;
  readonly jointsDeg: readonly number[];
  readonly tcp: Vec3;
}

/** Largest values reached anywhere on the trajectory (checked on the dense samples). */
export interface LimitReport {
  readonly peakJointSpeedDegS: readonly number[];
  readonly peakJointAccelerationDegS2: readonly number[];
  readonly peakTcpSpeedMmS: number;
  readonly peakTcpAccelerationMmS2: number;
}

/** The sampling interval of stored trajectory states: 4 ms, the simulator's default control period (250 Hz). */
export const TRAJECTORY_SAMPLE_INTERVAL_S = 0.004;

/**
 * A planned, time-parameterised motion for one arm preset. Immutable; only the planner builds valid
 * ones, and the simulation only executes trajectories whose first state equals the arm's current joints.
 */
export class Trajectory {
  readonly presetId: string;
  readonly segments: readonly TrajectorySegment[];
  readonly durationS: number;
  readonly startJointsDeg: readonly number[];
  readonly endJointsDeg: readonly number[];
  readonly sampleIntervalS = TRAJECTORY_SAMPLE_INTERVAL_S;
  readonly samples: readonly TrajectorySample[];
  readonly peaks: LimitReport;
  private readonly preset: ArmPreset;

  constructor(preset: ArmPreset, segments: readonly TrajectorySegment[]) {
    if (segments.length === 0) throw new RangeError('a trajectory needs at least one segment');
    this.preset = preset;
    this.presetId = preset.id;
    this.segments = Object.freeze([...segments]);
    const last = segments[segments.length - 1]!;
    this.durationS = last.startTimeS + last.timing.durationS;
    this.startJointsDeg = Object.freeze(Array.from(segments[0]!.path.evaluate(0).q, (v) => v * DEG_PER_RAD));
    this.endJointsDeg = Object.freeze(Array.from(last.path.evaluate(1).q, (v) => v * DEG_PER_RAD));
    const samples: TrajectorySample[] = [];
    const speed = new Array<number>(preset.joints.length).fill(0);
    const accel = new Array<number>(preset.joints.length).fill(0);
    let peakTcpSpeed = 0, peakTcpAccel = 0;
    let previous: MotionState | null = null;
    const count = Math.ceil(this.durationS / this.sampleIntervalS - 1e-9);
    for (let i = 0; i <= count; i++) {
      const state = this.stateAt(Math.min(i * this.sampleIntervalS, this.durationS));
      samples.push(Object.freeze({ tS: state.tS, jointsDeg: Object.freeze(state.jointsDeg), tcp: { x: state.tcp.x, y: state.tcp.y, z: state.tcp.z } }));
      for (let j = 0; j < speed.length; j++) {
        speed[j] = Math.max(speed[j]!, Math.abs(state.jointVelocitiesDegS[j]!));
        accel[j] = Math.max(accel[j]!, Math.abs(state.jointAccelerationsDegS2[j]!));
      }
      peakTcpSpeed = Math.max(peakTcpSpeed, state.tcpSpeedMmS);
      if (previous !== null && state.tS > previous.tS) {
        const dt = state.tS - previous.tS;
        const dv = Math.hypot(
          state.tcpVelocityMmS.x - previous.tcpVelocityMmS.x,
          state.tcpVelocityMmS.y - previous.tcpVelocityMmS.y,
          state.tcpVelocityMmS.z - previous.tcpVelocityMmS.z,
        );
        peakTcpAccel = Math.max(peakTcpAccel, dv / dt);
      }
      previous = state;
    }
    this.samples = Object.freeze(samples);
    this.peaks = Object.freeze({
      peakJointSpeedDegS: Object.freeze(speed),
      peakJointAccelerationDegS2: Object.freeze(accel),
      peakTcpSpeedMmS: peakTcpSpeed,
      peakTcpAccelerationMmS2: peakTcpAccel,
    });
    Object.freeze(this);
  }

  /** Which segment is active at time `tS` (clamped to the trajectory), and the time inside it. */
  segmentAt(tS: number): { index: number; localTimeS: number } {
    const t = Math.min(Math.max(tS, 0), this.durationS);
    let index = 0;
    while (index < this.segments.length - 1 && t >= this.segments[index + 1]!.startTimeS) index++;
    return { index, localTimeS: t - this.segments[index]!.startTimeS };
  }

  stateAt(tS: number): MotionState {
    const t = Math.min(Math.max(tS, 0), this.durationS);
    const { index, localTimeS } = this.segmentAt(t);
    const segment = this.segments[index]!;
    return motionStateOnPath(this.preset, segment.path, segment.timing.at(localTimeS), t);
  }
}

/** The arm state at parameter `timing.s` of `path`, moving with rate `timing.sd` and acceleration `timing.sdd`. */
export function motionStateOnPath(preset: ArmPreset, path: JointPath, timing: PathTiming, tS: number): MotionState {
  const { q, dq, ddq } = path.evaluate(timing.s);
  const n = q.length;
  const qd = new Float64Array(n);
  const jointsDeg = new Array<number>(n), velocities = new Array<number>(n), accelerations = new Array<number>(n);
  for (let j = 0; j < n; j++) {
    qd[j] = dq[j]! * timing.sd;
    jointsDeg[j] = q[j]! * DEG_PER_RAD;
    velocities[j] = qd[j]! * DEG_PER_RAD;
    accelerations[j] = (ddq[j]! * timing.sd * timing.sd + dq[j]! * timing.sdd) * DEG_PER_RAD;
  }
  const frames = armFramesRad(preset, q);
  const jac = geometricJacobian(frames);
  const v = [0, 0, 0];
  for (let r = 0; r < 3; r++) for (let j = 0; j < n; j++) v[r]! += jac[r * n + j]! * qd[j]!;
  const tcpVelocityMmS = { x: v[0]!, y: v[1]!, z: v[2]! };
  return {
    tS,
    jointsDeg,
    jointVelocitiesDegS: velocities,
    jointAccelerationsDegS2: accelerations,
    tcp: frameToPose(frames.frames[frames.frames.length - 1]!),
    tcpVelocityMmS,
    tcpSpeedMmS: Math.hypot(v[0]!, v[1]!, v[2]!),
  };
}
