/**
 * Task status notifications and shutdown: `notifications/tasks` on a `subscriptions/listen` stream
 * that names the task (only the creator's streams get them), a malformed `taskIds` filter, and a
 * server closing with a task still running (the task ends `failed`, its handler is aborted).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createMemoryStore, createServer, defineTool, elicitInput } from '../../src/index.js';
import type { McpServer } from '../../src/index.js';
import { sendInProcess, turnsUntil } from '../fixtures/servers/in-process.js';
import type { InProcessOptions, Json } from '../fixtures/servers/in-process.js';
import { gate } from '../support/gate.js';

// Who the authorizer says is calling: read synchronously when a message enters the pipeline.
let currentSubject = 'alice';

/** One message through the pipeline as a stdio transport; `subject` is who the authorizer sees. */
function send(server: McpServer, method: string, params: Json, options: InProcessOptions & { subject?: string } = {}): Promise<Json> {
  currentSubject = options.subject ?? 'alice';
  return sendInProcess(server, method, params, options);
}

describe('notifications/tasks', () => {
  it('a listen stream naming the task gets each status change with the DetailedTask; another subject\'s stream gets none', async () => {
    const release = gate();
    const job = defineTool({ name: 'job', inputSchema: { type: 'object' }, task: true, run: async (_a, ctx) => { ctx.progress(1, 2, 'half'); await release.opened; return 'finished'; } });
    const server = createServer({ name: 's', version: '1', tools: [job], authorize: () => ({ subject: currentSubject, scopes: [] }) });
    try {
      const created = (await send(server, 'tools/call', { name: 'job', arguments: {} })).result;
      const mine: Json[] = [];
      const theirs: Json[] = [];
      const stop = new AbortController();
      const listens = [
        send(server, 'subscriptions/listen', { notifications: { taskIds: [created.taskId] } }, { notifications: mine, signal: stop.signal }),
        send(server, 'subscriptions/listen', { notifications: { taskIds: [created.taskId] } }, { subject: 'mallory', notifications: theirs, signal: stop.signal }),
      ];
      release.open();
      await turnsUntil(() => mine.some((n) => n.params?.status === 'completed'));
      const statuses = mine.filter((n) => n.method === 'notifications/tasks');
      const done = statuses.at(-1)!;
      assert.equal(done.params.taskId, created.taskId);
      assert.equal(done.params.status, 'completed');
      assert.deepEqual(done.params.result.content, [{ type: 'text', text: 'finished' }]);
      assert.equal(typeof done.params._meta['io.modelcontextprotocol/subscriptionId'], 'number');
      assert.deepEqual(theirs.filter((n) => n.method === 'notifications/tasks'), []);
      stop.abort();
      await Promise.all(listens);
    } finally {
      await server.close();
    }
  });

  it('a taskIds filter that is not an array of strings is -32602', async () => {
    const job = defineTool({ name: 'job', inputSchema: { type: 'object' }, task: true, run: () => 'x' });
    const server = createServer({ name: 's', version: '1', tools: [job] });
    try {
      const reply = await send(server, 'subscriptions/listen', { notifications: { taskIds: 'abc' } });
      assert.equal(reply.error.code, -32602);
      assert.equal(reply.error.message, 'Invalid params: notifications.taskIds must be an array of task ids');
    } finally {
      await server.close();
    }
  });
});

describe('shutdown', () => {
  it('close() fails a running task ("The server shut down while the task ran") and aborts its handler', async () => {
    let abortedSeen = false;
    const job = defineTool({
      name: 'job', inputSchema: { type: 'object' }, task: true,
      run: (_a, ctx) => new Promise((resolve) => ctx.signal.addEventListener('abort', () => { abortedSeen = true; resolve('stopped'); }, { once: true })),
    });
    const store = createMemoryStore();
    const server = createServer({ name: 's', version: '1', tools: [job], store });
    const created = (await send(server, 'tools/call', { name: 'job', arguments: {} })).result;
    await server.close();
    assert.equal(abortedSeen, true);
    // The record outlives the process's server object in the shared store.
    const record = (await store.get(`task:${created.taskId}`))?.value as Json;
    assert.equal(record.status, 'failed');
    assert.deepEqual(record.error, { code: -32603, message: 'The server shut down while the task ran' });
  });

  it('close() also ends a task waiting for input at once (it does not wait out the TTL), and fails it', async () => {
    const job = defineTool({
      name: 'job', inputSchema: { type: 'object' }, task: true,
      run: (_a, ctx) => {
        const got = ctx.inputs.require({ q: elicitInput({ message: 'Q?', requestedSchema: { type: 'object', properties: { a: { type: 'string' } } } }) });
        return got.ready ? 'answered' : got.result;
      },
    });
    const store = createMemoryStore();
    const server = createServer({ name: 's', version: '1', tools: [job], store });
    const created = (await send(server, 'tools/call', { name: 'job', arguments: {} })).result;
    await turnsUntil(async () => ((await store.get(`task:${created.taskId}`))?.value as Json).status === 'input_required');
    await server.close();
    const record = (await store.get(`task:${created.taskId}`))?.value as Json;
    assert.equal(record.status, 'failed');
    assert.equal(record.inputRequests, undefined);
  });

  it('two concurrent calls with maxActiveTasks 1: exactly one task, one -31503', async () => {
    const job = defineTool({ name: 'job', inputSchema: { type: 'object' }, task: true, run: (_a, ctx) => new Promise((resolve) => ctx.signal.addEventListener('abort', () => resolve('x'), { once: true })) });
    const server = createServer({ name: 's', version: '1', tools: [job], tasks: { maxActiveTasks: 1 } });
    try {
      const replies = await Promise.all([send(server, 'tools/call', { name: 'job', arguments: {} }), send(server, 'tools/call', { name: 'job', arguments: {} })]);
      assert.deepEqual(replies.map((r) => r.result?.resultType ?? r.error?.code).sort(), [-31503, 'task'].sort());
    } finally {
      await server.close();
    }
  });
});
