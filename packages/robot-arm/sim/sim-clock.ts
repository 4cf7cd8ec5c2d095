/** Called once per clock step with the new simulated time and the step length, both in milliseconds. */
export type TickListener = (nowMs: number, dtMs: number) => void;

/**
 * Simulated time, advanced only by explicit calls: there are no real timers inside the simulator, so a
 * test (or a server loop) decides when time moves and every run replays exactly.
 */
export class SimClock {
  readonly stepMs: number;
  private now = 0;
  private readonly listeners: TickListener[] = [];

  /** `stepMs` is the fixed control period used by `advance`; default 4 ms (250 Hz, the xArm controller rate). */
  constructor(stepMs = 4) {
    if (!(Number.isFinite(stepMs) && stepMs > 0 && stepMs <= 100)) throw new RangeError(`clock step must be in (0, 100] ms, got ${stepMs}`);
    this.stepMs = stepMs;
  }

  get nowMs(): number {
    return this.now;
  }

  onTick(listener: TickListener): void {
    this.listeners.push(listener);
  }

  /** Advances by one step of `dtMs` (default: the fixed step). Steps longer than 100 ms are refused. */
  step(dtMs: number = this.stepMs): void {
    if (!(Number.isFinite(dtMs) && dtMs > 0 && dtMs <= 100)) throw new RangeError(`a clock step must be in (0, 100] ms, got ${dtMs}`);
    this.now += dtMs;
    for (const listener of this.listeners) listener(this.now, dtMs);
  }

  /** Advances by `ms` in fixed steps; a remainder shorter than one step becomes a final short step. */
  advance(ms: number): void {
    if (!(Number.isFinite(ms) && ms >= 0)) throw new RangeError(`advance needs a finite, non-negative number of ms, got ${ms}`);
    let left = ms;
    while (left > 1e-9) {
      const dt = Math.min(this.stepMs, left);
      this.step(dt);
      left -= dt;
    }
  }
}
