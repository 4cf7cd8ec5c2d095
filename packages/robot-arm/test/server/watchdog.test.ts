import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SimArmDriver } from '../../driver/sim-arm-driver.js';
import { planFromCurrentPose } from '../../server/motion-safety.js';
import { RobotController } from '../../server/robot-controller.js';
import type { SimPacer } from '../../driver/sim-pacer.js';
import { isRefusal } from '../../server/safety-stages.js';

/** A driver whose simulated time barely moves: what a hung control loop looks like. */
const stalledPacer: SimPacer = {
  description: 'stalled',
  next: () => new Promise((resolve) => setImmediate(() => resolve(0.01))),
  idleAdvanceMs: () => 4,
  wallMsFor: () => 0,
};

describe('watchdog', () => {
  it('halts and latches an emergency stop when a motion does not finish in time', async () => {
    const driver = new SimArmDriver({ pacer: stalledPacer });
    const controller = new RobotController({ model: driver.model, driver, watchdogWallSlackMs: 50 });
    const plan = planFromCurrentPose(controller, { kind: 'pose', targets: [{ x_mm: -450, y_mm: -150, z_mm: 420 }], speedFraction: 0.5, timeScaling: 'trapezoidal', path: 'linear' });
    assert.ok(!isRefusal(plan));
    const report = await controller.runMotion(plan);
    assert.ok(!isRefusal(report), JSON.stringify(report));
    assert.equal(report.status, 'watchdog_stopped');
    assert.match(report.detail ?? '', /watchdog: motion motion-1 stalled/);
    assert.equal(driver.status().state, 'estop');
    assert.equal(controller.emergencyStop?.source, 'watchdog');
    assert.equal(controller.stateGate()?.code, 'estop_latched');
    assert.equal(await controller.clearEmergencyStop('operator'), true);
    assert.equal(controller.stateGate(), null);
  });
});
