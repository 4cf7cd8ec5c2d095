import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { UR5E, XARM6, getArmPreset } from '../../sim/arm-presets.js';
import { forwardKinematics, tcpFrameRad } from '../../sim/forward-kinematics.js';

function assertNear(actual: number, expected: number, tolerance: number, what: string): void {
  assert.ok(Math.abs(actual - expected) <= tolerance, `${what}: expected ${expected} ± ${tolerance}, got ${actual}`);
}

test('UR5e with all joints at 0 puts the TCP at (-817.2, -232.9, 62.8) mm', () => {
  const p = forwardKinematics(UR5E, [0, 0, 0, 0, 0, 0]);
  assertNear(p.x, -817.2, 0.05, 'x');
  assertNear(p.y, -232.9, 0.05, 'y');
  assertNear(p.z, 62.8, 0.05, 'z');
});

test('UR5e at [0,-90,0,-90,0,0] deg points straight up: TCP (0, -232.9, 1079.4) mm', () => {
  const p = forwardKinematics(UR5E, [0, -90, 0, -90, 0, 0]);
  assertNear(p.x, 0, 0.05, 'x');
  assertNear(p.y, -232.9, 0.05, 'y');
  assertNear(p.z, 1079.4, 0.05, 'z');
});

test('UR5e home [0,-90,90,-90,-90,0] deg: TCP (-491.9, -133.3, 487.9) mm with the tool pointing down', () => {
  const p = forwardKinematics(UR5E, UR5E.homeDeg);
  assertNear(p.x, -491.9, 0.05, 'x');
  assertNear(p.y, -133.3, 0.05, 'y');
  assertNear(p.z, 487.9, 0.05, 'z');
  assertNear(Math.abs(p.rollDeg), 180, 1e-6, 'roll');
  assertNear(p.pitchDeg, 0, 1e-6, 'pitch');
});

test('xArm 6 with all joints at 0 matches UFactory’s published home pose (207, 0, 112) mm, roll 180°', () => {
  const p = forwardKinematics(XARM6, [0, 0, 0, 0, 0, 0]);
  assertNear(p.x, 207, 0.01, 'x');
  assertNear(p.y, 0, 0.01, 'y');
  assertNear(p.z, 112, 0.01, 'z');
  assertNear(Math.abs(p.rollDeg), 180, 1e-6, 'roll');
});

test('joint 1 rotates the whole arm about the vertical base axis', () => {
  fc.assert(fc.property(fc.double({ min: -180, max: 180, noNaN: true }), (q1) => {
    const base = forwardKinematics(UR5E, [0, -60, 80, -110, -90, 0]);
    const turned = forwardKinematics(UR5E, [q1, -60, 80, -110, -90, 0]);
    assertNear(Math.hypot(turned.x, turned.y), Math.hypot(base.x, base.y), 1e-6, 'radius');
    assertNear(turned.z, base.z, 1e-6, 'z');
  }), { numRuns: 50, seed: 1101 });
});

test('the flange rotation is orthonormal for any joint angles', () => {
  fc.assert(fc.property(fc.array(fc.double({ min: -180, max: 180, noNaN: true }), { minLength: 6, maxLength: 6 }), (deg) => {
    const r = tcpFrameRad(XARM6, deg.map((d) => (d * Math.PI) / 180)).rotation;
    for (let i = 0; i < 3; i++) {
      for (let j = 0; j < 3; j++) {
        const dotIJ = r[i]! * r[j]! + r[3 + i]! * r[3 + j]! + r[6 + i]! * r[6 + j]!;
        assertNear(dotIJ, i === j ? 1 : 0, 1e-9, `column ${i}·${j}`);
      }
    }
  }), { numRuns: 50, seed: 1102 });
});

test('unknown preset ids are refused with the list of valid ones', () => {
  assert.throws(() => getArmPreset('ur10'), { name: 'RangeError', message: 'unknown arm preset "ur10"; expected one of: ur5e, xarm6' });
  assert.equal(getArmPreset('xarm6'), XARM6);
});

test('presets are frozen so no caller can widen a limit', () => {
  assert.throws(() => { (UR5E.joints[0] as { maxVelocityDegS: number }).maxVelocityDegS = 1000; }, TypeError);
  assert.equal(UR5E.joints[0]!.maxVelocityDegS, 60);
  assert.throws(() => { (UR5E as { maxTcpSpeedMmS: number }).maxTcpSpeedMmS = 1000; }, TypeError);
});
