/**
 * The creep of issue 30: a just-grasped cup moved down in many tiny steps (each within what one motion
 * was allowed below its own start) must not sink into the table. The lift-off floor is fixed at the
 * grasp, so the total over all motions stays within LIFT_OFF_SLACK_MM. Judged by ground truth (where
 * the cup's bottom is, by the simulation that moves the arm), under --approval large-moves (small moves
 * need no human), on every driver × arm combination of test/support/driver-matrix.ts: the in-process
 * simulator and a robot-sim child process (its pose file, read at rest after each answer), UR5e and
 * xArm 6. Every combination runs all 150 steps: the floor is reached after a step or two and the rest
 * are refused by the planner, which costs robot-sim no motion time. (Before the fix, the first of these
 * moves got past the planner and the runtime monitor had to latch an emergency stop;
 * test/driver/held-object-floor.test.ts shows the sinking itself, where no server monitor watches.)
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CLEARANCE_ROUNDING_MM, LIFT_OFF_SLACK_MM } from '../../sim/collision-check.js';
import { DRIVER_MATRIX } from '../support/driver-matrix.js';
import { refusalOf, startHarnessOn } from '../support/robot-harness.js';
import { callApproved, cupBottomMm, graspCup } from '../support/held-object.js';

const STEPS = 150;
const STEP_MM = 0.008;
/** Steps that may still run: the floor allows LIFT_OFF_SLACK_MM + CLEARANCE_ROUNDING_MM below rest, a few steps at most. */
const MAX_COMPLETED = Math.ceil((LIFT_OFF_SLACK_MM + CLEARANCE_ROUNDING_MM) / STEP_MM) + 3;

for (const driverCase of DRIVER_MATRIX) {
  describe(`held-object creep: ${driverCase.label}`, () => {
    it(`${STEPS} downward moves of ${STEP_MM} mm after a grasp leave the cup at most ${LIFT_OFF_SLACK_MM} mm below where it rested`, async () => {
      // robot-sim at 10x real time: the grasp and the few steps that run take scaled wall-clock time.
      const subject = await driverCase.create({ timeScale: 10 });
      const h = await startHarnessOn(subject.driver, { approval: 'large-moves', model: subject.model }).catch(async (error: unknown) => {
        await subject.close();
        throw error;
      });
      try {
        await graspCup(h);
        assert.equal(subject.truth().heldObjectId, 'cup-1', 'the simulation holds the cup');
        const rest = cupBottomMm(subject.truth().objects);
        const refusals: string[] = [];
        for (let i = 0; i < STEPS; i++) {
          const tcp = subject.model.tcp(subject.truth().jointsDeg);
          const reply = await callApproved(h, 'move_arm_to_pose', { target_position: { x_mm: tcp.x, y_mm: tcp.y, z_mm: tcp.z - STEP_MM } });
          const refused = refusalOf(reply);
          if (refused !== undefined) refusals.push(refused.code);
          else assert.equal(reply.body.result?.structuredContent?.status, 'completed', JSON.stringify(reply.body));
          const bottom = cupBottomMm(subject.truth().objects);
          assert.ok(bottom >= rest - LIFT_OFF_SLACK_MM - CLEARANCE_ROUNDING_MM, `after ${i + 1} steps (${refusals.length} refused) the cup's bottom is ${(rest - bottom).toFixed(4)} mm below its rest height`);
        }
        assert.ok(STEPS - refusals.length <= MAX_COMPLETED, `at most ${MAX_COMPLETED} steps run before the floor; ${STEPS - refusals.length} ran`);
        assert.ok(refusals.every((code) => code === 'collision'), `the creep is refused as a collision once the floor is reached: ${refusals.join(',')}`);
        assert.equal(subject.truth().heldObjectId, 'cup-1', 'the cup is still held');
        assert.deepEqual(h.robot.controller.monitor.violations, [], 'the planner refused; the runtime monitor never had to stop the arm');
      } finally {
        await h.close();
        await subject.close();
      }
    });
  });
}
