import type { ArmPreset } from './arm-presets.js';
import { distance } from './vector3.js';
import { motionStateOnPath, type MotionState, type Trajectory } from './trajectory.js';

export type MotionPhase = 'moving' | 'stopping' | 'done' | 'halted';

/** What a controlled stop will take, predicted when it is requested. */
export interface StopForecast {
  readonly stoppingTimeS: number;
  readonly stoppingDistanceMm: number;
}

/**
 * Plays one trajectory forward on simulated time. A stop decelerates along the same path (so the arm
 * stays on the collision-checked path) at the segment's planned peak path deceleration, which keeps
 * joint and TCP accelerations within their caps: a Category 2 style controlled stop. `halt()` freezes the
 * arm at once (emergency stop, Category 0 in simulation).
 */
export class MotionExecutor {
  readonly motionId: string;
  readonly trajectory: Trajectory;
  private elapsedS = 0;
  private phaseNow: MotionPhase = 'moving';
  private current: MotionState;
  private stopPlan: { segment: number; s0: number; rate0: number; decel: number; startS: number; durationS: number } | null = null;

  constructor(private readonly preset: ArmPreset, trajectory: Trajectory, motionId: string) {
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
    if (this.phaseNow === 'stopping') {
      const stop = this.stopPlan!;
      const remaining = Math.max(0, stop.startS + stop.durationS - this.elapsedS);
      return { stoppingTimeS: remaining, stoppingDistanceMm: this.distanceToStopEnd() };
    }
    const { index, localTimeS } = this.trajectory.segmentAt(this.elapsedS);
    const segment = this.trajectory.segments[index]!;
    const at = segment.timing.at(localTimeS);
    const decel = segment.timing.peakAcceleration;
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

  /** Freezes the arm where it is, now. */
  halt(): void {
    if (this.phaseNow === 'done' || this.phaseNow === 'halted') return;
    this.phaseNow = 'halted';
    this.current = settled(this.current);
  }

  private distanceToStopEnd(): number {
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
