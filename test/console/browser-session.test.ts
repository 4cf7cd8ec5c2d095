/**
 * The shared browser test setup (test/console/browser-session.ts) when a step fails: the error
 * reaches the test unchanged and what was started is closed, so a failed `before` leaves no server
 * child behind. The path where every step succeeds is what the console browser tests run.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { openBrowserSession, openConsoleSession } from './browser-session.js';

/** Whether a process with this pid still runs (signal 0 only asks). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw error;
  }
}

describe('browser session setup that fails', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'browser-session-'));
  let childPid: number | undefined;
  after(() => {
    // Only if the assertion below failed: do not leave the child running.
    if (childPid !== undefined && running(childPid)) process.kill(childPid, 'SIGKILL');
    rmSync(scratch, { recursive: true, force: true });
  });

  it('a server that fails to start: its error is rethrown and nothing is stopped that never started', async (t) => {
    const stopped: string[] = [];
    const failure = new Error('the test server did not start');
    const opening = openBrowserSession(() => Promise.reject(failure), async (server: string) => void stopped.push(server));
    const outcome = await opening.then((session) => session, (error: unknown) => error);
    if (outcome === undefined) return t.skip('chromium missing');
    assert.equal(outcome, failure);
    assert.deepEqual(stopped, []);
  });

  it('a console page that fails to load: the error names the page and the server child is stopped', async (t) => {
    const pidFile = join(scratch, 'banner.pid');
    const opening = openConsoleSession('test/fixtures/console/banner-only-server.ts', [], { env: { BANNER_PID_FILE: pidFile } });
    const outcome = await opening.then((session) => session, (error: unknown) => error);
    if (outcome === undefined) return t.skip('chromium missing');
    assert.ok(outcome instanceof Error, `expected a failure, got ${String(outcome)}`);
    assert.match(outcome.message, /net::ERR_UNSAFE_PORT at http:\/\/127\.0\.0\.1:1\/console/);
    const pid = Number(readFileSync(pidFile, 'utf8'));
    assert.ok(pid > 0);
    childPid = pid;
    assert.equal(running(pid), false, 'the child was stopped before the error was rethrown');
  });
});
