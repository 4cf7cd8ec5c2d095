/**
 * The `request-state` stage: a single-use requestState (an approval) is verified as this call's
 * before any handler sees the call, synchronously and without the store; `claim` claims it later.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { digestArguments } from '../../../src/server/approvals/request-state-seal.js';
import type { SealedClaims } from '../../../src/server/approvals/request-state-seal.js';
import { requestState } from '../../../src/server/stages/request-state.js';
import type { PipelineEnv } from '../../../src/server/stages/pipeline-env.js';
import type { Redeemed } from '../../../src/server/stages/stage.js';
import { assertRefused, stageEnv, toolFound } from '../../support/stage-fixture.js';

const ARGS = { text: 'hi' };
const OTHER_CALL = 'Invalid params: requestState belongs to a different call (tool, arguments, caller or client differ)';

/** A sealed single-use state for `tools/call echo` with ARGS, anonymous caller, no client. */
function sealed(env: PipelineEnv, overrides: Partial<SealedClaims> = {}): string {
  return env.signer.sign({ call: 'tools/call echo', args: digestArguments(ARGS), sub: '', cid: '', exp: Date.now() + 60_000, nonce: `n-${Math.random()}`, once: true, approves: 'digest-1', answers: {}, ...overrides });
}

function passed(value: unknown): Redeemed {
  assert.ok(typeof value === 'object' && value !== null && !(value instanceof Promise), 'synchronous');
  if ('kind' in value) assert.fail(`refused: ${JSON.stringify(value)}`);
  return value as Redeemed;
}

describe('request-state stage', () => {
  it('passes without a requestState, with nothing to claim', () => {
    const env = stageEnv();
    const s = passed(requestState.run(toolFound(env, { args: ARGS }), env));
    assert.equal(s.approvalState, undefined);
    assert.equal(s.redeemed, undefined);
  });

  it('leaves a state that is not single-use (or not ours) to whoever reads it', () => {
    const env = stageEnv();
    for (const token of [sealed(env, { once: false }), 'tw1.forged.mac', 'something else']) {
      const s = passed(requestState.run(toolFound(env, { args: ARGS, requestState: token }), env));
      assert.equal(s.approvalState, undefined);
    }
  });

  it('verifies a single-use state without claiming it: the same state passes twice, and the store holds no claim', async () => {
    const env = stageEnv();
    const token = sealed(env, { nonce: 'n-fixed' });
    for (let i = 0; i < 2; i++) {
      const s = passed(requestState.run(toolFound(env, { args: ARGS, requestState: token }), env));
      assert.equal(s.approvalState?.nonce, 'n-fixed');
      assert.equal(s.approvalState?.approves, 'digest-1');
      assert.equal(s.redeemed, undefined);
    }
    assert.equal(await env.store.getClaim('approval:elicitation:n-fixed'), undefined);
  });

  it('refuses a state of another call, arguments, subject or client', () => {
    const env = stageEnv();
    const token = sealed(env);
    assertRefused(requestState.run(toolFound(env, { args: { text: 'other' }, requestState: token }), env), 'invalidRequestState', OTHER_CALL, { data: { field: 'requestState' } });
    assertRefused(requestState.run(toolFound(env, { args: ARGS, requestState: token, auth: { subject: 'mallory', scopes: [] } }), env), 'invalidRequestState', OTHER_CALL);
    assertRefused(requestState.run(toolFound(env, { args: ARGS, requestState: sealed(env, { call: 'tools/call other' }) }), env), 'invalidRequestState', OTHER_CALL);
    assertRefused(requestState.run(toolFound(env, { args: ARGS, requestState: token, auth: { subject: '', clientId: 'other-client', scopes: [] } }), env), 'invalidRequestState', OTHER_CALL);
  });

  it('leaves an expired state to the handler\'s inputs, which refuse it (it is not verified as an approval)', () => {
    const env = stageEnv();
    const s = passed(requestState.run(toolFound(env, { args: ARGS, requestState: sealed(env, { exp: Date.now() - 1 }) }), env));
    assert.equal(s.approvalState, undefined);
  });
});
