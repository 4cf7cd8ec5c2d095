import { test } from 'node:test';
import assert from 'node:assert/strict';
import { UR5E } from '../../sim/arm-presets.js';
import { contactWrench, ZERO_WRENCH, type Wrench } from '../../sim/contact-model.js';
import { FT_AXES, ForceTorqueSensor } from '../../sim/force-torque-sensor.js';
import { fromRpyDeg } from '../../sim/rotation.js';
import type { SceneObjectState } from '../../sim/scene-objects.js';
import { SeededRandom } from '../../sim/seeded-random.js';
import { MovingAverage, ScalarKalmanFilter } from '../../sim/signal-filters.js';

const spec = UR5E.ftSensor;

function stats(values: readonly number[]): { mean: number; std: number } {
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  const variance = values.reduce((a, b) => a + (b - mean) ** 2, 0) / (values.length - 1);
  return { mean, std: Math.sqrt(variance) };
}

test('samples arrive at exactly 500 Hz of simulated time', () => {
  const sensor = new ForceTorqueSensor(spec, new SeededRandom(1));
  sensor.sampleUntil(1000, ZERO_WRENCH);
  const samples = sensor.recentRaw(10_000);
  assert.equal(samples.length, 500);
  assert.equal(samples[0]!.timeMs, 2);
  assert.equal(samples.at(-1)!.timeMs, 1000);
  sensor.sampleUntil(1001, ZERO_WRENCH);
  assert.equal(sensor.recentRaw(10_000).length, 500, 'no sample before the next 2 ms tick');
});

test('noise is zero-mean Gaussian with the configured σ (1.2 N, 0.07 N·m) on every axis', () => {
  const sensor = new ForceTorqueSensor(spec, new SeededRandom(2026), 0, { historySize: 20_000 });
  const truth: Wrench = { Fx: 3, Fy: -2, Fz: 10, Mx: 0.5, My: -0.25, Mz: 0.1 };
  sensor.sampleUntil(20_000, truth); // 10 000 samples
  const samples = sensor.recentRaw(10_000);
  assert.equal(samples.length, 10_000);
  FT_AXES.forEach((axis, i) => {
    const sigma = i < 3 ? spec.forceNoiseStdN : spec.torqueNoiseStdNm;
    const { mean, std } = stats(samples.map((s) => s.values[axis]));
    // Standard error of the mean is σ/100 here; 4 standard errors is a comfortable, still meaningful bound.
    assert.ok(Math.abs(mean - truth[axis]) < 4 * sigma / 100, `${axis} mean ${mean} vs ${truth[axis]}`);
    assert.ok(Math.abs(std / sigma - 1) < 0.05, `${axis} std ${std} vs σ ${sigma}`);
  });
});

test('kalman and moving-average filters cut the noise by well over half and track the true value', () => {
  const sensor = new ForceTorqueSensor(spec, new SeededRandom(9));
  const truth: Wrench = { ...ZERO_WRENCH, Fz: -2.943 };
  const raw: number[] = [], kalman: number[] = [], average: number[] = [];
  for (let t = 2; t <= 6000; t += 2) {
    sensor.sampleUntil(t, truth);
    if (t < 1000) continue; // let the filters settle
    raw.push(sensor.read('raw')!.values.Fz);
    kalman.push(sensor.read('kalman')!.values.Fz);
    average.push(sensor.read('moving_average')!.values.Fz);
  }
  const r = stats(raw), k = stats(kalman), m = stats(average);
  assert.ok(Math.abs(r.std - 1.2) < 0.1, `raw std ${r.std}`);
  assert.ok(k.std < r.std / 3, `kalman std ${k.std} vs raw ${r.std}`);
  assert.ok(m.std < r.std / 3, `moving average std ${m.std} vs raw ${r.std}`);
  assert.ok(Math.abs(k.mean - truth.Fz) < 0.1 && Math.abs(m.mean - truth.Fz) < 0.1);
});

test('filters follow a step change within a tenth of a second', () => {
  const sensor = new ForceTorqueSensor(spec, new SeededRandom(4));
  sensor.sampleUntil(1000, ZERO_WRENCH);
  sensor.sampleUntil(1100, { ...ZERO_WRENCH, Fz: 20 });
  assert.ok(sensor.read('moving_average')!.values.Fz > 18, 'moving average (50 ms window) has caught up');
  assert.ok(sensor.read('kalman')!.values.Fz > 15, `kalman at ${sensor.read('kalman')!.values.Fz}`);
});

test('the same seed gives the same samples; a different seed does not', () => {
  const a = new ForceTorqueSensor(spec, new SeededRandom(77));
  const b = new ForceTorqueSensor(spec, new SeededRandom(77));
  const c = new ForceTorqueSensor(spec, new SeededRandom(78));
  for (const s of [a, b, c]) s.sampleUntil(100, ZERO_WRENCH);
  assert.deepEqual(a.recentRaw(50), b.recentRaw(50));
  assert.notDeepEqual(a.recentRaw(50), c.recentRaw(50));
});

test('readings saturate at the sensor range (±50 N, ±10 N·m) and say so', () => {
  const sensor = new ForceTorqueSensor(spec, new SeededRandom(3));
  sensor.sampleUntil(2, { ...ZERO_WRENCH, Fx: 80, Mz: -20 });
  const reading = sensor.read('raw')!;
  assert.equal(reading.values.Fx, 50);
  assert.equal(reading.values.Mz, -10);
  assert.equal(reading.saturated, true);
  sensor.sampleUntil(4, ZERO_WRENCH);
  assert.equal(sensor.read('raw')!.saturated, false);
});

test('nothing to read before the first sample', () => {
  const sensor = new ForceTorqueSensor(spec, new SeededRandom(3));
  assert.equal(sensor.read('kalman'), null);
});

test('filter parameters are validated', () => {
  assert.throws(() => new MovingAverage(0), { name: 'RangeError', message: 'moving-average window must be a positive integer, got 0' });
  assert.throws(() => new ScalarKalmanFilter(0, 1), { name: 'RangeError', message: 'Kalman measurement variance must be > 0, got 0' });
  assert.throws(() => new ScalarKalmanFilter(1, Number.NaN), { name: 'RangeError', message: 'Kalman process variance must be > 0, got NaN' });
});

const down = fromRpyDeg({ rollDeg: 180, pitchDeg: 0, yawDeg: 0 });
const tray: SceneObjectState = { id: 'tray-1', label: 'tray', shape: 'box', sizeMm: { x: 220, y: 160, z: 25 }, position: { x: -450, y: 330, z: 12.5 }, yawDeg: 0, massKg: 0.4, frictionCoefficient: 0.5, maxGripForceN: null, condition: 'intact', held: false };

test('contact model: pushing the fingertips 4 mm into the table gives +12 N along z (3 N/mm)', () => {
  const { wrench, contacts } = contactWrench({ origin: { x: -400, y: 0, z: -4 }, rotation: down }, 0, [], null);
  assert.ok(Math.abs(wrench.Fz - 12) < 1e-9 && Math.abs(wrench.Fx) < 1e-9 && Math.abs(wrench.Fy) < 1e-9);
  assert.deepEqual(contacts.map((c) => c.obstacle), ['table']);
  const free = contactWrench({ origin: { x: -400, y: 0, z: 4 }, rotation: down }, 0, [], null);
  assert.deepEqual(free.contacts, []);
  assert.deepEqual(free.wrench, { Fx: 0, Fy: 0, Fz: 0, Mx: 0, My: 0, Mz: 0 });
});

test('contact model: fingertips pressing on an object too wide for the jaws push back; a narrow one passes between them', () => {
  const pressing = contactWrench({ origin: { x: -450, y: 330, z: 20 }, rotation: down }, 0, [tray], null);
  assert.ok(Math.abs(pressing.wrench.Fz - 15) < 1e-6, `Fz ${pressing.wrench.Fz}`);
  const cup: SceneObjectState = { ...tray, id: 'cup-1', label: 'cup', shape: 'cylinder', sizeMm: { x: 80, y: 80, z: 100 }, position: { x: -450, y: 0, z: 50 } };
  const straddling = contactWrench({ origin: { x: -450, y: 0, z: 60 }, rotation: down }, 0, [cup], null);
  assert.deepEqual(straddling.contacts, [], 'open jaws around the cup touch nothing');
  const palm = contactWrench({ origin: { x: -450, y: 0, z: 40 }, rotation: down }, 0, [cup], null);
  assert.ok(Math.abs(palm.wrench.Fz - 30) < 1e-6, 'the palm, 50 mm up, sits 10 mm into the cup top');
});

test('contact model: a held object’s weight pulls down, with a torque from its lever arm', () => {
  const held = { object: { ...tray, massKg: 0.5 }, offsetInToolMm: { x: 100, y: 0, z: 0 }, rotationInTool: down };
  const { wrench } = contactWrench({ origin: { x: -400, y: 0, z: 300 }, rotation: down }, 0, [], held);
  assert.ok(Math.abs(wrench.Fz + 0.5 * 9.81) < 1e-9);
  // The centre is 100 mm along +x (tool x = base x when pointing down with yaw 0): M = r × F = (0.1,0,0) × (0,0,-4.905).
  assert.ok(Math.abs(wrench.My - 0.4905) < 1e-9 && Math.abs(wrench.Mx) < 1e-9, `M = (${wrench.Mx}, ${wrench.My}, ${wrench.Mz})`);
});
