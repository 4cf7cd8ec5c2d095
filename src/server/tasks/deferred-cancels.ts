/**
 * Cancels accepted while the store was unreachable. `tasks/cancel` of a task that runs on this
 * instance stops it at once (its signal aborts locally: a motion must not wait for Redis); its
 * record, which only the store holds, is marked cancelled when the store answers again. Retried
 * with capped backoff until written, until the record would have expired anyway, or until the
 * server closes.
 */
import { StoreUnavailableError } from '../store/store.js';
import type { ServerLogger } from '../server-logger.js';

const FIRST_RETRY_MS = 100;
const MAX_RETRY_MS = 2000;

/** The pending writes, by task id. */
export class DeferredCancels {
  readonly #timers = new Map<string, NodeJS.Timeout>();
  readonly #write: (taskId: string) => Promise<unknown>;
  readonly #logger: ServerLogger;
  #closed = false;

  /** `write` marks the record cancelled (a no-op when it is terminal already); it rejects with StoreUnavailableError while the store is down. */
  constructor(write: (taskId: string) => Promise<unknown>, logger: ServerLogger) {
    this.#write = write;
    this.#logger = logger;
  }

  /** Writes the cancel of `taskId` once the store answers, trying for at most `ttlMs`. */
  add(taskId: string, ttlMs: number): void {
    if (this.#closed || this.#timers.has(taskId)) return;
    const giveUpAt = Date.now() + ttlMs;
    const attempt = (delay: number): void => {
      const timer = setTimeout(() => {
        this.#write(taskId).then(
          () => {
            this.#timers.delete(taskId);
            this.#logger.error('tasks: the store is back; recorded the cancel accepted while it was unreachable', { task: taskId });
          },
          (error: unknown) => {
            if (this.#closed) return;
            if (error instanceof StoreUnavailableError && Date.now() + delay < giveUpAt) return attempt(Math.min(delay * 2, MAX_RETRY_MS));
            this.#timers.delete(taskId);
            this.#logger.error('tasks: could not record the cancel accepted while the store was unreachable', { task: taskId, error: error instanceof Error ? error.message : String(error) });
          },
        );
      }, delay);
      timer.unref();
      this.#timers.set(taskId, timer);
    };
    attempt(FIRST_RETRY_MS);
  }

  /** Task ids whose cancel is not written yet. */
  get pending(): string[] {
    return [...this.#timers.keys()];
  }

  /** Stops retrying (server close). */
  close(): void {
    this.#closed = true;
    for (const timer of this.#timers.values()) clearTimeout(timer);
    this.#timers.clear();
  }
}
