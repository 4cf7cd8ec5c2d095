import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { UR5E, XARM6, type ArmPreset } from '../../sim/arm-presets.js';
import { forwardKinematics } from '../../sim/forward-kinematics.js';
import { inverseKinematics } from '../../sim/inverse-kinematics.js';
import { fromRpyDeg, angleBetween } from '../../sim/rotation.js';
import { checkPose, createEnvelope } from '../../sim/workspace-envelope.js';

/** Joint vectors inside the preset's limits whose TCP lies inside the default workspace envelope. */
function reachablePose(preset: ArmPreset) {
  const envelope = createEnvelope(preset);
  return fc
    .tuple(...preset.joints.map((lim) => fc.double({ min: Math.max(lim.minDeg, -179), max: Math.min(lim.maxDeg, 179), noNaN: true })))
    .map((q) => ({ q, pose: forwardKinematics(preset, q) }))
    .filter(({ pose }) => checkPose(envelope, pose).ok);
}

for (const preset of [UR5E, XARM6]) {
  test(`${preset.id}: IK round trip within 0.1 mm and 0.1° across the workspace (full orientation, seeded from home)`, () => {
    fc.assert(fc.property(reachablePose(preset), ({ pose }) => {
      const result = inverseKinematics(preset, { position: pose, orientation: { kind: 'rpy', rpyDeg: pose } }, { seedDeg: preset.homeDeg });
      assert.ok(result.ok, `IK failed for ${JSON.stringify(pose)}: ${result.ok ? '' : result.message}`);
      const back = forwardKinematics(preset, result.jointsDeg);
      const err = Math.hypot(back.x - pose.x, back.y - pose.y, back.z - pose.z);
      assert.ok(err <= 0.1, `position error ${err} mm`);
      const angle = (angleBetween(fromRpyDeg(back), fromRpyDeg(pose)) * 180) / Math.PI;
      assert.ok(angle <= 0.1, `orientation error ${angle}°`);
      result.jointsDeg.forEach((v, j) => assert.ok(v >= preset.joints[j]!.minDeg && v <= preset.joints[j]!.maxDeg, `joint ${j + 1} = ${v} outside limits`));
    }), { numRuns: 150, seed: 20261130 });
  });
}

test('IK seeded from the current joints returns the nearby solution for a small move', () => {
  fc.assert(fc.property(reachablePose(UR5E), fc.tuple(fc.double({ min: -2, max: 2, noNaN: true }), fc.double({ min: -2, max: 2, noNaN: true })), ({ q, pose }, [dx, dz]) => {
    const result = inverseKinematics(UR5E, { position: { x: pose.x + dx, y: pose.y, z: pose.z + dz }, orientation: { kind: 'rpy', rpyDeg: pose } }, { seedDeg: q });
    if (!result.ok) return; // a 2 mm nudge can leave the reachable set at its edge; the round-trip test covers success
    const jump = Math.max(...result.jointsDeg.map((v, j) => Math.abs(v - q[j]!)));
    assert.ok(jump < 5, `joints jumped ${jump}° for a 2 mm move`);
  }), { numRuns: 60, seed: 7 });
});

test('tool_down IK points the tool straight down and leaves the yaw free', () => {
  const result = inverseKinematics(UR5E, { position: { x: -400, y: -250, z: 120 } }, { seedDeg: UR5E.homeDeg });
  assert.ok(result.ok);
  const p = forwardKinematics(UR5E, result.jointsDeg);
  assert.ok(Math.hypot(p.x + 400, p.y + 250, p.z - 120) < 0.01);
  assert.ok(Math.abs(Math.abs(p.rollDeg) - 180) < 0.01 && Math.abs(p.pitchDeg) < 0.01, `roll ${p.rollDeg}, pitch ${p.pitchDeg}`);
});

test('free orientation solves position only', () => {
  const result = inverseKinematics(XARM6, { position: { x: 300, y: 100, z: 400 }, orientation: { kind: 'free' } }, { seedDeg: XARM6.homeDeg });
  assert.ok(result.ok);
  const p = forwardKinematics(XARM6, result.jointsDeg);
  assert.ok(Math.hypot(p.x - 300, p.y - 100, p.z - 400) < 0.01);
});

test('a point beyond the arm’s reach fails as unreachable', () => {
  const result = inverseKinematics(UR5E, { position: { x: -1500, y: 0, z: 200 } }, { seedDeg: UR5E.homeDeg });
  assert.equal(result.ok, false);
  assert.ok(!result.ok);
  assert.equal(result.code, 'unreachable');
  assert.equal(result.message, "TCP position (-1500.0, 0.0, 200.0) mm is outside the arm's reach in any orientation");
  assert.ok(result.bestPositionErrorMm > 100);
});

test('a reachable position with an impossible orientation fails as did_not_converge', () => {
  // 4 mm below the highest point the flange can reach (arm straight up), the tool cannot also point down.
  const result = inverseKinematics(UR5E, { position: { x: 0, y: -232.9, z: 1075 } }, { seedDeg: UR5E.homeDeg });
  assert.ok(!result.ok);
  assert.equal(result.code, 'did_not_converge');
  assert.match(result.message, /^inverse kinematics did not converge for TCP \(0\.0, -232\.9, 1075\.0\) mm with orientation tool pointing down; closest attempt was \d+\.\d\d mm away$/);
  assert.ok(result.bestPositionErrorMm > 1);
});

test('a target only reachable outside the joint limits fails as joint_limit, naming the joint', () => {
  const narrow: ArmPreset = { ...UR5E, joints: UR5E.joints.map((lim, j) => (j === 0 ? { ...lim, minDeg: -20, maxDeg: 20 } : lim)) };
  // Behind the robot (+x): the base joint would have to turn about 180°.
  const result = inverseKinematics(narrow, { position: { x: 450, y: 100, z: 200 } }, { seedDeg: [0, -90, 90, -90, -90, 0] });
  assert.ok(!result.ok);
  assert.equal(result.code, 'joint_limit');
  assert.match(result.message, /^the solutions found for TCP \(450\.0, 100\.0, 200\.0\) mm violate a joint limit: joint 1 would need -?\d+\.\d°, outside its range \[-20, 20\]°$/);
});

test('non-finite inputs are refused, never solved', () => {
  for (const [target, seed, message] of [
    [{ position: { x: Number.NaN, y: 0, z: 100 } }, UR5E.homeDeg, 'target position must be three finite numbers in millimetres'],
    [{ position: { x: -400, y: 0, z: Number.POSITIVE_INFINITY } }, UR5E.homeDeg, 'target position must be three finite numbers in millimetres'],
    [{ position: { x: -400, y: 0, z: 100 }, orientation: { kind: 'rpy', rpyDeg: { rollDeg: 180, pitchDeg: Number.NaN, yawDeg: 0 } } }, UR5E.homeDeg, 'target roll/pitch/yaw must be finite numbers in degrees'],
    [{ position: { x: -400, y: 0, z: 100 } }, [0, 0, 0], 'seed must have 6 joint angles in degrees, got 3'],
    [{ position: { x: -400, y: 0, z: 100 } }, [0, 0, 0, 0, 0, Number.NaN], 'seed joint angles must be finite numbers in degrees'],
  ] as const) {
    const result = inverseKinematics(UR5E, target as Parameters<typeof inverseKinematics>[1], { seedDeg: seed });
    assert.deepEqual(result.ok ? null : [result.code, result.message], ['invalid_input', message]);
  }
});
