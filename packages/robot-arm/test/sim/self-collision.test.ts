import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ARM_PRESETS } from '../../sim/arm-presets.js';
import { armCapsules, selfCollisionPairs } from '../../sim/arm-capsules.js';
import { checkArmCollision, type CollisionWorld } from '../../sim/collision-check.js';
import { inverseKinematics } from '../../sim/inverse-kinematics.js';
import { segmentSegmentDistance } from '../../sim/obstacle-geometry.js';

const farAway: CollisionWorld = { tableZMm: -10_000, baseRadiusMm: 1, baseHeightMm: 1, objects: [] };

for (const preset of Object.values(ARM_PRESETS)) {
  test(`${preset.id}: home is clear with the 5 mm clearance, and every pair left out cannot change by construction`, () => {
    assert.equal(checkArmCollision(preset, { ...farAway, baseRadiusMm: preset.baseRadiusMm, baseHeightMm: preset.baseHeightMm, tableZMm: 0 }, preset.homeDeg), null);
    const { pairs, excluded } = selfCollisionPairs(preset);
    const home = armCapsules(preset, preset.homeDeg);
    // Every pair of capsules is either compared or excluded with a reason.
    assert.equal(pairs.length + excluded.length, (home.length * (home.length - 1)) / 2);
    for (const e of excluded) {
      const a = home[e.first]!, b = home[e.second]!;
      if (e.reason === 'same_rigid_body') assert.equal(a.body, b.body);
      else assert.equal(Math.abs(a.body - b.body), 1, `${a.link}/${b.link}: on the axis of the joint between consecutive bodies`);
    }
    // Excluded pairs keep the same distance in every configuration: they can never meet in a new way.
    const joints = fc.tuple(...preset.joints.map((l) => fc.double({ min: l.minDeg, max: l.maxDeg, noNaN: true })));
    fc.assert(fc.property(joints, (q) => {
      const caps = armCapsules(preset, q);
      for (const e of excluded) {
        const before = segmentSegmentDistance(home[e.first]!.a, home[e.first]!.b, home[e.second]!.a, home[e.second]!.b);
        const now = segmentSegmentDistance(caps[e.first]!.a, caps[e.first]!.b, caps[e.second]!.a, caps[e.second]!.b);
        assert.ok(Math.abs(before - now) < 1e-6, `${caps[e.first]!.link}/${caps[e.second]!.link} (${e.reason}) changed from ${before} to ${now} mm`);
      }
    }), { numRuns: 100, seed: 1201 });
  });
}

test('ur5e: the folded pose from issue 12 (wrist folded into the upper arm) is refused; the elbow folds freely thanks to its offset planes', () => {
  const ur = ARM_PRESETS.ur5e;
  const ik = inverseKinematics(ur, { position: { x: 232.9, y: -52.6, z: 272 }, orientation: { kind: 'rpy', rpyDeg: { rollDeg: 40.02, pitchDeg: -31.88, yawDeg: 90.25 } } }, { seedDeg: ur.homeDeg });
  assert.ok(ik.ok, 'test setup: the pose is reachable');
  const hit = checkArmCollision(ur, farAway, ik.jointsDeg);
  assert.ok(hit !== null && hit.obstacle.startsWith('arm:') && hit.distanceMm < -30, JSON.stringify(hit));
  // Upper arm and forearm lie in planes 131 mm apart: folding the elbow alone never makes them meet.
  for (const elbow of [-180, -150, 150, 180]) {
    const folded = checkArmCollision(ur, farAway, [0, -90, elbow, -90, -90, 0]);
    assert.ok(folded === null || folded.link !== 'forearm' || folded.obstacle !== 'arm:upper_arm', JSON.stringify(folded));
  }
});

test('xarm6: the tool folded back onto the forearm (wrist at its −97° limit) is refused with a negative gap', () => {
  const hit = checkArmCollision(ARM_PRESETS.xarm6, farAway, [0, 0, 0, 0, -97, 0]);
  assert.deepEqual(hit && [hit.link, hit.obstacle], ['fingertips', 'arm:forearm']);
  assert.ok(hit!.distanceMm < -30, `gap ${hit!.distanceMm} mm`);
});
