/** createDeadline (src/client/deadline.ts): the caller's signal plus a deadline, with the reasons AbortSignal.timeout/any give. */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { describe, it } from 'node:test';
import { createDeadline } from '../../src/client/deadline.js';

describe('createDeadline', () => {
  it('aborts with a TimeoutError when the time is up, and says the deadline did it', async () => {
    const deadline = createDeadline(5);
    // The deadline's timer is unref()'d (it must not keep a process alive): hold the loop open meanwhile.
    const keepAlive = setInterval(() => undefined, 60_000);
    try {
      await once(deadline.signal, 'abort');
    } finally {
      clearInterval(keepAlive);
    }
    assert.equal(deadline.timedOut, true);
    assert.equal((deadline.signal.reason as DOMException).name, 'TimeoutError');
    deadline.dispose();
  });

  it("follows the caller's signal with the caller's reason, not as a timeout", () => {
    const caller = new AbortController();
    const deadline = createDeadline(60_000, caller.signal);
    const reason = new Error('user cancelled');
    caller.abort(reason);
    assert.equal(deadline.signal.aborted, true);
    assert.equal(deadline.signal.reason, reason);
    assert.equal(deadline.timedOut, false);
    deadline.dispose();
  });

  it('is aborted at once for a caller signal already aborted', () => {
    const reason = new Error('gone before it began');
    const deadline = createDeadline(60_000, AbortSignal.abort(reason));
    assert.equal(deadline.signal.aborted, true);
    assert.equal(deadline.signal.reason, reason);
    deadline.dispose();
  });

  it('after dispose neither the timer nor the caller aborts it', async () => {
    const caller = new AbortController();
    const deadline = createDeadline(1, caller.signal);
    deadline.dispose();
    caller.abort(new Error('late'));
    // A timer of the same duration set after the deadline's: Node runs equal timers in the order they
    // were set, so had the deadline's timer survived dispose(), it would have fired before this one.
    await new Promise((resolve) => setTimeout(resolve, 1));
    assert.equal(deadline.signal.aborted, false);
    assert.equal(deadline.timedOut, false);
  });
});
