/**
 * Limit refusals print the offending value with enough digits to show the violation (issue 30: "TCP z
 * would be 20.000 mm; it must stay at least 20 mm" for 20 - 1e-9).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createArmModel, describeHit } from '../../model/arm-model.js';
import { beside, limitText } from '../../sim/limit-digits.js';

describe('limit digits', () => {
  it('one decimal when that already differs from the limit, more only as needed, the exact value past 12', () => {
    assert.equal(beside(20.26, 20), '20.3');
    assert.equal(beside(19.96, 20), '19.96');
    assert.equal(beside(20 - 1e-9, 20), '19.999999999');
    assert.equal(beside(1e-13, 0), '1e-13');
    assert.equal(beside(1500.4, 1500, 0), '1500.4');
    assert.equal(limitText(-0.01 + 1e-17), '-0.01');
  });

  it('the envelope refusal for z = 20 - 1e-9 shows a value below 20', () => {
    const model = createArmModel();
    const minZ = model.envelope.tableZMm + model.envelope.tableClearanceMm;
    const check = model.checkPose({ x: -400, y: -150, z: minZ - 1e-9 });
    assert.equal(check.ok, false);
    const message = check.ok ? '' : check.violations[0]!.message;
    assert.equal(message, `TCP z would be ${(minZ - 1e-9).toFixed(9)} mm; it must stay at least ${model.envelope.tableClearanceMm} mm above the table (z >= ${minZ} mm)`);
    assert.ok(Number(/would be ([\d.]+) mm/.exec(message)![1]) < minZ, message);
  });

  it('a collision 0.0005 mm past a lift-off floor prints the gap and the required gap apart', () => {
    const text = describeHit({ link: 'held:cup-1', obstacle: 'table', distanceMm: -0.0105, requiredMm: -0.01, rule: 'r' });
    assert.equal(text, 'the held object cup-1 would be 0.011 mm inside the table; rule: r (required gap -0.01 mm)');
    assert.equal(describeHit({ link: 'tool', obstacle: 'cup-2', distanceMm: 4.99, requiredMm: 5, rule: 'r' }), 'link tool would be within 4.99 mm of cup-2; rule: r (required gap 5 mm)');
  });
});
