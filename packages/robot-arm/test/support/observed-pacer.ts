/**
 * A stepped pacer (fixed simulated time per frame, as fast as the CPU allows) that lets a test wait
 * for a state of the simulation: `until(condition)` is checked at every control frame, so the test
 * wakes on simulated time, never on wall-clock sleeps. `freeze` holds simulated time at a chosen
 * state until something the test waits for has happened (e.g. a cancel reached the server).
 */
import { steppedPacer, type SimPacer } from '../../driver/sim-pacer.js';

export interface ObservedPacer extends SimPacer {
  /**
   * Resolves at the first control frame at which `condition()` holds (at once if it already does);
   * rejects when `maxFrames` frames pass without it (at the default 20 ms step, 10,000 frames are
   * 200 s of simulated time).
   */
  until(condition: () => boolean, maxFrames?: number): Promise<void>;
  /**
   * At the first control frame at which `at()` holds, simulated time stops: no frame advances until
   * `resumeWhen()` holds (checked every millisecond of wall time, for at most 30 s; then the frame
   * throws, which ends the motion loop loudly). Resolves once frozen; rejects like `until`.
   */
  freeze(at: () => boolean, resumeWhen: () => boolean): Promise<void>;
}

/** Wall-clock bound of one freeze, in 1 ms checks. */
const MAX_FROZEN_CHECKS = 30_000;

function whenTrue(condition: () => boolean): Promise<void> {
  return new Promise((resolve, reject) => {
    let checks = 0;
    const check = (): void => {
      if (condition()) return resolve();
      if (++checks > MAX_FROZEN_CHECKS) return reject(new Error('the frozen simulation was never resumed'));
      setTimeout(check, 1);
    };
    check();
  });
}

interface Waiter { condition: () => boolean; framesLeft: number; resolve: () => void; reject: (error: Error) => void }

export function observedPacer(stepMs = 20): ObservedPacer {
  const stepped = steppedPacer(stepMs);
  const waiters = new Set<Waiter>();
  let frozen: { resumeWhen: () => boolean } | undefined;
  const api: ObservedPacer = {
    description: `${stepped.description}, observed`,
    idleAdvanceMs: () => stepped.idleAdvanceMs(),
    wallMsFor: (simMs) => stepped.wallMsFor(simMs),
    next() {
      for (const waiter of waiters) {
        if (waiter.condition()) {
          waiters.delete(waiter);
          waiter.resolve();
        } else if (--waiter.framesLeft <= 0) {
          waiters.delete(waiter);
          waiter.reject(new Error('the awaited simulation state was not reached'));
        }
      }
      if (frozen !== undefined) {
        const { resumeWhen } = frozen;
        frozen = undefined;
        return whenTrue(resumeWhen).then(() => stepped.next());
      }
      return stepped.next();
    },
    until(condition, maxFrames = 10_000) {
      if (condition()) return Promise.resolve();
      return new Promise((resolve, reject) => waiters.add({ condition, framesLeft: maxFrames, resolve, reject }));
    },
    freeze(at, resumeWhen) {
      // Checked among the frame's waiters, so the freeze starts at the same frame `until(at)` would wake.
      return api.until(() => {
        if (!at()) return false;
        frozen = { resumeWhen };
        return true;
      });
    },
  };
  return api;
}
