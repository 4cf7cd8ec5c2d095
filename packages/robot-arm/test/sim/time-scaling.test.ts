import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { fitTimeScaling, quintic, trapezoidal } from '../../sim/time-scaling.js';

test('trapezoidal profile starts and ends at rest and covers s from 0 to 1', () => {
  const p = trapezoidal(2, 0.25);
  assert.deepEqual(p.at(0), { s: 0, sd: 0, sdd: p.peakAcceleration });
  const end = p.at(2);
  assert.equal(end.s, 1);
  assert.equal(end.sd, 0);
  assert.equal(end.sdd, 0);
  assert.ok(Math.abs(p.at(1).s - 0.5) < 1e-12, 'symmetric about the middle');
  assert.ok(Math.abs(p.peakRate - 1 / 1.5) < 1e-12);
  assert.ok(Math.abs(p.peakAcceleration - (1 / 1.5) / 0.5) < 1e-12);
});

test('quintic profile has zero rate and acceleration at both ends and the known peaks', () => {
  const p = quintic(3);
  assert.deepEqual(p.at(0), { s: 0, sd: 0, sdd: 0 });
  const end = p.at(3);
  assert.ok(Math.abs(end.s - 1) < 1e-12 && Math.abs(end.sd) < 1e-12 && Math.abs(end.sdd) < 1e-12);
  assert.ok(Math.abs(p.at(1.5).sd - p.peakRate) < 1e-12, 'peak rate at mid-time');
  let maxAccel = 0;
  for (let i = 0; i <= 3000; i++) maxAccel = Math.max(maxAccel, Math.abs(p.at(i / 1000).sdd));
  assert.ok(maxAccel <= p.peakAcceleration + 1e-9 && maxAccel > p.peakAcceleration * 0.999);
});

test('fitted profiles never exceed the rate and acceleration budgets and are continuous', () => {
  fc.assert(fc.property(
    fc.constantFrom('trapezoidal' as const, 'quintic' as const),
    fc.double({ min: 1e-3, max: 20, noNaN: true }),
    fc.double({ min: 1e-4, max: 20, noNaN: true }),
    (kind, rv, ra) => {
      const p = fitTimeScaling(kind, rv, ra);
      assert.ok(p.peakRate <= (1 / rv) * (1 + 1e-9), `rate ${p.peakRate} > ${1 / rv}`);
      assert.ok(p.peakAcceleration <= (1 / ra) * (1 + 1e-9), `accel ${p.peakAcceleration} > ${1 / ra}`);
      let previous = p.at(0);
      const n = 500;
      for (let i = 1; i <= n; i++) {
        const now = p.at((p.durationS * i) / n);
        assert.ok(now.s >= previous.s - 1e-12, 's never goes backwards');
        const dt = p.durationS / n;
        assert.ok(Math.abs(now.s - previous.s) <= p.peakRate * dt * (1 + 1e-6) + 1e-12, 's moves no faster than the peak rate');
        previous = now;
      }
      assert.ok(Math.abs(previous.s - 1) < 1e-12);
    },
  ), { numRuns: 200, seed: 1201 });
});

test('the trapezoid is time-optimal: it reaches the rate cap when the path is long enough', () => {
  const p = fitTimeScaling('trapezoidal', 2, 0.5); // v = 0.5/s, a = 2/s²: cruise phase exists
  assert.ok(Math.abs(p.durationS - (2 + 0.5 / 2)) < 1e-12);
  assert.ok(Math.abs(p.peakRate - 0.5) < 1e-12);
  const short = fitTimeScaling('trapezoidal', 0.1, 0.5); // too short to reach v: triangle
  assert.ok(Math.abs(short.durationS - 2 * Math.sqrt(0.5)) < 1e-12);
});

test('stretching keeps the shape and scales rates by 1/k and accelerations by 1/k²', () => {
  const p = trapezoidal(1, 0.3);
  const q = p.stretched(2);
  assert.equal(q.durationS, 2);
  assert.ok(Math.abs(q.peakRate - p.peakRate / 2) < 1e-12);
  assert.ok(Math.abs(q.peakAcceleration - p.peakAcceleration / 4) < 1e-12);
});

test('invalid profile parameters are refused', () => {
  assert.throws(() => trapezoidal(Number.NaN, 0.25), { name: 'RangeError', message: 'duration must be a finite number of seconds >= 0, got NaN' });
  assert.throws(() => trapezoidal(1, 0.6), { name: 'RangeError', message: 'accelFraction must be in (0, 0.5], got 0.6' });
  assert.throws(() => quintic(-1), { name: 'RangeError', message: 'duration must be a finite number of seconds >= 0, got -1' });
});

test('a zero-length move has zero duration and sits at s = 1', () => {
  const p = fitTimeScaling('quintic', 0, 0);
  assert.equal(p.durationS, 0);
  assert.deepEqual(p.at(0), { s: 1, sd: 0, sdd: 0 });
});
