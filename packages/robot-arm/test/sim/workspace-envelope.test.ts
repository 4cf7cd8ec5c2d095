import { test } from 'node:test';
import assert from 'node:assert/strict';
import { UR5E, XARM6 } from '../../sim/arm-presets.js';
import { checkPathEnvelope, checkPose, createEnvelope } from '../../sim/workspace-envelope.js';

const envelope = createEnvelope(UR5E);

test('the default UR5e envelope: 800 mm sphere around the shoulder, 20 mm above the table, 175 mm keep-out', () => {
  assert.deepEqual(envelope, { reachCenter: { x: 0, y: 0, z: 162.5 }, reachRadiusMm: 800, tableZMm: 0, tableClearanceMm: 20, keepOutRadiusMm: 175 });
  assert.deepEqual(checkPose(envelope, { x: -400, y: -200, z: 100 }), { ok: true, violations: [] });
});

test('each rule reports its own code, limit, value and message', () => {
  const far = checkPose(envelope, { x: -900, y: 0, z: 162.5 });
  assert.deepEqual(far.violations, [{
    code: 'outside_reach',
    message: 'TCP would be 900.0 mm from the shoulder centre (0, 0, 162.5) mm; the reach sphere allows at most 800 mm',
    limitMm: 800,
    actualMm: 900,
  }]);
  const low = checkPose(envelope, { x: -400, y: 0, z: 12.5 });
  assert.deepEqual(low.violations, [{
    code: 'below_table_clearance',
    message: 'TCP z would be 12.5 mm; it must stay at least 20 mm above the table (z >= 20 mm)',
    limitMm: 20,
    actualMm: 12.5,
  }]);
  const close = checkPose(envelope, { x: -100, y: 0, z: 300 });
  assert.deepEqual(close.violations, [{
    code: 'inside_base_keep_out',
    message: 'TCP would be 100.0 mm from the base axis; the keep-out cylinder around the base requires at least 175 mm',
    limitMm: 175,
    actualMm: 100,
  }]);
});

test('a pose breaking several rules lists all of them', () => {
  const result = checkPose(envelope, { x: 0, y: 0, z: -700 });
  assert.equal(result.ok, false);
  assert.deepEqual(result.violations.map((v) => v.code), ['outside_reach', 'below_table_clearance', 'inside_base_keep_out']);
});

test('non-finite positions are violations, never silently accepted', () => {
  for (const p of [{ x: Number.NaN, y: 0, z: 100 }, { x: -400, y: Number.POSITIVE_INFINITY, z: 100 }]) {
    const result = checkPose(envelope, p);
    assert.equal(result.ok, false);
    assert.deepEqual(result.violations.map((v) => [v.code, v.message]), [['non_finite', 'TCP position must be three finite numbers in millimetres']]);
  }
});

test('the path check returns the first sample that leaves the envelope', () => {
  const samples = [0, 1, 2, 3].map((i) => ({ tS: i * 0.1, tcp: { x: -400, y: 0, z: 100 - i * 30 } }));
  const first = checkPathEnvelope(envelope, samples);
  assert.ok(first !== null);
  assert.equal(first.tS, samples[3]!.tS); // z = 10 mm: the first sample below 20 mm
  assert.equal(first.violations[0]!.code, 'below_table_clearance');
  assert.equal(checkPathEnvelope(envelope, samples.slice(0, 3)), null);
});

test('operator overrides are validated; the reach sphere cannot exceed the arm’s physical reach', () => {
  assert.equal(createEnvelope(XARM6).reachRadiusMm, 650);
  assert.equal(createEnvelope(UR5E, { tableClearanceMm: 0 }).tableClearanceMm, 0);
  assert.throws(() => createEnvelope(UR5E, { reachRadiusMm: 900 }), { name: 'RangeError', message: "envelope reachRadiusMm 900 exceeds the Universal Robots UR5e's physical reach of 850 mm" });
  assert.throws(() => createEnvelope(UR5E, { tableClearanceMm: -5 }), { name: 'RangeError', message: 'envelope tableClearanceMm must be a finite number of millimetres >= 0, got -5' });
  assert.throws(() => createEnvelope(UR5E, { keepOutRadiusMm: Number.NaN }), { name: 'RangeError', message: 'envelope keepOutRadiusMm must be a finite number of millimetres >= 0, got NaN' });
});

test('a value just past a limit is printed precisely enough to differ from it', () => {
  const result = checkPose(envelope, { x: -174.96, y: 0, z: 300 });
  assert.equal(result.violations[0]!.message, 'TCP would be 174.96 mm from the base axis; the keep-out cylinder around the base requires at least 175 mm');
});
