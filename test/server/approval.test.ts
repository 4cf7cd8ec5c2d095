/**
 * One approval, one action: the `approval` hook over real HTTP (in process, with an injected clock
 * and two callers) and over stdio (a real child process). Every refusal checks the exact error and
 * that the tool did not run.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createServer } from '../../src/index.js';
import type { HttpListener, McpServer } from '../../src/index.js';
import { approvalTools } from '../fixtures/servers/approval-tools.js';
import { META, post, rpc } from '../fixtures/servers/raw-http.js';
import { StdioChild } from '../fixtures/servers/stdio-child.js';
import { errorOf, resultOf, textOf } from '../fixtures/servers/rpc-body.js';
import type { Body } from '../fixtures/servers/rpc-body.js';

const CAN_ELICIT = { ...META, 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } };
const ACCEPT = { approval: { action: 'accept', content: { approve: true } } };
const FIELD = { field: 'requestState' };
const ALREADY_USED = { code: -32602, message: 'Invalid params: requestState was already used; start the call again without it', data: FIELD };
const OTHER_CALL = { code: -32602, message: 'Invalid params: requestState belongs to a different call (tool, arguments, caller or client differ)', data: FIELD };


function callMessage(name: string, args: Record<string, unknown>, extra: Record<string, unknown> = {}, id: number | string = 1) {
  return rpc('tools/call', { name, arguments: args, ...extra }, id, CAN_ELICIT);
}

describe('approval over HTTP', () => {
  let now = 1_800_000_000_000;
  const clock = { now: () => now };
  const { tools, runs } = approvalTools();
  let server: McpServer;
  let listener: HttpListener;
  const as = (who: string) => ({ authorization: `Bearer ${who}` });

  before(async () => {
    server = createServer({
      name: 'approvals', version: '1', tools, clock, approvalTtlMs: 60_000,
      // Both hold the approver scope: their own elicitation answers approve (approver-trust.ts).
      authorize: ({ bearerToken }) => (bearerToken === 'alice' || bearerToken === 'bob' ? { scopes: ['toolwright:approve'], subject: bearerToken } : null),
    });
    listener = await server.listen({ port: 0 });
  });
  after(() => server.close());

  async function call(name: string, args: Record<string, unknown>, extra: Record<string, unknown> = {}, who = 'alice') {
    return post(listener.url, callMessage(name, args, extra), as(who));
  }
  async function ask(name: string, args: Record<string, unknown>, who = 'alice'): Promise<string> {
    const asked = resultOf((await call(name, args, {}, who)).body);
    assert.equal(asked.resultType, 'input_required');
    return asked.requestState as string;
  }

  it('one approval runs the tool once; replaying it is refused and nothing runs', async () => {
    runs.length = 0;
    const state = await ask('launch_rocket', { target: 'moon' });
    assert.deepEqual(runs, [], 'asking runs nothing');
    assert.equal(textOf((await call('launch_rocket', { target: 'moon' }, { requestState: state, inputResponses: ACCEPT })).body), 'launched at moon');
    for (let i = 0; i < 3; i++) {
      const replay = await call('launch_rocket', { target: 'moon' }, { requestState: state, inputResponses: ACCEPT });
      assert.equal(replay.status, 200);
      assert.deepEqual(errorOf(replay.body), ALREADY_USED);
    }
    assert.deepEqual(runs, ['rocket:moon']);
  });

  it('two replays at once: exactly one runs', async () => {
    runs.length = 0;
    const state = await ask('launch_rocket', { target: 'mars' });
    const both = await Promise.all([1, 2].map(() => call('launch_rocket', { target: 'mars' }, { requestState: state, inputResponses: ACCEPT })));
    const ran = both.filter((r) => r.body !== undefined && 'result' in r.body);
    const refused = both.filter((r) => r.body !== undefined && 'error' in r.body);
    assert.equal(ran.length, 1);
    assert.equal(refused.length, 1);
    assert.deepEqual(errorOf(refused[0]!.body), ALREADY_USED);
    assert.deepEqual(runs, ['rocket:mars']);
  });

  it('an approval of one tool does not run another, nor other arguments', async () => {
    runs.length = 0;
    const state = await ask('launch_rocket', { target: 'venus' });
    assert.deepEqual(errorOf((await call('launch_probe', { target: 'venus' }, { requestState: state, inputResponses: ACCEPT })).body), OTHER_CALL);
    assert.deepEqual(errorOf((await call('launch_rocket', { target: 'earth' }, { requestState: state, inputResponses: ACCEPT })).body), OTHER_CALL);
    assert.deepEqual(runs, []);
  });

  it('an approval given to one subject does not run for another', async () => {
    runs.length = 0;
    const state = await ask('launch_rocket', { target: 'io' }, 'alice');
    assert.deepEqual(errorOf((await call('launch_rocket', { target: 'io' }, { requestState: state, inputResponses: ACCEPT }, 'bob')).body), OTHER_CALL);
    assert.deepEqual(runs, []);
    // Bob's refused attempt did not use Alice's approval up.
    assert.equal(textOf((await call('launch_rocket', { target: 'io' }, { requestState: state, inputResponses: ACCEPT }, 'alice')).body), 'launched at io');
    assert.deepEqual(runs, ['rocket:io']);
  });

  it('an expired approval is refused and nothing runs', async () => {
    runs.length = 0;
    const state = await ask('launch_rocket', { target: 'titan' });
    now += 60_001;
    const late = await call('launch_rocket', { target: 'titan' }, { requestState: state, inputResponses: ACCEPT });
    assert.deepEqual(errorOf(late.body), { code: -32602, message: 'Invalid params: requestState has expired', data: FIELD });
    assert.deepEqual(runs, []);
  });

  it('a tampered approval is refused and nothing runs', async () => {
    runs.length = 0;
    const state = await ask('launch_rocket', { target: 'europa' });
    const [prefix, payload, mac] = state.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
    const widened = Buffer.from(JSON.stringify({ ...claims, once: false, exp: now + 1e9 })).toString('base64url');
    for (const forged of [`${prefix}.${widened}.${mac}`, `${state.slice(0, -2)}${state.endsWith('A') ? 'BB' : 'AA'}`]) {
      const res = await call('launch_rocket', { target: 'europa' }, { requestState: forged, inputResponses: ACCEPT });
      assert.deepEqual(errorOf(res.body), { code: -32602, message: 'Invalid params: requestState failed verification', data: FIELD });
    }
    assert.deepEqual(runs, []);
  });

  it('the tool-supplied digest: when what was approved changed, the approval does not run', async () => {
    runs.length = 0;
    const state = await ask('launch_from_pad', { target: 'ceres' });
    assert.equal(textOf((await call('move_pad', {})).body), 'pad now at 1');
    const res = await call('launch_from_pad', { target: 'ceres' }, { requestState: state, inputResponses: ACCEPT });
    assert.deepEqual(errorOf(res.body), { code: -32602, message: 'Invalid params: requestState approved a different action (the approval digest differs); start the call again without it', data: FIELD });
    assert.deepEqual(runs, []);
    const fresh = await ask('launch_from_pad', { target: 'ceres' });
    assert.equal(textOf((await call('launch_from_pad', { target: 'ceres' }, { requestState: fresh, inputResponses: ACCEPT })).body), 'launched at ceres from pad 1');
    assert.deepEqual(runs, ['pad1:ceres']);
  });
});

describe('approval over stdio (a real child process)', () => {
  let child: StdioChild;
  let nextId = 100;
  before(() => {
    child = new StdioChild(['serve', 'test/fixtures/servers/approval-tools.ts', '--stdio']);
  });
  after(async () => {
    child.kill();
    await child.exited;
  });

  async function send(name: string, args: Record<string, unknown>, extra: Record<string, unknown> = {}): Promise<Body> {
    const id = nextId++;
    child.send(callMessage(name, args, extra, id));
    return child.response(id);
  }
  const runsSoFar = async () => (resultOf(await send('launch_count', {})).structuredContent as { runs: string[] }).runs;

  it('replay, parallel replay, cross-tool and tampering are refused; the approved call runs exactly once', async () => {
    const state = resultOf(await send('launch_rocket', { target: 'moon' })).requestState as string;
    assert.deepEqual(errorOf(await send('launch_probe', { target: 'moon' }, { requestState: state, inputResponses: ACCEPT })), OTHER_CALL);
    const tampered = `${state.slice(0, -2)}${state.endsWith('A') ? 'BB' : 'AA'}`;
    assert.deepEqual(errorOf(await send('launch_rocket', { target: 'moon' }, { requestState: tampered, inputResponses: ACCEPT })), { code: -32602, message: 'Invalid params: requestState failed verification', data: FIELD });
    // Two at once on one connection: both lines are in flight before either answer.
    const [a, b] = [nextId++, nextId++];
    child.send(callMessage('launch_rocket', { target: 'moon' }, { requestState: state, inputResponses: ACCEPT }, a));
    child.send(callMessage('launch_rocket', { target: 'moon' }, { requestState: state, inputResponses: ACCEPT }, b));
    const answers = [await child.response(a), await child.response(b)];
    assert.equal(answers.filter((m) => 'result' in m).length, 1);
    assert.deepEqual(answers.filter((m) => 'error' in m).map((m) => m.error), [ALREADY_USED]);
    assert.deepEqual(errorOf(await send('launch_rocket', { target: 'moon' }, { requestState: state, inputResponses: ACCEPT })), ALREADY_USED);
    assert.deepEqual(await runsSoFar(), ['rocket:moon']);
  });
});
