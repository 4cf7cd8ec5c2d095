/**
 * The tasks extension (io.modelcontextprotocol/tasks) end to end over real HTTP on 127.0.0.1:
 * negotiation and its -32021 refusals, task creation and the immediate shortcut, progress, cancel
 * aborting the handler, input rounds inside a task, owner-only access, bounds, TTL and the routing
 * header. Each error path checks the exact code, HTTP status and message, and that nothing ran.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createMemoryStore, createServer, defineTool, elicitInput, OUTCOMES, ToolDefinitionError } from '../../src/index.js';
import type { AuthInfo, McpServer } from '../../src/index.js';
import { gate } from '../support/gate.js';
import { lastMessage } from '../support/sse-events.js';

type Json = Record<string, any>;
const TASKS = 'io.modelcontextprotocol/tasks';
const WITH_TASKS = { extensions: { [TASKS]: {} }, elicitation: {} };

let nextId = 1;
async function call(url: string, method: string, params: Json, options: { caps?: Json; token?: string; headers?: Record<string, string> } = {}): Promise<{ status: number; body: Json }> {
  const message = {
    jsonrpc: '2.0', id: nextId++, method,
    params: { ...params, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': options.caps ?? WITH_TASKS } },
  };
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': method };
  const name = typeof params.name === 'string' ? params.name : typeof params.taskId === 'string' ? params.taskId : undefined;
  if (name !== undefined) headers['mcp-name'] = name;
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
  Object.assign(headers, options.headers);
  const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(message), signal: AbortSignal.timeout(15_000) });
  const text = await response.text();
  return { status: response.status, body: lastMessage(text) as Json };
}

async function pollTask(url: string, taskId: string, done: (task: Json) => boolean, options: { token?: string } = {}): Promise<Json> {
  for (let i = 0; i < 500; i++) {
    const { body } = await call(url, 'tasks/get', { taskId }, options);
    if (done(body.result ?? body)) return body.result ?? body;
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error(`task ${taskId} never reached the expected state`);
}

const runs: string[] = [];
let release = gate();
let aborted = gate();
const longJob = defineTool({
  name: 'long_job',
  inputSchema: { type: 'object', properties: { steps: { type: 'integer' } }, required: ['steps'] } as const,
  outputSchema: { type: 'object', properties: { steps: { type: 'integer' } }, required: ['steps'] } as const,
  task: { expectedDurationMs: ({ steps }) => steps * 1000 },
  run: async ({ steps }, ctx) => {
    runs.push('long_job');
    ctx.signal.addEventListener('abort', () => aborted.open(), { once: true });
    ctx.progress(1, steps, 'step 1');
    await Promise.race([release.opened, aborted.opened]);
    return { structuredContent: { steps } };
  },
});
const onlyTask = defineTool({ name: 'only_task', inputSchema: { type: 'object' }, task: { support: 'required' }, run: () => { runs.push('only_task'); return 'done'; } });
const brokenOutput = defineTool({
  name: 'broken_output', inputSchema: { type: 'object' }, outputSchema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] }, task: true,
  run: () => ({ structuredContent: { n: 'not a number' } }) as never,
});
const asks = defineTool({
  name: 'asks_twice', inputSchema: { type: 'object' }, task: true,
  run: (_args, ctx) => {
    const schema = { type: 'object', properties: { v: { type: 'string' } }, required: ['v'] } as const;
    const got = ctx.inputs.require({ a: elicitInput({ message: 'A?', requestedSchema: schema }), b: elicitInput({ message: 'B?', requestedSchema: schema }) });
    if (!got.ready) return got.result;
    return `${String(got.responses.a.content?.v)}+${String(got.responses.b.content?.v)}`;
  },
});

const SUBJECTS: Record<string, AuthInfo> = { alice: { subject: 'alice', scopes: [] }, bob: { subject: 'bob', scopes: [] } };
let server: McpServer;
let url: string;

before(async () => {
  server = createServer({
    name: 'tasks-test', version: '1', tools: [longJob, onlyTask, brokenOutput, asks], logger: { error: () => {} },
    authorize: ({ bearerToken }) => SUBJECTS[bearerToken ?? 'alice'] ?? null,
  });
  url = (await server.listen({ port: 0 })).url;
});
after(() => server.close());

describe('negotiation', () => {
  it('advertises the extension under capabilities.extensions (no capabilities.tasks)', async () => {
    const { body } = await call(url, 'server/discover', {});
    assert.deepEqual(body.result.capabilities.extensions, { [TASKS]: {} });
    assert.equal(body.result.capabilities.tasks, undefined);
  });

  it('tasks/get, tasks/update and tasks/cancel without the extension on the request are -32021 naming it', async () => {
    for (const [method, params] of [['tasks/get', { taskId: 'x' }], ['tasks/update', { taskId: 'x', inputResponses: {} }], ['tasks/cancel', { taskId: 'x' }]] as const) {
      const { status, body } = await call(url, method, params, { caps: {} });
      assert.equal(status, 400);
      assert.equal(body.error.code, -32021);
      assert.equal(body.error.message, `Missing required client capability: extensions["${TASKS}"] (${method} needs the tasks extension declared on the request)`);
      assert.deepEqual(body.error.data, { requiredCapabilities: { extensions: { [TASKS]: {} } } });
    }
  });

  it('a task-only tool refuses a client without the extension with -32021 before anything runs', async () => {
    runs.length = 0;
    const { status, body } = await call(url, 'tools/call', { name: 'only_task', arguments: {} }, { caps: {} });
    assert.equal(status, 400);
    assert.equal(body.error.code, -32021);
    assert.equal(body.error.message, `Missing required client capability: extensions["${TASKS}"] (tool only_task runs only as a task)`);
    assert.deepEqual(runs, []);
  });

  it('an optional task tool runs synchronously for a client without the extension, and below its threshold', async () => {
    release = gate();
    release.open();
    const plain = await call(url, 'tools/call', { name: 'long_job', arguments: { steps: 3 } }, { caps: {} });
    assert.equal(plain.body.result.resultType, 'complete');
    assert.deepEqual(plain.body.result.structuredContent, { steps: 3 });
    const quick = await call(url, 'tools/call', { name: 'long_job', arguments: { steps: 0 } });
    assert.equal(quick.body.result.resultType, 'complete');
    assert.equal(quick.body.result.taskId, undefined);
  });

  it('removed v1 methods tasks/result and tasks/list are -32601', async () => {
    for (const method of ['tasks/result', 'tasks/list']) {
      const { status, body } = await call(url, method, { taskId: 'x' });
      assert.equal(status, 404);
      assert.equal(body.error.code, -32601);
      assert.equal(body.error.message, `Method not found: ${method}`);
    }
  });
});

describe('a task from creation to its end', () => {
  it('creates a flat CreateTaskResult, reports progress on tasks/get, completes with the checked result', async () => {
    release = gate();
    aborted = gate();
    const created = (await call(url, 'tools/call', { name: 'long_job', arguments: { steps: 4 } })).body.result;
    assert.equal(created.resultType, 'task');
    assert.equal(created.status, 'working');
    assert.equal(typeof created.taskId, 'string');
    assert.equal(created.ttlMs, 3_600_000);
    assert.equal(created.pollIntervalMs, 500);
    for (const absent of ['task', 'result', 'error', 'inputRequests', 'requestState', 'ttl', 'pollInterval']) assert.ok(!(absent in created), absent);
    const working = await pollTask(url, created.taskId, (t) => t._meta?.['io.toolwright/progress'] !== undefined);
    assert.equal(working.status, 'working');
    assert.deepEqual(working._meta['io.toolwright/progress'], { progress: 1, total: 4, message: 'step 1' });
    assert.equal(working.statusMessage, 'step 1');
    release.open();
    const done = await pollTask(url, created.taskId, (t) => t.status === 'completed');
    assert.equal(done.resultType, 'complete');
    assert.deepEqual(done.result.structuredContent, { steps: 4 });
    assert.equal(done.error, undefined);
  });

  it('a result that breaks the output schema fails the task with -32603 and no result', async () => {
    const created = (await call(url, 'tools/call', { name: 'broken_output', arguments: {} })).body.result;
    const failed = await pollTask(url, created.taskId, (t) => t.status !== 'working');
    assert.equal(failed.status, 'failed');
    assert.deepEqual(failed.error, { code: -32603, message: 'Internal error: tool broken_output produced output that breaks its outputSchema' });
    assert.equal(failed.result, undefined);
  });

  it('tasks/cancel acks with an empty result, aborts the handler and settles to cancelled; again on a terminal task it is the same ack', async () => {
    release = gate();
    aborted = gate();
    const created = (await call(url, 'tools/call', { name: 'long_job', arguments: { steps: 9 } })).body.result;
    const ack = await call(url, 'tasks/cancel', { taskId: created.taskId });
    assert.deepEqual(Object.keys(ack.body.result).filter((k) => k !== '_meta'), ['resultType']);
    assert.equal(ack.body.result.resultType, 'complete');
    await aborted.opened; // the handler's ctx.signal fired
    // The handler's controlled stop still returns; its words join the statusMessage, the status stays cancelled.
    const cancelled = await pollTask(url, created.taskId, (t) => typeof t.statusMessage === 'string' && t.statusMessage.includes('reported'));
    assert.equal(cancelled.status, 'cancelled');
    assert.equal(cancelled.statusMessage, 'Cancelled by the client; the tool reported: {"steps":9}');
    assert.equal(cancelled.result, undefined);
    const again = await call(url, 'tasks/cancel', { taskId: created.taskId });
    assert.equal(again.body.result.resultType, 'complete');
    assert.equal((await call(url, 'tasks/get', { taskId: created.taskId })).body.result.status, 'cancelled');
  });
});

describe('input requests inside a task', () => {
  it('parks in input_required, takes answers one at a time via tasks/update, refuses a malformed answer, then completes', async () => {
    const created = (await call(url, 'tools/call', { name: 'asks_twice', arguments: {} })).body.result;
    const waiting = await pollTask(url, created.taskId, (t) => t.status === 'input_required');
    assert.deepEqual(Object.keys(waiting.inputRequests).sort(), ['a', 'b']);
    assert.equal(waiting.inputRequests.a.method, 'elicitation/create');
    assert.equal(waiting.requestState, undefined);

    const bad = await call(url, 'tasks/update', { taskId: created.taskId, inputResponses: { a: { action: 'accept', content: { v: 42 } } } });
    assert.equal(bad.body.error.code, -32602);
    assert.equal(bad.body.error.message, 'Invalid params: inputResponses.a is not a valid answer to its elicitation/create request');
    assert.deepEqual(Object.keys((await call(url, 'tasks/get', { taskId: created.taskId })).body.result.inputRequests).sort(), ['a', 'b']);

    const partial = await call(url, 'tasks/update', { taskId: created.taskId, inputResponses: { a: { action: 'accept', content: { v: 'x' } }, unrelated: { any: 1 } } });
    assert.equal(partial.body.result.resultType, 'complete');
    const half = (await call(url, 'tasks/get', { taskId: created.taskId })).body.result;
    assert.equal(half.status, 'input_required');
    assert.deepEqual(Object.keys(half.inputRequests), ['b']);
    await call(url, 'tasks/update', { taskId: created.taskId, inputResponses: { b: { action: 'accept', content: { v: 'y' } } } });
    const done = await pollTask(url, created.taskId, (t) => t.status === 'completed');
    assert.equal(done.result.content[0].text, 'x+y');
  });

  it('tasks/update without an inputResponses object is -32602', async () => {
    const { body } = await call(url, 'tasks/update', { taskId: 'whatever', inputResponses: [1] });
    assert.equal(body.error.code, -32602);
    assert.equal(body.error.message, 'Invalid params: tasks/update needs an "inputResponses" object, got array');
  });
});

describe('access and routing', () => {
  it('another subject gets the same -32602 "Unknown task" as for an id that never existed, and changes nothing', async () => {
    release = gate();
    aborted = gate();
    const created = (await call(url, 'tools/call', { name: 'long_job', arguments: { steps: 5 } }, { token: 'alice' })).body.result;
    for (const taskId of [created.taskId, 'never-existed']) {
      for (const [method, params] of [['tasks/get', { taskId }], ['tasks/update', { taskId, inputResponses: {} }], ['tasks/cancel', { taskId }]] as const) {
        const { status, body } = await call(url, method, params, { token: 'bob' });
        assert.equal(status, 200);
        assert.equal(body.error.code, -32602);
        assert.equal(body.error.message, `Unknown task: ${taskId}`);
      }
    }
    assert.equal((await call(url, 'tasks/get', { taskId: created.taskId }, { token: 'alice' })).body.result.status, 'working');
    release.open();
    await pollTask(url, created.taskId, (t) => t.status === 'completed', { token: 'alice' });
  });

  it('a missing taskId is -32602 naming the type', async () => {
    const { body } = await call(url, 'tasks/get', {});
    assert.equal(body.error.code, -32602);
    assert.equal(body.error.message, 'Invalid params: tasks/get needs a string "taskId", got undefined');
  });

  it('Mcp-Name must match params.taskId on tasks methods (-32020, HTTP 400)', async () => {
    const { status, body } = await call(url, 'tasks/get', { taskId: 'abc' }, { headers: { 'mcp-name': 'other' } });
    assert.equal(status, 400);
    assert.equal(body.error.code, -32020);
    assert.equal(body.error.message, 'Header mismatch: Mcp-Name "other" differs from params.taskId "abc"');
  });
});

describe('bounds and TTL', () => {
  it('maxActiveTasks: the next call is -31503 (HTTP 503) and its handler never runs', async () => {
    const hold = gate();
    let started = 0;
    const job = defineTool({ name: 'job', inputSchema: { type: 'object' }, task: true, run: async () => { started++; await hold.opened; return 'ok'; } });
    const small = createServer({ name: 's', version: '1', tools: [job], tasks: { maxActiveTasks: 1 } });
    const smallUrl = (await small.listen({ port: 0 })).url;
    try {
      const first = await call(smallUrl, 'tools/call', { name: 'job', arguments: {} });
      assert.equal(first.body.result.resultType, 'task');
      const second = await call(smallUrl, 'tools/call', { name: 'job', arguments: {} });
      assert.equal(second.status, OUTCOMES.taskCapacity.httpStatus);
      assert.equal(second.body.error.code, -31503);
      assert.equal(second.body.error.message, 'Server busy: 1 tasks are active; try again later');
      assert.equal(started, 1);
      hold.open();
      await pollTask(smallUrl, first.body.result.taskId, (t) => t.status === 'completed');
    } finally {
      await small.close();
    }
  });

  it('a finished task stays readable until ttlMs after its last change, not a millisecond less', async () => {
    let now = 1_000_000;
    const clock = { now: () => now };
    const job = defineTool({ name: 'job', inputSchema: { type: 'object' }, task: { ttlMs: 5000 }, run: () => 'ok' });
    const timed = createServer({ name: 's', version: '1', tools: [job], clock, store: createMemoryStore({ clock }) });
    const timedUrl = (await timed.listen({ port: 0 })).url;
    try {
      const created = (await call(timedUrl, 'tools/call', { name: 'job', arguments: {} })).body.result;
      assert.equal(created.ttlMs, 5000);
      await pollTask(timedUrl, created.taskId, (t) => t.status === 'completed');
      now += 4999;
      assert.equal((await call(timedUrl, 'tasks/get', { taskId: created.taskId })).body.result.status, 'completed');
      now += 1;
      const gone = await call(timedUrl, 'tasks/get', { taskId: created.taskId });
      assert.equal(gone.body.error.message, `Unknown task: ${created.taskId}`);
    } finally {
      await timed.close();
    }
  });

  it('defineTool refuses a malformed task option with a message naming it', () => {
    assert.throws(() => defineTool({ name: 't', inputSchema: { type: 'object' }, task: { support: 'always' as never }, run: () => '' }), (e: unknown) => e instanceof ToolDefinitionError && /task\.support must be "optional" or "required", got "always"/.test(e.message));
    assert.throws(() => defineTool({ name: 't', inputSchema: { type: 'object' }, task: { ttlMs: 0 }, run: () => '' }), /task\.ttlMs must be a positive integer/);
    assert.throws(() => defineTool({ name: 't', inputSchema: { type: 'object' }, task: { sometimes: true } as never, run: () => '' }), /task has unknown option sometimes/);
  });
});
