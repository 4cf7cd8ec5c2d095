/**
 * A store that forgets fails closed (issue 29 item 5), with real redis-server processes on loopback:
 * the persistence check (CONFIG, and INFO where CONFIG is disabled), and the claim counter kept
 * outside Redis catching a Redis that came back empty or from an older AOF, so that an approval
 * redeemed before is refused and never runs twice (judged by the tools' run log).
 */
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { createServer } from '../../src/index.js';
import type { McpServer } from '../../src/index.js';
import { checkRedisPersistence, createRedisStore, guardRedisStore, VolatileStoreError } from '../../src/server/store/index.js';
import type { GuardedRedisStore } from '../../src/server/store/index.js';
import { approvalTools } from '../fixtures/servers/approval-tools.js';
import { META, post, rpc } from '../fixtures/servers/raw-http.js';
import { errorOf, resultOf, textOf } from '../fixtures/servers/rpc-body.js';
import { missing, startRedis } from '../support/local-services.js';
import type { RedisProcess } from '../support/local-services.js';

const skip = missing('redis-server');
if (skip !== undefined) process.stdout.write(`# skipping the claim guard tests: ${skip}\n`);

const CAN_ELICIT = { ...META, 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } };
const ACCEPT = { approval: { action: 'accept', content: { approve: true } } };
const ALREADY_USED = { code: -32602, message: 'Invalid params: requestState was already used; start the call again without it', data: { field: 'requestState' } };
const EPOCH_CHANGED = { code: -32602, message: 'Invalid params: requestState was issued before the approval store lost its memory (its epoch changed, e.g. a Redis restarted empty); start the call again without it', data: { field: 'requestState' } };
const STORE_DOWN = { code: -31503, message: 'Service unavailable: the shared store cannot be reached; nothing was done; retry shortly' };
const SECRET = 'claim-guard-secret-0123456789abcdef';
const LOST = /^toolwright: error: the store lost writes: redis:\/\/127\.0\.0\.1:\d+\/? counts (\d+) claims of this instance, (\d+) were acknowledged \(counter .*\); Redis restarted empty or from an older snapshot\. Claims issued before now are refused, never honoured twice \(approval:elicitation expiring by \S+\); their callers must start again\.$/;

const call = (url: string, name: string, args: Record<string, unknown>, extra: Record<string, unknown> = {}) => post(url, rpc('tools/call', { name, arguments: args, ...extra }, 1, CAN_ELICIT));
async function ask(url: string, target: string): Promise<string> {
  const asked = resultOf((await call(url, 'launch_rocket', { target })).body);
  assert.equal(asked.resultType, 'input_required');
  return asked.requestState as string;
}
const redeem = (url: string, target: string, state: string) => call(url, 'launch_rocket', { target }, { requestState: state, inputResponses: ACCEPT });

const scratch = mkdtempSync(join(tmpdir(), 'tw-claim-guard-'));
after(() => rmSync(scratch, { recursive: true, force: true }));
let files = 0;
const counterFile = (): string => join(scratch, `counter-${++files}.json`);

/** One server on a guarded store; `lines` collects the guard's log; `waitFor` resolves on the first line matching. */
async function instance(redis: RedisProcess, options: { counterFile?: string; allowVolatile?: boolean } = {}) {
  const lines: string[] = [];
  const waiters: { pattern: RegExp; resolve: (line: string) => void }[] = [];
  const store: GuardedRedisStore = guardRedisStore(createRedisStore({ url: redis.url, commandTimeoutMs: 1000 }), {
    counterFile: options.counterFile ?? counterFile(),
    ...(options.allowVolatile !== undefined ? { allowVolatile: options.allowVolatile } : {}),
    log: (line) => {
      lines.push(line);
      for (const w of waiters.filter((x) => x.pattern.test(line))) w.resolve(line);
    },
  });
  await store.ready();
  const { tools, runs } = approvalTools();
  const server: McpServer = createServer({ name: 'guarded', version: '1', tools, store, requestStateSecret: SECRET, authorize: () => ({ scopes: ['toolwright:approve'] }), logger: { error: () => undefined } });
  const url = (await server.listen({ port: 0 })).url;
  return {
    store, server, url, runs, lines,
    waitFor: (pattern: RegExp): Promise<string> => {
      const seen = lines.find((l) => pattern.test(l));
      if (seen !== undefined) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no log line ${pattern} within 15 s:\n${lines.join('\n')}`)), 15_000);
        waiters.push({ pattern, resolve: (line) => { clearTimeout(timer); resolve(line); } });
      });
    },
    async close() {
      await server.close();
      await store.close();
    },
  };
}

/** Kills Redis and starts it again with its AOF folder replaced by `aof` (undefined: empty, as after losing its disk). */
async function restartWith(redis: RedisProcess, aof: string | undefined): Promise<void> {
  await redis.kill();
  rmSync(join(redis.dir, 'appendonlydir'), { recursive: true, force: true });
  if (aof !== undefined) cpSync(aof, join(redis.dir, 'appendonlydir'), { recursive: true });
  await redis.restart();
}

describe('the claim counter catches a Redis that lost writes', { skip, timeout: 120_000 }, () => {
  it('Redis back empty: the approval redeemed before is refused and runs once; the loss is logged; a new approval works', async () => {
    const redis = await startRedis({ appendonly: true });
    const a = await instance(redis);
    try {
      assert.equal(await a.store.start(), true);
      const state = await ask(a.url, 'moon');
      assert.equal(textOf((await redeem(a.url, 'moon', state)).body), 'launched at moon');
      await restartWith(redis, undefined);
      await a.store.ready(10_000);
      const replay = await redeem(a.url, 'moon', state);
      assert.equal(replay.status, 200);
      assert.deepEqual(errorOf(replay.body), ALREADY_USED);
      assert.deepEqual(a.runs, ['rocket:moon'], 'the approval ran once');
      const lost = a.lines.filter((l) => LOST.test(l));
      assert.equal(lost.length, 1, a.lines.join('\n'));
      assert.deepEqual(LOST.exec(lost[0]!)!.slice(1, 3), ['0', '1']);
      assert.ok(a.lines.some((l) => /^toolwright: refused a claim of approval:elicitation expiring \S+: issued before the store lost writes \(it may have been redeemed already\)$/.test(l)), a.lines.join('\n'));
      // An approval issued after the loss is granted once, as ever.
      const fresh = await ask(a.url, 'mars');
      assert.equal(textOf((await redeem(a.url, 'mars', fresh)).body), 'launched at mars');
      assert.deepEqual(errorOf((await redeem(a.url, 'mars', fresh)).body), ALREADY_USED);
      assert.deepEqual(a.runs, ['rocket:moon', 'rocket:mars']);
    } finally {
      await a.close();
      await redis.stop();
    }
  });

  it('Redis back from an older AOF (not empty: it holds an earlier claim): the approval redeemed after that copy is refused and runs once', async () => {
    const redis = await startRedis({ appendonly: true });
    const a = await instance(redis);
    const snapshot = join(scratch, 'aof-snapshot');
    try {
      assert.equal(await a.store.start(), true);
      const first = await ask(a.url, 'io');
      assert.equal(textOf((await redeem(a.url, 'io', first)).body), 'launched at io');
      // The copy: everything Redis acknowledged so far (SIGKILL after the AOF write; nothing is lost by the kill itself).
      await redis.kill();
      cpSync(join(redis.dir, 'appendonlydir'), snapshot, { recursive: true });
      await redis.restart();
      await a.store.ready(10_000);
      const second = await ask(a.url, 'europa');
      assert.equal(textOf((await redeem(a.url, 'europa', second)).body), 'launched at europa');
      await restartWith(redis, snapshot);
      await a.store.ready(10_000);
      assert.deepEqual(errorOf((await redeem(a.url, 'europa', second)).body), ALREADY_USED);
      assert.deepEqual(errorOf((await redeem(a.url, 'io', first)).body), ALREADY_USED);
      assert.deepEqual(a.runs, ['rocket:io', 'rocket:europa']);
      assert.deepEqual(LOST.exec(a.lines.find((l) => LOST.test(l)) ?? '')?.slice(1, 3), ['1', '2'], a.lines.join('\n'));
    } finally {
      await a.close();
      await redis.stop();
    }
  });

  it('a server restarted on the same counter file finds the loss at start, before any call', async () => {
    const redis = await startRedis({ appendonly: true });
    const file = counterFile();
    const a = await instance(redis, { counterFile: file });
    let b: Awaited<ReturnType<typeof instance>> | undefined;
    try {
      const state = await ask(a.url, 'ceres');
      assert.equal(textOf((await redeem(a.url, 'ceres', state)).body), 'launched at ceres');
      await a.close();
      await restartWith(redis, undefined);
      b = await instance(redis, { counterFile: file });
      assert.equal(await b.store.start(), true);
      assert.equal(b.lines.filter((l) => LOST.test(l)).length, 1, b.lines.join('\n'));
      assert.deepEqual(errorOf((await redeem(b.url, 'ceres', state)).body), ALREADY_USED);
      assert.deepEqual([a.runs, b.runs], [['rocket:ceres'], []]);
    } finally {
      await b?.close();
      await redis.stop();
    }
  });

  it('a server restarted on the same counter file that never ran start(): its first claim finds the loss and refuses with the same answer', async () => {
    const redis = await startRedis({ appendonly: true });
    const file = counterFile();
    const a = await instance(redis, { counterFile: file });
    let b: Awaited<ReturnType<typeof instance>> | undefined;
    try {
      const state = await ask(a.url, 'hygiea');
      assert.equal(textOf((await redeem(a.url, 'hygiea', state)).body), 'launched at hygiea');
      await a.close();
      await restartWith(redis, undefined);
      // No start() and no reconnect event (a first connect is not one): the check runs inside the claim.
      b = await instance(redis, { counterFile: file });
      assert.deepEqual(b.lines, []);
      assert.deepEqual(errorOf((await redeem(b.url, 'hygiea', state)).body), ALREADY_USED);
      assert.equal(b.lines.filter((l) => LOST.test(l)).length, 1, b.lines.join('\n'));
      assert.ok(b.lines.some((l) => /issued before the store lost writes/.test(l)), b.lines.join('\n'));
      assert.deepEqual([a.runs, b.runs], [['rocket:hygiea'], []]);
    } finally {
      await b?.close();
      await redis.stop();
    }
  });

  it('two instances on one Redis back empty: the second, which never claimed anything, refuses the redeemed approval by the store epoch (checked in the same script as the counter)', async () => {
    const redis = await startRedis({ appendonly: true });
    const a = await instance(redis);
    const b = await instance(redis);
    try {
      const state = await ask(a.url, 'vesta');
      assert.equal(textOf((await redeem(a.url, 'vesta', state)).body), 'launched at vesta');
      await restartWith(redis, undefined);
      // A checks its counter as soon as it reconnects: wait for that event, then replay on B.
      await a.waitFor(LOST);
      await b.store.ready(10_000);
      assert.deepEqual(errorOf((await redeem(b.url, 'vesta', state)).body), EPOCH_CHANGED);
      assert.deepEqual([a.runs, b.runs], [['rocket:vesta'], []]);
      assert.equal(b.lines.filter((l) => LOST.test(l)).length, 0, 'B lost nothing of its own');
    } finally {
      await a.close();
      await b.close();
      await redis.stop();
    }
  });
});

describe('the persistence check', { skip, timeout: 60_000 }, () => {
  it('a Redis without the AOF: start() refuses naming the fix, and an approval is refused with 503 while nothing runs', async () => {
    const redis = await startRedis();
    const a = await instance(redis);
    try {
      await assert.rejects(a.store.start(), (error: unknown) => {
        assert.ok(error instanceof VolatileStoreError);
        assert.equal(error.message, `refusing to keep approvals and claims in redis://127.0.0.1:${redis.port}: it does not keep every write (appendonly is no: writes since the last RDB snapshot are lost when Redis restarts). Fix: run Redis with \`appendonly yes\` and \`appendfsync everysec\` (or always), in redis.conf or \`CONFIG SET appendonly yes\` then \`CONFIG REWRITE\`; or, knowing that a Redis restart then lets an approval run twice, pass --allow-volatile-store (createServer: guardRedisStore(store, { allowVolatile: true }))`);
        return true;
      });
      const state = await ask(a.url, 'pluto');
      const refused = await redeem(a.url, 'pluto', state);
      assert.equal(refused.status, 503);
      assert.deepEqual(errorOf(refused.body), STORE_DOWN);
      assert.deepEqual(a.runs, []);
    } finally {
      await a.close();
      await redis.stop();
    }
  });

  it('allowVolatile: starts with a warning, and the counter still refuses this instance\'s approvals after Redis restarts empty', async () => {
    const redis = await startRedis();
    const a = await instance(redis, { allowVolatile: true });
    try {
      assert.equal(await a.store.start(), true);
      assert.deepEqual(a.lines, [`toolwright: warning: redis://127.0.0.1:${redis.port} does not keep every write (appendonly is no: writes since the last RDB snapshot are lost when Redis restarts); serving anyway (--allow-volatile-store): the claim counter refuses the approvals this instance issued before a Redis restart, but other instances' approvals can run twice`]);
      const state = await ask(a.url, 'eris');
      assert.equal(textOf((await redeem(a.url, 'eris', state)).body), 'launched at eris');
      await redis.kill();
      await redis.restart();
      await a.waitFor(LOST);
      assert.deepEqual(errorOf((await redeem(a.url, 'eris', state)).body), ALREADY_USED);
      assert.deepEqual(a.runs, ['rocket:eris']);
    } finally {
      await a.close();
      await redis.stop();
    }
  });

  it('where CONFIG is disabled (managed Redis) it reads INFO persistence: an AOF Redis passes, one without is refused', async () => {
    const durable = await startRedis({ appendonly: true, extraArgs: ['--rename-command', 'CONFIG', ''] });
    const volatile = await startRedis({ extraArgs: ['--rename-command', 'CONFIG', '', '--maxmemory-policy', 'allkeys-lru'] });
    const stores = [createRedisStore({ url: durable.url }), createRedisStore({ url: volatile.url })];
    try {
      await Promise.all(stores.map((s) => s.ready()));
      assert.deepEqual(await checkRedisPersistence(stores[0]!.command), { durable: true, source: 'info', appendonly: true, appendfsync: undefined, maxmemoryPolicy: 'noeviction', problems: [] });
      assert.deepEqual(await checkRedisPersistence(stores[1]!.command), {
        durable: false, source: 'info', appendonly: false, appendfsync: undefined, maxmemoryPolicy: 'allkeys-lru',
        problems: ['appendonly is no: writes since the last RDB snapshot are lost when Redis restarts', 'maxmemory-policy is allkeys-lru: Redis may evict a claim'],
      });
    } finally {
      await Promise.all(stores.map((s) => s.close()));
      await durable.stop();
      await volatile.stop();
    }
  });

  it('with CONFIG: appendfsync no is refused, always passes', async () => {
    const lazy = await startRedis({ appendonly: true, extraArgs: ['--appendfsync', 'no'] });
    const store = createRedisStore({ url: lazy.url });
    try {
      await store.ready();
      const verdict = await checkRedisPersistence(store.command);
      assert.deepEqual(verdict, { durable: false, source: 'config', appendonly: true, appendfsync: 'no', maxmemoryPolicy: 'noeviction', problems: ['appendfsync is no: the operating system decides when the AOF reaches the disk'] });
      await store.command(['CONFIG', 'SET', 'appendfsync', 'always']);
      assert.equal((await checkRedisPersistence(store.command)).durable, true);
    } finally {
      await store.close();
      await lazy.stop();
    }
  });
});

describe('the counter file', { skip, timeout: 30_000 }, () => {
  it('is one process\'s: a second guard on the same file is refused, naming the holder', async () => {
    const redis = await startRedis({ appendonly: true });
    const file = counterFile();
    const a = await instance(redis, { counterFile: file });
    const other = createRedisStore({ url: redis.url });
    try {
      assert.throws(() => guardRedisStore(other, { counterFile: file }), {
        message: `claim counter ${file} is in use by process ${process.pid} (this process) (lock ${file}.lock); give each server instance its own --claim-counter-file`,
      });
    } finally {
      await other.close();
      await a.close();
      await redis.stop();
    }
  });

  it('a damaged file is refused, not replaced', async () => {
    const file = counterFile();
    writeFileSync(file, '{"v":1,"count":');
    const store = createRedisStore({ url: 'redis://127.0.0.1:1' });
    try {
      assert.throws(() => guardRedisStore(store, { counterFile: file }), {
        message: `claim counter ${file} is damaged (not JSON); it is what detects a Redis that lost approvals, so it is not replaced silently: restore it, or if you know Redis kept every write, delete it`,
      });
    } finally {
      await store.close();
    }
  });
});
