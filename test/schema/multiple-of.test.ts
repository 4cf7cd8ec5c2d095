import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { isMultipleOf } from '../../src/schema/multiple-of.js';
import { compileSchema } from '../../src/schema/index.js';

test('multipleOf is decimal-exact on both engines (0.3 of 0.1, 4.35 of 0.01, 1e308 of 0.5)', () => {
  const cases: Array<[number, number, boolean]> = [
    [0.1, 0.3, true], [0.01, 4.35, true], [0.01, 0.07, true], [0.0001, 0.0075, true], [1e-8, 12.00000001, true], [0.5, 1e308, true],
    [3, 1e308, false], [2, 3.0000000000000004, false], [0.1, 0.30000000000000004, false], [0.01, 4.355, false], [1.5, 4.5, true], [1.5, 4, false],
    [7, 49, true], [7, 50, false], [0.5, -2.5, true], [0.25, 0, true],
  ];
  for (const [divisor, value, expected] of cases) {
    assert.equal(isMultipleOf(value, divisor), expected, `${value} multipleOf ${divisor}`);
    for (const engine of ['auto', 'compliant'] as const) {
      const result = compileSchema({ multipleOf: divisor }, { engine }).validate(value);
      assert.equal(result.valid, expected, `${engine}: ${value} multipleOf ${divisor}`);
      if (!expected) assert.deepEqual(result.errors.map((e) => [e.keyword, e.message]), [['multipleOf', `/: expected a multiple of ${divisor}, got number ${value}`]]);
    }
  }
});

test('property: k·d written in decimal is always a multiple of d, and (k + 1/2)·d never is', () => {
  fc.assert(fc.property(fc.integer({ min: -1_000_000, max: 1_000_000 }), fc.integer({ min: 1, max: 9999 }), fc.integer({ min: 0, max: 12 }), (k, d, scale) => {
    const divisor = Number(`${d}e-${scale}`);
    const multiple = Number(`${k * d}e-${scale}`);
    const between = Number(`${(2 * k + 1) * d * 5}e-${scale + 1}`); // (k + 1/2)·d, written exactly in decimal
    return isMultipleOf(multiple, divisor) && !isMultipleOf(between, divisor);
  }), { numRuns: 2000 });
});
