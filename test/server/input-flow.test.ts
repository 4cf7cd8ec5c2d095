/** ctx.inputs (MRTR): every way an answer or a requestState can be wrong, and what happens then. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ProtocolError, elicitInput, listRootsInput, sampleInput } from '../../src/index.js';
import { createInputFlow, isValidInputResponse } from '../../src/server/approvals/input-flow.js';
import type { InputFlowScope } from '../../src/server/approvals/input-flow.js';
import type { ApprovalRecord } from '../../src/server/approvals/approvals.js';
import { RequestStateSigner } from '../../src/server/approvals/request-state-seal.js';

const signer = new RequestStateSigner('unit-test-key-0123456789');
const NAME = elicitInput({ message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } });
const ALL = { elicitation: {}, sampling: {}, roots: {} };

/** A scope as a test writes it: `redeemed` is the record itself (the flow reads it through a getter). */
type ScopeOverrides = Partial<Omit<InputFlowScope, 'redeemed'>> & { redeemed?: ApprovalRecord };

const TRUSTED = { trusted: true, refuse: () => new ProtocolError(-32003, 'unused') };

function flow(overrides: ScopeOverrides = {}) {
  const { redeemed, ...rest } = overrides;
  return createInputFlow({
    signer,
    call: 'tools/call greet',
    args: { x: 1 },
    caller: '',
    client: '',
    capabilities: ALL,
    inputResponses: undefined,
    requestState: undefined,
    ttlMs: 60_000,
    epoch: () => 'epoch-1',
    claimAhead: false,
    approver: TRUSTED,
    ...rest,
    redeemed: () => redeemed,
  });
}

function pendingState(overrides: ScopeOverrides = {}, data?: unknown): string {
  const got = flow(overrides).require({ name: NAME }, data === undefined ? {} : { data: data as never });
  assert.equal(got.ready, false);
  return got.ready ? '' : (got.result.requestState as string);
}

function assertProtocolError(fn: () => unknown, code: number, message: RegExp): void {
  assert.throws(fn, (error: unknown) => error instanceof ProtocolError && error.code === code && message.test(error.message));
}

describe('inputs.require()', () => {
  it('first round: an input_required result with exactly the requests and a sealed state', () => {
    const got = flow().require({ name: NAME });
    assert.equal(got.ready, false);
    if (got.ready) return;
    assert.deepEqual(got.result.inputRequests, { name: NAME });
    assert.match(got.result.requestState as string, /^tw1\./);
  });

  it('a valid answer completes; extra keys are ignored', () => {
    const got = flow({ inputResponses: { name: { action: 'accept', content: { name: 'Ada' } }, junk: 1 } }).require({ name: NAME });
    assert.ok(got.ready);
    assert.deepEqual(got.responses, { name: { action: 'accept', content: { name: 'Ada' } } });
    assert.equal(got.data, undefined);
  });

  it('malformed answers are asked again', () => {
    for (const answer of [12345, null, { action: 'maybe' }, { action: 'accept' }, { action: 'accept', content: { name: 7 } }, { action: 'decline', content: 'no' }]) {
      const got = flow({ inputResponses: { name: answer } }).require({ name: NAME });
      assert.equal(got.ready, false, JSON.stringify(answer));
    }
  });

  it('a forged or truncated requestState is -32602', () => {
    const state = pendingState();
    assertProtocolError(() => flow({ requestState: `${state}x` }).require({ name: NAME }), -32602, /failed verification/);
    assertProtocolError(() => flow({ requestState: 'tw1.abc' }).require({ name: NAME }), -32602, /malformed/);
    assertProtocolError(() => flow({ requestState: 'hello' }).require({ name: NAME }), -32602, /not issued by this server/);
    assertProtocolError(() => flow({ requestState: state, signer: new RequestStateSigner('other-key-0123456789') }).require({ name: NAME }), -32602, /failed verification/);
  });

  it('a requestState of another call (tool, arguments, caller) is -32602', () => {
    const state = pendingState();
    for (const other of [{ call: 'tools/call other' }, { args: { x: 2 } }, { caller: 'mallory' }, { call: 'prompts/get greet' }]) {
      assertProtocolError(() => flow({ ...other, requestState: state }).require({ name: NAME }), -32602, /different call/);
    }
  });

  it('an expired requestState is -32602', () => {
    const state = pendingState({ ttlMs: -1 });
    assertProtocolError(() => flow({ requestState: state }).require({ name: NAME }), -32602, /expired/);
  });

  it('an authentic token whose claims are not well-formed is -32602 malformed', () => {
    const odd = signer.sign({ call: 'tools/call greet', args: 'x', sub: '', exp: Date.now() + 60_000 } as never);
    assertProtocolError(() => flow({ requestState: odd }).require({ name: NAME }), -32602, /malformed/);
  });

  it('requireState: answers without a sealed state are not used; with it they are, and data comes back', () => {
    const answer = { name: { action: 'accept', content: { name: 'Ada' } } };
    assert.equal(flow({ inputResponses: answer }).require({ name: NAME }, { requireState: true }).ready, false);
    const state = pendingState({}, { step: 1 });
    const got = flow({ inputResponses: answer, requestState: state }).require({ name: NAME }, { requireState: true });
    assert.ok(got.ready);
    assert.deepEqual(got.data, { step: 1 });
  });

  it('sealed answers survive into later rounds; only missing keys are asked again', () => {
    const r1 = flow().require({ name: NAME, roots: listRootsInput() });
    assert.equal(r1.ready, false);
    if (r1.ready) return;
    const r2 = flow({ inputResponses: { name: { action: 'accept', content: { name: 'Ada' } } }, requestState: r1.result.requestState }).require({ name: NAME, roots: listRootsInput() });
    assert.equal(r2.ready, false);
    if (r2.ready) return;
    assert.deepEqual(Object.keys(r2.result.inputRequests ?? {}), ['roots']);
    const r3 = flow({ inputResponses: { roots: { roots: [] } }, requestState: r2.result.requestState }).require({ name: NAME, roots: listRootsInput() });
    assert.ok(r3.ready);
    assert.equal(r3.responses.name.content?.name, 'Ada');
  });

  it('an undeclared capability is -32021 naming it; onlyDeclared drops it unless nothing is left', () => {
    const noElicitation = { sampling: {} };
    const greet = sampleInput({ messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 5 });
    assert.throws(() => flow({ capabilities: noElicitation }).require({ name: NAME }), (e: unknown) => e instanceof ProtocolError && e.code === -32021 && JSON.stringify(e.data) === '{"requiredCapabilities":{"elicitation":{}}}');
    const some = flow({ capabilities: noElicitation }).require({ name: NAME, greet }, { onlyDeclared: true });
    assert.equal(some.ready, false);
    if (!some.ready) assert.deepEqual(Object.keys(some.result.inputRequests ?? {}), ['greet']);
    assert.throws(() => flow({ capabilities: {} }).require({ name: NAME }, { onlyDeclared: true }), (e: unknown) => e instanceof ProtocolError && e.code === -32021);
  });

  it('a request with an unknown method is a programming error (TypeError)', () => {
    assert.throws(() => flow().require({ bad: { method: 'ping', params: {} } as never }), TypeError);
    // A method named like an Object.prototype member is unknown too (the table is read with hasOwn).
    for (const method of ['constructor', 'toString', '__proto__']) {
      assert.throws(() => flow().require({ bad: { method, params: {} } as never }),
        (e: unknown) => e instanceof TypeError && e.message === `inputs.require(): request "bad" has unknown method ${JSON.stringify(method)}`);
    }
  });

  it('supports() reports declared capabilities', () => {
    const f = flow({ capabilities: { roots: {} } });
    assert.equal(f.supports('roots/list'), true);
    assert.equal(f.supports('sampling/createMessage'), false);
  });
});

describe('input request builders and answer checks', () => {
  it('builders refuse what a client could not answer', () => {
    assert.throws(() => elicitInput({ message: '', requestedSchema: { type: 'object' } }), TypeError);
    assert.throws(() => elicitInput({ message: 'x', requestedSchema: { type: 'string' } }), TypeError);
    assert.throws(() => sampleInput({ messages: [], maxTokens: 5 }), TypeError);
    assert.throws(() => sampleInput({ messages: [{ role: 'user' }], maxTokens: 0 }), TypeError);
    assert.deepEqual(listRootsInput(), { method: 'roots/list', params: {} });
  });

  it('sampling and roots answers are checked for shape', () => {
    const sample = sampleInput({ messages: [{ role: 'user' }], maxTokens: 1 });
    assert.equal(isValidInputResponse(sample, { role: 'assistant', content: { type: 'text', text: 'x' }, model: 'm' }), true);
    assert.equal(isValidInputResponse(sample, { role: 'robot', content: { type: 'text', text: 'x' }, model: 'm' }), false);
    assert.equal(isValidInputResponse(sample, { role: 'assistant', content: 'x', model: 'm' }), false);
    assert.equal(isValidInputResponse(listRootsInput(), { roots: [{ uri: 'file:///a' }] }), true);
    assert.equal(isValidInputResponse(listRootsInput(), { roots: [{ name: 'no uri' }] }), false);
  });
});

describe('single-use states (approvals)', () => {
  const answer = { name: { action: 'accept', content: { name: 'Ada' } } };
  const redeemed = { call: 'tools/call greet', approves: 'd', approvedBy: { kind: 'client-user', subject: '', via: 'elicitation' }, redeemedAt: 1 } as const;

  function onceState(approves?: string): string {
    const first = flow().require({ name: NAME }, { singleUse: true, ...(approves === undefined ? {} : { approves }) });
    if (first.ready) return assert.fail('expected a question');
    return first.result.requestState as string;
  }

  it('completes only when the pipeline redeemed the state for this request, and hands back the record', () => {
    const state = onceState();
    const got = flow({ inputResponses: answer, requestState: state, redeemed }).require({ name: NAME }, { singleUse: true });
    assert.ok(got.ready);
    assert.deepEqual(got.approval, redeemed);
    const unredeemed = flow({ inputResponses: answer, requestState: state }).require({ name: NAME }, { singleUse: true });
    assert.equal(unredeemed.ready, false, 'a state nobody claimed is asked again, never run');
    assert.equal(flow({ inputResponses: answer, redeemed }).require({ name: NAME }, { singleUse: true }).ready, false, 'answers without a state are asked again');
  });

  it('a state that was not issued for single use never completes a single-use approval', () => {
    const plain = pendingState();
    assert.equal(flow({ inputResponses: answer, requestState: plain, redeemed }).require({ name: NAME }, { singleUse: true }).ready, false);
  });

  it('the approved digest must be the same on the answer: another digest is -32602', () => {
    const state = onceState('plan-hash-1');
    assert.equal(flow({ inputResponses: answer, requestState: state, redeemed }).require({ name: NAME }, { singleUse: true, approves: 'plan-hash-1' }).ready, true);
    assertProtocolError(() => flow({ inputResponses: answer, requestState: state, redeemed }).require({ name: NAME }, { singleUse: true, approves: 'plan-hash-2' }), -32602, /approved a different action/);
    assertProtocolError(() => flow({ inputResponses: answer, requestState: state, redeemed }).require({ name: NAME }, { singleUse: true }), -32602, /approved a different action/);
  });

  it('onOtherDigest complete: an answer under another digest comes back with the redeemed record for the caller to refuse', () => {
    const state = onceState('plan-hash-1');
    const got = flow({ inputResponses: answer, requestState: state, redeemed: { ...redeemed, approves: 'plan-hash-1' } }).require({ name: NAME }, { singleUse: true, approves: 'plan-hash-2', onOtherDigest: 'complete' });
    assert.ok(got.ready);
    assert.equal(got.approval?.approves, 'plan-hash-1', 'the record names what was approved, not what is asked now');
    assertProtocolError(() => flow({ inputResponses: answer, requestState: state, redeemed }).require({ name: NAME }, { singleUse: true, approves: 'plan-hash-2', onOtherDigest: 'error' }), -32602, /approved a different action/);
  });

  it('later rounds of a single-use flow stay single use', () => {
    const state = onceState();
    const next = flow({ inputResponses: answer, requestState: state, redeemed }).require({ name: NAME, roots: listRootsInput() });
    if (next.ready) return assert.fail('expected a question');
    assert.equal(signer.verify(next.result.requestState as string).ok && (signer.verify(next.result.requestState as string) as { claims: { once: boolean } }).claims.once, true);
  });
});
