import assert from 'node:assert/strict';

/**
 * The one poll-until-true of the tests: checks `check` every `intervalMs` until it holds, and
 * fails with `what` once `timeoutMs` has passed. For an event that has no notification of its own
 * (a counter another process bumps, a log line); it is a bound, not a sleep standing in for an event.
 * `what` may be a function, read only on failure, to say what was seen instead (the messages so far).
 */
export async function until(check: () => boolean, what: string | (() => string), options: { timeoutMs?: number; intervalMs?: number } = {}): Promise<void> {
  const { timeoutMs = 10_000, intervalMs = 10 } = options;
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() >= deadline) assert.fail(`${typeof what === 'function' ? what() : what} did not happen within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
