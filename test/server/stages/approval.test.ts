/**
 * The `approval` stage: a human approves this very call before `run`, the client's user through a
 * form elicitation (two rounds: the question, then the retry carrying the answer and the sealed
 * state) or an operator while the call is held open.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defineTool } from '../../../src/index.js';
import type { ApprovalRequest } from '../../../src/index.js';
import { CallContext } from '../../../src/server/stages/call-context.js';
import { approval } from '../../../src/server/stages/approval.js';
import { requestState } from '../../../src/server/stages/request-state.js';
import type { PipelineEnv } from '../../../src/server/stages/pipeline-env.js';
import type { Redeemed, Shaped } from '../../../src/server/stages/stage.js';
import type { CallInit } from '../../support/stage-fixture.js';
import { asStop, assertPassed, assertRefused, assertToolError, extend, settle, shaped, stageEnv, toolFound } from '../../support/stage-fixture.js';
import { sampleTool } from '../../support/sample-tool.js';

const ARGS = { speed: 2 };
const FORM = { elicitation: { form: {} } };

function approving(request: ApprovalRequest | null | (() => ApprovalRequest | null)): PipelineEnv {
  const ask = typeof request === 'function' ? request : () => request;
  return stageEnv({ tools: [defineTool({ name: 'move', inputSchema: { type: 'object' }, approval: ask, run: () => 'moved' })] });
}

/** Round 1: the question; returns the requestState the client must send back. */
async function question(env: PipelineEnv): Promise<string> {
  const stop = asStop(await settle(approval.run(shaped(env, { args: ARGS, capabilities: FORM }), env)));
  assert.equal(stop.kind, 'result');
  const result = (stop as unknown as { result: { resultType: string; inputRequests: Record<string, unknown>; requestState: string } }).result;
  assert.equal(result.resultType, 'input_required');
  return result.requestState;
}

/** Round 2's state as the stages before `approval` leave it: the approval state verified (claimed later, by `claim`), the context made. */
async function retry(env: PipelineEnv, init: CallInit): Promise<Shaped> {
  const r = await settle(requestState.run(toolFound(env, { args: ARGS, capabilities: FORM, ...init }), env));
  if ('kind' in r) assert.fail(`request-state refused the retry: ${JSON.stringify(r)}`);
  const verified: Redeemed = r;
  assert.notEqual(verified.approvalState, undefined);
  return extend(verified, { ctx: new CallContext(verified, env) });
}

describe('approval stage', () => {
  it('passes synchronously for a tool without an approval hook', () => {
    const env = stageEnv({ tools: [sampleTool()] });
    const s = shaped(env, { args: { text: 'x' } });
    assertPassed(approval.run(s, env), s);
  });

  it('passes when the hook asks for nothing this time', async () => {
    const env = approving(null);
    const s = shaped(env, { args: ARGS });
    assertPassed(await settle(approval.run(s, env)), s);
  });

  it('asks the user with a form whose one field is "approve"', async () => {
    const env = approving({ message: 'Move at speed 2?' });
    const stop = asStop(await settle(approval.run(shaped(env, { args: ARGS, capabilities: FORM }), env)));
    const result = (stop as unknown as { result: { inputRequests: Record<string, unknown>; requestState: unknown } }).result;
    assert.deepEqual(stop, { kind: 'result', outcome: 'respond', result });
    assert.deepEqual(result.inputRequests, {
      approval: {
        method: 'elicitation/create',
        params: {
          mode: 'form',
          message: 'Move at speed 2?',
          requestedSchema: { type: 'object', properties: { approve: { type: 'boolean', title: 'Approve', description: 'Allow move to run with these arguments' } }, required: ['approve'] },
        },
      },
    });
    assert.equal(typeof result.requestState, 'string');
  });

  it('passes the retry that carries an approving answer', async () => {
    const env = approving({ message: 'Move?' });
    const state = await question(env);
    const s = await retry(env, { requestState: state, inputResponses: { approval: { action: 'accept', content: { approve: true } } } });
    assertPassed(await settle(approval.run(s, env)), s);
  });

  it('refuses with an isError result when the user declines, cancels or does not tick approve', async () => {
    const cases: [unknown, string][] = [
      [{ action: 'decline' }, 'declined'],
      [{ action: 'cancel' }, 'cancelled'],
      [{ action: 'accept', content: { approve: false } }, 'did not approve'],
    ];
    for (const [answer, how] of cases) {
      const env = approving({ message: 'Move?' });
      const s = await retry(env, { requestState: await question(env), inputResponses: { approval: answer } });
      assertToolError(await settle(approval.run(s, env)), 'approvalDeclined', `The user ${how} the call of move; it was not executed.`);
    }
  });

  it('refuses a redeemed retry without an answer', async () => {
    const env = approving({ message: 'Move?' });
    const s = await retry(env, { requestState: await question(env), inputResponses: { approval: 'yes' } });
    assertRefused(await settle(approval.run(s, env)), 'invalidCallParams', 'Invalid params: inputResponses.approval must be an elicitation result with an "action"');
  });

  it('refuses a state approving another digest', async () => {
    let digest = 'plan-1';
    const env = approving(() => ({ message: 'Move?', digest }));
    const state = await question(env);
    digest = 'plan-2';
    const s = await retry(env, { requestState: state, inputResponses: { approval: { action: 'accept', content: { approve: true } } } });
    const error = assertRefused(await settle(approval.run(s, env)), 'invalidRequestState', 'Invalid params: requestState approved a different action (the approval digest differs); start the call again without it');
    assert.deepEqual(error.data, { field: 'requestState' });
  });

  it('refuses a client that cannot show a form', async () => {
    const env = approving({ message: 'Move?' });
    assertRefused(await settle(approval.run(shaped(env, { args: ARGS, capabilities: { elicitation: { url: {} } } }), env)), 'missingClientCapability',
      'Missing required client capability: elicitation (tool move needs human approval)', { data: { requiredCapabilities: { elicitation: { form: {} } } } });
  });

  it('rejects a hook naming an unknown approver (a programming error, not a refusal)', async () => {
    const env = approving({ message: 'Move?', approver: 'robot' as never });
    await assert.rejects(settle(approval.run(shaped(env, { args: ARGS }), env)), { name: 'TypeError', message: 'approval hook of move: approver must be "elicitation", "operator" or "either", got "robot"' });
  });

  for (const approver of ['operator', 'either'] as const) {
    it(`holds the call for an operator (${approver}, no form) and passes when approved`, async () => {
      const env = approving({ message: 'Move?', approver, details: { path: [1, 2] } });
      const decided = new Promise<void>((resolve) => {
        const stop = env.approvals.subscribe((event) => {
          if (event.type !== 'pending') return;
          stop();
          assert.equal(event.pending.summary, 'Move?');
          assert.deepEqual(event.pending.details, { path: [1, 2] });
          void env.approvals.decide(event.pending.id, { approve: true, operator: 'olga', digest: event.pending.digest }).then(() => resolve());
        });
      });
      const s = shaped(env, { args: ARGS });
      const out = approval.run(s, env);
      await decided;
      assertPassed(await settle(out), s);
    });
  }

  it('refuses with the operator\'s decline', async () => {
    const env = approving({ message: 'Move?', approver: 'operator' });
    env.approvals.subscribe((event) => {
      if (event.type === 'pending') void env.approvals.decide(event.pending.id, { approve: false, operator: 'olga' });
    });
    assertToolError(await settle(approval.run(shaped(env, { args: ARGS }), env)), 'approvalDeclined', 'The call of move was declined by olga; it was not executed.');
  });
});
