/**
 * main.ts --heartbeat-timeout: a bad value stops the start with exit code 2 and a message naming the
 * range before anything exists (no audit-log directory, no controller); a good one is the bound the
 * server holds the robot-sim controller to (a SIGSTOPped controller is reported lost after exactly that
 * silence). Real child processes: main.ts, and the robot-sim it starts; only their PIDs are signalled.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { waitForOutput } from '../../../../test/support/local-services.js';
import { TSX_LOADER, repoPath } from '../../../../test/support/repo-paths.js';

const MAIN = repoPath('packages/robot-arm/main.ts');
const dirs: string[] = [];
const children: ChildProcessWithoutNullStreams[] = [];
after(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function workDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'robot-heartbeat-flag-'));
  dirs.push(dir);
  return dir;
}

describe('main.ts --heartbeat-timeout', () => {
  it('refuses a bad value with exit code 2 and the allowed range, before the audit log or a controller exists', () => {
    const range = '--heartbeat-timeout must be a whole number of milliseconds in [300, 60000]';
    for (const [value, extra, message] of [
      ['50', [], `${range}, got "50"`],
      ['60001', [], `${range}, got "60001"`],
      ['1500.5', [], `${range}, got "1500.5"`],
      ['2s', [], `${range}, got "2s"`],
      ['', [], `${range}, got ""`],
      ['2000', ['--controller', 'inprocess'], '--heartbeat-timeout applies to --controller process only (the in-process simulator has no link to lose)'],
    ] as const) {
      const logDir = join(workDir(), 'logs');
      const result = spawnSync(process.execPath, ['--import', TSX_LOADER, MAIN, '--port', '0', '--audit-log', join(logDir, 'audit.jsonl'), '--heartbeat-timeout', value, ...extra], { encoding: 'utf8', timeout: 60_000 });
      assert.equal(result.status, 2, `${value}: ${result.stderr}`);
      assert.ok(result.stderr.startsWith(`robot-arm: ${message}\n\nUsage:`), result.stderr);
      assert.equal(existsSync(logDir), false, `${value}: nothing was started`);
    }
  });

  it('is in --help', () => {
    const result = spawnSync(process.execPath, ['--import', TSX_LOADER, MAIN, '--help'], { encoding: 'utf8', timeout: 60_000 });
    assert.equal(result.status, 0);
    assert.match(result.stderr + result.stdout, /--heartbeat-timeout <ms>\n\s+With --controller process: how long the controller may stay silent/);
  });

  it('is the bound the server holds the controller to: a hung robot-sim is reported lost after that silence', async () => {
    const dir = workDir();
    const child = spawn(process.execPath, ['--import', TSX_LOADER, MAIN, '--port', '0', '--audit-log', join(dir, 'audit.jsonl'), '--heartbeat-timeout', '700'], { stdio: ['pipe', 'pipe', 'pipe'] });
    children.push(child);
    const bannerPattern = /arm: +robot-sim controller process \(pid (\d+)\) over a Unix socket, real time, lost after (\d+) ms without a heartbeat/;
    const banner = bannerPattern.exec(await waitForOutput(child, bannerPattern, 'main.ts', 120_000))!;
    assert.equal(banner[2], '700');
    const faultPattern = /robot-arm: arm fault \((\w+)\): (.*)\n/;
    const faulted = waitForOutput(child, faultPattern, 'main.ts', 60_000);
    process.kill(Number(banner[1]), 'SIGSTOP');
    const fault = faultPattern.exec(await faulted)!;
    assert.deepEqual([fault[1], fault[2]], ['timeout', 'controller unreachable: no heartbeat from the controller for 700 ms']);
    // The supervisor has killed the hung process (and starts another); the server still stops cleanly.
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    assert.equal(await exited, 0);
  });
});
