import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { UR5E, XARM6 } from '../../sim/arm-presets.js';
import { forwardKinematics } from '../../sim/forward-kinematics.js';
import { motionLimitsOf, planJointMotion, planPoseMotion, planWaypoints } from '../../sim/trajectory-planner.js';
import type { Trajectory } from '../../sim/trajectory.js';

const limits = motionLimitsOf(UR5E);

function assertWithinCaps(trajectory: Trajectory, speedFraction: number): void {
  const p = trajectory.peaks;
  UR5E.joints.forEach((lim, j) => {
    assert.ok(p.peakJointSpeedDegS[j]! <= lim.maxVelocityDegS * speedFraction * 1.0001, `joint ${j + 1} speed ${p.peakJointSpeedDegS[j]}`);
    assert.ok(p.peakJointAccelerationDegS2[j]! <= lim.maxAccelerationDegS2 * 1.0001, `joint ${j + 1} accel ${p.peakJointAccelerationDegS2[j]}`);
  });
  assert.ok(p.peakTcpSpeedMmS <= limits.maxTcpSpeedMmS * speedFraction * 1.0001, `TCP speed ${p.peakTcpSpeedMmS}`);
  assert.ok(p.peakTcpAccelerationMmS2 <= limits.maxTcpAccelerationMmS2 * 1.01, `TCP accel ${p.peakTcpAccelerationMmS2}`);
}

test('a joint-space move respects every joint and TCP cap and ends exactly at the goal', () => {
  const goal = [30, -70, 80, -100, -90, 20];
  const result = planJointMotion(UR5E, limits, UR5E.homeDeg, goal, { speedFraction: 1 });
  assert.ok(result.ok);
  const t = result.trajectory;
  assertWithinCaps(t, 1);
  assert.deepEqual(t.startJointsDeg.map((v) => Math.round(v * 1e9) / 1e9), [...UR5E.homeDeg]);
  t.endJointsDeg.forEach((v, j) => assert.ok(Math.abs(v - goal[j]!) < 1e-9));
  const last = t.samples[t.samples.length - 1]!;
  assert.equal(last.tS, t.durationS);
  assert.equal(t.stateAt(t.durationS).tcpSpeedMmS, 0);
  // The TCP cap (250 mm/s) binds for this move, so the plan should be close to it rather than needlessly slow.
  assert.ok(t.peaks.peakTcpSpeedMmS > 200, `peak TCP speed ${t.peaks.peakTcpSpeedMmS}`);
});

test('a straight-line move keeps the TCP on the line (within 0.05 mm) under the 250 mm/s cap', () => {
  const start = forwardKinematics(UR5E, UR5E.homeDeg);
  const goal = { x: -300, y: -300, z: 200 };
  const result = planPoseMotion(UR5E, limits, UR5E.homeDeg, { position: goal }, { speedFraction: 1 });
  assert.ok(result.ok);
  assertWithinCaps(result.trajectory, 1);
  const d = { x: goal.x - start.x, y: goal.y - start.y, z: goal.z - start.z };
  const len = Math.hypot(d.x, d.y, d.z);
  let worst = 0;
  for (const s of result.trajectory.samples) {
    const v = { x: s.tcp.x - start.x, y: s.tcp.y - start.y, z: s.tcp.z - start.z };
    const along = (v.x * d.x + v.y * d.y + v.z * d.z) / len;
    worst = Math.max(worst, Math.sqrt(Math.max(0, v.x ** 2 + v.y ** 2 + v.z ** 2 - along ** 2)));
  }
  assert.ok(worst < 0.05, `deviation ${worst} mm`);
  const end = forwardKinematics(UR5E, [...result.trajectory.endJointsDeg]);
  assert.ok(Math.hypot(end.x - goal.x, end.y - goal.y, end.z - goal.z) < 0.01);
});

test('speedFraction scales the caps: at 0.5 the TCP never exceeds 125 mm/s', () => {
  const result = planPoseMotion(UR5E, limits, UR5E.homeDeg, { position: { x: -300, y: -300, z: 200 } }, { speedFraction: 0.5 });
  assert.ok(result.ok);
  assertWithinCaps(result.trajectory, 0.5);
  const fast = planPoseMotion(UR5E, limits, UR5E.homeDeg, { position: { x: -300, y: -300, z: 200 } }, { speedFraction: 1 });
  assert.ok(fast.ok);
  assert.ok(result.trajectory.durationS > fast.trajectory.durationS * 1.5);
});

test('quintic time scaling also respects the caps', () => {
  const result = planJointMotion(UR5E, limits, UR5E.homeDeg, [-40, -100, 100, -80, -90, -30], { speedFraction: 1, timeScaling: 'quintic' });
  assert.ok(result.ok);
  assertWithinCaps(result.trajectory, 1);
});

test('random reachable joint-space and Cartesian plans always stay within the caps', () => {
  fc.assert(fc.property(
    fc.double({ min: -600, max: -250, noNaN: true }),
    fc.double({ min: -350, max: 350, noNaN: true }),
    fc.double({ min: 60, max: 500, noNaN: true }),
    fc.constantFrom('linear' as const, 'joint' as const),
    fc.double({ min: 0.1, max: 1, noNaN: true }),
    (x, y, z, path, speedFraction) => {
      const result = planPoseMotion(UR5E, limits, UR5E.homeDeg, { position: { x, y, z } }, { path, speedFraction });
      if (!result.ok) {
        assert.ok(['path_unreachable', 'singularity', 'unreachable', 'did_not_converge', 'joint_limit'].includes(result.code), result.message);
        return;
      }
      assertWithinCaps(result.trajectory, speedFraction);
    },
  ), { numRuns: 25, seed: 42 });
});

test('waypoints are visited in order, stopping at each', () => {
  const waypoints = [{ position: { x: -450, y: -200, z: 300 } }, { position: { x: -450, y: 100, z: 300 } }, { position: { x: -350, y: 100, z: 150 } }];
  const result = planWaypoints(UR5E, limits, UR5E.homeDeg, waypoints, { speedFraction: 1 });
  assert.ok(result.ok);
  const t = result.trajectory;
  assert.equal(t.segments.length, 3);
  for (let i = 0; i < 3; i++) {
    const seg = t.segments[i]!;
    const at = seg.startTimeS + seg.timing.durationS;
    const state = t.stateAt(at);
    const w = waypoints[i]!.position;
    assert.ok(Math.hypot(state.tcp.x - w.x, state.tcp.y - w.y, state.tcp.z - w.z) < 0.01, `waypoint ${i} reached`);
    assert.ok(state.tcpSpeedMmS < 1e-6, `at rest at waypoint ${i}`);
  }
  assertWithinCaps(t, 1);
});

test('bad inputs are refused with a specific code and message, never clamped', () => {
  const cases: Array<[ReturnType<typeof planJointMotion>, string, string]> = [
    [planJointMotion(UR5E, limits, UR5E.homeDeg, [0, 0, 200, 0, 0, 0]), 'joint_limit', 'goal joint 3 is 200.00°, outside its range [-180, 180]°'],
    [planJointMotion(UR5E, limits, UR5E.homeDeg, [0, 0, 0, 0, 0, -181]), 'joint_limit', 'goal joint 6 is -181.00°, outside its range [-180, 180]°'],
    [planJointMotion(UR5E, limits, UR5E.homeDeg, [0, 0, Number.NaN, 0, 0, 0]), 'invalid_input', 'goal joint 3 must be a finite angle in degrees, got NaN'],
    [planJointMotion(UR5E, limits, UR5E.homeDeg, [0, 0, 0]), 'invalid_input', 'goal joints must be 6 angles in degrees'],
    [planJointMotion(UR5E, limits, UR5E.homeDeg, [0, -90, 0, -90, 0, 0], { speedFraction: 1.5 }), 'invalid_input', 'speedFraction must be a number from 0.1 to 1.0 (a fraction of the configured speed caps), got 1.5'],
    [planJointMotion(UR5E, limits, UR5E.homeDeg, [0, -90, 0, -90, 0, 0], { speedFraction: 0.05 }), 'invalid_input', 'speedFraction must be a number from 0.1 to 1.0 (a fraction of the configured speed caps), got 0.05'],
    [planPoseMotion(UR5E, limits, UR5E.homeDeg, { position: { x: Number.POSITIVE_INFINITY, y: 0, z: 100 } }), 'invalid_input', 'target position must be {x, y, z} with finite numbers in millimetres (base frame)'],
    [planWaypoints(UR5E, limits, UR5E.homeDeg, []), 'invalid_input', 'at least one waypoint is required'],
  ];
  for (const [result, code, message] of cases) {
    assert.deepEqual(result.ok ? null : { code: result.code, message: result.message }, { code, message });
  }
});

test('an unreachable waypoint names its index', () => {
  const result = planWaypoints(UR5E, limits, UR5E.homeDeg, [{ position: { x: -450, y: -200, z: 300 } }, { position: { x: -1400, y: 0, z: 300 } }], { path: 'joint' });
  assert.ok(!result.ok);
  assert.equal(result.code, 'unreachable');
  assert.equal(result.waypointIndex, 1);
});

test('a straight line leaving the reachable space fails as path_unreachable with where it fails', () => {
  const result = planPoseMotion(UR5E, limits, UR5E.homeDeg, { position: { x: -1200, y: -133.3, z: 487.9 } });
  assert.ok(!result.ok);
  assert.equal(result.code, 'path_unreachable');
  assert.match(result.message, /^the straight line cannot be followed \d+% along the line, at \(-\d+\.\d, -133\.3, 487\.9\) mm: /);
});

test('the xArm 6 preset plans as well', () => {
  const result = planPoseMotion(XARM6, motionLimitsOf(XARM6), XARM6.homeDeg, { position: { x: 350, y: 150, z: 200 } }, { speedFraction: 1 });
  assert.ok(result.ok, result.ok ? '' : result.message);
  const end = forwardKinematics(XARM6, [...result.trajectory.endJointsDeg]);
  assert.ok(Math.hypot(end.x - 350, end.y - 150, end.z - 200) < 0.01);
});

test('a straight line that would carry a joint past its range is refused as joint_limit, not wrapped around', () => {
  // Tool down with constant orientation: turning the base makes joint 6 turn with it, here from 175°
  // towards its 180° limit. With the range widened the same line is fine.
  const wide = { ...UR5E, joints: UR5E.joints.map((lim) => ({ ...lim, minDeg: -360, maxDeg: 360 })) };
  const start = [0, -90, 90, -90, -90, 175];
  const p = forwardKinematics(UR5E, start);
  const result = planPoseMotion(UR5E, limits, start, { position: { x: p.x, y: -450, z: p.z } });
  assert.ok(!result.ok);
  assert.equal(result.code, 'joint_limit');
  assert.match(result.message, /^the straight line cannot be followed \d+% along the line, at \(-491\.9, -\d+\.\d, 487\.9\) mm: joint 6 would have to pass its limit of 180°; use a joint-space move or other waypoints$/);
  const otherWay = planPoseMotion(UR5E, limits, start, { position: { x: p.x, y: 250, z: p.z } });
  assert.ok(otherWay.ok, 'turning the other way stays inside the range');
  assert.ok(planPoseMotion(wide, motionLimitsOf(wide), start, { position: { x: p.x, y: -450, z: p.z } }).ok, 'a ±360° wrist can follow the line');
});
