/**
 * Hands one server's stage events to several listeners (the audit log, the console). Pass
 * `fanout.onStageEvent` to `createServer`; a listener that throws is isolated from the others.
 */
import type { StageEvent } from '../server/stages/stage-events.js';

/** See the module comment. */
export interface StageEventFanout {
  /** Give this to `createServer({ onStageEvent })`: hands each event to every listener. */
  onStageEvent(event: StageEvent): void;
  /** Adds a listener; returns its removal. */
  subscribe(listener: (event: StageEvent) => void): () => void;
}

/** Creates a fan-out, optionally with a first listener that is always there. */
export function createStageEventFanout(first?: (event: StageEvent) => void): StageEventFanout {
  const listeners = new Set<(event: StageEvent) => void>();
  return {
    onStageEvent(event) {
      first?.(event);
      for (const listener of listeners) {
        try {
          listener(event);
        } catch {
          // A console bug must not break the call it observes.
        }
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
