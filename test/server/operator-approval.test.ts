/**
 * Operator approvals: a tools/call held open over real HTTP until an out-of-band operator decides
 * through `server.approvals` (approve, decline, timeout with an injected clock, replayed and
 * parallel decisions, wrong digest, cancel, close). Every refusal checks the exact outcome and that
 * the tool did not run. Waiting is on the queue's own events, never on sleeps.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createServer, defineTool } from '../../src/index.js';
import type { ApprovalQueue, ApprovalQueueEvent, HttpListener, McpServer, PendingApproval } from '../../src/index.js';
import { META, post, rpc } from '../fixtures/servers/raw-http.js';
import type { RawResponse } from '../fixtures/servers/raw-http.js';

const TARGET = { type: 'object', properties: { target: { type: 'string' } }, required: ['target'], additionalProperties: false } as const;
const CAN_ELICIT = { ...META, 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } };

/** What voids the `halt` tool's wait (a stop of the machine, in the robot). */
let haltWait = new AbortController();

function operatorTools(runs: string[]) {
  return [
    defineTool({
      name: 'halt',
      inputSchema: TARGET,
      run: async ({ target }, ctx) => {
        const signal = target === 'not-a-signal' ? ({ aborted: false } as unknown as AbortSignal) : haltWait.signal;
        const decision = await ctx.approvals.awaitOperator({ summary: `Drill ${target}?`, digest: `drill:${target}`, signal });
        if (!decision.approved) return { structuredContent: { reason: decision.reason, message: decision.message } };
        runs.push(`halt:${target}`);
        return 'drilled';
      },
    }),
    defineTool({
      name: 'launch',
      inputSchema: TARGET,
      approval: ({ target }) => ({ message: `Launch at ${target}?`, approver: 'operator', details: { target } }),
      run: ({ target }) => {
        runs.push(`launch:${target}`);
        return `launched at ${target}`;
      },
    }),
    defineTool({
      name: 'launch_either',
      inputSchema: TARGET,
      approval: ({ target }) => ({ message: `Launch at ${target}?`, approver: 'either', digest: `plan:${target}`, timeoutMs: 5_000 }),
      run: ({ target }) => {
        runs.push(`either:${target}`);
        return `launched at ${target}`;
      },
    }),
    defineTool({
      name: 'weld',
      inputSchema: TARGET,
      run: async ({ target }, ctx) => {
        const decision = await ctx.approvals.awaitOperator({ summary: `Weld ${target}?`, digest: `weld:${target}`, timeoutMs: 1_000 });
        if (!decision.approved) return decision.result;
        runs.push(`weld:${target}`);
        return { structuredContent: { approvedBy: decision.record.approvedBy, approves: decision.record.approves, call: decision.record.call } };
      },
    }),
  ];
}

/** Resolves with the next event of `type` (optionally for one tool). */
function next(queue: ApprovalQueue, type: ApprovalQueueEvent['type'], tool?: string): Promise<ApprovalQueueEvent> {
  return new Promise((resolve) => {
    const stop = queue.subscribe((event) => {
      if (event.type !== type || (tool !== undefined && event.pending.tool !== tool)) return;
      stop();
      resolve(event);
    });
  });
}

type Body = Record<string, unknown> | undefined;
const resultOf = (body: Body) => {
  assert.ok(body && 'result' in body, `expected a result, got ${JSON.stringify(body)}`);
  return body.result as Record<string, unknown>;
};
const textOf = (res: RawResponse) => ((resultOf(res.body).content as { text: string }[])[0]!).text;

describe('operator approvals over HTTP', () => {
  let now = 1_800_000_000_000;
  const clock = { now: () => now };
  const runs: string[] = [];
  let server: McpServer;
  let listener: HttpListener;

  before(async () => {
    server = createServer({
      name: 'operator', version: '1', tools: operatorTools(runs), clock, approvalTtlMs: 60_000,
      // Alice holds the approver scope, so under approver "either" her own elicitation answers approve.
      authorize: ({ bearerToken }) => (bearerToken === 'alice' ? { scopes: ['toolwright:approve'], subject: 'alice' } : null),
    });
    listener = await server.listen({ port: 0 });
  });
  after(() => server.close());

  function call(name: string, target: string, meta: Record<string, unknown> = META, signal?: AbortSignal): Promise<RawResponse> {
    return post(listener.url, rpc('tools/call', { name, arguments: { target } }, 1, meta), { authorization: 'Bearer alice' }, signal ? { signal } : {});
  }

  /** Starts a call and resolves once it waits in the queue. */
  async function hold(name: string, target: string, meta?: Record<string, unknown>, signal?: AbortSignal): Promise<{ response: Promise<RawResponse>; pending: PendingApproval }> {
    const queued = next(server.approvals, 'pending', name);
    const response = call(name, target, meta, signal);
    return { response, pending: (await queued).pending };
  }

  it('a held call waits in the queue with what it would do, and runs once the operator approves', async () => {
    runs.length = 0;
    const settled = next(server.approvals, 'settled', 'launch');
    const { response, pending } = await hold('launch', 'moon');
    assert.deepEqual(
      { ...pending, id: typeof pending.id },
      {
        id: 'string', call: 'tools/call launch', tool: 'launch', digest: pending.digest, summary: 'Launch at moon?', details: { target: 'moon' },
        subject: 'alice', client: undefined, requestedAt: now, deadline: now + 45_000,
      },
    );
    assert.match(pending.digest, /^[A-Za-z0-9_-]{20,}$/, 'default digest: tool name + canonical arguments');
    assert.deepEqual(server.approvals.pending(), [pending]);
    assert.deepEqual(server.approvals.get(pending.id), pending);
    assert.deepEqual(runs, [], 'nothing runs while waiting');

    const decided = await server.approvals.decide(pending.id, { approve: true, operator: 'ops-anna', digest: pending.digest });
    assert.deepEqual(decided, { ok: true, pending, decidedBy: { kind: 'operator', operator: 'ops-anna', via: 'console' } });
    assert.equal(textOf(await response), 'launched at moon');
    assert.deepEqual(runs, ['launch:moon']);
    assert.deepEqual((await settled), { type: 'settled', pending, outcome: { approved: true, by: { kind: 'operator', operator: 'ops-anna', via: 'console' } } });
    assert.deepEqual(server.approvals.pending(), []);
  });

  it('the entry shows the client\'s self-declared name and version beside the subject (2026-07-28: the request\'s clientInfo _meta), clipped', async () => {
    runs.length = 0;
    const declared = await hold('launch', 'io', { ...META, 'io.modelcontextprotocol/clientInfo': { name: 'Claude', version: '0.14.1', title: 'ignored' } });
    assert.deepEqual({ subject: declared.pending.subject, client: declared.pending.client }, { subject: 'alice', client: { name: 'Claude', version: '0.14.1' } });
    assert.equal((await server.approvals.decide(declared.pending.id, { approve: false, operator: 'ops' })).ok, true);
    await declared.response;
    const long = await hold('launch', 'io', { ...META, 'io.modelcontextprotocol/clientInfo': { name: 'x'.repeat(500) } });
    assert.deepEqual(long.pending.client, { name: 'x'.repeat(100), version: '' });
    assert.equal((await server.approvals.decide(long.pending.id, { approve: false, operator: 'ops' })).ok, true);
    await long.response;
    const unnamed = await hold('launch', 'io', { ...META, 'io.modelcontextprotocol/clientInfo': 'Claude' });
    assert.equal(unnamed.pending.client, undefined);
    assert.equal((await server.approvals.decide(unnamed.pending.id, { approve: false, operator: 'ops' })).ok, true);
    await unnamed.response;
    assert.deepEqual(runs, []);
  });

  it('a replayed decision is refused and runs nothing more', async () => {
    runs.length = 0;
    const { response, pending } = await hold('launch', 'mars');
    assert.equal((await server.approvals.decide(pending.id, { approve: true, operator: 'ops-anna', digest: pending.digest })).ok, true);
    assert.equal(textOf(await response), 'launched at mars');
    for (const again of [{ approve: true, operator: 'ops-anna', digest: pending.digest }, { approve: false, operator: 'ops-bo' }]) {
      assert.deepEqual(await server.approvals.decide(pending.id, again), {
        ok: false, reason: 'settled', message: `approval ${pending.id} was already settled (approved); a decision counts once`,
      });
    }
    assert.deepEqual(runs, ['launch:mars']);
  });

  it('the operator declines: the call ends with a tool error naming the operator, and nothing runs', async () => {
    runs.length = 0;
    const { response, pending } = await hold('launch', 'venus');
    assert.equal((await server.approvals.decide(pending.id, { approve: false, operator: 'ops-bo' })).ok, true);
    const result = resultOf((await response).body);
    assert.equal(result.isError, true);
    assert.deepEqual(result.content, [{ type: 'text', text: 'The call of launch was declined by ops-bo; it was not executed.' }]);
    assert.deepEqual(runs, []);
  });

  it('a decision for another digest changes nothing; the right one still decides', async () => {
    runs.length = 0;
    const { response, pending } = await hold('launch', 'io');
    for (const digest of ['something-else', '']) {
      const wrong = await server.approvals.decide(pending.id, { approve: false, operator: 'ops-anna', digest });
      assert.deepEqual(wrong, { ok: false, reason: 'wrong-digest', message: `approval ${pending.id} is for digest ${pending.digest}, not ${digest}; nothing was decided` });
    }
    const wrongApproval = await server.approvals.decide(pending.id, { approve: true, operator: 'ops-anna', digest: 'something-else' });
    assert.equal(wrongApproval.ok ? 'decided' : wrongApproval.reason, 'wrong-digest');
    assert.deepEqual(server.approvals.pending(), [pending], 'still waiting');
    assert.equal((await server.approvals.decide(pending.id, { approve: true, operator: 'ops-anna', digest: pending.digest })).ok, true);
    assert.equal(textOf(await response), 'launched at io');
    assert.deepEqual(runs, ['launch:io']);
  });

  it('two operators decide at once: exactly one decision counts', async () => {
    runs.length = 0;
    const { response, pending } = await hold('launch', 'titan');
    const [approve, decline] = await Promise.all([
      server.approvals.decide(pending.id, { approve: true, operator: 'ops-anna', digest: pending.digest }),
      server.approvals.decide(pending.id, { approve: false, operator: 'ops-bo' }),
    ]);
    assert.equal([approve, decline].filter((d) => d.ok).length, 1);
    const loser = approve.ok ? decline : approve;
    assert.deepEqual(loser, { ok: false, reason: 'settled', message: `approval ${pending.id} was already settled (${approve.ok ? 'approved' : 'declined'}); a decision counts once` });
    const res = await response;
    if (approve.ok) {
      assert.equal(textOf(res), 'launched at titan');
      assert.deepEqual(runs, ['launch:titan']);
    } else {
      assert.equal(resultOf(res.body).isError, true);
      assert.deepEqual(runs, []);
    }
  });

  it('no decision before the deadline: the call is refused as timed out, and a late decision is refused', async () => {
    runs.length = 0;
    const { response, pending } = await hold('launch', 'europa');
    now += 44_999;
    assert.equal(await server.approvals.expireDue(), 0, 'not due yet');
    now += 1;
    assert.equal(await server.approvals.expireDue(), 1);
    const result = resultOf((await response).body);
    assert.equal(result.isError, true);
    assert.deepEqual(result.content, [{ type: 'text', text: 'No operator decided on the call of launch within 45000 ms; it was not executed.' }]);
    assert.deepEqual(await server.approvals.decide(pending.id, { approve: true, operator: 'ops-anna', digest: pending.digest }), {
      ok: false, reason: 'settled', message: `approval ${pending.id} was already settled (timeout); a decision counts once`,
    });
    assert.deepEqual(runs, []);
  });

  it('a timeout names where held calls are decided when a place is advertised (a client that showed no progress learns it there)', async () => {
    runs.length = 0;
    const withdraw = server.approvals.advertise('in the operator console at /console on this server');
    try {
      const { response } = await hold('launch', 'vesta');
      now += 45_000;
      assert.equal(await server.approvals.expireDue(), 1);
      assert.deepEqual(resultOf((await response).body).content, [{ type: 'text', text: 'No operator decided on the call of launch within 45000 ms (calls held for approval are approved or declined in the operator console at /console on this server); it was not executed.' }]);
      // One sentence ending as every refusal of the queue does: the robot cuts "; it was not executed." off and adds its own
      // ". Nothing was executed." (with the place after that ending, it wrote "server.. Nothing").
    } finally {
      withdraw();
    }
    assert.deepEqual(runs, []);
  });

  it('a request that asked for logs (and sent no progress token) hears once, as a notice, what it waits for and for how long', async () => {
    runs.length = 0;
    const { response, pending } = await hold('launch', 'pallas', { ...META, 'io.modelcontextprotocol/logLevel': 'info' });
    now += 10_000;
    await server.approvals.decide(pending.id, { approve: true, operator: 'ops-anna', digest: pending.digest });
    const res = await response;
    assert.deepEqual(res.messages.filter((m) => m.method !== undefined), [
      { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'notice', logger: 'launch', data: `waiting for an operator to approve launch (approval id ${pending.id}; 45 s left)` } },
    ]);
    assert.equal(textOf(res), 'launched at pallas');
    const quiet = await hold('launch', 'hygiea', { ...META, 'io.modelcontextprotocol/logLevel': 'warning' });
    await server.approvals.decide(quiet.pending.id, { approve: false, operator: 'ops-anna' });
    assert.deepEqual((await quiet.response).messages.filter((m) => m.method !== undefined), [], 'a notice is below the warning level asked for');
  });

  it('a decision arriving after the deadline (before any timer) is refused and times the call out', async () => {
    runs.length = 0;
    const { response, pending } = await hold('launch', 'ceres');
    now += 45_000;
    assert.deepEqual(await server.approvals.decide(pending.id, { approve: true, operator: 'ops-anna', digest: pending.digest }), {
      ok: false, reason: 'settled', message: `approval ${pending.id} timed out before the decision; the call was refused`,
    });
    assert.equal(resultOf((await response).body).isError, true);
    assert.deepEqual(runs, []);
  });

  it('a request with a progress token hears that it is waiting, on the same held-open stream', async () => {
    runs.length = 0;
    const { response, pending } = await hold('launch', 'pluto', { ...META, progressToken: 'wait-1' });
    await server.approvals.decide(pending.id, { approve: true, operator: 'ops-anna', digest: pending.digest });
    const res = await response;
    assert.equal(res.headers.get('content-type')?.startsWith('text/event-stream'), true);
    assert.deepEqual(res.messages[0], {
      jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'wait-1', progress: 1, message: `waiting for an operator to approve launch (approval id ${pending.id}; 45 s left)` },
    });
    assert.equal(textOf(res), 'launched at pluto');
  });

  it('the progress message names where the operator decides once a place is advertised, and not after it is withdrawn', async () => {
    runs.length = 0;
    const withdrawPendant = server.approvals.advertise('on the teach pendant');
    const withdrawConsole = server.approvals.advertise('in the operator console at /console on this server');
    const first = await hold('launch', 'haumea', { ...META, progressToken: 'wait-2' });
    await server.approvals.decide(first.pending.id, { approve: false, operator: 'ops-anna' });
    assert.deepEqual((await first.response).messages[0], {
      jsonrpc: '2.0', method: 'notifications/progress', params: {
        progressToken: 'wait-2', progress: 1,
        message: `waiting for an operator to approve launch (approval id ${first.pending.id}; 45 s left): it is approved or declined on the teach pendant or in the operator console at /console on this server`,
      },
    });
    withdrawPendant();
    withdrawConsole();
    const second = await hold('launch', 'makemake', { ...META, progressToken: 'wait-3' });
    await server.approvals.decide(second.pending.id, { approve: false, operator: 'ops-anna' });
    assert.equal(((await second.response).messages[0]?.params as { message?: string }).message, `waiting for an operator to approve launch (approval id ${second.pending.id}; 45 s left)`);
    assert.throws(() => server.approvals.advertise(' '), { name: 'TypeError', message: 'approvals.advertise: where must be a non-empty string' });
    assert.deepEqual(runs, []);
  });

  it('approver "either": a client that can elicit gets input_required (nothing queued); one that cannot is held for the operator', async () => {
    runs.length = 0;
    const asked = resultOf((await call('launch_either', 'eris', CAN_ELICIT)).body);
    assert.equal(asked.resultType, 'input_required');
    assert.deepEqual(server.approvals.pending(), []);
    const { response, pending } = await hold('launch_either', 'eris');
    assert.equal(pending.digest, 'plan:eris');
    assert.equal(pending.deadline, pending.requestedAt + 5_000);
    await server.approvals.decide(pending.id, { approve: true, operator: 'ops-anna', digest: 'plan:eris' });
    assert.equal(textOf(await response), 'launched at eris');
    assert.deepEqual(runs, ['either:eris']);
  });

  it('ctx.approvals.awaitOperator inside run: the record names the operator and the digest', async () => {
    runs.length = 0;
    const { response, pending } = await hold('weld', 'seam-7');
    await server.approvals.decide(pending.id, { approve: true, operator: 'ops-anna', digest: 'weld:seam-7' });
    assert.deepEqual(resultOf((await response).body).structuredContent, {
      approvedBy: { kind: 'operator', operator: 'ops-anna', via: 'console' }, approves: 'weld:seam-7', call: 'tools/call weld',
    });
    assert.deepEqual(runs, ['weld:seam-7']);
  });

  it('the client goes away while waiting: the call leaves the queue as cancelled and never runs', async () => {
    runs.length = 0;
    const controller = new AbortController();
    const { response, pending } = await hold('launch', 'haumea', META, controller.signal);
    const settled = next(server.approvals, 'settled', 'launch');
    controller.abort();
    await assert.rejects(response, { name: 'AbortError' });
    assert.deepEqual(await settled, { type: 'settled', pending, outcome: { approved: false, reason: 'cancelled', by: undefined } });
    assert.deepEqual(server.approvals.pending(), []);
    const late = await server.approvals.decide(pending.id, { approve: true, operator: 'ops-anna', digest: pending.digest });
    assert.equal(late.ok ? 'decided' : late.reason, 'settled');
    assert.deepEqual(runs, []);
  });

  it('awaitOperator({ signal }): aborting it ends the wait at once as cancelled, and nothing runs', async () => {
    runs.length = 0;
    haltWait = new AbortController();
    const { response, pending } = await hold('halt', 'quaoar');
    const settled = next(server.approvals, 'settled', 'halt');
    haltWait.abort();
    assert.deepEqual(await settled, { type: 'settled', pending, outcome: { approved: false, reason: 'cancelled', by: undefined } });
    assert.deepEqual(resultOf((await response).body).structuredContent, { reason: 'cancelled', message: 'The call of halt was cancelled while waiting for an operator; it was not executed.' });
    assert.deepEqual(server.approvals.pending(), []);
    // Already aborted: refused without entering the queue.
    const again = await call('halt', 'quaoar');
    assert.deepEqual(resultOf(again.body).structuredContent, { reason: 'cancelled', message: 'The call of halt was cancelled while waiting for an operator; it was not executed.' });
    assert.deepEqual(runs, []);
  });

  it('awaitOperator({ signal }) that is not an AbortSignal is a TypeError (an error result of the tool), nothing waits', async () => {
    runs.length = 0;
    const reply = await call('halt', 'not-a-signal');
    const result = resultOf(reply.body);
    assert.equal(result.isError, true);
    assert.deepEqual(result.content, [{ type: 'text', text: 'approvals.awaitOperator: signal must be an AbortSignal' }]);
    assert.deepEqual(server.approvals.pending(), []);
    assert.deepEqual(runs, []);
  });

  it('bad decisions are refused precisely', async () => {
    const { response, pending } = await hold('launch', 'sedna');
    const decide = server.approvals.decide.bind(server.approvals);
    await assert.rejects(decide(pending.id, { approve: true, operator: 'ops-anna' }), { name: 'TypeError', message: 'approvals.decide: approving needs the digest the operator saw' });
    await assert.rejects(decide(pending.id, { approve: true, operator: ' ', digest: pending.digest }), { name: 'TypeError', message: 'approvals.decide: operator must name who decides (a non-empty string)' });
    await assert.rejects(decide(pending.id, { approve: 'yes' as unknown as boolean, operator: 'ops-anna', digest: pending.digest }), { name: 'TypeError', message: 'approvals.decide: approve must be true or false' });
    assert.deepEqual(await decide('no-such-id', { approve: false, operator: 'ops-anna' }), { ok: false, reason: 'unknown', message: 'no pending approval has id "no-such-id"' });
    assert.deepEqual(server.approvals.pending(), [pending], 'refused decisions leave the call waiting');
    await decide(pending.id, { approve: false, operator: 'ops-anna' });
    assert.equal(resultOf((await response).body).isError, true);
  });
});

describe('operator approvals when the server closes', () => {
  it('a call waiting for an operator is refused, not left hanging, and never runs', async () => {
    const runs: string[] = [];
    const server = createServer({ name: 'closing', version: '1', tools: operatorTools(runs) });
    const listener = await server.listen({ port: 0 });
    const queued = next(server.approvals, 'pending');
    const response = post(listener.url, rpc('tools/call', { name: 'launch', arguments: { target: 'moon' } }));
    const { pending } = await queued;
    const settled = next(server.approvals, 'settled');
    const closing = server.close();
    assert.deepEqual(await settled, { type: 'settled', pending, outcome: { approved: false, reason: 'closed', by: undefined } });
    const result = resultOf((await response).body);
    assert.deepEqual(result.content, [{ type: 'text', text: 'The server closed while the call of launch waited for an operator; it was not executed.' }]);
    await closing;
    assert.deepEqual(runs, []);
  });
});

describe('operator approvals with the real clock', () => {
  it('the deadline timer refuses the call by itself when nobody decides', async () => {
    const runs: string[] = [];
    const brief = defineTool({
      name: 'brief',
      inputSchema: { type: 'object' },
      run: async (_args, ctx) => {
        const decision = await ctx.approvals.awaitOperator({ summary: 'Go?', timeoutMs: 25 });
        if (!decision.approved) return decision.result;
        runs.push('brief');
        return 'went';
      },
    });
    const server = createServer({ name: 'timer', version: '1', tools: [brief] });
    try {
      const listener = await server.listen({ port: 0 });
      const settled = next(server.approvals, 'settled');
      const res = await post(listener.url, rpc('tools/call', { name: 'brief', arguments: {} }));
      assert.deepEqual(resultOf(res.body).content, [{ type: 'text', text: 'No operator decided on the call of brief within 25 ms; it was not executed.' }]);
      const event = await settled;
      assert.deepEqual(event.type === 'settled' ? event.outcome : undefined, { approved: false, reason: 'timeout', by: undefined });
      assert.deepEqual(server.approvals.pending(), []);
      assert.deepEqual(runs, []);
    } finally {
      await server.close();
    }
  });

  it('a timeout above the server approvalTtlMs is refused before anything waits', async () => {
    const greedy = defineTool({ name: 'greedy', inputSchema: { type: 'object' }, run: async (_args, ctx) => (await ctx.approvals.awaitOperator({ summary: 'Go?', timeoutMs: 60_001 })).approved ? 'went' : 'no' });
    const server = createServer({ name: 'ttl', version: '1', tools: [greedy], approvalTtlMs: 60_000 });
    try {
      const listener = await server.listen({ port: 0 });
      const result = resultOf((await post(listener.url, rpc('tools/call', { name: 'greedy', arguments: {} }))).body);
      assert.equal(result.isError, true);
      assert.match((result.content as { text: string }[])[0]!.text, /timeoutMs must be an integer from 1 to 60000 \(the server's approvalTtlMs\), got 60001/);
      assert.deepEqual(server.approvals.pending(), []);
    } finally {
      await server.close();
    }
  });
});
