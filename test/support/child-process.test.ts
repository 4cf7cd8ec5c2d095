/** The one child-process harness on tiny programs: bounded life, lines, waiting for a line, stop by pid, process groups. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { runChild, startChild } from './child-process.js';
import { until } from './until.js';

const node = (source: string) => ['-e', source];

/** Whether `pid` still runs: signal 0 reaches it, and (where /proc tells) it is not a zombie left for a parent that does not reap. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

describe('child-process harness', () => {
  it('runChild: exit code, both streams whole, stdin written and closed', async () => {
    const run = await runChild({ args: node("process.stdin.on('data', (d) => process.stdout.write('got ' + d)); process.stdin.on('end', () => { process.stderr.write('err'); process.exitCode = 3; })"), input: 'in' });
    assert.deepEqual(run, { code: 3, signal: null, timedOut: false, stdout: 'got in', stderr: 'err' });
  });

  it('a child outliving timeoutMs is killed and says so', async () => {
    const run = await runChild({ args: node('setInterval(() => {}, 1000)'), timeoutMs: 200 });
    assert.deepEqual([run.timedOut, run.signal], [true, 'SIGKILL']);
  });

  it('collects lines per stream (a last line without newline included) and tells each to listeners', async () => {
    const child = startChild({ args: node("console.log('a'); console.error('b'); process.stdout.write('c\\r\\nd')") });
    const heard: string[] = [];
    child.onLine((line, stream) => heard.push(`${stream}:${line}`));
    await child.exited;
    assert.deepEqual([child.lines('stdout'), child.lines('stderr')], [['a', 'c', 'd'], ['b']]);
    assert.ok(heard.includes('stdout:d') && heard.includes('stderr:b'), heard.join(', '));
  });

  it('waitForLine finds a line already printed or still to come, on the stream asked', async () => {
    const child = startChild({ args: node("console.error('ready at http://127.0.0.1:1/mcp'); setTimeout(() => console.log('later 7'), 50); setInterval(() => {}, 1000)"), timeoutMs: 10_000 });
    try {
      assert.equal((await child.waitForLine(/later (\d+)/, { stream: 'stdout' }))[1], '7');
      assert.equal((await child.waitForLine(/at (http:\S+)/))[1], 'http://127.0.0.1:1/mcp');
    } finally {
      await child.stop();
    }
  });

  it('waitForLine rejects with the output when the child exits first, or when the wait runs out', async () => {
    const exits = startChild({ args: node("console.error('port in use'); process.exit(1)") });
    await assert.rejects(exits.waitForLine(/never/), { message: /exited \(code 1, signal null\), waiting for a line matching \/never\/; output: port in use$/ });
    const silent = startChild({ args: node("console.error('starting'); setInterval(() => {}, 1000)"), timeoutMs: 10_000 });
    try {
      await silent.waitForLine(/starting/);
      await assert.rejects(silent.waitForLine(/never/, { timeoutMs: 100 }), { message: /no such line within 100 ms, waiting for a line matching \/never\/; output: starting$/ });
    } finally {
      await silent.stop();
    }
  });

  it('stop ends the process by its pid; with group, whatever it started too', async () => {
    const parent = startChild({ args: node("const c = require('node:child_process').spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' }); console.log('child ' + c.pid); setInterval(() => {}, 1000)"), group: true, timeoutMs: 10_000 });
    const grandchild = Number((await parent.waitForLine(/^child (\d+)$/))[1]);
    assert.ok(alive(grandchild));
    const exit = await parent.stop();
    assert.equal(exit.signal, 'SIGTERM');
    assert.equal(parent.running(), false);
    assert.equal(alive(parent.pid!), false);
    // Signalled with the group; its death is the kernel's, a moment later.
    await until(() => !alive(grandchild), 'the grandchild ending with its group', { timeoutMs: 5000 });
  });

  it('a command that cannot start ends with spawnError, and waiting for it rejects', async () => {
    const child = startChild({ command: '/nonexistent/program', args: [] });
    const exit = await child.exited;
    assert.match(String(exit.spawnError?.message), /ENOENT/);
    await assert.rejects(child.waitForLine(/x/), { message: /could not start \(spawn \/nonexistent\/program ENOENT\)/ });
  });
});
