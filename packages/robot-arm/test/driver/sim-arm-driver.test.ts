/**
 * The driver contract run against SimArmDriver (the in-process simulated cell), plus what is
 * particular to it: it owns the clock (nothing moves unless it drives a motion or settles its
 * sensors), and its protective stop is the fault the contract provokes.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SimArmDriver } from '../../driver/sim-arm-driver.js';
import { steppedPacer } from '../../driver/sim-pacer.js';
import { createArmModel } from '../../model/arm-model.js';
import { createRobotServer } from '../../server/create-robot-server.js';
import { simSubject } from '../support/driver-matrix.js';
import { armDriverContract, planTo, type DriverSubject } from './arm-driver-contract.js';

/** Presses the fingertips 4 mm into the tray: 12 N of contact, above a 10 N protective limit. */
async function pressIntoTray(subject: DriverSubject): Promise<void> {
  for (const z of [350, 120]) {
    const end = await subject.driver.execute(planTo(subject, { x: -510, y: 370, z }), { motionId: `to-${z}` });
    assert.equal(end.status, 'completed');
  }
  const press = subject.model.planWaypoints(subject.driver.status().jointsDeg, [{ position: { x: -510, y: 370, z: 21 } }], { speedFraction: 0.3 });
  assert.ok(press.ok);
  const end = await subject.driver.execute(press.trajectory, { motionId: 'press', contactAllowedWith: ['tray-1'] });
  assert.equal(end.status, 'protective_stop');
}

armDriverContract('SimArmDriver', {
  create: async () => simSubject('ur5e'),
  fault: {
    kind: 'protective_stop',
    create: async () => simSubject('ur5e', { protectiveStopForceN: 10 }),
    provoke: pressIntoTray,
  },
});

describe('SimArmDriver', () => {
  it('owns the simulated clock: at rest nothing advances it but a sensor read, which lets idle time pass', async () => {
    const driver = new SimArmDriver({ pacer: steppedPacer(20) });
    try {
      const t0 = driver.status().timeMs;
      assert.equal(driver.status().timeMs, t0, 'reading status moves no time');
      const reading = await driver.readForceTorque();
      assert.equal(driver.status().timeMs, t0 + 50, 'the stepped pacer lets 50 ms pass before a read at rest');
      assert.equal(reading.timeMs, t0 + 50);
    } finally {
      await driver.close();
    }
  });

  it('a protective stop is the typed fault: kind protective_stop with the simulator\'s message, cleared by the operator', async () => {
    const subject = simSubject('ur5e', { protectiveStopForceN: 10 });
    try {
      await pressIntoTray(subject);
      const fault = subject.driver.status().fault;
      assert.equal(fault?.kind, 'protective_stop');
      assert.match(fault?.message ?? '', /^protective stop: contact force 1\d\.\d N exceeded 10 N \(tray-1\)$/);
      await subject.driver.clearFault();
      assert.deepEqual([subject.driver.status().state, subject.driver.status().fault], ['idle', null]);
    } finally {
      await subject.close();
    }
  });

  it('simulates the model it is given; the server refuses to start with a driver of another arm', () => {
    const model = createArmModel({ preset: 'xarm6', envelope: { reachRadiusMm: 600 } });
    const driver = new SimArmDriver({ model });
    assert.equal(driver.presetId, 'xarm6');
    assert.equal(driver.sim.envelope.reachRadiusMm, 600);
    assert.equal(driver.sim.model, model);
    assert.throws(() => createRobotServer({ model: createArmModel({ preset: 'ur5e' }), driver }), { name: 'RangeError', message: 'the driver moves a xarm6 arm, but the model is of a ur5e' });
  });
});
