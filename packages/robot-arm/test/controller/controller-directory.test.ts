/**
 * The controller's socket directory (`<tmp>/toolwright-robot-sim/ctl-<pid>-XXXXXX`) is not left
 * behind (issue 33): `npm start` stopped by a SIGTERM to its process group (npm passes the signal on,
 * so the server gets two and exits at once) removes its own, and a server that starts removes those
 * of processes that are gone, never one of a live process or one whose owner it cannot tell.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { makeControllerDirectory, removeStaleControllerDirectories } from '../../controller/controller-directory.js';

const ROOT = resolve(import.meta.dirname, '..', '..', '..', '..');

/** The pid of a process that has exited (and been reaped). */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

describe('controller directories', () => {
  it('a starting server removes the directories of gone processes, and only those', () => {
    const base = mkdtempSync(join(tmpdir(), 'ctl-base-'));
    const gone = `ctl-${deadPid()}-Ab12Cd`;
    const live = `ctl-${process.ppid}-Ef34Gh`;
    for (const name of [gone, live, 'ctl-Xy56Zw']) mkdirSync(join(base, name, 'inside'), { recursive: true });
    const made = makeControllerDirectory(base);
    assert.deepEqual(readdirSync(base).sort(), [live, 'ctl-Xy56Zw', made.directory.slice(base.length + 1)].sort());
    assert.match(made.directory.slice(base.length + 1), new RegExp(`^ctl-${process.pid}-[A-Za-z0-9]{6}$`));
    assert.deepEqual(removeStaleControllerDirectories(base), [], 'its own directory is not stale');
    made.remove();
    assert.equal(existsSync(made.directory), false);
  });

  it('npm start stopped by SIGTERM to its process group leaves no controller directory', { timeout: 120_000 }, async () => {
    // TMPDIR: this server's controller directory is made under a base no other test uses.
    const tmp = mkdtempSync(join(tmpdir(), 'ctl-npm-'));
    const state = mkdtempSync(join(tmpdir(), 'ctl-state-'));
    const logs = mkdtempSync(join(tmpdir(), 'ctl-log-'));
    const base = join(tmp, 'toolwright-robot-sim');
    const npm = spawn('npm', ['start', '--silent', '--', '--port', '0', '--audit-log', join(logs, 'audit.jsonl')], {
      cwd: ROOT, detached: true, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, TMPDIR: tmp, TOOLWRIGHT_STATE_DIR: state },
    });
    let stderr = '';
    const exited = new Promise<number | null>((done) => npm.once('exit', (code) => done(code)));
    await new Promise<void>((done, fail) => {
      npm.stderr!.on('data', (chunk: Buffer) => {
        stderr += chunk.toString('utf8');
        if (stderr.includes('\nconsole: ')) done();
      });
      void exited.then((code) => fail(new Error(`npm start exited ${code} before serving: ${stderr}`)));
    });
    const made = readdirSync(base);
    assert.equal(made.length, 1, `one controller directory while serving: ${made.join(', ')}`);
    process.kill(-npm.pid!, 'SIGTERM');
    await exited;
    assert.match(stderr, /robot-arm: stopping \(SIGTERM\)/);
    assert.deepEqual(readdirSync(base), [], 'the controller directory was removed');
  });
});
