/**
 * Waiting for a file to reach a state written by another part of the system (a server's audit log,
 * a child process's output file) on the file's own change events instead of polling with sleeps.
 */
import { watch } from 'node:fs';

/**
 * Resolves with the first non-undefined value of `check()`, evaluated now and after every change
 * of `path`; rejects with `what` in the message after `timeoutMs` (a bound for a broken run, not a
 * timing assumption). The file must exist (or its directory must, if `check` tolerates its absence:
 * then watch the directory by passing it as `path`).
 */
export function untilFile<T>(path: string, check: () => T | undefined, what: string, timeoutMs = 60_000): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const watcher = watch(path);
    const finish = (outcome: () => void): void => {
      clearTimeout(timer);
      watcher.close();
      outcome();
    };
    const evaluate = (): void => {
      let value: T | undefined;
      try {
        value = check();
      } catch (error) {
        finish(() => reject(error));
        return;
      }
      if (value !== undefined) finish(() => resolve(value as T));
    };
    const timer = setTimeout(() => finish(() => reject(new Error(`${what}: not seen in ${path} within ${timeoutMs} ms`))), timeoutMs);
    watcher.on('change', evaluate);
    watcher.on('error', (error) => finish(() => reject(error)));
    evaluate();
  });
}
