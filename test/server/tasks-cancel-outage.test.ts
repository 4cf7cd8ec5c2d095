/**
 * tasks/cancel while the shared store (real redis-server, with the AOF) is down: a task running on
 * this instance stops at once and its record says cancelled once Redis is back; a task on another
 * instance, or one nobody knows, is refused with a 503 that says why, and nothing is stopped.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createServer, defineTool } from '../../src/index.js';
import type { McpServer } from '../../src/index.js';
import { createRedisStore } from '../../src/server/store/index.js';
import type { RedisStore } from '../../src/server/store/index.js';
import { TASKS_CLIENT_META } from '../fixtures/servers/in-process.js';
import { rpc, standardHeaders } from '../fixtures/servers/raw-http.js';
import { errorOf, resultOf } from '../fixtures/servers/rpc-body.js';
import { gate } from '../support/gate.js';
import type { Gate } from '../support/gate.js';
import { missing, startRedis } from '../support/local-services.js';
import type { RedisProcess } from '../support/local-services.js';
import { lastMessage } from '../support/sse-events.js';

const skip = missing('redis-server');
if (skip !== undefined) process.stdout.write(`# skipping the cancel-during-outage tests: ${skip}\n`);

/** One request over real HTTP (not the schema-checked `post`: the pinned schema has no tasks/* results). */
async function send(url: string, method: string, params: Record<string, unknown>): Promise<{ status: number; body: Record<string, unknown> }> {
  const message = rpc(method, params, 1, TASKS_CLIENT_META);
  const name = typeof params.name === 'string' ? params.name : params.taskId;
  const headers: Record<string, string> = { ...standardHeaders(message), ...(typeof name === 'string' ? { 'mcp-name': name } : {}) };
  const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(message), signal: AbortSignal.timeout(15_000) });
  const text = await response.text();
  return { status: response.status, body: lastMessage(text) };
}

/** One instance: its store, server, URL, log, and the gates of its `move` task. */
interface Instance {
  store: RedisStore;
  server: McpServer;
  url: string;
  logged: string[];
  started: Gate;
  aborted: Gate;
  stops: number;
  /** Resolves when the server logs a line matching `pattern`. */
  logs(pattern: RegExp): Promise<void>;
}

async function instance(redisUrl: string): Promise<Instance> {
  const store = createRedisStore({ url: redisUrl, commandTimeoutMs: 1000 });
  await store.ready();
  const waiting: { pattern: RegExp; resolve: () => void }[] = [];
  const self = { store, logged: [] as string[], started: gate(), aborted: gate(), stops: 0 } as Instance;
  const move = defineTool({
    name: 'move', inputSchema: { type: 'object' }, task: true,
    run: (_args, ctx) => new Promise((resolve) => {
      self.started.open();
      ctx.signal.addEventListener('abort', () => {
        self.stops++;
        self.aborted.open();
        resolve('stopped where it was');
      }, { once: true });
    }),
  });
  self.server = createServer({
    name: 'outage', version: '1', tools: [move], store,
    logger: {
      error: (message) => {
        self.logged.push(message);
        for (const w of waiting.filter((x) => x.pattern.test(message))) w.resolve();
      },
    },
  });
  self.url = (await self.server.listen({ port: 0 })).url;
  self.logs = (pattern) => self.logged.some((m) => pattern.test(m)) ? Promise.resolve() : new Promise((resolve) => waiting.push({ pattern, resolve }));
  return self;
}

describe('tasks/cancel while the store is down', { skip, timeout: 60_000 }, () => {
  let redis: RedisProcess;
  let a: Instance;
  let b: Instance;
  before(async () => {
    redis = await startRedis({ appendonly: true });
    a = await instance(redis.url);
    b = await instance(redis.url);
  });
  after(async () => {
    for (const each of [a, b]) {
      await each?.server.close();
      await each?.store.close();
    }
    await redis?.stop();
  });

  it('on the instance running the task: acked, the handler stops at once, and the record says cancelled when Redis is back', async () => {
    const created = resultOf((await send(a.url, 'tools/call', { name: 'move', arguments: {} })).body);
    const taskId = created.taskId as string;
    await a.started.opened;
    await redis.kill();
    const ack = await send(a.url, 'tasks/cancel', { taskId });
    assert.equal(ack.status, 200);
    assert.equal(resultOf(ack.body).resultType, 'complete');
    await a.aborted.opened;
    assert.equal(a.stops, 1);
    // The handler's own ending could not be written either: wait for that before Redis returns, so the deferred cancel is what lands.
    await a.logs(/^task failed$/);
    assert.deepEqual(errorOf((await send(a.url, 'tasks/get', { taskId })).body), { code: -31503, message: 'Service unavailable: the shared store cannot be reached; nothing was done; retry shortly' });
    await redis.restart();
    await a.logs(/^tasks: the store is back; recorded the cancel accepted while it was unreachable$/);
    const read = resultOf((await send(a.url, 'tasks/get', { taskId })).body);
    assert.deepEqual([read.status, read.statusMessage], ['cancelled', 'Cancelled by the client (while the store was unreachable)']);
    assert.equal(a.stops, 1);
  });

  it('on another instance (or unknown): 503 saying the task does not run here and was not cancelled; the task keeps running', async () => {
    a.started = gate();
    a.aborted = gate();
    a.stops = 0;
    const created = resultOf((await send(a.url, 'tools/call', { name: 'move', arguments: {} })).body);
    const taskId = created.taskId as string;
    await a.started.opened;
    await redis.kill();
    for (const id of [taskId, 'no-such-task']) {
      const refused = await send(b.url, 'tasks/cancel', { taskId: id });
      assert.equal(refused.status, 503);
      assert.deepEqual(errorOf(refused.body), { code: -31503, message: `Service unavailable: the shared store cannot be reached and task ${id} does not run on this instance, so it was not cancelled; retry shortly` });
    }
    assert.equal(a.stops, 0, 'the task on A was not stopped');
    await redis.restart();
    await b.store.ready(10_000);
    await a.store.ready(10_000);
    // Once the store is back, the same cancel on B reaches A through the store's channel.
    assert.equal(resultOf((await send(b.url, 'tasks/cancel', { taskId })).body).resultType, 'complete');
    await a.aborted.opened;
    assert.equal(a.stops, 1);
  });
});
