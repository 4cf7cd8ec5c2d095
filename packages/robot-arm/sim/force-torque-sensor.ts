import type { ForceTorqueSensorSpec } from './arm-presets.js';
import type { Wrench } from './contact-model.js';
import type { SeededRandom } from './seeded-random.js';
import { MovingAverage, ScalarKalmanFilter } from './signal-filters.js';

export const FT_AXES = ['Fx', 'Fy', 'Fz', 'Mx', 'My', 'Mz'] as const;
export type FtAxis = (typeof FT_AXES)[number];
export type FtFilter = 'raw' | 'kalman' | 'moving_average';
export const FT_FILTERS: readonly FtFilter[] = ['raw', 'kalman', 'moving_average'];

/** One reading: values per axis (N for forces, N·m for torques, base-frame axes, torque about the TCP). */
export interface FtReading {
  readonly timeMs: number;
  readonly filter: FtFilter;
  readonly values: Wrench;
  /** True if any axis of the latest raw sample hit the sensor's range. */
  readonly saturated: boolean;
}

export interface FtSensorOptions {
  /** Moving-average window in samples; default 25 (50 ms at 500 Hz). */
  readonly movingAverageWindow?: number;
  /** Kalman process noise as a fraction of the measurement variance; default 0.0025 (steady gain ≈ 0.05). */
  readonly kalmanProcessRatio?: number;
  /** How many raw samples to keep for `history`; default 2000 (4 s). */
  readonly historySize?: number;
}

/**
 * A wrist 6-axis force/torque sensor sampled at a fixed rate (500 Hz by default) on simulated time:
 * each sample is the true wrench plus independent Gaussian noise per axis, clipped at the sensor range.
 * All three filters run on every sample, so switching filter never needs a warm-up.
 */
export class ForceTorqueSensor {
  readonly periodMs: number;
  private lastSampleMs: number;
  private readonly kalman: ScalarKalmanFilter[];
  private readonly average: MovingAverage[];
  private latestRaw: number[] | null = null;
  private latestKalman: number[] = [0, 0, 0, 0, 0, 0];
  private latestAverage: number[] = [0, 0, 0, 0, 0, 0];
  private latestSaturated = false;
  private latestTimeMs = 0;
  private readonly history: Array<{ timeMs: number; values: Wrench }> = [];
  private readonly historySize: number;

  constructor(private readonly spec: ForceTorqueSensorSpec, private readonly random: SeededRandom, startMs = 0, options: FtSensorOptions = {}) {
    this.periodMs = 1000 / spec.sampleRateHz;
    this.lastSampleMs = startMs;
    const ratio = options.kalmanProcessRatio ?? 0.0025;
    const sigma = (axis: number): number => (axis < 3 ? spec.forceNoiseStdN : spec.torqueNoiseStdNm);
    this.kalman = FT_AXES.map((_, i) => new ScalarKalmanFilter(sigma(i) ** 2, sigma(i) ** 2 * ratio));
    this.average = FT_AXES.map(() => new MovingAverage(options.movingAverageWindow ?? 25));
    this.historySize = options.historySize ?? 2000;
  }

  /** Takes every sample due in (last sample time, nowMs], all seeing the same true wrench. */
  sampleUntil(nowMs: number, truth: Wrench): void {
    while (this.lastSampleMs + this.periodMs <= nowMs + 1e-9) {
      this.lastSampleMs += this.periodMs;
      this.takeSample(this.lastSampleMs, truth);
    }
  }

  /** The latest value through a filter, or null before the first sample. */
  read(filter: FtFilter): FtReading | null {
    if (this.latestRaw === null) return null;
    const v = filter === 'raw' ? this.latestRaw : filter === 'kalman' ? this.latestKalman : this.latestAverage;
    return { timeMs: this.latestTimeMs, filter, values: toWrench(v), saturated: this.latestSaturated };
  }

  /** The most recent raw samples, oldest first. */
  recentRaw(count: number): ReadonlyArray<{ timeMs: number; values: Wrench }> {
    return this.history.slice(Math.max(0, this.history.length - count));
  }

  private takeSample(timeMs: number, truth: Wrench): void {
    const raw: number[] = new Array<number>(6);
    let saturated = false;
    for (let i = 0; i < 6; i++) {
      const force = i < 3;
      const noisy = truth[FT_AXES[i]!] + this.random.gaussian() * (force ? this.spec.forceNoiseStdN : this.spec.torqueNoiseStdNm);
      const range = force ? this.spec.forceRangeN : this.spec.torqueRangeNm;
      if (Math.abs(noisy) >= range) saturated = true;
      raw[i] = Math.max(-range, Math.min(range, noisy));
      this.latestKalman[i] = this.kalman[i]!.update(raw[i]!);
      this.latestAverage[i] = this.average[i]!.update(raw[i]!);
    }
    this.latestRaw = raw;
    this.latestSaturated = saturated;
    this.latestTimeMs = timeMs;
    this.history.push({ timeMs, values: toWrench(raw) });
    if (this.history.length > this.historySize) this.history.splice(0, this.history.length - this.historySize);
  }
}

function toWrench(v: readonly number[]): Wrench {
  return { Fx: v[0]!, Fy: v[1]!, Fz: v[2]!, Mx: v[3]!, My: v[4]!, Mz: v[5]! };
}
