/**
 * The real-time pacer counts a motion's simulated time from the motion's start. Before the fix its
 * first frame advanced the simulation by the whole time since the previous frame (capped at 250 ms):
 * a motion started after the arm had stood still jumped up to 250 ms along its path in one frame, so
 * a cancel sent right after the start found the arm far from where it started. The wall clock is the
 * test's own (no sleeps stand in for idle time).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SimArmDriver } from '../../driver/sim-arm-driver.js';
import { realTimePacer, steppedPacer, type SimPacer } from '../../driver/sim-pacer.js';
import { planTo, type DriverSubject } from './arm-driver-contract.js';

describe('realTimePacer', () => {
  it('the first frame after start() advances the time since start() × scale, not the idle time before it', async () => {
    let wall = 0;
    const pacer = realTimePacer(2, 10, () => wall);
    wall += 10_000; // the arm stood still for 10 s
    pacer.start!();
    wall += 10;
    assert.equal(await pacer.next(), 20);
    wall += 12;
    assert.equal(await pacer.next(), 24, 'later frames count from the previous frame');
  });

  it('a stalled frame still advances at most 250 ms of simulated time', async () => {
    let wall = 0;
    const pacer = realTimePacer(2, 10, () => wall);
    pacer.start!();
    wall += 5_000;
    assert.equal(await pacer.next(), 250);
  });
});

describe('SimArmDriver and its pacer', () => {
  it('calls start() once per motion that starts, before its first frame; not for a motion that never starts', async () => {
    const log: string[] = [];
    const inner = steppedPacer(20);
    const pacer: SimPacer = { ...inner, start: () => log.push('start'), next: () => { log.push('next'); return inner.next(); } };
    const driver = new SimArmDriver({ pacer });
    const subject: DriverSubject = { driver, model: driver.model, groundTruthJoints: () => driver.sim.jointsDeg, close: () => driver.close() };
    try {
      const aborted = new AbortController();
      aborted.abort();
      assert.equal((await driver.execute(planTo(subject, { x: -400, y: -150, z: 350 }), { motionId: 'never', signal: aborted.signal })).status, 'cancelled');
      assert.deepEqual(log, [], 'an already-aborted motion never starts');
      for (const [i, target] of [{ x: -400, y: -150, z: 350 }, { x: -420, y: -100, z: 380 }].entries()) {
        const from = log.length;
        assert.equal((await driver.execute(planTo(subject, target), { motionId: `m${i}` })).status, 'completed');
        const mine = log.slice(from);
        assert.equal(mine[0], 'start');
        assert.ok(mine.length > 2 && mine.slice(1).every((e) => e === 'next'), `motion ${i}: ${mine.slice(0, 4).join(',')}…`);
      }
    } finally {
      await subject.close();
    }
  });
});
