import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { approvalForm } from 'toolwright';
import { readAuditLog } from '../../server/audit-log.js';
import { ELICITATION, refusalOf, startHarness, textOf, type Harness } from '../support/robot-harness.js';

const TARGET = { target_position: { x_mm: -450, y_mm: -150, z_mm: 420 } };
const ACCEPT = { approval: { action: 'accept', content: { approve: true } } };

async function ask(h: Harness, args: Record<string, unknown> = TARGET) {
  const reply = await h.call('move_arm_to_pose', args, { capabilities: ELICITATION });
  const result = reply.body.result!;
  assert.equal(result.resultType, 'input_required', JSON.stringify(reply.body));
  return { requestState: result.requestState!, request: result.inputRequests!.approval! };
}

describe('approval: a human approves the exact plan through an input_required elicitation', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ approval: 'always' });
  });
  after(async () => {
    await h.close();
  });

  it('without elicitation support the motion is refused, never run', async () => {
    const before = h.robot.driver.sim.jointsDeg;
    const reply = await h.call('move_arm_to_pose', TARGET);
    assert.equal(refusalOf(reply)?.stage, 'approval');
    assert.equal(refusalOf(reply)?.code, 'approval_unavailable');
    assert.equal(textOf(reply), 'Refused at stage approval (approval_unavailable): the client cannot ask a human (no form elicitation capability) and approval is required. Use a client that supports elicitation, or an operator console (packages/robot-arm/main.ts serves one), or --approval off for pure simulation. Nothing was executed.');
    assert.deepEqual(h.robot.driver.sim.jointsDeg, before);
  });

  it('asks with the plan and its hash; decline does not move; the same approval cannot be reused; accept moves once', async () => {
    const before = h.robot.driver.sim.jointsDeg;
    const first = await ask(h);
    assert.equal(first.request.method, 'elicitation/create');
    const hash = /SHA-256 ([0-9a-f]{64})/.exec(first.request.params.message)?.[1];
    assert.ok(hash, first.request.params.message);
    assert.match(first.request.params.message, /Duration \d+\.\d\d s; peak TCP speed/);
    // The question is the server's approval form, in the robot's words.
    assert.deepEqual(first.request.params, approvalForm(first.request.params.message, { title: 'Approve this motion', description: 'Tick to run exactly the plan shown above on the arm' }).params);
    assert.deepEqual(h.robot.driver.sim.jointsDeg, before, 'asking moves nothing');

    const declined = await h.call('move_arm_to_pose', TARGET, { capabilities: ELICITATION, requestState: first.requestState, inputResponses: { approval: { action: 'decline' } } });
    assert.equal(refusalOf(declined)?.code, 'approval_declined');
    assert.deepEqual(h.robot.driver.sim.jointsDeg, before);

    const reused = await h.call('move_arm_to_pose', TARGET, { capabilities: ELICITATION, requestState: first.requestState, inputResponses: ACCEPT });
    assert.equal(reused.body.error?.code, -32602);
    assert.match(reused.body.error!.message, /requestState was already used/);
    assert.deepEqual(h.robot.driver.sim.jointsDeg, before);

    const second = await ask(h);
    const unticked = await h.call('move_arm_to_pose', TARGET, { capabilities: ELICITATION, requestState: second.requestState, inputResponses: { approval: { action: 'accept', content: { approve: false } } } });
    assert.equal(refusalOf(unticked)?.code, 'approval_declined');
    assert.deepEqual(h.robot.driver.sim.jointsDeg, before);

    const third = await ask(h);
    const approved = await h.call('move_arm_to_pose', TARGET, { capabilities: ELICITATION, requestState: third.requestState, inputResponses: ACCEPT });
    assert.equal(approved.body.result?.structuredContent?.status, 'completed', JSON.stringify(approved.body));
    assert.notDeepEqual(h.robot.driver.sim.jointsDeg, before);
    const record = readAuditLog(h.auditPath).records.filter((r) => r.type === 'tool_call').at(-1)!;
    // `approves` is what the toolkit's approval mechanism redeemed: the plan hash the question showed (the
    // digest the robot supplies), not the toolkit's default of the tool and its arguments.
    assert.deepEqual(record.approval, { decision: 'approved', planHash: hash, reason: 'approved by the user through elicitation', approvedBy: { kind: 'client-user', subject: '', via: 'elicitation' }, approves: hash });
    assert.equal(record.plan_hash, hash);
  });

  it('a forged or tampered requestState is an invalid-params error and nothing moves', async () => {
    const before = h.robot.driver.sim.jointsDeg;
    const { requestState } = await ask(h, { target_position: { x_mm: -470, y_mm: -160, z_mm: 400 } });
    const tampered = requestState.slice(0, -2) + (requestState.endsWith('AA') ? 'BB' : 'AA');
    for (const state of [tampered, 'rbt1.e30.x', 'not-ours']) {
      const reply = await h.call('move_arm_to_pose', { target_position: { x_mm: -470, y_mm: -160, z_mm: 400 } }, { capabilities: ELICITATION, requestState: state, inputResponses: ACCEPT });
      assert.equal(reply.body.error?.code, -32602, state);
    }
    assert.deepEqual(h.robot.driver.sim.jointsDeg, before);
  });

  it('an approval cannot be carried over to other arguments', async () => {
    const before = h.robot.driver.sim.jointsDeg;
    const { requestState } = await ask(h, { target_position: { x_mm: -470, y_mm: -160, z_mm: 400 } });
    const reply = await h.call('move_arm_to_pose', { target_position: { x_mm: -470, y_mm: -100, z_mm: 400 } }, { capabilities: ELICITATION, requestState, inputResponses: ACCEPT });
    assert.equal(reply.body.error?.code, -32602);
    assert.match(reply.body.error!.message, /belongs to a different call/);
    assert.deepEqual(h.robot.driver.sim.jointsDeg, before);
  });

  it('stop_arm cancels a pending approval', async () => {
    const before = h.robot.driver.sim.jointsDeg;
    const { requestState } = await ask(h, { target_position: { x_mm: -470, y_mm: -160, z_mm: 400 } });
    const stop = await h.call('stop_arm', {});
    assert.equal(stop.body.result?.structuredContent?.pending_approvals_cancelled, true);
    const reply = await h.call('move_arm_to_pose', { target_position: { x_mm: -470, y_mm: -160, z_mm: 400 } }, { capabilities: ELICITATION, requestState, inputResponses: ACCEPT });
    assert.equal(refusalOf(reply)?.code, 'approval_cancelled');
    assert.deepEqual(h.robot.driver.sim.jointsDeg, before);
  });
});

describe('approval is bound to the plan as well as to the arguments', () => {
  it('if the arm moved after the question, the old approval does not run the new plan', async () => {
    const h = await startHarness({ approval: 'large-moves' });
    try {
      const large = { target_position: { x_mm: -400, y_mm: -300, z_mm: 150 } };
      const { requestState } = await ask(h, large);
      // A small move needs no approval in this mode; it changes where the large move would start.
      const small = await h.call('move_arm_to_pose', { target_position: { x_mm: -480, y_mm: -140, z_mm: 470 } });
      assert.equal(small.body.result?.structuredContent?.status, 'completed', JSON.stringify(small.body));
      const before = h.robot.driver.sim.jointsDeg;
      const reply = await h.call('move_arm_to_pose', large, { capabilities: ELICITATION, requestState, inputResponses: ACCEPT });
      assert.equal(refusalOf(reply)?.code, 'plan_changed');
      assert.deepEqual(h.robot.driver.sim.jointsDeg, before);
    } finally {
      await h.close();
    }
  });

  it('execute_trajectory asks with the stored plan\'s hash and runs it after approval', async () => {
    const h = await startHarness({ approval: 'always' });
    try {
      const tcp = h.robot.driver.sim.tcp;
      const planned = await h.call('plan_trajectory', { waypoints: [{ x_mm: tcp.x, y_mm: tcp.y, z_mm: tcp.z - 50 }, { x_mm: tcp.x + 40, y_mm: tcp.y, z_mm: tcp.z - 50 }] });
      const { plan_id: planId, plan_hash: planHash } = planned.body.result!.structuredContent as { plan_id: string; plan_hash: string };
      const asked = await h.call('execute_trajectory', { plan_id: planId }, { capabilities: ELICITATION });
      assert.equal(asked.body.result?.resultType, 'input_required');
      assert.ok(asked.body.result!.inputRequests!.approval!.params.message.includes(planHash));
      const run = await h.call('execute_trajectory', { plan_id: planId }, { capabilities: ELICITATION, requestState: asked.body.result!.requestState!, inputResponses: ACCEPT });
      assert.equal(run.body.result?.structuredContent?.status, 'completed');
      assert.equal(run.body.result?.structuredContent?.plan_hash, planHash);
    } finally {
      await h.close();
    }
  });

  it('a grasp approval covers the grip force: the same approach with another force is refused', async () => {
    const h = await startHarness({ approval: 'always' });
    try {
      const block = h.robot.driver.sim.objects().find((o) => o.id === 'block-1')!;
      const above = { target_position: { x_mm: block.position.x, y_mm: block.position.y, z_mm: block.position.z + 100 }, path: 'joint' };
      const move = await ask(h, above);
      const moved = await h.call('move_arm_to_pose', above, { capabilities: ELICITATION, requestState: move.requestState, inputResponses: ACCEPT });
      assert.equal(moved.body.result?.structuredContent?.status, 'completed');
      const grasp = (force: number) => ({ target_position: { x_mm: block.position.x, y_mm: block.position.y, z_mm: block.position.z }, force_n: force });
      const asked = await h.call('grasp_object_force_control', grasp(7), { capabilities: ELICITATION });
      assert.equal(asked.body.result?.resultType, 'input_required');
      assert.match(asked.body.result!.inputRequests!.approval!.params.message, /Then the gripper closes on block-1 \(parallel\) with 7 N; it is not fragile; holding it needs at least 6\.54 N \(gripper range 5–30 N\)\./);
      const before = h.robot.driver.sim.jointsDeg;
      const swapped = await h.call('grasp_object_force_control', grasp(30), { capabilities: ELICITATION, requestState: asked.body.result!.requestState!, inputResponses: ACCEPT });
      assert.equal(swapped.body.error?.code, -32602);
      assert.deepEqual(h.robot.driver.sim.jointsDeg, before);
      assert.equal(h.robot.driver.sim.heldObjectId, null);
    } finally {
      await h.close();
    }
  });
});
