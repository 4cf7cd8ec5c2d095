import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { UR5E } from '../../sim/arm-presets.js';
import { armCapsules } from '../../sim/arm-capsules.js';
import { checkArmCollision, checkPathCollision, LIFT_OFF_SLACK_MM, type CollisionWorld } from '../../sim/collision-check.js';
import { forwardKinematics, tcpFrameRad } from '../../sim/forward-kinematics.js';
import { uprightRotation } from '../../sim/held-object-shape.js';
import { mul, transpose } from '../../sim/rotation.js';
import { inverseKinematics } from '../../sim/inverse-kinematics.js';
import { segmentDistance, segmentSegmentDistance, signedDistance, type Obstacle } from '../../sim/obstacle-geometry.js';
import { motionLimitsOf, planJointMotion } from '../../sim/trajectory-planner.js';
import type { SceneObjectSpec } from '../../sim/scene-objects.js';
import { lerp } from '../../sim/vector3.js';

const emptyWorld: CollisionWorld = { tableZMm: 0, baseRadiusMm: UR5E.baseRadiusMm, baseHeightMm: UR5E.baseHeightMm, objects: [] };

test('signed distances: positive outside, negative inside, exact for each shape', () => {
  const box: Obstacle = { kind: 'box', id: 'b', center: { x: 0, y: 0, z: 50 }, sizeMm: { x: 100, y: 40, z: 100 }, yawDeg: 90 };
  // Yawed 90°: its 100 mm side now runs along y.
  assert.ok(Math.abs(signedDistance(box, { x: 30, y: 0, z: 50 }) - 10) < 1e-9);
  assert.ok(Math.abs(signedDistance(box, { x: 0, y: 40, z: 50 }) + 10) < 1e-9);
  assert.ok(Math.abs(signedDistance(box, { x: 0, y: 0, z: 50 }) + 20) < 1e-9);
  const cylinder: Obstacle = { kind: 'cylinder', id: 'c', center: { x: 0, y: 0, z: 50 }, radiusMm: 40, heightMm: 100 };
  assert.ok(Math.abs(signedDistance(cylinder, { x: 70, y: 0, z: 50 }) - 30) < 1e-9);
  assert.ok(Math.abs(signedDistance(cylinder, { x: 0, y: 0, z: 130 }) - 30) < 1e-9);
  assert.ok(Math.abs(signedDistance(cylinder, { x: 43, y: 0, z: 104 }) - 5) < 1e-9);
  const sphere: Obstacle = { kind: 'sphere', id: 's', center: { x: 10, y: 0, z: 0 }, radiusMm: 5 };
  assert.ok(Math.abs(signedDistance(sphere, { x: 10, y: 0, z: 2 }) + 3) < 1e-9);
  assert.equal(signedDistance({ kind: 'table', id: 'table', zMm: 0 }, { x: 1, y: 2, z: -4 }), -4);
});

test('segment distance matches a dense brute-force search for every shape', () => {
  const obstacle = fc.oneof(
    fc.record({ kind: fc.constant('box' as const), id: fc.constant('b'), center: fc.record({ x: fc.integer({ min: -100, max: 100 }), y: fc.integer({ min: -100, max: 100 }), z: fc.integer({ min: 0, max: 100 }) }), sizeMm: fc.record({ x: fc.integer({ min: 5, max: 150 }), y: fc.integer({ min: 5, max: 150 }), z: fc.integer({ min: 5, max: 150 }) }), yawDeg: fc.integer({ min: -180, max: 180 }) }),
    fc.record({ kind: fc.constant('cylinder' as const), id: fc.constant('c'), center: fc.record({ x: fc.integer({ min: -100, max: 100 }), y: fc.integer({ min: -100, max: 100 }), z: fc.integer({ min: 0, max: 100 }) }), radiusMm: fc.integer({ min: 5, max: 80 }), heightMm: fc.integer({ min: 5, max: 200 }) }),
    fc.record({ kind: fc.constant('sphere' as const), id: fc.constant('s'), center: fc.record({ x: fc.integer({ min: -100, max: 100 }), y: fc.integer({ min: -100, max: 100 }), z: fc.integer({ min: 0, max: 100 }) }), radiusMm: fc.integer({ min: 5, max: 80 }) }),
  );
  const point = fc.record({ x: fc.integer({ min: -300, max: 300 }), y: fc.integer({ min: -300, max: 300 }), z: fc.integer({ min: -100, max: 300 }) });
  fc.assert(fc.property(obstacle, point, point, (o, a, b) => {
    let brute = Number.POSITIVE_INFINITY;
    for (let i = 0; i <= 2000; i++) brute = Math.min(brute, signedDistance(o, lerp(a, b, i / 2000)));
    const found = segmentDistance(o, a, b).distanceMm;
    assert.ok(found <= brute + 1e-6, `golden-section ${found} worse than brute force ${brute}`);
    assert.ok(found >= brute - 0.5, `golden-section ${found} below brute force ${brute} by more than the sampling step`);
  }), { numRuns: 200, seed: 1301 });
});

test('the tool capsule ends exactly at the TCP so the gripper can reach its targets', () => {
  const capsules = armCapsules(UR5E, UR5E.homeDeg);
  const pads = capsules.find((c) => c.link === 'fingertips')!;
  const body = capsules.find((c) => c.link === 'tool')!;
  const tcp = forwardKinematics(UR5E, UR5E.homeDeg);
  assert.ok(Math.abs(pads.a.z - pads.radiusMm - tcp.z) < 1e-9, 'fingertip capsule bottom = TCP height with the tool pointing down');
  assert.ok(Math.abs(body.b.z - body.radiusMm - (tcp.z + 50)) < 1e-9, 'the gripper body ends at the palm, 50 mm above the TCP');
  // The UR5e's upper arm and forearm run beside the DH line (shoulder offset 138 mm, elbow offset −131 mm), joined by housings.
  assert.deepEqual(capsules.map((c) => c.link), ['shoulder', 'upper_arm', 'upper_arm', 'forearm', 'forearm', 'wrist_1', 'wrist_2', 'tool', 'fingertips']);
});

test('home pose is clear; links driven into the table or the base are reported with link and obstacle', () => {
  assert.equal(checkArmCollision(UR5E, emptyWorld, UR5E.homeDeg), null);
  const upper = checkArmCollision(UR5E, emptyWorld, [0, 30, 0, -90, -90, 0]);
  assert.deepEqual(upper && [upper.link, upper.obstacle], ['upper_arm', 'table']);
  assert.ok(upper!.distanceMm < 0);
  const forearm = checkArmCollision(UR5E, emptyWorld, [0, -20, 120, -90, -90, 0]);
  assert.deepEqual(forearm && [forearm.link, forearm.obstacle], ['forearm', 'table']);
  const folded = checkArmCollision(UR5E, emptyWorld, [0, -90, 170, -90, -90, 0]);
  assert.deepEqual(folded && [folded.link, folded.obstacle], ['forearm', 'robot_base']);
  const wrist = checkArmCollision(UR5E, emptyWorld, [0, -60, 150, -90, -90, 0]);
  assert.deepEqual(wrist && [wrist.link, wrist.obstacle], ['wrist_2', 'table']);
});

test('the clearance margin counts: 5 mm by default, configurable', () => {
  // Home is clear with the default 5 mm; demanding 400 mm of clearance makes even home a hit.
  assert.ok(checkArmCollision(UR5E, emptyWorld, UR5E.homeDeg, { marginMm: 5 }) === null);
  const strict = checkArmCollision(UR5E, emptyWorld, UR5E.homeDeg, { marginMm: 400 });
  assert.ok(strict !== null && strict.distanceMm < 400);
});

const block: SceneObjectSpec = { id: 'block-9', label: 'wood_block', shape: 'box', sizeMm: { x: 60, y: 60, z: 900 }, position: { x: -470, y: -140, z: 450 }, yawDeg: 0, massKg: 1, frictionCoefficient: 0.5, maxGripForceN: null };

test('a path through an object returns the first colliding sample with time, link and object', () => {
  const limits = motionLimitsOf(UR5E);
  // Swinging the base joint sweeps the wrist from y = +43 to y = -418 mm, through the tall block at y = -140.
  const plan = planJointMotion(UR5E, limits, [-20, -90, 90, -90, -90, 0], [40, -90, 90, -90, -90, 0], { speedFraction: 1 });
  assert.ok(plan.ok);
  const world = { ...emptyWorld, objects: [block] };
  const hit = checkPathCollision(UR5E, world, plan.trajectory.samples);
  assert.ok(hit !== null);
  assert.equal(hit.obstacle, 'block-9');
  assert.ok(hit.tS > 0 && hit.tS < plan.trajectory.durationS);
  // Every sample before the reported one is clear, and the reported one is not.
  const index = plan.trajectory.samples.findIndex((s) => s.tS === hit.tS);
  for (const s of plan.trajectory.samples.slice(0, index)) assert.equal(checkArmCollision(UR5E, world, s.jointsDeg), null);
  assert.deepEqual(checkArmCollision(UR5E, world, hit.jointsDeg)?.obstacle, 'block-9');
  assert.equal(checkPathCollision(UR5E, emptyWorld, plan.trajectory.samples), null);
});

test('the gripper may touch the object it is about to grasp, but no other link may', () => {
  const cup: SceneObjectSpec = { id: 'cup-2', label: 'cup', shape: 'cylinder', sizeMm: { x: 80, y: 80, z: 100 }, position: { x: -491.9, y: -133.3, z: 50 }, yawDeg: 0, massKg: 0.3, frictionCoefficient: 0.5, maxGripForceN: 25 };
  const world = { ...emptyWorld, objects: [cup] };
  // TCP on the cup's axis at z = 80, inside the cup's height: the open jaws straddle it.
  const q = solveDown(80);
  const blocked = checkArmCollision(UR5E, world, q);
  assert.deepEqual(blocked && [blocked.link, blocked.obstacle], ['fingertips', 'cup-2']);
  assert.equal(checkArmCollision(UR5E, world, q, { toolContactObjectIds: ['cup-2'] }), null);
  // The allowance covers the pads only: with the TCP at z = 48 the palm (50 mm up) is 2 mm under the cup's 5 mm clearance.
  const palm = checkArmCollision(UR5E, world, solveDown(148 - 100), { toolContactObjectIds: ['cup-2'] });
  assert.deepEqual(palm && [palm.link, palm.obstacle, palm.requiredMm], ['tool', 'cup-2', 5]);
  assert.ok(Math.abs(palm!.distanceMm - (98 - 100)) < 0.01, `palm gap ${palm!.distanceMm}`);
  // Lower still and wrist_2 itself reaches the cup: no allowance covers that.
  const deeper = checkArmCollision(UR5E, world, solveDown(30), { toolContactObjectIds: ['cup-2'] });
  assert.deepEqual(deeper && [deeper.link, deeper.obstacle], ['wrist_2', 'cup-2']);
});

test('a held object keeps 5 mm from the table, except that one just picked up may not get closer than it started', () => {
  const cup: SceneObjectSpec = { id: 'cup-3', label: 'cup', shape: 'cylinder', sizeMm: { x: 80, y: 80, z: 100 }, position: { x: -491.9, y: -133.3, z: 50 }, yawDeg: 0, massKg: 0.3, frictionCoefficient: 0.5, maxGripForceN: 25 };
  // Grasped 20 mm above its centre: the centre lies 20 mm further along the (downward) tool axis.
  const q70 = solveDown(70);
  const frame = tcpFrameRad(UR5E, q70.map((d) => (d * Math.PI) / 180));
  const held = { object: cup, offsetInToolMm: { x: 0, y: 0, z: 20 }, rotationInTool: mul(transpose(frame.rotation), uprightRotation(0)) };
  // TCP at z = 75 puts the cup's bottom 5 mm above the table: exactly the clearance (inclusive).
  assert.equal(checkArmCollision(UR5E, emptyWorld, solveDown(75), { held }), null);
  const resting = checkArmCollision(UR5E, emptyWorld, q70, { held });
  assert.deepEqual(resting && [resting.link, resting.obstacle, resting.requiredMm], ['held:cup-3', 'table', 5]);
  assert.ok(Math.abs(resting!.distanceMm) < 0.01, `resting gap ${resting!.distanceMm}`);
  // Picked up from the table (its floor there, fixed at the grasp, is 0 mm): it may stay there, but never sink.
  const picked = { ...held, liftOffFloorsMm: { table: 0 } };
  assert.equal(checkArmCollision(UR5E, emptyWorld, q70, { held: picked }), null);
  const sunk = checkArmCollision(UR5E, emptyWorld, solveDown(60), { held: picked });
  assert.deepEqual(sunk && [sunk.link, sunk.obstacle, sunk.requiredMm], ['held:cup-3', 'table', -LIFT_OFF_SLACK_MM]);
  assert.ok(Math.abs(sunk!.distanceMm + 10) < 0.01, `sunk ${sunk!.distanceMm} mm`);
  assert.match(sunk!.rule, /picked up 0\.000 mm from table may never get more than 0\.01 mm closer than that, over all its motions/);
  // The floor is the grasp's, not a motion's start: 0.009 mm below it passes, 0.012 mm does not (whatever came before).
  assert.equal(checkArmCollision(UR5E, emptyWorld, solveDown(70 - 0.009), { held: picked }), null);
  assert.equal(checkArmCollision(UR5E, emptyWorld, solveDown(70 - 0.012), { held: picked })?.obstacle, 'table');
  // Lifted above the clearance and set back down: the same floor, not a new one.
  assert.equal(checkArmCollision(UR5E, emptyWorld, solveDown(70.5), { held: picked }), null);
});

/** Joints putting the UR5e TCP at (-491.9, -133.3, z) mm with the tool pointing down (below home). */
function solveDown(z: number): number[] {
  const result = inverseKinematics(UR5E, { position: { x: -491.9, y: -133.3, z } }, { seedDeg: UR5E.homeDeg });
  assert.ok(result.ok, `test setup: IK for z = ${z}`);
  return result.jointsDeg;
}

test('the arm may not hit itself: a wrist folded back onto the forearm is reported', () => {
  const farAway: CollisionWorld = { tableZMm: -5000, baseRadiusMm: 1, baseHeightMm: 1, objects: [] };
  assert.equal(checkArmCollision(UR5E, farAway, UR5E.homeDeg), null);
  assert.equal(checkArmCollision(UR5E, farAway, [0, -90, 0, -90, 0, 0]), null);
  // Wrist folded back so the gripper sits on the forearm.
  const folded = checkArmCollision(UR5E, farAway, [171, -104, -67, 101, -179, 2]);
  assert.ok(folded !== null && ['tool', 'fingertips', 'wrist_2'].includes(folded.link) && folded.obstacle.startsWith('arm:'), JSON.stringify(folded));
  assert.ok(folded!.distanceMm < 0);
});

test('segment-to-segment distance agrees with brute force', () => {
  const p = fc.record({ x: fc.integer({ min: -200, max: 200 }), y: fc.integer({ min: -200, max: 200 }), z: fc.integer({ min: -200, max: 200 }) });
  fc.assert(fc.property(p, p, p, p, (a, b, c, d) => {
    let brute = Number.POSITIVE_INFINITY;
    for (let i = 0; i <= 200; i++) {
      const u = lerp(a, b, i / 200);
      for (let j = 0; j <= 200; j++) {
        const v = lerp(c, d, j / 200);
        brute = Math.min(brute, Math.hypot(u.x - v.x, u.y - v.y, u.z - v.z));
      }
    }
    const exact = segmentSegmentDistance(a, b, c, d);
    assert.ok(exact <= brute + 1e-9 && exact >= brute - 3, `exact ${exact}, brute ${brute}`);
  }), { numRuns: 100, seed: 1302 });
});
