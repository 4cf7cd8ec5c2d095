import type { ArmPreset } from './arm-presets.js';
import type { MotionLimits } from './trajectory-planner.js';
import type { TrajectorySegment } from './trajectory.js';
import { distance } from './vector3.js';
import { motionStateOnPath, type MotionState, type Trajectory } from './trajectory.js';

export type MotionPhase = 'moving' | 'stopping' | 'done' | 'halted';

/** What a controlled stop will take, predicted when it is requested. */
export interface StopForecast {
  readonly stoppingTimeS: number;
  readonly stoppingDistanceMm: number;
}

/** Deceleration candidates tried (each 15% gentler than the last) before falling back to the planned profile. */
const STOP_ATTEMPTS = 16;

/**
 * Plays one trajectory forward on simulated time. A stop decelerates along the same path (so the arm
 * stays on the collision-checked path) as hard as the joint and TCP acceleration caps allow, checked
 * on samples of the ramp: a Category 2 style controlled stop. `halt()` freezes the arm at once
 * (emergency stop, Category 0 in simulation).
 */
export class MotionExecutor {
  readonly motionId: string;
  readonly trajectory: Trajectory;
  private elapsedS = 0;
  private phaseNow: MotionPhase = 'moving';
  private current: MotionState;
  private stopPlan: { segment: number; s0: number; rate0: number; decel: number; startS: number; durationS: number } | null = null;
  /** Set when no constant-deceleration ramp met the caps: the stop follows the planned profile to the segment's end. */
  private finishAtS: number | null = null;

  /**
   * `checkStepS` is the monitor's rate (the clock step): a stopping ramp is verified at that spacing,
   * the way the runtime monitor will measure it.
   */
  constructor(private readonly preset: ArmPreset, private readonly limits: MotionLimits, trajectory: Trajectory, motionId: string, private readonly checkStepS = 0.004) {
    this.trajectory = trajectory;
    this.motionId = motionId;
    this.current = trajectory.stateAt(0);
    if (trajectory.durationS === 0) this.phaseNow = 'done';
  }

  get phase(): MotionPhase {
    return this.phaseNow;
  }

  get state(): MotionState {
    return this.current;
  }

  /** Seconds of trajectory time played so far. */
  get elapsed(): number {
    return this.elapsedS;
  }

  advance(dtS: number): MotionState {
    if (this.phaseNow === 'done' || this.phaseNow === 'halted') return this.current;
    this.elapsedS += dtS;
    if (this.phaseNow === 'moving') {
      if (this.elapsedS >= this.trajectory.durationS) {
        this.elapsedS = this.trajectory.durationS;
        this.phaseNow = 'done';
        this.current = settled(this.trajectory.stateAt(this.trajectory.durationS));
      } else {
        this.current = this.trajectory.stateAt(this.elapsedS);
      }
      return this.current;
    }
    if (this.finishAtS !== null) {
      if (this.elapsedS >= this.finishAtS) {
        this.elapsedS = this.finishAtS;
        this.phaseNow = 'done';
        this.current = settled(this.trajectory.stateAt(this.finishAtS));
      } else {
        this.current = this.trajectory.stateAt(this.elapsedS);
      }
      return this.current;
    }
    const stop = this.stopPlan!;
    const tau = Math.min(this.elapsedS - stop.startS, stop.durationS);
    const finished = tau >= stop.durationS;
    const timing = finished
      ? { s: stop.s0 + stop.rate0 * stop.durationS - 0.5 * stop.decel * stop.durationS ** 2, sd: 0, sdd: 0 }
      : { s: stop.s0 + stop.rate0 * tau - 0.5 * stop.decel * tau * tau, sd: stop.rate0 - stop.decel * tau, sdd: -stop.decel };
    this.current = motionStateOnPath(this.preset, this.trajectory.segments[stop.segment]!.path, { s: Math.min(1, timing.s), sd: timing.sd, sdd: timing.sdd }, this.elapsedS);
    if (finished) this.phaseNow = 'done';
    return this.current;
  }

  /** Starts a controlled stop (idempotent: a second call returns what remains of the first). */
  requestStop(): StopForecast {
    if (this.phaseNow === 'done' || this.phaseNow === 'halted') return { stoppingTimeS: 0, stoppingDistanceMm: 0 };
    if (this.phaseNow === 'stopping' && this.finishAtS !== null) {
      return { stoppingTimeS: Math.max(0, this.finishAtS - this.elapsedS), stoppingDistanceMm: distance(this.trajectory.stateAt(this.finishAtS).tcp, this.current.tcp) };
    }
    if (this.phaseNow === 'stopping') {
      const stop = this.stopPlan!;
      const remaining = Math.max(0, stop.startS + stop.durationS - this.elapsedS);
      return { stoppingTimeS: remaining, stoppingDistanceMm: this.distanceToStopEnd() };
    }
    const { index, localTimeS } = this.trajectory.segmentAt(this.elapsedS);
    const segment = this.trajectory.segments[index]!;
    const at = segment.timing.at(localTimeS);
    const decel = this.brakingFor(segment, at.s, at.sd);
    if (decel === null) {
      // No ramp met the caps at the monitor's rate: the planned profile (checked against every cap) brings the arm to rest.
      this.finishAtS = segment.startTimeS + segment.timing.durationS;
      this.phaseNow = 'stopping';
      return { stoppingTimeS: this.finishAtS - this.elapsedS, stoppingDistanceMm: distance(this.trajectory.stateAt(this.finishAtS).tcp, this.current.tcp) };
    }
    const durationS = at.sd > 0 && decel > 0 ? at.sd / decel : 0;
    this.stopPlan = { segment: index, s0: at.s, rate0: at.sd, decel, startS: this.elapsedS, durationS };
    this.phaseNow = 'stopping';
    if (durationS === 0) {
      this.phaseNow = 'done';
      this.current = settled(this.current);
      return { stoppingTimeS: 0, stoppingDistanceMm: 0 };
    }
    return { stoppingTimeS: durationS, stoppingDistanceMm: this.distanceToStopEnd() };
  }

  /**
   * The strongest deceleration, from the segment's braking budget down, whose ramp stays on the segment
   * (never runs past its end) and keeps every joint acceleration and the TCP acceleration within the
   * caps when measured at the monitor's rate; null if none does.
   */
  private brakingFor(segment: TrajectorySegment, s0: number, rate0: number): number | null {
    if (rate0 <= 0) return 0;
    const remaining = 1 - s0;
    // Stopping within the segment needs at least this path deceleration.
    const least = remaining > 0 ? (rate0 * rate0) / (2 * remaining) : Number.POSITIVE_INFINITY;
    let decel = Math.max(segment.brakingDeceleration, least);
    for (let attempt = 0; attempt < STOP_ATTEMPTS && decel >= least; attempt++) {
      if (this.rampWithinCaps(segment, s0, rate0, decel)) return decel;
      decel *= 0.85;
    }
    return null;
  }

  /** The ramp sampled every `checkStepS` from the current state, as the runtime monitor will see it. */
  private rampWithinCaps(segment: TrajectorySegment, s0: number, rate0: number, decel: number): boolean {
    const duration = rate0 / decel;
    const steps = Math.max(1, Math.ceil(duration / this.checkStepS));
    let previous: MotionState = this.current;
    for (let i = 1; i <= steps; i++) {
      const tau = Math.min(duration, i * this.checkStepS);
      const s = s0 + rate0 * tau - 0.5 * decel * tau * tau;
      if (s > 1 + 1e-9) return false;
      const sd = Math.max(0, rate0 - decel * tau);
      const state = motionStateOnPath(this.preset, segment.path, { s: Math.min(1, s), sd, sdd: -decel }, tau);
      for (let j = 0; j < state.jointAccelerationsDegS2.length; j++) {
        if (Math.abs(state.jointAccelerationsDegS2[j]!) > this.limits.joints[j]!.maxAccelerationDegS2) return false;
      }
      // The last step ends at rest even when it is shorter than a full step.
      const end = i === steps ? { x: 0, y: 0, z: 0 } : state.tcpVelocityMmS;
      const p = previous.tcpVelocityMmS;
      if (Math.hypot(end.x - p.x, end.y - p.y, end.z - p.z) / this.checkStepS > this.limits.maxTcpAccelerationMmS2) return false;
      previous = state;
    }
    return true;
  }

  /** Freezes the arm where it is, now. */
  halt(): void {
    if (this.phaseNow === 'done' || this.phaseNow === 'halted') return;
    this.phaseNow = 'halted';
    this.current = settled(this.current);
  }

  private distanceToStopEnd(): number {
    if (this.finishAtS !== null) return distance(this.trajectory.stateAt(this.finishAtS).tcp, this.current.tcp);
    const stop = this.stopPlan!;
    const sEnd = Math.min(1, stop.s0 + stop.rate0 * stop.durationS - 0.5 * stop.decel * stop.durationS ** 2);
    const end = motionStateOnPath(this.preset, this.trajectory.segments[stop.segment]!.path, { s: sEnd, sd: 0, sdd: 0 }, 0);
    return distance(end.tcp, this.current.tcp);
  }
}

/** The same pose with all rates zeroed: the arm is standing still. */
function settled(state: MotionState): MotionState {
  const zeros = state.jointsDeg.map(() => 0);
  return { ...state, jointVelocitiesDegS: zeros, jointAccelerationsDegS2: [...zeros], tcpVelocityMmS: { x: 0, y: 0, z: 0 }, tcpSpeedMmS: 0 };
}
