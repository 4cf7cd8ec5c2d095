/**
 * `toolwright serve --store redis://...` refuses a Redis that does not keep every write (exit 2,
 * naming the fix), serves on one with a warning under --allow-volatile-store, and on a Redis with
 * the AOF serves, and after Redis comes back empty refuses the approval it had redeemed (it runs
 * once). Real redis-server and real `toolwright serve` processes on loopback.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { META, post, rpc } from '../fixtures/servers/raw-http.js';
import { errorOf, resultOf, textOf } from '../fixtures/servers/rpc-body.js';
import { missing, startRedis, stopChild, waitForOutput } from '../support/local-services.js';
import { repoPath, TSX_LOADER } from '../support/repo-paths.js';

const skip = missing('redis-server');
if (skip !== undefined) process.stdout.write(`# skipping the serve --store persistence tests: ${skip}\n`);

const CLI = repoPath('src', 'cli', 'main.ts');
const APPROVAL_SERVER = repoPath('test', 'fixtures', 'servers', 'approval-server.ts');
const CAN_ELICIT = { ...META, 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } };
const ACCEPT = { approval: { action: 'accept', content: { approve: true } } };
const ALREADY_USED = { code: -32602, message: 'Invalid params: requestState was already used; start the call again without it', data: { field: 'requestState' } };
const state = mkdtempSync(join(tmpdir(), 'tw-serve-persist-'));
after(() => rmSync(state, { recursive: true, force: true }));
const ENV = { ...process.env, TOOLWRIGHT_STATE_DIR: state, TOOLWRIGHT_STATE_SECRET: 'serve-persistence-secret-0123456789' };

function serve(args: string[]): { child: ChildProcess; stderr: () => string } {
  const child = spawn(process.execPath, ['--import', TSX_LOADER, CLI, 'serve', APPROVAL_SERVER, '--http', '0', ...args], { env: ENV, stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  child.stderr?.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return { child, stderr: () => text };
}

const exited = (child: ChildProcess): Promise<number | null> => new Promise((resolve) => child.once('exit', (code) => resolve(code)));
const call = (url: string, name: string, args: Record<string, unknown>, extra: Record<string, unknown> = {}) => post(url, rpc('tools/call', { name, arguments: args, ...extra }, 1, CAN_ELICIT));

describe('serve --store and persistence', { skip, timeout: 120_000 }, () => {
  it('a Redis without the AOF: exit 2 naming the fix, and nothing is served', async () => {
    const redis = await startRedis();
    try {
      const run = serve(['--store', redis.url]);
      const code = await Promise.race([exited(run.child), waitForOutput(run.child, /serving \d+ tool/, 'serve', 60_000).then(() => 'served')]);
      assert.equal(code, 2, run.stderr());
      assert.equal(run.stderr(), `toolwright: store ${redis.url}\ntoolwright serve: --store: refusing to keep approvals and claims in ${redis.url}: it does not keep every write (appendonly is no: writes since the last RDB snapshot are lost when Redis restarts). Fix: run Redis with \`appendonly yes\` and \`appendfsync everysec\` (or always), in redis.conf or \`CONFIG SET appendonly yes\` then \`CONFIG REWRITE\`; or, knowing that a Redis restart then lets an approval run twice, pass --allow-volatile-store (createServer: guardRedisStore(store, { allowVolatile: true }))\n`);
    } finally {
      await redis.stop();
    }
  });

  it('--allow-volatile-store: serves, with the warning', async () => {
    const redis = await startRedis();
    const run = serve(['--store', redis.url, '--allow-volatile-store']);
    try {
      await waitForOutput(run.child, /serving \d+ tool/, 'serve', 60_000);
      assert.match(run.stderr(), new RegExp(`^toolwright: store ${redis.url.replace(/\./g, '\\.')}\ntoolwright: warning: ${redis.url.replace(/\./g, '\\.')} does not keep every write \\(appendonly is no: [^)]*\\); serving anyway \\(--allow-volatile-store\\): the claim counter refuses the approvals this instance issued before a Redis restart, but other instances' approvals can run twice\n`));
    } finally {
      await stopChild(run.child);
      await redis.stop();
    }
  });

  it('--allow-volatile-store or --claim-counter-file without --store is a usage error', () => {
    for (const flag of [['--allow-volatile-store'], ['--claim-counter-file', join(state, 'x.json')]]) {
      const run = spawnSync(process.execPath, ['--import', TSX_LOADER, CLI, 'serve', APPROVAL_SERVER, '--http', '0', ...flag], { env: ENV, encoding: 'utf8', timeout: 60_000 });
      assert.equal(run.status, 2);
      assert.equal(run.stderr, `toolwright serve: ${flag[0]} only applies with --store redis://...\n`);
    }
  });

  it('a Redis with the AOF: serves without a warning; after Redis comes back empty the redeemed approval is refused and ran once', async () => {
    const redis = await startRedis({ appendonly: true });
    const run = serve(['--store', redis.url, '--claim-counter-file', join(state, 'aof.json')]);
    try {
      const line = await waitForOutput(run.child, /at (http:\/\/\S+)\n/, 'serve', 60_000);
      const url = /at (http:\/\/\S+)\n/.exec(line)![1]!;
      assert.doesNotMatch(run.stderr(), /warning/);
      const asked = resultOf((await call(url, 'launch_rocket', { target: 'moon' })).body);
      const again = { requestState: asked.requestState, inputResponses: ACCEPT };
      assert.equal(textOf((await call(url, 'launch_rocket', { target: 'moon' }, again)).body), 'launched at moon');
      await redis.kill();
      rmSync(join(redis.dir, 'appendonlydir'), { recursive: true, force: true });
      await redis.restart();
      // The server reconnects by itself and checks its counter at once: wait for that line, then replay.
      const lost = /toolwright: error: the store lost writes: /;
      if (!lost.test(run.stderr())) await waitForOutput(run.child, lost, 'the lost-writes line', 30_000);
      assert.deepEqual(errorOf((await call(url, 'launch_rocket', { target: 'moon' }, again)).body), ALREADY_USED);
      assert.deepEqual((resultOf((await call(url, 'launch_count', {})).body).structuredContent as { runs: string[] }).runs, ['rocket:moon']);
      assert.match(run.stderr(), /\ntoolwright: error: the store lost writes: .* counts 0 claims of this instance, 1 were acknowledged \(counter .*aof\.json\); Redis restarted empty or from an older snapshot\. Claims issued before now are refused, never honoured twice \(approval:elicitation expiring by \S+\); their callers must start again\.\n/);
    } finally {
      await stopChild(run.child);
      await redis.stop();
    }
  });
});
