import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { readAuditLog } from '../../server/audit-log.js';

const ROOT = resolve(import.meta.dirname, '..', '..', '..', '..');
const MAIN = join(ROOT, 'examples', 'robot-arm', 'main.ts');
const run = promisify(execFile);

const STATUS_TEXT = '  [text] Universal Robots UR5e: idle; TCP at (-491.9, -133.3, 487.9) mm (base frame); holding nothing.\n';

/** Runs main.ts over HTTP from `cwd` until `body` settles; gives it the URL and the banner. */
async function withRobotServer(cwd: string, audit: string, body: (url: string, banner: string) => Promise<void>): Promise<void> {
  const child = spawn(process.execPath, ['--import', join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs'), MAIN, '--port', '0', '--audit-log', audit], { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
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
      assert.ok(banner.includes(`  toolwright call: node --import tsx src/cli/main.ts call ${url} get_device_status\n`), banner);
      assert.ok(!banner.includes('curl'), banner);
      const { stdout } = await run(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'call', url, 'get_device_status'], { cwd: ROOT, timeout: 30_000 });
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
      assert.equal(command, `node --import ${join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')} ${join(ROOT, 'src', 'cli', 'main.ts')} call ${url} get_device_status`);
      const [node, ...args] = command.split(' ');
      assert.equal(node, 'node');
      const { stdout } = await run(process.execPath, args, { cwd: elsewhere, timeout: 30_000 });
      assert.ok(stdout.includes(`\nContent:\n${STATUS_TEXT}`), stdout);
    });
  });
});
