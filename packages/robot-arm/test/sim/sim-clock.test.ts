import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SimClock } from '../../sim/sim-clock.js';

test('the clock moves only when stepped, in fixed steps, and tells every listener', () => {
  const clock = new SimClock(4);
  const ticks: Array<[number, number]> = [];
  clock.onTick((now, dt) => ticks.push([now, dt]));
  assert.equal(clock.nowMs, 0);
  clock.step();
  clock.step(2);
  assert.deepEqual(ticks, [[4, 4], [6, 2]]);
  clock.advance(10);
  assert.deepEqual(ticks.slice(2), [[10, 4], [14, 4], [16, 2]]);
  assert.equal(clock.nowMs, 16);
  clock.advance(0);
  assert.equal(ticks.length, 5);
});

test('invalid steps are refused', () => {
  const clock = new SimClock();
  assert.throws(() => clock.step(0), { name: 'RangeError', message: 'a clock step must be in (0, 100] ms, got 0' });
  assert.throws(() => clock.step(Number.NaN), { name: 'RangeError', message: 'a clock step must be in (0, 100] ms, got NaN' });
  assert.throws(() => clock.step(250), { name: 'RangeError', message: 'a clock step must be in (0, 100] ms, got 250' });
  assert.throws(() => clock.advance(-1), { name: 'RangeError', message: 'advance needs a finite, non-negative number of ms, got -1' });
  assert.throws(() => new SimClock(0), { name: 'RangeError', message: 'clock step must be in (0, 100] ms, got 0' });
  assert.equal(clock.nowMs, 0);
});
