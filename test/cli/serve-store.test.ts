/** `toolwright serve --store`: a bad URL is usage (exit 2); an unreachable Redis is a warning, and the server still serves what needs no store. */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { it } from 'node:test';
import { rpc, standardHeaders } from '../fixtures/servers/raw-http.js';
import { freePort, stopChild, waitForOutput } from '../support/local-services.js';
import { repoPath, TSX_LOADER } from '../support/repo-paths.js';
import { SCALEOUT_TOOLS } from '../support/scaleout-cluster.js';

const CLI = repoPath('src', 'cli', 'main.ts');

it('a --store URL that is not redis:// or rediss:// exits 2 with the reason', () => {
  const run = spawnSync(process.execPath, ['--import', TSX_LOADER, CLI, 'serve', SCALEOUT_TOOLS, '--http', '0', '--store', 'http://127.0.0.1:6379'], { encoding: 'utf8', timeout: 60_000 });
  assert.equal(run.status, 2);
  assert.equal(run.stderr, 'toolwright serve: --store: createRedisStore: url scheme must be redis: or rediss:, got "http:"\n');
});

it('an unreachable Redis is a warning: read-only calls are served, calls needing the store get 503', async () => {
  const deadPort = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.TOOLWRIGHT_STATE_SECRET;
  const child = spawn(process.execPath, ['--import', TSX_LOADER, CLI, 'serve', SCALEOUT_TOOLS, '--http', '0', '--store', `redis://127.0.0.1:${deadPort}`], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  try {
    const line = await waitForOutput(child, /at (http:\/\/\S+)\n/, 'toolwright serve', 30_000);
    const url = /at (http:\/\/\S+)\n/.exec(line)![1]!;
    const read = rpc('tools/call', { name: 'read_state', arguments: {} });
    const ok = await fetch(url, { method: 'POST', headers: standardHeaders(read), body: JSON.stringify(read) });
    assert.equal(ok.status, 200);
    const limited = rpc('tools/call', { name: 'search', arguments: { q: 'x' } });
    const refused = await fetch(url, { method: 'POST', headers: standardHeaders(limited), body: JSON.stringify(limited) });
    assert.equal(refused.status, 503);
    assert.deepEqual(((await refused.json()) as { error: unknown }).error, { code: -31503, message: 'Service unavailable: the shared store cannot be reached; nothing was done; retry shortly' });
    assert.match(stderr, new RegExp(`toolwright: warning: store unavailable: redis redis://127\\.0\\.0\\.1:${deadPort}: not reachable within 5000 ms .*; serving anyway, calls that need the store are refused until it is back\n`));
    assert.match(stderr, /toolwright: warning: TOOLWRIGHT_STATE_SECRET is not set: approvals issued by this instance are not accepted by other instances\n/);
  } finally {
    await stopChild(child);
  }
});
