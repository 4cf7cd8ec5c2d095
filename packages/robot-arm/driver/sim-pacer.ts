/**
 * Decides how fast simulated time runs while the arm moves. The motion loop awaits `next()` and then
 * advances the simulation by the milliseconds it returns.
 */
export interface SimPacer {
  /** Waits for the next control frame; resolves with the simulated milliseconds to advance. */
  next(): Promise<number>;
  /**
   * A motion starts now (the driver calls it once its start is accepted, before the first frame): the
   * first frame counts simulated time from here, not from the last frame of an earlier motion.
   */
  start?(): void;
  /** Simulated milliseconds that pass while idle between two sensor reads (sensors need fresh samples). */
  idleAdvanceMs(): number;
  /** Wall-clock milliseconds the given simulated duration takes (for watchdog deadlines). */
  wallMsFor(simMs: number): number;
  readonly description: string;
}

/**
 * Real time (scaled): a frame every `periodMs` of wall time, advancing the simulation by the wall time
 * that actually passed × `timeScale` (at most 250 ms of simulated time per frame, so a stalled event
 * loop cannot teleport the arm past the monitor). A motion's first frame counts from its `start()`:
 * the time the arm stood still before does not move it. `clock` (wall milliseconds) is for tests.
 */
export function realTimePacer(timeScale = 1, periodMs = 10, clock: () => number = () => performance.now()): SimPacer {
  if (!(Number.isFinite(timeScale) && timeScale > 0 && timeScale <= 1000)) throw new RangeError(`time scale must be in (0, 1000], got ${timeScale}`);
  let lastFrame = clock();
  let lastIdle = clock();
  return {
    description: timeScale === 1 ? 'real time' : `${timeScale}x real time`,
    start() {
      lastFrame = clock();
    },
    next() {
      return new Promise((resolve) => {
        setTimeout(() => {
          const now = clock();
          const elapsed = Math.min(250, Math.max(1, (now - lastFrame) * timeScale));
          lastFrame = now;
          resolve(elapsed);
        }, periodMs);
      }).then((ms) => {
        lastIdle = clock();
        return ms as number;
      });
    },
    idleAdvanceMs() {
      const now = clock();
      const ms = Math.min(1000, Math.max(4, (now - lastIdle) * timeScale));
      lastIdle = now;
      lastFrame = now;
      return ms;
    },
    wallMsFor: (simMs) => simMs / timeScale,
  };
}

/**
 * As fast as the CPU allows: every frame advances a fixed `stepMs` of simulated time and yields to the
 * event loop once (so a concurrent stop or cancel is seen between frames). For tests.
 */
export function steppedPacer(stepMs = 20): SimPacer {
  if (!(Number.isFinite(stepMs) && stepMs > 0 && stepMs <= 100)) throw new RangeError(`pacer step must be in (0, 100] ms, got ${stepMs}`);
  return {
    description: `stepped (${stepMs} ms of simulated time per frame)`,
    next: () => new Promise((resolve) => setImmediate(() => resolve(stepMs))),
    idleAdvanceMs: () => 50,
    // Stepped frames take no particular wall time; give the watchdog a generous bound.
    wallMsFor: (simMs) => simMs * 10 + 2000,
  };
}
