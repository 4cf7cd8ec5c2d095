import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { refusalOf, startHarness, type Harness } from '../support/robot-harness.js';

async function above(h: Harness, id: string, heightMm: number): Promise<{ x: number; y: number; z: number }> {
  const o = h.robot.driver.sim.objects().find((x) => x.id === id)!;
  const reply = await h.call('move_arm_to_pose', { target_position: { x_mm: o.position.x, y_mm: o.position.y, z_mm: o.position.z + heightMm }, path: 'joint' });
  assert.equal(reply.body.result?.structuredContent?.status, 'completed', JSON.stringify(reply.body));
  return o.position;
}

describe('grasp_object_force_control and release_object', () => {
  it('picks up the wooden block, carries it and sets it down; the F/T sensor feels its weight', async () => {
    const h = await startHarness({ approval: 'off' });
    try {
      const p = await above(h, 'block-1', 100);
      const grasp = await h.call('grasp_object_force_control', { target_position: { x_mm: p.x, y_mm: p.y, z_mm: p.z }, force_n: 15 });
      const g = grasp.body.result!.structuredContent!;
      assert.equal(g.grasped, true, JSON.stringify(g));
      assert.equal(g.object_id, 'block-1');
      assert.equal(g.applied_force_n, 15);
      const lift = await h.call('move_arm_to_pose', { target_position: { x_mm: p.x, y_mm: p.y + 60, z_mm: p.z + 40 } });
      assert.equal(lift.body.result?.structuredContent?.status, 'completed');
      const ft = await h.call('read_ft_sensor', { filter: 'moving_average', axes: ['Fz'] });
      const fz = (ft.body.result!.structuredContent!.values as { Fz: number }).Fz;
      assert.ok(fz < -1.5 && fz > -4.5, `Fz ${fz} N should show the 0.3 kg block's weight (about -2.9 N)`);
      const again = await h.call('grasp_object_force_control', { target_position: { x_mm: p.x, y_mm: p.y + 60, z_mm: p.z + 40 } });
      assert.equal(refusalOf(again)?.code, 'already_holding');
      const release = await h.call('release_object', {});
      const r = release.body.result!.structuredContent!;
      assert.equal(r.released, true);
      assert.equal(r.broke, false);
      assert.equal((r.resting_position_mm as { z_mm: number }).z_mm, 25);
      assert.deepEqual(h.robot.controller.monitor.violations, []);
    } finally {
      await h.close();
    }
  });

  it('a force above the egg\'s limit is refused before contact; the default force for an egg holds it intact; forces outside 5-30 N are refused, never clamped', async () => {
    const h = await startHarness({ approval: 'off' });
    try {
      const p = await above(h, 'egg-1', 100);
      const over = await h.call('grasp_object_force_control', { target_position: { x_mm: p.x, y_mm: p.y, z_mm: p.z }, force_n: 31 });
      assert.match(over.body.result?.content?.[0]?.text ?? '', /^Invalid arguments.*\n.*force_n/s);
      const before = h.robot.driver.sim.jointsDeg;
      const crush = await h.call('grasp_object_force_control', { target_position: { x_mm: p.x, y_mm: p.y, z_mm: p.z }, force_n: 15 });
      assert.deepEqual(refusalOf(crush), {
        stage: 'finite_and_range',
        code: 'force_above_object_limit',
        message: "force_n 15 N is above the 8 N that egg-1 (egg) tolerates (rule: the commanded force may not exceed the object's max_grip_force_n, for every strategy; nothing was touched)",
      });
      assert.deepEqual(h.robot.driver.sim.jointsDeg, before, 'the arm did not move');
      const suction = await h.call('grasp_object_force_control', { target_position: { x_mm: p.x, y_mm: p.y, z_mm: p.z }, force_n: 9, grasp_strategy: 'adaptive' });
      assert.equal(refusalOf(suction)?.code, 'force_above_object_limit', 'adaptive is checked against the commanded force too');
      const pose = await h.call('get_object_pose', { object_id: 'egg-1' });
      const egg = (pose.body.result!.structuredContent!.objects as Array<{ condition: string; max_grip_force_n: number | null; default_grip_force_n: number }>)[0]!;
      assert.deepEqual([egg.condition, egg.max_grip_force_n, egg.default_grip_force_n], ['intact', 8, 6]);
      // force_n omitted: the default for an egg (6 N), which holds it without breaking it.
      const held = await h.call('grasp_object_force_control', { target_position: { x_mm: p.x, y_mm: p.y, z_mm: p.z } });
      const g = held.body.result!.structuredContent!;
      assert.deepEqual([g.grasped, g.object_id, g.applied_force_n], [true, 'egg-1', 6], JSON.stringify(g));
      assert.equal(h.robot.driver.sim.objects().find((o) => o.id === 'egg-1')!.condition, 'intact');
    } finally {
      await h.close();
    }
  });

  it('get_object_pose returns numbers and fixed labels only; an unknown id is an error naming the known ids', async () => {
    const h = await startHarness({ approval: 'off' });
    try {
      const all = await h.call('get_object_pose', {});
      for (const o of all.body.result!.structuredContent!.objects as Array<Record<string, unknown>>) {
        assert.deepEqual(Object.keys(o).sort(), ['condition', 'confidence', 'default_grip_force_n', 'id', 'in_gripper', 'label', 'max_grip_force_n', 'position_mm', 'yaw_deg']);
        assert.match(o.id as string, /^[a-z][a-z0-9_-]{0,31}$/);
      }
      const missing = await h.call('get_object_pose', { object_id: 'ghost' });
      assert.equal(missing.body.result?.isError, true);
      assert.match(missing.body.result?.content?.[0]?.text ?? '', /no object with id ghost.*cup-1/);
    } finally {
      await h.close();
    }
  });
});
