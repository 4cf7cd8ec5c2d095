import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createMemoryStore } from 'toolwright';
import { readAuditLog } from '../../server/audit-log.js';
import { findNonFinite, checkRange, planFromCurrentPose } from '../../server/motion-safety.js';
import { hashPlanContent } from '../../server/motion-plan.js';
import { isRefusal } from '../../server/safety-stages.js';
import { refusalOf, startHarness, textOf, type Harness } from '../support/robot-harness.js';

const NEAR = { x_mm: -450, y_mm: -150, z_mm: 420 };

function joints(h: Harness): readonly number[] {
  return h.robot.driver.sim.jointsDeg;
}

describe('safety pipeline: every refusal names its stage and nothing moves', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ approval: 'off' });
  });
  after(async () => {
    await h.close();
  });

  it('schema: confirmed: true is an unknown property, never an approval', async () => {
    const before = joints(h);
    const reply = await h.call('move_arm_to_pose', { target_position: NEAR, confirmed: true });
    assert.equal(reply.body.result?.isError, true);
    assert.match(textOf(reply), /unexpected property "confirmed"/);
    assert.deepEqual(joints(h), before);
    const last = readAuditLog(h.auditPath).records.at(-1)!;
    assert.equal(last.type, 'call_refused_by_server');
    assert.equal(last.stage, 'shape');
  });

  it('schema: out-of-range values are refused, not clamped (speed 1.5, force 40 N, z below 0, 1e999)', async () => {
    const before = joints(h);
    for (const [name, args, pattern] of [
      ['move_arm_to_pose', { target_position: NEAR, speed: 1.5 }, /speed/],
      ['move_arm_to_pose', { target_position: { ...NEAR, z_mm: -5 } }, /z_mm/],
      ['grasp_object_force_control', { target_position: NEAR, force_n: 40 }, /force_n/],
      ['grasp_object_force_control', { target_position: NEAR, force_n: 4.9 }, /force_n/],
    ] as const) {
      const reply = await h.call(name, args as Record<string, unknown>);
      assert.equal(reply.body.result?.isError, true, name);
      assert.match(textOf(reply), /^Invalid arguments/);
      assert.match(textOf(reply), pattern);
    }
    // JSON 1e999 parses to Infinity: the schema's maximum refuses it before any tool code runs.
    const raw = await h.rpc('tools/call', { name: 'move_arm_to_pose', arguments: { target_position: { x_mm: -450, y_mm: -150, z_mm: 424242 } } }, {
      name: 'move_arm_to_pose',
      rewrite: (json) => json.replace('424242', '1e999'),
    });
    assert.equal(raw.body.result?.isError, true);
    assert.match(textOf(raw), /z_mm/);
    assert.deepEqual(joints(h), before);
  });

  it('finite_and_range: non-finite numbers anywhere are found with their path; ranges refuse with units', () => {
    assert.equal(findNonFinite({ a: { b: [1, 2, Number.POSITIVE_INFINITY] } }), '/a/b/2');
    assert.equal(findNonFinite({ a: Number.NaN }), '/a');
    assert.equal(findNonFinite({ a: 1, b: [2, { c: 3 }] }), null);
    assert.deepEqual(checkRange('force_n', 31, 5, 30, 'N'), { stage: 'finite_and_range', code: 'out_of_range', message: 'force_n is 31 N; allowed 5 to 30 N (values are refused, never clamped)' });
    assert.equal(checkRange('force_n', Number.NaN, 5, 30, 'N')?.code, 'non_finite');
    assert.equal(checkRange('force_n', 30, 5, 30, 'N'), null);
  });

  it('workspace_envelope: keep-out cylinder, table clearance and reach sphere', async () => {
    const before = joints(h);
    const cases = [
      [{ x_mm: 0, y_mm: 0, z_mm: 300 }, 'inside_base_keep_out', /175 mm/],
      [{ x_mm: -450, y_mm: -150, z_mm: 10 }, 'below_table_clearance', /z >= 20 mm/],
      [{ x_mm: -800, y_mm: -400, z_mm: 400 }, 'outside_reach', /at most 800 mm/],
    ] as const;
    for (const [target, code, pattern] of cases) {
      const reply = await h.call('move_arm_to_pose', { target_position: target });
      const refused = refusalOf(reply);
      assert.equal(reply.body.result?.isError, true);
      assert.equal(refused?.stage, 'workspace_envelope');
      assert.equal(refused?.code, code);
      assert.match(refused!.message, pattern);
    }
    assert.deepEqual(joints(h), before);
  });

  it('ik_and_joint_limits: an impossible straight line is refused with the reason', async () => {
    const before = joints(h);
    const reply = await h.call('move_arm_to_pose', { target_position: { x_mm: -600, y_mm: 0, z_mm: 100 }, orientation: { roll_deg: 0, pitch_deg: 0, yaw_deg: 0 } });
    const refused = refusalOf(reply);
    assert.equal(refused?.stage, 'ik_and_joint_limits');
    assert.match(refused!.message, /no valid joint path/);
    assert.deepEqual(joints(h), before);
  });

  it('collision: a target inside an object is refused at the collision stage with the link and object', async () => {
    const before = joints(h);
    const cup = h.robot.driver.sim.objects().find((o) => o.label === 'cup')!;
    const reply = await h.call('move_arm_to_pose', { target_position: { x_mm: cup.position.x, y_mm: cup.position.y, z_mm: cup.position.z }, path: 'joint' });
    const refused = refusalOf(reply);
    assert.equal(refused?.stage, 'collision');
    assert.equal(refused?.code, 'collision');
    assert.match(refused!.message, new RegExp(cup.id));
    assert.deepEqual(joints(h), before);
    const record = readAuditLog(h.auditPath).records.at(-1)!;
    assert.equal(record.tool, 'move_arm_to_pose');
    const stages = (record.stages as Array<{ stage: string; outcome: string }>).map((s) => `${s.stage}:${s.outcome}`);
    assert.deepEqual(stages, ['shape:pass', 'finite_and_range:pass', 'state_gate:pass', 'workspace_envelope:pass', 'ik_and_joint_limits:pass', 'speed_and_acceleration:pass', 'collision:refused', 'audit:pass']);
  });

  it('dry_run checks everything and moves nothing', async () => {
    const before = joints(h);
    const reply = await h.call('move_arm_to_pose', { target_position: { x_mm: -480, y_mm: -140, z_mm: 380 }, dry_run: true });
    assert.equal(reply.body.result?.isError, undefined);
    assert.equal(reply.body.result?.structuredContent?.dry_run, true);
    assert.match(String(reply.body.result?.structuredContent?.plan_hash), /^[0-9a-f]{64}$/);
    assert.deepEqual(joints(h), before);
  });

  it('execute_trajectory: unknown plan ids are refused; a plan runs at most once; a stale plan is refused', async () => {
    const unknown = await h.call('execute_trajectory', { plan_id: 'plan-0000000000000000' });
    assert.equal(refusalOf(unknown)?.code, 'unknown_plan');
    const tcp = h.robot.driver.sim.tcp;
    const planned = await h.call('plan_trajectory', { waypoints: [{ x_mm: tcp.x, y_mm: tcp.y, z_mm: tcp.z - 40 }, { x_mm: tcp.x + 30, y_mm: tcp.y, z_mm: tcp.z - 40 }] });
    const planId = planned.body.result?.structuredContent?.plan_id as string;
    assert.match(planId, /^plan-[0-9a-f]{16}$/);
    const stale = await h.call('plan_trajectory', { waypoints: [{ x_mm: tcp.x, y_mm: tcp.y + 20, z_mm: tcp.z }, { x_mm: tcp.x, y_mm: tcp.y + 40, z_mm: tcp.z }] });
    const staleId = stale.body.result?.structuredContent?.plan_id as string;
    const run = await h.call('execute_trajectory', { plan_id: planId });
    assert.equal(run.body.result?.structuredContent?.status, 'completed');
    const again = await h.call('execute_trajectory', { plan_id: planId });
    assert.equal(refusalOf(again)?.code, 'unknown_plan');
    const before = joints(h);
    const staleRun = await h.call('execute_trajectory', { plan_id: staleId });
    assert.equal(refusalOf(staleRun)?.stage, 'state_gate');
    assert.equal(refusalOf(staleRun)?.code, 'stale_plan');
    assert.deepEqual(joints(h), before);
  });

  it('speed_and_acceleration: a motion longer than 50 s is refused (clients would time it out midway)', async () => {
    const before = joints(h);
    const tcp = h.robot.driver.sim.tcp;
    const zigzag = [0, 1, 2, 3, 4, 5].map((i) => ({ x_mm: tcp.x, y_mm: tcp.y + (i % 2 === 0 ? 150 : -100), z_mm: tcp.z - 60 - i * 10 }));
    const reply = await h.call('plan_trajectory', { waypoints: zigzag, speed: 0.1 });
    const refused = refusalOf(reply);
    assert.equal(refused?.stage, 'speed_and_acceleration', JSON.stringify(reply.body));
    assert.equal(refused?.code, 'too_long');
    assert.match(refused!.message, /longer than the 50 s a single motion may last/);
    assert.deepEqual(joints(h), before);
  });

  it('plan_trajectory needs at least two waypoints (minItems 2)', async () => {
    const reply = await h.call('plan_trajectory', { waypoints: [NEAR] });
    assert.equal(reply.body.result?.isError, true);
    assert.match(textOf(reply), /waypoints/);
  });

  it('grasp: an approach longer than 150 mm is refused before moving', async () => {
    const before = joints(h);
    const reply = await h.call('grasp_object_force_control', { target_position: { x_mm: -420, y_mm: -220, z_mm: 50 } });
    assert.equal(refusalOf(reply)?.code, 'approach_too_long');
    assert.match(refusalOf(reply)!.message, /move_arm_to_pose/);
    assert.deepEqual(joints(h), before);
  });
});

describe('state gate: busy, rate limit, e-stop latch', () => {
  it('one motion at a time: a second motion while one runs is refused as busy', async () => {
    const h = await startHarness({ approval: 'off' });
    try {
      const first = h.call('move_arm_to_pose', { target_position: { x_mm: -420, y_mm: -250, z_mm: 300 }, speed: 0.1 });
      // Wait until the first motion is really running.
      while (h.robot.controller.activeMotionId === null) await new Promise((r) => setTimeout(r, 5));
      const second = await h.call('move_arm_to_pose', { target_position: NEAR });
      assert.equal(refusalOf(second)?.stage, 'state_gate');
      assert.equal(refusalOf(second)?.code, 'busy');
      assert.equal((await first).body.result?.structuredContent?.status, 'completed');
    } finally {
      await h.close();
    }
  });

  it('rate limit: motion commands beyond the configured rate are refused with the wait time', async () => {
    const h = await startHarness({ approval: 'off', motionRatePerSecond: 0.01, motionBurst: 1 });
    try {
      const first = await h.call('move_arm_to_pose', { target_position: NEAR });
      assert.equal(first.body.result?.structuredContent?.status, 'completed');
      const before = joints(h);
      const second = await h.call('move_arm_to_pose', { target_position: { x_mm: -470, y_mm: -150, z_mm: 420 } });
      assert.equal(refusalOf(second)?.code, 'rate_limited');
      assert.match(refusalOf(second)!.message, /0.01 per second/);
      assert.deepEqual(joints(h), before);
    } finally {
      await h.close();
    }
  });

  it('rate limit: planning requests (plan_trajectory, dry runs) beyond their rate are refused with the exact wait; motions keep their own bucket', async () => {
    let now = Date.now();
    const h = await startHarness({ approval: 'off', planRatePerSecond: 0.5, planBurst: 1, store: createMemoryStore({ clock: { now: () => now } }) });
    try {
      const tcp = h.robot.driver.sim.tcp;
      const waypoints = [{ x_mm: tcp.x, y_mm: tcp.y, z_mm: tcp.z - 40 }, { x_mm: tcp.x + 30, y_mm: tcp.y, z_mm: tcp.z - 40 }];
      const first = await h.call('plan_trajectory', { waypoints });
      assert.match(String(first.body.result?.structuredContent?.plan_id), /^plan-[0-9a-f]{16}$/);
      const message = 'planning requests are limited to 0.5 per second (burst 1); retry in 2000 ms';
      const before = joints(h);
      const second = await h.call('plan_trajectory', { waypoints });
      assert.equal(second.body.result?.isError, true);
      assert.deepEqual(refusalOf(second), { stage: 'state_gate', code: 'rate_limited', message });
      assert.equal(textOf(second), `Refused at stage state_gate (rate_limited): ${message}. Nothing was executed.`);
      const dryRun = await h.call('move_arm_to_pose', { target_position: NEAR, dry_run: true });
      assert.deepEqual(refusalOf(dryRun), { stage: 'state_gate', code: 'rate_limited', message });
      const record = readAuditLog(h.auditPath).records.filter((r) => r.type === 'tool_call').at(-2)!;
      assert.equal(record.tool, 'plan_trajectory');
      assert.deepEqual((record.stages as Array<{ stage: string; outcome: string }>).map((s) => `${s.stage}:${s.outcome}`), ['shape:pass', 'finite_and_range:pass', 'state_gate:refused', 'audit:pass']);
      assert.deepEqual(joints(h), before);
      // Motions are not starved by planning: the stored plan still runs.
      const run = await h.call('execute_trajectory', { plan_id: first.body.result?.structuredContent?.plan_id as string });
      assert.equal(run.body.result?.structuredContent?.status, 'completed');
      now += 1000;
      assert.deepEqual(refusalOf(await h.call('plan_trajectory', { waypoints })), { stage: 'state_gate', code: 'rate_limited', message: 'planning requests are limited to 0.5 per second (burst 1); retry in 1000 ms' });
      now += 1000;
      const after = await h.call('plan_trajectory', { waypoints: [{ x_mm: NEAR.x_mm, y_mm: NEAR.y_mm, z_mm: NEAR.z_mm }, { x_mm: NEAR.x_mm + 20, y_mm: NEAR.y_mm, z_mm: NEAR.z_mm }] });
      assert.equal(after.body.result?.isError, undefined, JSON.stringify(after.body));
    } finally {
      await h.close();
    }
  });

  it('emergency stop latches; no tool clears it; only the operator does', async () => {
    const h = await startHarness({ approval: 'off' });
    try {
      const stop = await h.call('stop_arm', { mode: 'emergency' });
      assert.equal(stop.body.result?.structuredContent?.emergency_stop_latched, true);
      const names = (await h.rpc('tools/list', {})).body.result?.tools?.map((t) => t.name) ?? [];
      assert.ok(!names.some((n) => /reset|clear|unlock|limit|enable/.test(n)), `no tool may clear the latch or change limits: ${names.join(', ')}`);
      const before = joints(h);
      for (const [name, args] of [
        ['move_arm_to_pose', { target_position: NEAR }],
        ['release_object', {}],
        ['stop_arm', { mode: 'controlled' }],
        ['move_arm_to_pose', { target_position: NEAR }],
      ] as const) {
        const reply = await h.call(name, args);
        if (name === 'stop_arm') {
          assert.equal(reply.body.result?.structuredContent?.emergency_stop_latched, true, 'a controlled stop does not clear the latch');
          continue;
        }
        assert.equal(refusalOf(reply)?.code, 'estop_latched', name);
        assert.match(refusalOf(reply)!.message, /only an operator can clear it/);
      }
      assert.deepEqual(joints(h), before);
      const status = await h.call('get_device_status', {});
      assert.equal((status.body.result?.structuredContent?.emergency_stop as { latched: boolean }).latched, true);
      assert.equal(await h.robot.clearEmergencyStop('test operator'), true);
      const moved = await h.call('move_arm_to_pose', { target_position: NEAR });
      assert.equal(moved.body.result?.structuredContent?.status, 'completed');
      const log = readAuditLog(h.auditPath);
      assert.ok(log.records.some((r) => r.type === 'operator_action' && r.operator === 'test operator'));
      assert.deepEqual(log.chainBreaks, []);
    } finally {
      await h.close();
    }
  });
});

describe('plan hash', () => {
  it('covers the path, the speed and what the gripper does at the end', async () => {
    const h = await startHarness({ approval: 'off' });
    try {
      const arm = h.robot.driver;
      const request = { kind: 'grasp_approach' as const, targets: [NEAR], speedFraction: 0.3, timeScaling: 'quintic' as const, path: 'linear' as const, gripperAction: { force_n: 6, strategy: 'parallel' as const } };
      const plan = planFromCurrentPose(arm, request);
      assert.ok(!isRefusal(plan));
      const again = planFromCurrentPose(arm, request);
      assert.ok(!isRefusal(again));
      assert.equal(again.hash, plan.hash, 'same request, same pose: same hash');
      const base = { kind: plan.kind, presetId: plan.presetId, targets: plan.targets, speedFraction: plan.speedFraction, timeScaling: plan.timeScaling, path: plan.path, trajectory: plan.trajectory, toolContactObjectIds: plan.toolContactObjectIds, world: plan.world };
      assert.equal(hashPlanContent({ ...base, gripperAction: { force_n: 6, strategy: 'parallel' } }), plan.hash);
      assert.notEqual(hashPlanContent({ ...base, gripperAction: { force_n: 30, strategy: 'parallel' } }), plan.hash);
      assert.notEqual(hashPlanContent({ ...base, gripperAction: { force_n: 6, strategy: 'adaptive' } }), plan.hash);
      assert.notEqual(hashPlanContent({ ...base, gripperAction: { force_n: 6, strategy: 'parallel' }, speedFraction: 0.31 }), plan.hash);
      // The world the plan was computed against is bound too: another held object is another plan.
      const holding = { ...plan.world, held: { id: 'cup-1', offset_in_tool_mm: [0, 0, 40] } };
      assert.notEqual(hashPlanContent({ ...base, gripperAction: { force_n: 6, strategy: 'parallel' }, world: holding }), plan.hash);
    } finally {
      await h.close();
    }
  });
});
