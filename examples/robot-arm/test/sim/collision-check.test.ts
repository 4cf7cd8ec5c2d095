import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { UR5E } from '../../sim/arm-presets.js';
import { armCapsules } from '../../sim/arm-capsules.js';
import { checkArmCollision, checkPathCollision, type CollisionWorld } from '../../sim/collision-check.js';
import { forwardKinematics } from '../../sim/forward-kinematics.js';
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
  const tool = capsules.filter((c) => c.link === 'tool').at(-1)!;
  const tcp = forwardKinematics(UR5E, UR5E.homeDeg);
  assert.ok(Math.abs(tool.b.z - tool.radiusMm - tcp.z) < 1e-9, 'capsule bottom = TCP height with the tool pointing down');
  assert.deepEqual(capsules.map((c) => c.link), ['shoulder', 'upper_arm', 'forearm', 'wrist_1', 'wrist_2', 'tool']);
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
  assert.deepEqual(blocked && [blocked.link, blocked.obstacle], ['tool', 'cup-2']);
  assert.equal(checkArmCollision(UR5E, world, q, { toolContactObjectIds: ['cup-2'] }), null);
  // Lower still and wrist_2 itself reaches the cup: no allowance covers that.
  const deeper = checkArmCollision(UR5E, world, solveDown(30), { toolContactObjectIds: ['cup-2'] });
  assert.deepEqual(deeper && [deeper.link, deeper.obstacle], ['wrist_2', 'cup-2']);
});

test('a held object is checked against the table but may rest on it', () => {
  const cup: SceneObjectSpec = { id: 'cup-3', label: 'cup', shape: 'cylinder', sizeMm: { x: 80, y: 80, z: 100 }, position: { x: -491.9, y: -133.3, z: 50 }, yawDeg: 0, massKg: 0.3, frictionCoefficient: 0.5, maxGripForceN: 25 };
  // Grasped 20 mm above its centre: the centre lies 20 mm further along the (downward) tool axis.
  const held = { object: cup, offsetInToolMm: { x: 0, y: 0, z: 20 } };
  // TCP at z = 70 puts the cup's centre at 50: resting exactly on the table.
  assert.equal(checkArmCollision(UR5E, emptyWorld, solveDown(70), { held }), null);
  const sunk = checkArmCollision(UR5E, emptyWorld, solveDown(60), { held });
  assert.deepEqual(sunk && [sunk.link, sunk.obstacle], ['held:cup-3', 'table']);
  assert.ok(Math.abs(sunk!.distanceMm + 10) < 0.01, `sunk ${sunk!.distanceMm} mm`);
});

/** Joints putting the UR5e TCP at (-491.9, -133.3, z) mm with the tool pointing down (below home). */
function solveDown(z: number): number[] {
  const result = inverseKinematics(UR5E, { position: { x: -491.9, y: -133.3, z } }, { seedDeg: UR5E.homeDeg });
  assert.ok(result.ok, `test setup: IK for z = ${z}`);
  return result.jointsDeg;
}

test('the arm may not hit itself: links three or more apart in the chain are checked against each other', () => {
  const farAway: CollisionWorld = { tableZMm: -5000, baseRadiusMm: 1, baseHeightMm: 1, objects: [] };
  assert.equal(checkArmCollision(UR5E, farAway, UR5E.homeDeg), null);
  assert.equal(checkArmCollision(UR5E, farAway, [0, -90, 0, -90, 0, 0]), null);
  // Wrist folded back so the tool sits on the forearm.
  const folded = checkArmCollision(UR5E, farAway, [171, -104, -67, 101, -179, 2]);
  assert.deepEqual(folded && [folded.link, folded.obstacle], ['tool', 'arm:forearm']);
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
