import { test } from 'node:test';
import assert from 'node:assert/strict';
import { UR5E } from '../../sim/arm-presets.js';
import { summarizeTrajectory, trajectoryDigest } from '../../sim/trajectory-digest.js';
import { motionLimitsOf, planJointMotion, planPoseMotion } from '../../sim/trajectory-planner.js';

const limits = motionLimitsOf(UR5E);

test('the digest is stable for the same plan and changes with any change of motion', () => {
  const a = planPoseMotion(UR5E, limits, UR5E.homeDeg, { position: { x: -400, y: -100, z: 300 } });
  const b = planPoseMotion(UR5E, limits, UR5E.homeDeg, { position: { x: -400, y: -100, z: 300 } });
  const slower = planPoseMotion(UR5E, limits, UR5E.homeDeg, { position: { x: -400, y: -100, z: 300 } }, { speedFraction: 0.3 });
  const elsewhere = planPoseMotion(UR5E, limits, UR5E.homeDeg, { position: { x: -400, y: -100, z: 301 } });
  assert.ok(a.ok && b.ok && slower.ok && elsewhere.ok);
  const digest = trajectoryDigest(a.trajectory);
  assert.match(digest, /^[0-9a-f]{64}$/);
  assert.equal(trajectoryDigest(b.trajectory), digest);
  assert.notEqual(trajectoryDigest(slower.trajectory), digest);
  assert.notEqual(trajectoryDigest(elsewhere.trajectory), digest);
});

test('the summary is plain, rounded data describing the plan for a human approver', () => {
  const plan = planJointMotion(UR5E, limits, UR5E.homeDeg, [10, -90, 90, -90, -90, 0], { speedFraction: 1 });
  assert.ok(plan.ok);
  const summary = summarizeTrajectory(plan.trajectory);
  assert.equal(summary.presetId, 'ur5e');
  assert.deepEqual(summary.startJointsDeg, [0, -90, 90, -90, -90, 0]);
  assert.deepEqual(summary.endJointsDeg, [10, -90, 90, -90, -90, 0]);
  assert.deepEqual(summary.startTcpMm, { x: -491.9, y: -133.3, z: 487.9 });
  assert.equal(summary.segments.length, 1);
  assert.equal(summary.segments[0]!.kind, 'joint');
  assert.equal(summary.segments[0]!.timeScaling, 'trapezoidal');
  assert.ok(summary.peakTcpSpeedMmS <= 250);
  assert.deepEqual(JSON.parse(JSON.stringify(summary)), summary, 'survives JSON unchanged');
});
