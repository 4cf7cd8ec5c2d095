/**
 * Issue 12's findings, each replayed with plain MCP calls against a real server (approving or with
 * approval off, as the finding needs): every one of them is now refused before anything moves, or
 * completes within the physical limits. The simulator's own state is the witness.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ApprovalGate } from '../../server/approval-gate.js';
import { planFromCurrentPose } from '../../server/motion-safety.js';
import { SimArmDriver } from '../../driver/sim-arm-driver.js';
import { ELICITATION, refusalOf, startHarness, type Harness } from '../support/robot-harness.js';

const ACCEPT = { approval: { action: 'accept', content: { approve: true } } };

async function moveTo(h: Harness, x: number, y: number, z: number, extra: Record<string, unknown> = {}): Promise<void> {
  const reply = await h.call('move_arm_to_pose', { target_position: { x_mm: x, y_mm: y, z_mm: z }, path: 'joint', ...extra });
  assert.equal(reply.body.result?.structuredContent?.status, 'completed', JSON.stringify(reply.body));
}

/** A move in a mode that asks: approve it like a human would. */
async function approvedMove(h: Harness, x: number, y: number, z: number): Promise<void> {
  const args = { target_position: { x_mm: x, y_mm: y, z_mm: z }, path: 'joint' };
  let reply = await h.call('move_arm_to_pose', args, { capabilities: ELICITATION });
  if (reply.body.result?.resultType === 'input_required') {
    reply = await h.call('move_arm_to_pose', args, { capabilities: ELICITATION, requestState: reply.body.result.requestState!, inputResponses: ACCEPT });
  }
  assert.equal(reply.body.result?.structuredContent?.status, 'completed', JSON.stringify(reply.body));
}

async function graspAt(h: Harness, id: string, dzMm: number, extra: Record<string, unknown> = {}): Promise<void> {
  const o = h.robot.driver.sim.objects().find((x) => x.id === id)!;
  await moveTo(h, o.position.x, o.position.y, o.position.z + 100);
  const reply = await h.call('grasp_object_force_control', { target_position: { x_mm: o.position.x, y_mm: o.position.y, z_mm: o.position.z + dzMm }, ...extra });
  assert.equal(reply.body.result?.structuredContent?.grasped, true, JSON.stringify(reply.body));
}

describe('physical safety under approved calls (issue 12 findings)', () => {
  it('1: the UR5e folded pose from the issue is refused at stage collision, naming the two links', async () => {
    const h = await startHarness({ approval: 'off' });
    try {
      const before = h.robot.driver.sim.jointsDeg;
      const reply = await h.call('move_arm_to_pose', { target_position: { x_mm: 232.9, y_mm: -52.6, z_mm: 272 }, orientation: { roll_deg: 40.02, pitch_deg: -31.88, yaw_deg: 90.25 }, path: 'joint' });
      const refused = refusalOf(reply);
      assert.equal(refused?.stage, 'collision', JSON.stringify(reply.body));
      assert.equal(refused?.code, 'collision');
      assert.match(refused!.message, /(link \w+|the fingertips) would be ([\d.]+ mm inside|within [\d.]+ mm of) link \w+; rule: links keep 5 mm from each other outside the joint housings \(required gap 5 mm\)/);
      assert.deepEqual(h.robot.driver.sim.jointsDeg, before, 'nothing moved');
    } finally {
      await h.close();
    }
  });

  it('2: a held cup tilted 45° in place would put its rim into the table: refused, naming the held object and the rule', async () => {
    const h = await startHarness({ approval: 'off' });
    try {
      await graspAt(h, 'cup-1', 10);
      const sim = h.robot.driver.sim;
      const tcp = sim.tcp;
      const before = sim.jointsDeg;
      const reply = await h.call('move_arm_to_pose', { target_position: { x_mm: tcp.x, y_mm: tcp.y, z_mm: tcp.z }, orientation: { roll_deg: 135, pitch_deg: 0, yaw_deg: tcp.yawDeg } });
      const refused = refusalOf(reply);
      assert.equal(refused?.stage, 'collision', JSON.stringify(reply.body));
      assert.match(refused!.message, /the held object cup-1 would be [\d.]+ mm inside the table; rule: a held object picked up 0\.000 mm from table may never get more than 0\.01 mm closer than that, over all its motions/);
      assert.deepEqual(sim.jointsDeg, before);
      assert.deepEqual(h.robot.controller.monitor.violations, []);
    } finally {
      await h.close();
    }
  });

  it('4: a block released above the egg is refused (it would land on it); an egg held 300 mm up is refused (too far to drop)', async () => {
    const h = await startHarness({ approval: 'off' });
    try {
      await graspAt(h, 'block-1', 0, { force_n: 15 });
      const egg = h.robot.driver.sim.objects().find((o) => o.id === 'egg-1')!;
      const sim = h.robot.driver.sim;
      await moveTo(h, sim.tcp.x, sim.tcp.y, 300);
      await moveTo(h, egg.position.x, egg.position.y + 4, 300);
      await moveTo(h, egg.position.x, egg.position.y + 4, 45 + 160 + 25);
      const onEgg = await h.call('release_object', {});
      assert.equal(refusalOf(onEgg)?.stage, 'collision');
      assert.equal(refusalOf(onEgg)?.code, 'would_land_on_object');
      assert.match(refusalOf(onEgg)!.message, /^block-1 would land on egg-1: their centres would be 4\.0 mm apart horizontally/);
      assert.equal(h.robot.driver.sim.heldObjectId, 'block-1', 'still held');
    } finally {
      await h.close();
    }
    const high = await startHarness({ approval: 'off' });
    try {
      await graspAt(high, 'egg-1', 0);
      const sim = high.robot.driver.sim;
      await moveTo(high, sim.tcp.x, sim.tcp.y, 300);
      const drop = await high.call('release_object', {});
      assert.deepEqual(refusalOf(drop), { stage: 'collision', code: 'drop_too_high', message: 'egg-1 would fall 277.5 mm; releases may drop an object at most 50 mm. Lower it first' });
      assert.equal(sim.objects().find((o) => o.id === 'egg-1')!.condition, 'intact');
    } finally {
      await high.close();
    }
  });

  it('3, 4: in large-moves mode a grasp and a release are never "small moves": both ask, and the release form shows the landing', async () => {
    const h = await startHarness({ approval: 'large-moves' });
    try {
      const block = h.robot.driver.sim.objects().find((o) => o.id === 'block-1')!;
      await approvedMove(h, block.position.x, block.position.y, block.position.z + 100);
      const args = { target_position: { x_mm: block.position.x, y_mm: block.position.y, z_mm: block.position.z } };
      const asked = await h.call('grasp_object_force_control', args, { capabilities: ELICITATION });
      assert.equal(asked.body.result?.resultType, 'input_required', JSON.stringify(asked.body));
      assert.match(asked.body.result!.inputRequests!.approval!.params.message, /closes on block-1 \(parallel\) with 15 N \(default for a wood_block\); it is not fragile/);
      const done = await h.call('grasp_object_force_control', args, { capabilities: ELICITATION, requestState: asked.body.result!.requestState!, inputResponses: ACCEPT });
      assert.equal(done.body.result?.structuredContent?.grasped, true, JSON.stringify(done.body));
      await approvedMove(h, block.position.x, block.position.y, block.position.z + 30);
      const release = await h.call('release_object', {}, { capabilities: ELICITATION });
      assert.equal(release.body.result?.resultType, 'input_required', JSON.stringify(release.body));
      assert.match(release.body.result!.inputRequests!.approval!.params.message, /block-1 falls 30\.0 mm straight down \(at most 50 mm allowed\) and lands on the table at \(-500\.0, -?0\.0, 25\.0\) mm/);
      assert.equal(h.robot.driver.sim.heldObjectId, 'block-1', 'nothing released before the answer');
      const declined = await h.call('release_object', {}, { capabilities: ELICITATION, requestState: release.body.result!.requestState!, inputResponses: { approval: { action: 'decline' } } });
      assert.equal(refusalOf(declined)?.code, 'approval_declined');
      assert.equal(h.robot.driver.sim.heldObjectId, 'block-1');
      const again = await h.call('release_object', {}, { capabilities: ELICITATION });
      const ok = await h.call('release_object', {}, { capabilities: ELICITATION, requestState: again.body.result!.requestState!, inputResponses: ACCEPT });
      assert.equal(ok.body.result?.structuredContent?.released, true, JSON.stringify(ok.body));
    } finally {
      await h.close();
    }
  });

  it('5: a 140 mm sideways approach that would drive the gripper into the cup wall is refused before it moves', async () => {
    const h = await startHarness({ approval: 'off' });
    try {
      const cup = h.robot.driver.sim.objects().find((o) => o.id === 'cup-1')!;
      await moveTo(h, cup.position.x + 140, cup.position.y, 150);
      await moveTo(h, cup.position.x + 140, cup.position.y, 60, { path: 'linear' });
      const before = h.robot.driver.sim.jointsDeg;
      const reply = await h.call('grasp_object_force_control', { target_position: { x_mm: cup.position.x, y_mm: cup.position.y, z_mm: 60 } });
      const refused = refusalOf(reply);
      assert.equal(refused?.stage, 'collision', JSON.stringify(reply.body));
      assert.match(refused!.message, /(the fingertips|link tool) would be ([\d.]+ mm inside|within [\d.]+ mm of) cup-1; rule: every moving body keeps 5 mm from objects; .* \(only the fingertip pads may touch the grasp target, and only in the last 55 mm of the approach\)/);
      assert.deepEqual(h.robot.driver.sim.jointsDeg, before);
    } finally {
      await h.close();
    }
  });

  it('6: suction applies the approved force, and a force too weak to hold is refused before contact', async () => {
    const h = await startHarness({ approval: 'off' });
    try {
      const cup = h.robot.driver.sim.objects().find((o) => o.id === 'cup-1')!;
      await moveTo(h, cup.position.x, cup.position.y, 200);
      const top = { target_position: { x_mm: cup.position.x, y_mm: cup.position.y, z_mm: 100 }, grasp_strategy: 'suction' };
      const weak = await h.call('grasp_object_force_control', { ...top, force_n: 5 });
      assert.deepEqual(refusalOf(weak), { stage: 'finite_and_range', code: 'force_too_low', message: 'force_n 5 N cannot hold cup-1: suction needs at least 5.9 N (weight × 2 safety factor); nothing was touched' });
      const held = await h.call('grasp_object_force_control', { ...top, force_n: 6 });
      const g = held.body.result!.structuredContent!;
      assert.deepEqual([g.grasped, g.applied_force_n], [true, 6], JSON.stringify(g));
    } finally {
      await h.close();
    }
  });

  it('8: large-moves judges the whole path: a wrist swing of 100° and back (no net travel) needs approval', () => {
    const driver = new SimArmDriver();
    const tcp = driver.status().tcp;
    const at = { x_mm: tcp.x, y_mm: tcp.y, z_mm: tcp.z };
    const plan = planFromCurrentPose(driver, {
      kind: 'waypoints',
      targets: [
        { ...at, orientation: { roll_deg: tcp.rollDeg, pitch_deg: tcp.pitchDeg, yaw_deg: tcp.yawDeg + 100 } },
        { ...at, orientation: { roll_deg: tcp.rollDeg, pitch_deg: tcp.pitchDeg, yaw_deg: tcp.yawDeg } },
      ],
      speedFraction: 1,
      timeScaling: 'trapezoidal',
      path: 'joint',
    });
    assert.ok(!('stage' in plan), JSON.stringify(plan));
    const endTravel = Math.max(...plan.trajectory.endJointsDeg.map((q, i) => Math.abs(q - plan.trajectory.startJointsDeg[i]!)));
    assert.ok(endTravel < 1, `start and end joints match (${endTravel}°)`);
    assert.ok(plan.maxJointTravelDeg > 99 && plan.maxDisplacementMm < 1, `excursion ${plan.maxJointTravelDeg}°, displacement ${plan.maxDisplacementMm} mm`);
    assert.equal(new ApprovalGate('large-moves').requiresApproval(plan), true);
  });

  it('6 (limits): a target exactly at the documented 20 mm table clearance is reached; 19.9 mm, and a path through the base keep-out, are refused at stage workspace_envelope', async () => {
    const h = await startHarness({ approval: 'off' });
    try {
      await moveTo(h, -300, 100, 120);
      // A joint-space path that swings through the base keep-out is a workspace breach, found along the path.
      const through = await h.call('move_arm_to_pose', { target_position: { x_mm: -300, y_mm: 100, z_mm: 20 }, path: 'joint' });
      assert.deepEqual([refusalOf(through)?.stage, refusalOf(through)?.code], ['workspace_envelope', 'path_leaves_envelope'], JSON.stringify(through.body.result?.structuredContent));
      assert.match(refusalOf(through)!.message, /^the path leaves the workspace at t = [\d.]+ s: TCP would be 174\.\d mm from the base axis/);
      await moveTo(h, -450, 150, 120);
      const exact = await h.call('move_arm_to_pose', { target_position: { x_mm: -450, y_mm: 150, z_mm: 20 }, path: 'joint' });
      assert.equal(exact.body.result?.structuredContent?.status, 'completed', JSON.stringify(exact.body.result?.structuredContent));
      assert.ok(Math.abs(h.robot.driver.sim.tcp.z - 20) < 0.01);
      const below = await h.call('move_arm_to_pose', { target_position: { x_mm: -450, y_mm: 150, z_mm: 19.9 } });
      assert.equal(refusalOf(below)?.stage, 'workspace_envelope');
      assert.equal(refusalOf(below)?.code, 'below_table_clearance');
    } finally {
      await h.close();
    }
  });
});
