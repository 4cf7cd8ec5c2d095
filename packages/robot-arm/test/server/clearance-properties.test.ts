/**
 * Limits that hold across motions (issue 30, item 3): long random sequences of small motions of a
 * grasped cup, in every approval mode, checked against ground truth after every call: the cup never
 * more than LIFT_OFF_SLACK_MM below where it rested when grasped, every link and the cup keep their
 * clearances (the cup's floors fixed at the grasp), every joint inside its range, the TCP inside the
 * envelope, and no other object moved. Every mode runs on each driver × arm combination of
 * test/support/driver-matrix.ts (the in-process simulator and a robot-sim child process, UR5e and
 * xArm 6); the ground truth is the simulation that moves the arm (for robot-sim, the pose file it
 * writes on every change, read at rest after each answer). Fixed seed, bounded counts in CI: 3
 * sequences of up to 40 moves per case in process; robot-sim starts a process per sequence and runs its
 * motions on a (scaled) wall clock, so 2 sequences of up to 20 moves there. ROBOT_LONG_PROPERTIES=1
 * runs 25 times as many sequences, each four times as long (robot-sim: 10 times as many).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { ArmModel } from '../../model/arm-model.js';
import { APPROVAL_MODES } from '../../server/approval-gate.js';
import { checkArmCollision, CLEARANCE_ROUNDING_MM, LIFT_OFF_SLACK_MM } from '../../sim/collision-check.js';
import { checkPose } from '../../sim/workspace-envelope.js';
import { DRIVER_MATRIX, type GroundTruth } from '../support/driver-matrix.js';
import { startHarnessOn } from '../support/robot-harness.js';
import { callApproved, cupBottomMm, graspCup } from '../support/held-object.js';

const LONG = process.env.ROBOT_LONG_PROPERTIES === '1';
const RUNS = { sim: LONG ? 75 : 3, 'robot-sim': LONG ? 20 : 2 } as const;
const MAX_LENGTH = { sim: LONG ? 160 : 40, 'robot-sim': LONG ? 80 : 20 } as const;

/** One small motion relative to the TCP: a creeping step down, or a few millimetres any way (down more often). */
const smallMove = fc.oneof(
  { weight: 3, arbitrary: fc.record({ dx: fc.constant(0), dy: fc.constant(0), dz: fc.constantFrom(-0.008, -0.004, -0.011), path: fc.constant('linear' as const) }) },
  { weight: 2, arbitrary: fc.record({ dx: fc.double({ min: -3, max: 3, noNaN: true }), dy: fc.double({ min: -3, max: 3, noNaN: true }), dz: fc.double({ min: -4, max: 1.5, noNaN: true }), path: fc.constantFrom('linear' as const, 'joint' as const) }) },
);

/** The objects other than the cup, as a string to compare. */
const othersOf = (truth: GroundTruth): string => JSON.stringify(truth.objects.filter((o) => o.id !== 'cup-1'));

/** The ground truth, checked against every invariant; a message per broken one. */
function groundTruthProblems(model: ArmModel, truth: GroundTruth, rest: number, others: string): string[] {
  const problems: string[] = [];
  if (truth.heldObjectId !== 'cup-1' || truth.held === null) problems.push(`the gripper holds ${String(truth.heldObjectId)}, not the cup`);
  const sunk = rest - cupBottomMm(truth.objects);
  if (sunk > LIFT_OFF_SLACK_MM + CLEARANCE_ROUNDING_MM) problems.push(`the cup is ${sunk.toFixed(4)} mm below its rest height`);
  const joints = truth.jointsDeg;
  joints.forEach((q, j) => {
    const lim = model.preset.joints[j]!;
    if (q < lim.minDeg || q > lim.maxDeg) problems.push(`joint ${j + 1} at ${q}° outside [${lim.minDeg}, ${lim.maxDeg}]`);
  });
  // The held object is no obstacle (checkArmCollision checks it as carried, against its floors).
  const world = { ...model.collisionWorld({ objects: [] }), objects: truth.objects.filter((o) => o.id !== truth.heldObjectId) };
  const hit = checkArmCollision(model.preset, world, joints, { marginMm: model.collisionMarginMm, held: truth.held });
  if (hit !== null) problems.push(`${hit.link} is ${hit.distanceMm} mm from ${hit.obstacle} (required ${hit.requiredMm})`);
  const tcp = model.tcp(joints);
  if (!checkPose(model.envelope, tcp, 0.001).ok) problems.push(`TCP outside the envelope: ${JSON.stringify(tcp)}`);
  if (othersOf(truth) !== others) problems.push('another object moved');
  return problems;
}

for (const driverCase of DRIVER_MATRIX) describe(`clearances and the lift-off floor hold across long sequences of small motions: ${driverCase.label}`, () => {
  for (const approval of APPROVAL_MODES) {
    it(`--approval ${approval}: ground truth after every motion (${RUNS[driverCase.kind]} sequences of up to ${MAX_LENGTH[driverCase.kind]} moves)`, async (t) => {
      let motions = 0, refusals = 0;
      await fc.assert(
        fc.asyncProperty(fc.array(smallMove, { minLength: 10, maxLength: MAX_LENGTH[driverCase.kind] }), async (moves) => {
          // robot-sim at 10x real time: the arm's own clock, paced by the wall clock.
          const subject = await driverCase.create({ timeScale: 10 });
          const h = await startHarnessOn(subject.driver, { approval, model: subject.model }).catch(async (error: unknown) => {
            await subject.close();
            throw error;
          });
          try {
            assert.equal(subject.model.preset.id, driverCase.preset);
            await graspCup(h);
            const start = subject.truth();
            assert.equal(start.heldObjectId, 'cup-1', 'the simulation holds the cup');
            const rest = cupBottomMm(start.objects);
            const others = othersOf(start);
            for (const [i, m] of moves.entries()) {
              const tcp = subject.model.tcp(subject.truth().jointsDeg);
              const reply = await callApproved(h, 'move_arm_to_pose', { target_position: { x_mm: tcp.x + m.dx, y_mm: tcp.y + m.dy, z_mm: tcp.z + m.dz }, path: m.path, speed: 0.3 });
              if (reply.body.result?.structuredContent?.status === 'completed') motions++;
              else refusals++;
              assert.deepEqual(groundTruthProblems(subject.model, subject.truth(), rest, others), [], `after move ${i + 1} of ${JSON.stringify(moves.slice(0, i + 1))}`);
            }
            assert.deepEqual(h.robot.controller.monitor.violations, [], 'the planner refused what would break a limit; the monitor never had to');
          } finally {
            await h.close();
            await subject.close();
          }
        }),
        { numRuns: RUNS[driverCase.kind], seed: 3030, endOnFailure: true },
      );
      t.diagnostic(`motions run: ${motions}, refused: ${refusals}`);
      assert.ok(motions > 0 && refusals > 0, 'the sequences both moved the cup and reached its floor');
    });
  }
});
