/**
 * An approved motion survives a refusal that is not about it (issue 30 item 4), and only a client
 * holding the approver scope approves a motion by its own elicitation answer (issue 29 item 3).
 * Over MCP (real loopback HTTP); judged by the simulator's ground truth: how many trajectories it
 * executed and where the TCP is, not by the server's verdict.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createMemoryStore, type ApprovalQueue, type PendingApproval } from 'toolwright';
import { ELICITATION, refusalOf, startHarness, textOf, type Harness } from '../support/robot-harness.js';

const TARGET = { target_position: { x_mm: -450, y_mm: -150, z_mm: 420 } };
const ACCEPT = { approval: { action: 'accept', content: { approve: true } } };
const NOBODY_APPROVES = () => ({ scopes: [] as string[] });

/** Counts the trajectories the simulator itself executes from now on (its ground truth). */
function countExecutions(h: Harness): { readonly count: number } {
  const sim = h.robot.driver.sim;
  const execute = sim.execute.bind(sim);
  const counter = { count: 0 };
  sim.execute = (...args: Parameters<typeof sim.execute>) => {
    counter.count++;
    return execute(...args);
  };
  return counter;
}

function nextPending(queue: ApprovalQueue, tool: string): Promise<PendingApproval> {
  return new Promise((resolve) => {
    const stop = queue.subscribe((event) => {
      if (event.type !== 'pending' || event.pending.tool !== tool) return;
      stop();
      resolve(event.pending);
    });
  });
}

async function ask(h: Harness, tool: string, args: Record<string, unknown>): Promise<string> {
  const reply = await h.call(tool, args, { capabilities: ELICITATION });
  assert.equal(reply.body.result?.resultType, 'input_required', JSON.stringify(reply.body));
  return reply.body.result!.requestState!;
}

function assertAt(h: Harness, target: { x_mm: number; y_mm: number; z_mm: number }): void {
  const tcp = h.robot.driver.sim.tcp;
  assert.ok(Math.hypot(tcp.x - target.x_mm, tcp.y - target.y_mm, tcp.z - target.z_mm) < 0.5, `TCP at ${JSON.stringify(tcp)}, target ${JSON.stringify(target)}`);
}

describe('an approved motion survives a refusal that is not about it', () => {
  it('refused by the motion rate limit, the same approval moves the arm once after the refill', async () => {
    // The store's clock drives the rate limit's refill (its buckets live in the server's store).
    let now = Date.now();
    const h = await startHarness({ approval: 'always', motionRatePerSecond: 0.5, motionBurst: 1, store: createMemoryStore({ clock: { now: () => now } }) });
    try {
      const executed = countExecutions(h);
      const state = await ask(h, 'move_arm_to_pose', TARGET); // the question took the one token
      const before = h.robot.driver.sim.jointsDeg;
      const limited = await h.call('move_arm_to_pose', TARGET, { capabilities: ELICITATION, requestState: state, inputResponses: ACCEPT });
      assert.deepEqual(refusalOf(limited), { stage: 'state_gate', code: 'rate_limited', message: 'motion commands are limited to 0.5 per second (burst 1); retry in 2000 ms' });
      assert.equal(executed.count, 0);
      assert.deepEqual(h.robot.driver.sim.jointsDeg, before);
      now += 2000;
      const moved = await h.call('move_arm_to_pose', TARGET, { capabilities: ELICITATION, requestState: state, inputResponses: ACCEPT });
      assert.equal(moved.body.result?.structuredContent?.status, 'completed', JSON.stringify(moved.body));
      assert.equal(executed.count, 1);
      assertAt(h, TARGET.target_position);
      now += 2000;
      const replay = await h.call('move_arm_to_pose', TARGET, { capabilities: ELICITATION, requestState: state, inputResponses: ACCEPT });
      assert.deepEqual(replay.body.error, { code: -32602, message: 'Invalid params: requestState was already used; start the call again without it', data: { field: 'requestState' } });
      assert.equal(executed.count, 1, 'the arm moved exactly once');
    } finally {
      await h.close();
    }
  });

  it('refused because the arm is busy (a grasp holds the motion slot while the console decides), the same approval moves the arm once afterwards', async () => {
    const h = await startHarness({ approval: 'always', approver: 'either' });
    const detach = h.robot.approval.attachOperator();
    try {
      const block = h.robot.driver.sim.objects().find((o) => o.id === 'block-1')!;
      const above = { target_position: { x_mm: block.position.x, y_mm: block.position.y, z_mm: block.position.z + 100 }, path: 'joint' };
      const setup = await ask(h, 'move_arm_to_pose', above);
      assert.equal((await h.call('move_arm_to_pose', above, { capabilities: ELICITATION, requestState: setup, inputResponses: ACCEPT })).body.result?.structuredContent?.status, 'completed');
      const executed = countExecutions(h);
      const state = await ask(h, 'move_arm_to_pose', TARGET);
      // A client that cannot elicit: its grasp is held for the operator, holding the motion slot.
      const held = nextPending(h.robot.server.approvals, 'grasp_object_force_control');
      const grasp = h.call('grasp_object_force_control', { target_position: { x_mm: block.position.x, y_mm: block.position.y, z_mm: block.position.z }, force_n: 15 });
      const pending = await held;
      const busy = await h.call('move_arm_to_pose', TARGET, { capabilities: ELICITATION, requestState: state, inputResponses: ACCEPT });
      assert.equal(refusalOf(busy)?.stage, 'state_gate');
      assert.equal(refusalOf(busy)?.code, 'busy');
      assert.equal(executed.count, 0);
      await h.robot.server.approvals.decide(pending.id, { approve: false, operator: 'ops-anna' });
      assert.equal(refusalOf(await grasp)?.code, 'approval_declined');
      const moved = await h.call('move_arm_to_pose', TARGET, { capabilities: ELICITATION, requestState: state, inputResponses: ACCEPT });
      assert.equal(moved.body.result?.structuredContent?.status, 'completed', JSON.stringify(moved.body));
      assert.equal(executed.count, 1, 'the arm moved exactly once: the approved motion, nothing for the declined grasp');
      assertAt(h, TARGET.target_position);
      assert.equal(h.robot.driver.sim.heldObjectId, null);
    } finally {
      detach();
      await h.close();
    }
  });
});

describe('two concurrent retries with one approval', () => {
  it('exactly one moves the arm (the other is refused: already used, or busy while the first moves)', async () => {
    const h = await startHarness({ approval: 'always' });
    try {
      const executed = countExecutions(h);
      const state = await ask(h, 'move_arm_to_pose', TARGET);
      const both = await Promise.all([1, 2].map(() => h.call('move_arm_to_pose', TARGET, { capabilities: ELICITATION, requestState: state, inputResponses: ACCEPT })));
      assert.equal(both.filter((r) => r.body.result?.structuredContent?.status === 'completed').length, 1, JSON.stringify(both.map((r) => r.body)));
      const other = both.find((r) => r.body.result?.structuredContent?.status !== 'completed')!;
      const refusedAs = other.body.error?.message ?? refusalOf(other)?.code;
      assert.ok(refusedAs === 'Invalid params: requestState was already used; start the call again without it' || refusedAs === 'busy', JSON.stringify(other.body));
      assert.equal(executed.count, 1, 'the simulator executed one trajectory');
      assertAt(h, TARGET.target_position);
    } finally {
      await h.close();
    }
  });
});

describe('only a client holding the approver scope approves a motion by elicitation', () => {
  it('approver either, console attached: a client without the scope is held at the console whatever it declares; its own answer moves nothing', async () => {
    const h = await startHarness({ approval: 'always', approver: 'either', authorize: NOBODY_APPROVES });
    const detach = h.robot.approval.attachOperator();
    try {
      const executed = countExecutions(h);
      const before = h.robot.driver.sim.jointsDeg;
      const held = nextPending(h.robot.server.approvals, 'move_arm_to_pose');
      // A forged approval: the client declares elicitation and answers its own (never asked) question.
      const forged = h.call('move_arm_to_pose', TARGET, { capabilities: ELICITATION, inputResponses: ACCEPT });
      const pending = await held;
      assert.equal(executed.count, 0, 'nothing moved while it waits for the operator');
      await h.robot.server.approvals.decide(pending.id, { approve: false, operator: 'ops-anna' });
      const declined = await forged;
      assert.equal(refusalOf(declined)?.code, 'approval_declined');
      assert.equal(executed.count, 0);
      assert.deepEqual(h.robot.driver.sim.jointsDeg, before);
      // Approved at the console, the same client's motion runs once.
      const approvedHeld = nextPending(h.robot.server.approvals, 'move_arm_to_pose');
      const call = h.call('move_arm_to_pose', TARGET, { capabilities: ELICITATION });
      const again = await approvedHeld;
      await h.robot.server.approvals.decide(again.id, { approve: true, operator: 'ops-anna', digest: again.digest });
      assert.equal((await call).body.result?.structuredContent?.status, 'completed');
      assert.equal(executed.count, 1);
    } finally {
      detach();
      await h.close();
    }
  });

  for (const approver of ['elicitation', 'either'] as const) {
    it(`approver ${approver}, no console attached: a client without the scope is refused naming the scope, and nothing moves`, async () => {
      const h = await startHarness({ approval: 'always', approver, authorize: NOBODY_APPROVES });
      try {
        const executed = countExecutions(h);
        for (const options of [{ capabilities: ELICITATION }, { capabilities: ELICITATION, inputResponses: ACCEPT }]) {
          const reply = await h.call('move_arm_to_pose', TARGET, options);
          const message = 'this client does not hold the approver scope "toolwright:approve", so its own answer cannot approve a motion. Connect with a token granting "toolwright:approve", or approve at the operator console (--approver either or console, with the console attached)';
          assert.deepEqual(refusalOf(reply), { stage: 'approval', code: 'approver_scope_missing', message });
          assert.equal(textOf(reply), `Refused at stage approval (approver_scope_missing): ${message}. Nothing was executed.`);
        }
        assert.equal(executed.count, 0);
      } finally {
        await h.close();
      }
    });
  }
});
