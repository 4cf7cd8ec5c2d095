/**
 * The creep of issue 30: a just-grasped cup moved down in many tiny steps (each within what one motion
 * was allowed below its own start) must not sink into the table. The lift-off floor is fixed at the
 * grasp, so the total over all motions stays within LIFT_OFF_SLACK_MM. Judged by the simulator's ground
 * truth (where the cup's bottom is), under --approval large-moves (small moves need no human) and for
 * both arm models. (Before the fix, the first of these moves got past the planner and the runtime
 * monitor had to latch an emergency stop; test/driver/held-object-floor.test.ts shows the sinking
 * itself, where no server monitor watches.)
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createArmModel } from '../../model/arm-model.js';
import { CLEARANCE_ROUNDING_MM, LIFT_OFF_SLACK_MM } from '../../sim/collision-check.js';
import { refusalOf, startHarness } from '../support/robot-harness.js';
import { callApproved, cupBottomMm, graspCup } from '../support/held-object.js';

for (const preset of ['ur5e', 'xarm6'] as const) {
  describe(`held-object creep (${preset})`, () => {
    it('150 downward moves of 0.008 mm after a grasp leave the cup at most 0.01 mm below where it rested', async () => {
      const h = await startHarness({ approval: 'large-moves', model: createArmModel({ preset }) });
      try {
        const sim = h.robot.driver.sim;
        await graspCup(h);
        const rest = cupBottomMm(sim);
        const steps = Array.from({ length: 150 }, () => 0.008);
        const refusals: string[] = [];
        for (const step of steps) {
          const tcp = sim.status().tcp;
          const reply = await callApproved(h, 'move_arm_to_pose', { target_position: { x_mm: tcp.x, y_mm: tcp.y, z_mm: tcp.z - step } });
          const refused = refusalOf(reply);
          if (refused !== undefined) refusals.push(refused.code);
          assert.ok(cupBottomMm(sim) >= rest - LIFT_OFF_SLACK_MM - CLEARANCE_ROUNDING_MM, `after ${refusals.length} refusals the cup's bottom is ${(rest - cupBottomMm(sim)).toFixed(4)} mm below its rest height`);
        }
        assert.ok(refusals.length >= 145 && refusals.every((code) => code === 'collision'), `the creep is refused as a collision once the floor is reached: ${refusals.join(',')}`);
        assert.deepEqual(h.robot.controller.monitor.violations, [], 'the planner refused; the runtime monitor never had to stop the arm');
      } finally {
        await h.close();
      }
    });
  });
}
