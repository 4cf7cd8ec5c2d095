import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { readAuditLog } from '../../server/audit-log.js';
import { untilFile } from '../../../../test/support/file-events.js';
import { robotHeaderArgs } from '../../../../test/support/robot-token.js';
import { robotTokenPath } from '../../server/mcp-access.js';

const ROOT = resolve(import.meta.dirname, '..', '..', '..', '..');
const MAIN = join(ROOT, 'packages', 'robot-arm', 'main.ts');
const run = promisify(execFile);

const STATUS_TEXT = '  [text] Universal Robots UR5e: idle; TCP at (-491.9, -133.3, 487.9) mm (base frame); holding nothing.\n';

/** Runs main.ts over HTTP from `cwd` until `body` settles; gives it the URL and the banner. */
async function withRobotServer(cwd: string, audit: string, body: (url: string, banner: string) => Promise<void>, extraArgs: readonly string[] = []): Promise<void> {
  const child = spawn(process.execPath, ['--import', join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs'), MAIN, '--port', '0', '--audit-log', audit, ...extraArgs], { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
  const killer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  try {
    let stderr = '';
    const url = await new Promise<string>((done, reject) => {
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString('utf8');
        // The banner is written in one piece; wait for its last line.
        const match = /enter (http:\/\/127\.0\.0\.1:\d+\/mcp)[\s\S]*mcpServers/.exec(stderr);
        if (match !== null) done(match[1]!);
      });
      child.once('exit', (code) => reject(new Error(`exited with ${code}: ${stderr}`)));
    });
    await body(url, stderr);
  } finally {
    clearTimeout(killer);
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
  }
}

describe('toolwright call against the running robot server, as the start-up banner shows it', () => {
  it('the banner prints the real command; it reads the device status', async () => {
    const audit = join(mkdtempSync(join(tmpdir(), 'robot-call-')), 'audit.jsonl');
    await withRobotServer(ROOT, audit, async (url, banner) => {
      // The README's form, which works right after `npm ci` (prepare builds dist/).
      // The token is read from its file when the command runs; the banner never shows it.
      assert.ok(banner.includes(`  toolwright call: node dist/cli/main.js call ${url} get_device_status --header "Authorization: Bearer $(cat ${robotTokenPath()})"\n`), banner);
      assert.ok(!banner.includes('curl'), banner);
      const { stdout } = await run(process.execPath, ['dist/cli/main.js', 'call', url, 'get_device_status', ...robotHeaderArgs()], { cwd: ROOT, timeout: 30_000 });
      assert.match(stdout, /^Stages:\n  repair {6}skipped  no --repair\n  request {5}ok {7}answered in \d+ ms over http\n  validation  skipped  the tool declares no outputSchema\n/);
      assert.ok(stdout.includes(`\nContent:\n${STATUS_TEXT}`), stdout);
      assert.ok(stdout.includes('\n\nStructured content:\n  {\n    "arm": "Universal Robots UR5e",\n    "state": "idle",\n'), stdout);
      assert.match(stdout, /\nisError: false\n$/);
      assert.ok(readAuditLog(audit).records.some((r) => r.type === 'tool_call' && r.tool === 'get_device_status' && r.transport === 'http' && r.outcome === 'ok'));
    });
  });

  it('started from another directory, the banner prints absolute paths that work from there', async () => {
    const elsewhere = mkdtempSync(join(tmpdir(), 'robot-call-cwd-'));
    await withRobotServer(elsewhere, join(elsewhere, 'audit.jsonl'), async (url, banner) => {
      const line = banner.split('\n').find((l) => l.startsWith('  toolwright call: '));
      assert.ok(line !== undefined, banner);
      const command = line.slice('  toolwright call: '.length);
      assert.equal(command, `node ${join(ROOT, 'dist', 'cli', 'main.js')} call ${url} get_device_status --header "Authorization: Bearer $(cat ${robotTokenPath()})"`);
      const { stdout } = await run('sh', ['-c', command], { cwd: elsewhere, timeout: 30_000 });
      assert.ok(stdout.includes(`\nContent:\n${STATUS_TEXT}`), stdout);
    });
  });

  it('toolwright call --task runs a motion as a task: status and progress (with the TCP pose) on stderr, the completed result on stdout', async () => {
    const audit = join(mkdtempSync(join(tmpdir(), 'robot-call-task-')), 'audit.jsonl');
    await withRobotServer(ROOT, audit, async (url) => {
      const args = JSON.stringify({ target_position: { x_mm: -400, y_mm: -133, z_mm: 400 }, speed: 0.2 });
      const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'call', url, 'move_arm_to_pose', args, '--task', ...robotHeaderArgs()], { cwd: ROOT, timeout: 60_000 });
      const taskId = /^toolwright call: task (\S+) started \(working\); Ctrl-C cancels it$/m.exec(stderr)?.[1];
      assert.ok(taskId !== undefined, stderr);
      assert.match(stderr, /^toolwright call: progress 0\.\d+\/1 motion \d+%, TCP at \(-?\d+\.\d, -?\d+\.\d, -?\d+\.\d\) mm \(base frame\)$/m);
      // The task keeps its last progress message as statusMessage when it completes.
      assert.match(stderr, /^toolwright call: status completed \(motion 100%, TCP at \(-400\.0, -133\.0, 400\.0\) mm \(base frame\)\)$/m);
      assert.ok(stdout.includes('"status": "completed"'), stdout);
      assert.match(stdout, /\nisError: false\n$/);
      const record = readAuditLog(audit).records.find((r) => r.type === 'tool_call' && r.task_id === taskId);
      assert.equal(record?.outcome, 'ok');
    }, ['--approval', 'off']);
  });

  it('Ctrl-C during toolwright call --task cancels the task on the server: the arm stops, the command exits 130', async () => {
    const audit = join(mkdtempSync(join(tmpdir(), 'robot-call-cancel-')), 'audit.jsonl');
    await withRobotServer(ROOT, audit, async (url) => {
      const args = JSON.stringify({ target_position: { x_mm: -400, y_mm: -300, z_mm: 150 }, speed: 0.1 });
      const cli = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'call', url, 'move_arm_to_pose', args, '--task', ...robotHeaderArgs()], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
      const killer = setTimeout(() => cli.kill('SIGKILL'), 60_000);
      let stderr = '';
      let interrupted = false;
      const exited = new Promise<number | null>((done) => cli.once('exit', (code) => done(code)));
      cli.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString('utf8');
        // Interrupted once the first progress report shows the arm moving.
        if (!interrupted && /toolwright call: progress /.test(stderr)) {
          interrupted = true;
          cli.kill('SIGINT');
        }
      });
      const code = await exited;
      clearTimeout(killer);
      assert.equal(code, 130, stderr);
      assert.match(stderr, /^toolwright call: cancelling task \S+ \(Ctrl-C again to stop waiting\)$/m);
      const taskId = /^toolwright call: task (\S+) started/m.exec(stderr)?.[1];
      // The audit record is written when the controlled stop has brought the arm to rest.
      const record = await untilFile(dirname(audit), () => readAuditLog(audit).records.find((r) => r.type === 'tool_call' && r.task_id === taskId), 'the cancelled task\'s audit record');
      assert.equal(record.outcome, 'cancelled');
      assert.equal((record.motion as { status: string }).status, 'cancelled');
    }, ['--approval', 'off']);
  });
});
