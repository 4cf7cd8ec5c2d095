/**
 * "Address in use" says how to pick another port (issue 33 item 5), for `toolwright serve --http` and for the
 * robot's `npm start` (packages/robot-arm/main.ts): a real listener holds the port, the real CLI is a child
 * process, exit 1 with the exact line and nothing served.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { repoPath, TSX_LOADER } from '../support/repo-paths.js';

interface Run { code: number | null; stderr: string }

function run(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<Run> {
  return new Promise((done) => {
    execFile(process.execPath, ['--import', TSX_LOADER, ...args], { env, timeout: 90_000 }, (error, _stdout, stderr) => {
      done({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : null, stderr });
    });
  });
}

describe('a port already in use', { timeout: 180_000 }, () => {
  const holder = createServer((_req, res) => res.end('holder'));
  let port = 0;
  const state = mkdtempSync(join(tmpdir(), 'tw-port-in-use-'));
  before(async () => {
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    port = (holder.address() as AddressInfo).port;
  });
  after(() => {
    holder.close();
    rmSync(state, { recursive: true, force: true });
  });

  it('toolwright serve --http names the port option and exits 1', async () => {
    const result = await run([repoPath('src/cli/main.ts'), 'serve', repoPath('test/fixtures/servers/tools-array.ts'), '--http', String(port)]);
    assert.equal(result.code, 1, result.stderr);
    assert.equal(result.stderr, `toolwright serve: cannot listen on 127.0.0.1:${port}: listen EADDRINUSE: address already in use 127.0.0.1:${port}; another process is listening there: pick another port with --http <port> (0 picks a free one)\n`);
  });

  it('npm start (the robot) names --port and PORT and exits 1, the holder untouched', async () => {
    const env = { ...process.env, TOOLWRIGHT_STATE_DIR: state };
    const result = await run([repoPath('packages/robot-arm/main.ts'), '--port', String(port), '--controller', 'inprocess', '--audit-log', join(mkdtempSync(join(state, 'log-')), 'audit.jsonl')], env);
    assert.equal(result.code, 1, result.stderr);
    assert.match(result.stderr, new RegExp(`^robot-arm: cannot listen on 127\\.0\\.0\\.1:${port}: listen EADDRINUSE: address already in use 127\\.0\\.0\\.1:${port}; another process is listening there: pick another port with --port <port> or PORT=<port> \\(npm start -- --port 3001\\)$`, 'm'));
    assert.equal(await (await fetch(`http://127.0.0.1:${port}/`)).text(), 'holder');
  });
});
