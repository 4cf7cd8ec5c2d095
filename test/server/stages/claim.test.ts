/**
 * The `claim` stage: the verified single-use approval is claimed in the store right before
 * `execute`, once; a replay, a state of another store epoch and a full store are refused; a caller
 * that may not approve claims nothing.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { digestArguments } from '../../../src/server/approvals/request-state-seal.js';
import type { SealedClaims } from '../../../src/server/approvals/request-state-seal.js';
import { claim } from '../../../src/server/stages/claim.js';
import type { PipelineEnv } from '../../../src/server/stages/pipeline-env.js';
import type { Shaped } from '../../../src/server/stages/stage.js';
import { StoreFullError } from '../../../src/server/store/store.js';
import { assertPassed, assertRefused, extend, settle, shaped, stageEnv } from '../../support/stage-fixture.js';
import type { CallInit } from '../../support/stage-fixture.js';

const ARGS = { text: 'hi' };

function claims(env: PipelineEnv, overrides: Partial<SealedClaims> = {}): SealedClaims {
  return { call: 'tools/call echo', args: digestArguments(ARGS), sub: '', cid: '', exp: Date.now() + 60_000, nonce: `n-${Math.random()}`, once: true, approves: 'digest-1', epoch: env.store.epoch(), answers: {}, ...overrides };
}

/** The state `request-state` leaves for a verified approval (`claims`), with the handler context made. */
function verified(env: PipelineEnv, approvalState: SealedClaims, init: CallInit = {}): Shaped {
  return extend(shaped(env, { args: ARGS, ...init }), { approvalState });
}

describe('claim stage', () => {
  it('passes synchronously when there is nothing to claim', () => {
    const env = stageEnv();
    const s = shaped(env, { args: ARGS });
    assertPassed(claim.run(s, env), s);
    assert.equal(s.redeemed, undefined);
  });

  it('claims once, recording what was approved and by whom; a replay of the same approval is refused', async () => {
    const env = stageEnv();
    const approval = claims(env, { nonce: 'n-once' });
    const s = verified(env, approval);
    assertPassed(await settle(claim.run(s, env)), s);
    assert.deepEqual({ ...s.redeemed, redeemedAt: 0 }, { call: 'tools/call echo', approves: 'digest-1', approvedBy: { kind: 'client-user', subject: '', via: 'elicitation' }, redeemedAt: 0 });
    assert.notEqual(await env.store.getClaim('approval:elicitation:n-once'), undefined);
    assertRefused(await settle(claim.run(verified(env, approval), env)), 'invalidRequestState',
      'Invalid params: requestState was already used; start the call again without it', { data: { field: 'requestState' } });
  });

  it('refuses an approval sealed in another store epoch, and claims nothing', async () => {
    const env = stageEnv();
    const approval = claims(env, { nonce: 'n-epoch', epoch: 'an-older-epoch' });
    const error = assertRefused(await settle(claim.run(verified(env, approval), env)), 'invalidRequestState',
      'Invalid params: requestState was issued before the approval store lost its memory (its epoch changed, e.g. a Redis restarted empty); start the call again without it');
    assert.deepEqual(error.data, { field: 'requestState' });
    assert.equal(await env.store.getClaim('approval:elicitation:n-epoch'), undefined);
  });

  it('claims nothing for an HTTP caller without the approver scope (the state stays usable by its own caller)', async () => {
    const env = stageEnv();
    const approval = claims(env, { nonce: 'n-scope' });
    const s = verified(env, approval, { transport: 'http', headers: {} });
    assertPassed(claim.run(s, env), s);
    assert.equal(s.redeemed, undefined);
    assert.equal(await env.store.getClaim('approval:elicitation:n-scope'), undefined);
  });

  it('refuses with an internal fault when the store is full', async () => {
    const base = stageEnv();
    const store = { ...base.store, epoch: () => base.store.epoch(), claimOnce: () => Promise.reject(new StoreFullError('claims', 1)) };
    const env = stageEnv({ store });
    assertRefused(await settle(claim.run(verified(env, claims(env)), env)), 'internalFault', 'Internal error: the approval store is full; try again later');
  });
});
