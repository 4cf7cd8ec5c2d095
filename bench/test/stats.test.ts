import { test } from 'node:test';
import assert from 'node:assert/strict';
import { median, percentileOf, ratio } from '../lib/stats.js';

test('median of an odd count is the middle value, whatever the input order', () => {
  assert.equal(median([9, 1, 5]), 5);
});

test('median of an even count is the mean of the two middle values', () => {
  assert.equal(median([4, 1, 3, 2]), 2.5);
});

test('median of nothing is NaN, never 0 (an empty cell must not look like a measurement)', () => {
  assert.ok(Number.isNaN(median([])));
});

test('percentileOf picks the nearest-rank value', () => {
  const values = Array.from({ length: 100 }, (_, i) => i + 1);
  assert.equal(percentileOf(values, 0.5), 50);
  assert.equal(percentileOf(values, 0.99), 99);
  assert.equal(percentileOf([7], 0.99), 7);
});

test('ratio against a zero or missing reference is NaN', () => {
  assert.equal(ratio(3, 4), 0.75);
  assert.ok(Number.isNaN(ratio(3, 0)));
  assert.ok(Number.isNaN(ratio(Number.NaN, 4)));
});
