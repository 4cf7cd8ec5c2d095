/**
 * Limits that hold across motions (issue 30, item 3): long random sequences of small motions of a
 * grasped cup, in every approval mode and for both arms, checked against the simulator's ground truth
 * after every call: the cup never more than LIFT_OFF_SLACK_MM below where it rested when grasped, every
 * link and the cup keep their clearances (the cup's floors fixed at the grasp), every joint inside its
 * range, the TCP inside the envelope, and no other object moved. Fixed seed, bounded count in CI;
 * ROBOT_LONG_PROPERTIES=1 runs 25 times as many sequences, each four times as long.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { createArmModel } from '../../model/arm-model.js';
import { APPROVAL_MODES } from '../../server/approval-gate.js';
import { checkArmCollision, CLEARANCE_ROUNDING_MM, LIFT_OFF_SLACK_MM } from '../../sim/collision-check.js';
import { checkPose } from '../../sim/workspace-envelope.js';
import { startHarness, type Harness } from '../support/robot-harness.js';
import { callApproved, cupBottomMm, graspCup } from '../support/held-object.js';

const LONG = process.env.ROBOT_LONG_PROPERTIES === '1';
const RUNS = LONG ? 75 : 3;
const MAX_LENGTH = LONG ? 160 : 40;

/** One small motion relative to the TCP: a creeping step down, or a few millimetres any way (down more often). */
const smallMove = fc.oneof(
  { weight: 3, arbitrary: fc.record({ dx: fc.constant(0), dy: fc.constant(0), dz: fc.constantFrom(-0.008, -0.004, -0.011), path: fc.constant('linear' as const) }) },
  { weight: 2, arbitrary: fc.record({ dx: fc.double({ min: -3, max: 3, noNaN: true }), dy: fc.double({ min: -3, max: 3, noNaN: true }), dz: fc.double({ min: -4, max: 1.5, noNaN: true }), path: fc.constantFrom('linear' as const, 'joint' as const) }) },
);

/** The simulator's state, checked against every invariant; a message per broken one. */
function groundTruthProblems(h: Harness, rest: number, others: string): string[] {
  const sim = h.robot.driver.sim;
  const problems: string[] = [];
  const sunk = rest - cupBottomMm(sim);
  if (sunk > LIFT_OFF_SLACK_MM + CLEARANCE_ROUNDING_MM) problems.push(`the cup is ${sunk.toFixed(4)} mm below its rest height`);
  const joints = sim.jointsDeg;
  joints.forEach((q, j) => {
    const lim = sim.model.preset.joints[j]!;
    if (q < lim.minDeg || q > lim.maxDeg) problems.push(`joint ${j + 1} at ${q}° outside [${lim.minDeg}, ${lim.maxDeg}]`);
  });
  const held = sim.heldObject();
  const hit = checkArmCollision(sim.model.preset, sim.model.collisionWorld({ objects: sim.objects() }), joints, { marginMm: sim.model.collisionMarginMm, held });
  if (hit !== null) problems.push(`${hit.link} is ${hit.distanceMm} mm from ${hit.obstacle} (required ${hit.requiredMm})`);
  if (!checkPose(sim.envelope, sim.tcp, 0.001).ok) problems.push(`TCP outside the envelope: ${JSON.stringify(sim.tcp)}`);
  if (JSON.stringify(sim.objects().filter((o) => o.id !== 'cup-1')) !== others) problems.push('another object moved');
  return problems;
}

const CASES = [...APPROVAL_MODES.map((approval) => ({ approval, preset: 'ur5e' as const })), { approval: 'large-moves' as const, preset: 'xarm6' as const }];

describe('clearances and the lift-off floor hold across long sequences of small motions', () => {
  for (const { approval, preset } of CASES) {
    it(`--approval ${approval}, ${preset}: ground truth after every motion`, async (t) => {
      let motions = 0, refusals = 0;
      await fc.assert(
        fc.asyncProperty(fc.array(smallMove, { minLength: 10, maxLength: MAX_LENGTH }), async (moves) => {
          const h = await startHarness({ approval, model: createArmModel({ preset }) });
          try {
            const sim = h.robot.driver.sim;
            assert.equal(sim.model.preset.id, preset);
            await graspCup(h);
            const rest = cupBottomMm(sim);
            const others = JSON.stringify(sim.objects().filter((o) => o.id !== 'cup-1'));
            for (const [i, m] of moves.entries()) {
              const tcp = sim.tcp;
              const reply = await callApproved(h, 'move_arm_to_pose', { target_position: { x_mm: tcp.x + m.dx, y_mm: tcp.y + m.dy, z_mm: tcp.z + m.dz }, path: m.path, speed: 0.3 });
              if (reply.body.result?.structuredContent?.status === 'completed') motions++;
              else refusals++;
              assert.deepEqual(groundTruthProblems(h, rest, others), [], `after move ${i + 1} of ${JSON.stringify(moves.slice(0, i + 1))}`);
            }
            assert.deepEqual(h.robot.controller.monitor.violations, [], 'the planner refused what would break a limit; the monitor never had to');
          } finally {
            await h.close();
          }
        }),
        { numRuns: RUNS, seed: 3030, endOnFailure: true },
      );
      t.diagnostic(`motions run: ${motions}, refused: ${refusals}`);
      assert.ok(motions > 0 && refusals > 0, 'the sequences both moved the cup and reached its floor');
    });
  }
});
