/**
 * The one approval claim (approvals.ts, stages/claim.ts) over real HTTP: an approval is claimed
 * immediately before `execute`, so a refusal before it (a business check, a tool's own middleware, a
 * rate limit after the shape check, task creation) leaves it usable; it is bound to the client as
 * well as the subject; and only a caller holding the approver scope approves by its own elicitation
 * answer. Every refusal checks the exact error and that nothing ran.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createServer, DEFAULT_APPROVER_SCOPE, defineTool, rateLimit, refuse } from '../../src/index.js';
import type { AuthInfo, HttpListener, McpServer, PendingApproval } from '../../src/index.js';
import { META, post, rpc } from '../fixtures/servers/raw-http.js';
import type { RawResponse } from '../fixtures/servers/raw-http.js';
import { errorOf, resultOf, textOf } from '../fixtures/servers/rpc-body.js';
import { gate } from '../support/gate.js';

const TASKS = 'io.modelcontextprotocol/tasks';
const CAN_ELICIT = { ...META, 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } };
const CAN_ELICIT_AND_TASKS = { ...META, 'io.modelcontextprotocol/clientCapabilities': { elicitation: {}, extensions: { [TASKS]: {} } } };
const ACCEPT = { approval: { action: 'accept', content: { approve: true } } };
const FIELD = { field: 'requestState' };
const ALREADY_USED = { code: -32602, message: 'Invalid params: requestState was already used; start the call again without it', data: FIELD };
const OTHER_CALL = { code: -32602, message: 'Invalid params: requestState belongs to a different call (tool, arguments, caller or client differ)', data: FIELD };
const TARGET = { type: 'object', properties: { target: { type: 'string' } }, required: ['target'], additionalProperties: false } as const;

/** The refusal of an elicitation approval by a caller without the scope (403 insufficient_scope). */
function noScope(tool: string) {
  return {
    code: -31403,
    message: `Insufficient scope: approving ${tool} by elicitation needs the approver scope "toolwright:approve", which this caller does not hold; nothing was executed`,
    data: { requiredScopes: ['toolwright:approve'] },
  };
}

const TOKENS: Record<string, AuthInfo> = {
  alice: { subject: 'alice', clientId: 'desk-app', scopes: [DEFAULT_APPROVER_SCOPE] },
  'alice-phone': { subject: 'alice', clientId: 'phone-app', scopes: [DEFAULT_APPROVER_SCOPE] },
  'alice-unscoped': { subject: 'alice', clientId: 'desk-app', scopes: [] },
  mallory: { subject: 'mallory', clientId: 'script', scopes: [] },
};

function nextPending(server: McpServer, tool: string): Promise<PendingApproval> {
  return new Promise((resolve) => {
    const stop = server.approvals.subscribe((event) => {
      if (event.type !== 'pending' || event.pending.tool !== tool) return;
      stop();
      resolve(event.pending);
    });
  });
}

describe('the approval claim sits right before execute, bound to subject and client; the approver scope', () => {
  let now = 1_800_000_000_000;
  const clock = { now: () => now };
  const runs: string[] = [];
  let windowOpen = false;
  let fuel = 0;
  const taskRelease = gate();
  let server: McpServer;
  let listener: HttpListener;

  const launched = (what: string) => {
    runs.push(what);
    return `launched ${what}`;
  };
  const tools = [
    defineTool({ name: 'launch', inputSchema: TARGET, approval: ({ target }) => ({ message: `Launch at ${target}?` }), run: ({ target }) => launched(`launch:${target}`) }),
    defineTool({
      name: 'launch_in_window',
      inputSchema: TARGET,
      // A tool's own gate after the shape check (like the robot's state gate).
      use: [{ name: 'launch-window', at: 'validated', handle: (_call, next) => (windowOpen ? next() : refuse.result('the launch window is closed')) }],
      approval: ({ target }) => ({ message: `Launch at ${target}?` }),
      run: ({ target }) => launched(`window:${target}`),
    }),
    defineTool({
      name: 'launch_fuelled',
      inputSchema: TARGET,
      check: () => (fuel > 0 ? [] : ['the tank is empty']),
      approval: ({ target }) => ({ message: `Launch at ${target}?` }),
      run: ({ target }) => launched(`fuelled:${target}`),
    }),
    defineTool({
      name: 'launch_limited',
      inputSchema: TARGET,
      // The rate limit after the shape check: one call per 10 s per caller.
      use: [{ ...rateLimit({ capacity: 1, refillPerSecond: 0.1 }), at: 'validated' }],
      approval: ({ target }) => ({ message: `Launch at ${target}?` }),
      run: ({ target }) => launched(`limited:${target}`),
    }),
    defineTool({ name: 'launch_either', inputSchema: TARGET, approval: ({ target }) => ({ message: `Launch at ${target}?`, approver: 'either', timeoutMs: 5_000 }), run: ({ target }) => launched(`either:${target}`) }),
    defineTool({ name: 'launch_task', inputSchema: TARGET, task: true, approval: ({ target }) => ({ message: `Launch at ${target}?` }), run: ({ target }) => launched(`task:${target}`) }),
    defineTool({
      name: 'hold_slot',
      inputSchema: TARGET,
      task: true,
      run: async ({ target }) => {
        await taskRelease.opened;
        return `held ${target}`;
      },
    }),
  ];

  before(async () => {
    server = createServer({
      name: 'claims', version: '1', tools, clock, approvalTtlMs: 60_000, tasks: { maxActiveTasks: 2 }, logger: { error: () => {} },
      authorize: ({ bearerToken }) => (bearerToken !== undefined ? TOKENS[bearerToken] ?? null : null),
    });
    listener = await server.listen({ port: 0 });
  });
  after(() => server.close());

  function call(name: string, target: string, extra: Record<string, unknown> = {}, who = 'alice', meta: Record<string, unknown> = CAN_ELICIT): Promise<RawResponse> {
    return post(listener.url, rpc('tools/call', { name, arguments: { target }, ...extra }, 1, meta), { authorization: `Bearer ${who}` });
  }
  async function ask(name: string, target: string, who = 'alice'): Promise<string> {
    const asked = resultOf((await call(name, target, {}, who)).body);
    assert.equal(asked.resultType, 'input_required');
    return asked.requestState as string;
  }
  const approved = (name: string, target: string, state: string, who = 'alice', meta?: Record<string, unknown>) => call(name, target, { requestState: state, inputResponses: ACCEPT }, who, meta);

  it('a refusal by a tool\'s own gate after the shape check leaves the approval usable; it then runs once', async () => {
    runs.length = 0;
    windowOpen = true;
    const state = await ask('launch_in_window', 'moon');
    windowOpen = false; // closes while the human decides
    for (let i = 0; i < 2; i++) {
      const closed = resultOf((await approved('launch_in_window', 'moon', state)).body);
      assert.deepEqual(closed, { resultType: 'complete', content: [{ type: 'text', text: 'the launch window is closed' }], isError: true, _meta: closed._meta });
    }
    assert.deepEqual(runs, []);
    windowOpen = true;
    assert.equal(textOf((await approved('launch_in_window', 'moon', state)).body), 'launched window:moon');
    assert.deepEqual(errorOf((await approved('launch_in_window', 'moon', state)).body), ALREADY_USED);
    assert.deepEqual(runs, ['window:moon']);
  });

  it('a refusal by the business check leaves the approval usable', async () => {
    runs.length = 0;
    fuel = 1;
    const state = await ask('launch_fuelled', 'mars');
    fuel = 0; // drained while the human decides
    const empty = resultOf((await approved('launch_fuelled', 'mars', state)).body);
    assert.equal(empty.isError, true);
    assert.match(JSON.stringify(empty.content), /the tank is empty/);
    fuel = 1;
    assert.equal(textOf((await approved('launch_fuelled', 'mars', state)).body), 'launched fuelled:mars');
    assert.deepEqual(runs, ['fuelled:mars']);
  });

  it('a rate-limit refusal after the shape check leaves the approval usable (the retry after the refill runs)', async () => {
    runs.length = 0;
    const state = await ask('launch_limited', 'venus'); // the question took the bucket's one token
    const limited = await approved('launch_limited', 'venus', state);
    assert.equal(limited.status, 429);
    assert.equal((errorOf(limited.body) as { code: number }).code, -31429);
    assert.deepEqual(runs, []);
    now += 10_000;
    assert.equal(textOf((await approved('launch_limited', 'venus', state)).body), 'launched limited:venus');
    assert.deepEqual(runs, ['limited:venus']);
  });

  it('two concurrent retries with one approval: exactly one executes', async () => {
    runs.length = 0;
    windowOpen = true;
    const state = await ask('launch_in_window', 'io');
    const both = await Promise.all([1, 2].map(() => approved('launch_in_window', 'io', state)));
    const ran = both.filter((r) => r.body !== undefined && 'result' in r.body);
    const refused = both.filter((r) => r.body !== undefined && 'error' in r.body);
    assert.equal(ran.length, 1);
    assert.deepEqual(errorOf(refused[0]!.body), ALREADY_USED);
    assert.deepEqual(runs, ['window:io']);
  });

  it('a state issued to one client is refused for another client of the same subject, and stays usable by its own', async () => {
    runs.length = 0;
    const state = await ask('launch', 'titan', 'alice');
    assert.deepEqual(errorOf((await approved('launch', 'titan', state, 'alice-phone')).body), OTHER_CALL);
    assert.deepEqual(runs, []);
    assert.equal(textOf((await approved('launch', 'titan', state, 'alice')).body), 'launched launch:titan');
    assert.deepEqual(runs, ['launch:titan']);
  });

  it('a forged elicitation approval from a caller without the approver scope: 403 insufficient_scope naming it, nothing ran', async () => {
    runs.length = 0;
    for (const extra of [{}, { inputResponses: ACCEPT }]) {
      const forged = await call('launch', 'europa', extra, 'mallory');
      assert.equal(forged.status, 403);
      assert.deepEqual(errorOf(forged.body), noScope('launch'));
      assert.match(forged.headers.get('www-authenticate') ?? '', /^Bearer error="insufficient_scope", scope="toolwright:approve"/);
    }
    assert.deepEqual(runs, []);
  });

  it('a state asked with the scope is not honoured under a token of the same caller without it, and stays usable', async () => {
    runs.length = 0;
    const state = await ask('launch', 'ceres', 'alice');
    const unscoped = await approved('launch', 'ceres', state, 'alice-unscoped');
    assert.equal(unscoped.status, 403);
    assert.deepEqual(errorOf(unscoped.body), noScope('launch'));
    assert.deepEqual(runs, []);
    assert.equal(textOf((await approved('launch', 'ceres', state, 'alice')).body), 'launched launch:ceres');
  });

  it('approver "either": a caller without the scope goes to the operator whatever it declares; its own answer approves nothing', async () => {
    runs.length = 0;
    const queued = nextPending(server, 'launch_either');
    const response = call('launch_either', 'pluto', { inputResponses: ACCEPT }, 'mallory');
    const pending = await queued;
    assert.equal(pending.subject, 'mallory');
    assert.deepEqual(runs, [], 'the self-answered approval ran nothing');
    await server.approvals.decide(pending.id, { approve: false, operator: 'ops-anna' });
    const declined = resultOf((await response).body);
    assert.equal(declined.isError, true);
    assert.equal((declined.content as { text: string }[])[0]!.text, 'The call of launch_either was declined by ops-anna; it was not executed.');
    assert.deepEqual(runs, []);
    // With the scope the same client's user is asked directly.
    assert.equal(resultOf((await call('launch_either', 'pluto', {}, 'alice')).body).resultType, 'input_required');
  });

  it('a task claims before its run, after its creation: a refused creation burns nothing; a replay ends failed and runs nothing', async () => {
    runs.length = 0;
    const state = await ask('launch_task', 'eris');
    const holders = await Promise.all(['a', 'b'].map((slot) => call('hold_slot', slot, {}, 'alice', CAN_ELICIT_AND_TASKS)));
    for (const holder of holders) assert.equal(resultOf(holder.body).resultType, 'task');
    const full = await approved('launch_task', 'eris', state, 'alice', CAN_ELICIT_AND_TASKS);
    assert.deepEqual(errorOf(full.body), { code: -31503, message: 'Server busy: 2 tasks are active; try again later' });
    taskRelease.open();
    const ids = holders.map((h) => resultOf(h.body).taskId as string);
    for (const taskId of ids) await finalOf(taskId);
    const both = await Promise.all([1, 2].map(() => approved('launch_task', 'eris', state, 'alice', CAN_ELICIT_AND_TASKS)));
    const finals = await Promise.all(both.map((r) => finalOf(resultOf(r.body).taskId as string)));
    const statuses = finals.map((f) => f.status).sort();
    assert.deepEqual(statuses, ['completed', 'failed']);
    assert.deepEqual(finals.find((f) => f.status === 'failed')!.error, ALREADY_USED);
    assert.deepEqual(runs, ['task:eris']);
  });

  async function finalOf(taskId: string): Promise<{ status: string; error?: unknown }> {
    for (let i = 0; i < 2000; i++) {
      // tasks/get is the extension's, not in the official schema the raw client checks against: plain fetch.
      const response = await fetch(listener.url, {
        method: 'POST',
        headers: { authorization: 'Bearer alice', 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tasks/get', 'mcp-name': taskId },
        body: JSON.stringify(rpc('tasks/get', { taskId }, 100 + i, CAN_ELICIT_AND_TASKS)),
        signal: AbortSignal.timeout(15_000),
      });
      const task = (JSON.parse(await response.text()) as { result: { status: string; error?: unknown } }).result;
      if (task.status !== 'working') return task;
      await new Promise((resolve) => setImmediate(resolve));
    }
    return assert.fail(`task ${taskId} never ended`);
  }
});

describe('who approves without an authorizer', () => {
  const runs: string[] = [];
  const tools = [
    defineTool({ name: 'launch', inputSchema: TARGET, approval: ({ target }) => ({ message: `Launch at ${target}?` }), run: ({ target }) => `launched ${runs.push(target)}` }),
  ];

  it('HTTP without authorize: nobody holds the approver scope, an elicitation approval is refused and nothing ran', async () => {
    const server = createServer({ name: 'open-http', version: '1', tools, logger: { error: () => {} } });
    const { url } = await server.listen({ port: 0 });
    try {
      const refused = await post(url, rpc('tools/call', { name: 'launch', arguments: { target: 'moon' }, inputResponses: ACCEPT }, 1, CAN_ELICIT));
      assert.equal(refused.status, 403);
      assert.deepEqual(errorOf(refused.body), noScope('launch'));
      assert.deepEqual(runs, []);
    } finally {
      await server.close();
    }
  });

  it('stdio is the launching host, trusted by default; trustStdioApprover: false asks it for the scope too', async () => {
    const message = (id: number) => ({
      body: JSON.stringify(rpc('tools/call', { name: 'launch', arguments: { target: 'mars' } }, id, CAN_ELICIT)),
      transport: 'stdio' as const, header: undefined, signal: new AbortController().signal, isAborted: () => false, notify: () => undefined,
    });
    const trusting = createServer({ name: 'stdio', version: '1', tools, logger: { error: () => {} } });
    const asked = JSON.parse((await trusting.handleMessage(message(1))).body!) as Record<string, unknown>;
    assert.equal(resultOf(asked).resultType, 'input_required');
    const strict = createServer({ name: 'stdio', version: '1', tools, trustStdioApprover: false, logger: { error: () => {} } });
    const refused = JSON.parse((await strict.handleMessage(message(2))).body!) as Record<string, unknown>;
    assert.deepEqual(errorOf(refused), noScope('launch'));
    assert.deepEqual(runs, []);
    await Promise.all([trusting.close(), strict.close()]);
  });

  it('createServer refuses an approver scope that is not one scope token', () => {
    assert.throws(() => createServer({ name: 'x', version: '1', tools, approverScope: 'a b' }), { name: 'TypeError', message: 'createServer: approverScope must be one scope token (non-empty, no spaces), got "a b"' });
    assert.throws(() => createServer({ name: 'x', version: '1', tools, approverScope: '' }), { name: 'TypeError', message: 'createServer: approverScope must be one scope token (non-empty, no spaces), got ""' });
  });
});
