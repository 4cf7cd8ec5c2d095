/**
 * A stepped pacer (fixed simulated time per frame, as fast as the CPU allows) that lets a test wait
 * for a state of the simulation: `until(condition)` is checked at every control frame, so the test
 * wakes on simulated time, never on wall-clock sleeps.
 */
import { steppedPacer, type SimPacer } from '../../server/sim-pacer.js';

export interface ObservedPacer extends SimPacer {
  /**
   * Resolves at the first control frame at which `condition()` holds (at once if it already does);
   * rejects when `maxFrames` frames pass without it (at the default 20 ms step, 10,000 frames are
   * 200 s of simulated time).
   */
  until(condition: () => boolean, maxFrames?: number): Promise<void>;
}

interface Waiter { condition: () => boolean; framesLeft: number; resolve: () => void; reject: (error: Error) => void }

export function observedPacer(stepMs = 20): ObservedPacer {
  const stepped = steppedPacer(stepMs);
  const waiters = new Set<Waiter>();
  return {
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
      return stepped.next();
    },
    until(condition, maxFrames = 10_000) {
      if (condition()) return Promise.resolve();
      return new Promise((resolve, reject) => waiters.add({ condition, framesLeft: maxFrames, resolve, reject }));
    },
  };
}
