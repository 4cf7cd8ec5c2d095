import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { RobotSimulation } from '../../sim/robot-simulation.js';
import { planFromCurrentPose } from '../../server/motion-safety.js';
import { RobotController } from '../../server/robot-controller.js';
import type { SimPacer } from '../../server/sim-pacer.js';
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
    const sim = new RobotSimulation({ preset: 'ur5e' });
    const controller = new RobotController({ sim, pacer: stalledPacer, watchdogWallSlackMs: 50 });
    const plan = planFromCurrentPose(sim, { kind: 'pose', targets: [{ x_mm: -450, y_mm: -150, z_mm: 420 }], speedFraction: 0.5, timeScaling: 'trapezoidal', path: 'linear' });
    assert.ok(!isRefusal(plan));
    const run = controller.runMotion(plan);
    assert.ok(run instanceof Promise);
    const report = await run;
    assert.equal(report.status, 'watchdog_stopped');
    assert.match(report.detail ?? '', /watchdog: motion motion-1 stalled/);
    assert.equal(sim.state, 'estop');
    assert.equal(controller.emergencyStop?.source, 'watchdog');
    assert.equal(controller.stateGate('motion')?.code, 'estop_latched');
    assert.equal(controller.clearEmergencyStop('operator'), true);
    assert.equal(controller.stateGate('motion'), null);
  });
});
