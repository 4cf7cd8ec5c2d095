import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { XARM6 } from '../../sim/arm-presets.js';
import { createRobotSimulation, type ExecuteOptions, type RobotSimulation } from '../../driver/robot-simulation.js';
import { motionLimitsOf, planJointMotion, type CartesianTarget } from '../../sim/trajectory-planner.js';
import type { Trajectory } from '../../sim/trajectory.js';
import type { Vec3 } from '../../sim/vector3.js';

function plan(sim: RobotSimulation, position: Vec3, speedFraction = 1): Trajectory {
  const result = sim.planToPose({ position }, { speedFraction });
  assert.ok(result.ok, `plan to ${JSON.stringify(position)}: ${result.ok ? '' : result.message}`);
  return result.trajectory;
}

function moveTo(sim: RobotSimulation, position: Vec3, options: ExecuteOptions = {}): void {
  const started = sim.execute(plan(sim, position), options);
  assert.ok(started.ok, `execute: ${started.ok ? '' : started.message}`);
  assert.equal(sim.runUntilSettled(), true);
  assert.equal(sim.state, 'idle');
  const tcp = sim.tcp;
  assert.ok(Math.hypot(tcp.x - position.x, tcp.y - position.y, tcp.z - position.z) < 0.05, 'arrived');
}

test('starts idle at the home pose with settled sensor filters and the default scene', () => {
  const sim = createRobotSimulation();
  const status = sim.status();
  assert.equal(status.state, 'idle');
  assert.equal(status.presetId, 'ur5e');
  assert.equal(status.timeMs, 0);
  assert.deepEqual(status.jointsDeg, [0, -90, 90, -90, -90, 0]);
  assert.deepEqual(sim.objects().map((o) => o.id), ['cup-1', 'egg-1', 'block-1', 'bottle-1', 'tray-1']);
  const ft = sim.readForceTorque();
  assert.equal(ft.filter, 'kalman');
  assert.ok(Math.abs(ft.values.Fz!) < 1, 'no load, no contact');
});

test('pick and place: the cup is carried, its weight shows on the F/T sensor, and it is set down where the arm left it', () => {
  const sim = createRobotSimulation({ seed: 3 });
  moveTo(sim, { x: -420, y: -220, z: 200 });
  const lowerBlocked = sim.execute(plan(sim, { x: -420, y: -220, z: 70 }));
  assert.ok(!lowerBlocked.ok && lowerBlocked.code === 'collision', 'lowering onto the cup needs the cup named as the grasp target');
  moveTo(sim, { x: -420, y: -220, z: 70 }, { contactAllowedWith: ['cup-1'] });
  const grasp = sim.grasp({ forceN: 15 });
  assert.ok(grasp.ok);
  assert.equal(sim.heldObjectId, 'cup-1');
  sim.advance(500);
  const weight = sim.readForceTorque({ filter: 'moving_average', axes: ['Fz'] });
  assert.deepEqual(Object.keys(weight.values), ['Fz']);
  assert.ok(Math.abs(weight.values.Fz! + 0.3 * 9.81) < 0.5, `Fz ${weight.values.Fz}`);
  moveTo(sim, { x: -350, y: 0, z: 200 });
  assert.ok(Math.hypot(sim.objects()[0]!.position.x + 350, sim.objects()[0]!.position.y) < 0.1, 'the cup moved with the gripper');
  moveTo(sim, { x: -350, y: 0, z: 75 });
  const released = sim.release();
  assert.ok(released.ok);
  assert.equal(released.objectId, 'cup-1');
  assert.ok(Math.abs(released.dropHeightMm - 5) < 0.01 && !released.broke);
  const cup = sim.objects().find((o) => o.id === 'cup-1')!;
  assert.ok(Math.hypot(cup.position.x + 350, cup.position.y, cup.position.z - 50) < 0.1);
  assert.equal(cup.held, false);
  const seen = sim.captureCamera().find((d) => d.id === 'cup-1')!;
  assert.ok(Math.hypot(seen.position.x + 350, seen.position.y) < 10);
  sim.advance(200);
  assert.ok(Math.abs(sim.readForceTorque().values.Fz!) < 1, 'weight gone after release');
});

test('too much force on the egg is refused before contact; a release that would drop it from high is refused and it stays held', () => {
  const sim = createRobotSimulation();
  moveTo(sim, { x: -330, y: -380, z: 150 });
  moveTo(sim, { x: -330, y: -380, z: 22.5 + 5 }, { contactAllowedWith: ['egg-1'] });
  const refused = sim.grasp({ forceN: 15 });
  assert.ok(!refused.ok && refused.code === 'force_above_object_limit');
  assert.equal(sim.objects().find((o) => o.id === 'egg-1')!.condition, 'intact', 'nothing touched it');
  assert.equal(sim.heldObjectId, null);
  assert.ok(sim.grasp({ forceN: 6 }).ok);
  moveTo(sim, { x: -330, y: -380, z: 150 });
  const dropped = sim.release();
  assert.ok(!dropped.ok && dropped.code === 'drop_too_high', JSON.stringify(dropped));
  assert.match(dropped.message, /egg-1 would fall 122\.5 mm; releases may drop an object at most 50 mm/);
  assert.equal(sim.heldObjectId, 'egg-1');
  assert.equal(sim.objects().find((o) => o.id === 'egg-1')!.condition, 'intact');
});

test('pressing on the tray shows a contact force; above the protective limit the arm faults and refuses motion until an operator clears it', () => {
  const sim = createRobotSimulation({ seed: 8 });
  moveTo(sim, { x: -510, y: 370, z: 350 });
  moveTo(sim, { x: -510, y: 370, z: 120 });
  moveTo(sim, { x: -510, y: 370, z: 21 }, { contactAllowedWith: ['tray-1'] });
  sim.advance(300);
  assert.ok(Math.abs(sim.trueWrench().Fz - 12) < 0.05, `fingertips 4 mm into the tray at 3 N/mm: Fz ${sim.trueWrench().Fz}`);
  assert.ok(Math.abs(sim.readForceTorque().values.Fz! - 12) < 1);
  assert.deepEqual(sim.status().contacts.map((c) => c.obstacle), ['tray-1']);

  const strict = createRobotSimulation({ protectiveStopForceN: 10 });
  moveTo(strict, { x: -510, y: 370, z: 350 });
  moveTo(strict, { x: -510, y: 370, z: 120 });
  const started = strict.execute(plan(strict, { x: -510, y: 370, z: 21 }), { contactAllowedWith: ['tray-1'] });
  assert.ok(started.ok);
  strict.runUntilSettled();
  assert.equal(strict.state, 'fault');
  const fault = strict.status().fault!;
  assert.equal(fault.code, 'protective_stop');
  assert.match(fault.message, /^protective stop: contact force 1\d\.\d N exceeded 10 N \(tray-1\)$/);
  assert.ok(strict.tcp.z > 20 && strict.tcp.z < 25, 'halted as soon as the force passed the limit');
  const refused = strict.execute(plan(strict, { x: -510, y: 370, z: 120 }));
  assert.deepEqual(refused.ok ? null : [refused.code, refused.message], ['fault', fault.message]);
  strict.operatorClearFault();
  assert.equal(strict.state, 'idle');
  // Backing away from a surface the gripper is touching must name that surface, like approaching it.
  const retreatBlocked = strict.execute(plan(strict, { x: -510, y: 370, z: 120 }));
  assert.ok(!retreatBlocked.ok && retreatBlocked.code === 'collision');
  assert.ok(strict.execute(plan(strict, { x: -510, y: 370, z: 120 }), { contactAllowedWith: ['tray-1'] }).ok);
});

test('only one motion at a time: execute, grasp and release are refused while moving or stopping', () => {
  const sim = createRobotSimulation();
  const first = plan(sim, { x: -400, y: 0, z: 300 });
  assert.ok(sim.execute(first).ok);
  sim.advance(100);
  const busy = sim.execute(first);
  assert.deepEqual(busy.ok ? null : [busy.code, busy.message], ['busy', 'a motion (motion-1) is running; wait for it or stop it']);
  const grasp = sim.grasp({ forceN: 15 });
  assert.ok(!grasp.ok && grasp.code === 'busy');
  sim.stop();
  assert.equal(sim.state, 'stopping');
  const release = sim.release();
  assert.ok(!release.ok && release.code === 'busy');
});

test('plans are checked again at execute time: stale start, foreign object, other arm, envelope, collision', () => {
  const sim = createRobotSimulation();
  const stale = plan(sim, { x: -400, y: 0, z: 300 });
  moveTo(sim, { x: -420, y: -100, z: 300 });
  const staleResult = sim.execute(stale);
  assert.ok(!staleResult.ok && staleResult.code === 'stale_start');
  assert.match(staleResult.message, /^the plan starts \d+\.\d{3}° away from the arm's current joints; plan again from the current position$/);

  // A trajectory as it would arrive from outside (JSON): every field, but not built by the planner.
  const forged: Trajectory = JSON.parse(JSON.stringify({ ...stale, presetId: 'ur5e' }));
  const forgedResult = sim.execute(forged);
  assert.deepEqual(forgedResult.ok ? null : [forgedResult.code, forgedResult.message], ['not_a_plan', 'only trajectories built by the planner can be executed']);

  const xarm = planJointMotion(XARM6, motionLimitsOf(XARM6), XARM6.homeDeg, [10, 0, 0, 0, 0, 0]);
  assert.ok(xarm.ok);
  const wrongArm = sim.execute(xarm.trajectory);
  assert.deepEqual(wrongArm.ok ? null : [wrongArm.code, wrongArm.message], ['wrong_arm', 'the plan is for preset xarm6, but this arm is ur5e']);

  const low = sim.execute(plan(sim, { x: -420, y: -100, z: 10 }));
  assert.ok(!low.ok && low.code === 'outside_envelope');
  assert.match(low.message, /^at t = \d+\.\d{3} s: TCP z would be 19\.\d+ mm; it must stay at least 20 mm above the table \(z >= 20 mm\)$/);
  assert.equal(low.envelope!.violations[0]!.code, 'below_table_clearance');

  const intoBottle = sim.execute(plan(sim, { x: -200, y: 420, z: 150 }));
  assert.ok(!intoBottle.ok && intoBottle.code === 'collision');
  assert.equal(intoBottle.collision!.obstacle, 'bottle-1');
  assert.deepEqual(sim.status().state, 'idle', 'refusals leave the arm idle');
});

test('emergency stop freezes the arm at once and latches until an operator resets it', () => {
  const sim = createRobotSimulation();
  assert.ok(sim.execute(plan(sim, { x: -400, y: 0, z: 300 })).ok);
  sim.advance(400);
  const frozen = sim.jointsDeg;
  sim.emergencyStop();
  assert.equal(sim.state, 'estop');
  sim.advance(2000);
  assert.deepEqual(sim.jointsDeg, frozen);
  assert.equal(sim.status().tcpSpeedMmS, 0);
  const refused = sim.execute(plan(sim, { x: -400, y: 0, z: 300 }));
  assert.deepEqual(refused.ok ? null : [refused.code, refused.message], ['estop_latched', 'emergency stop is latched; an operator must reset it']);
  const grasp = sim.grasp({ forceN: 10 });
  assert.ok(!grasp.ok && grasp.code === 'estop_latched');
  assert.deepEqual(sim.stop(), { wasMoving: false, stoppingTimeS: 0, stoppingDistanceMm: 0, state: 'estop' }, 'stop is accepted and changes nothing');
  sim.operatorResetEmergencyStop();
  assert.equal(sim.state, 'idle');
  assert.ok(sim.execute(plan(sim, { x: -400, y: 0, z: 300 })).ok, 'the old motion is gone; a fresh plan runs');
});

test('stop always wins: from any moment of a motion the arm halts within the forecast time, on the planned path, within the caps, and stays halted', () => {
  const start = createRobotSimulation();
  const trajectory = plan(start, { x: -300, y: -300, z: 150 });
  const limits = motionLimitsOf(start.preset);
  fc.assert(fc.property(fc.double({ min: 0, max: 1, noNaN: true }), fc.integer({ min: 1, max: 3 }), (fraction, extraStops) => {
    const sim = createRobotSimulation();
    assert.ok(sim.execute(trajectory).ok);
    sim.advance(Math.floor((fraction * trajectory.durationS * 1000) / 4) * 4);
    const report = sim.stop();
    assert.ok(report.stoppingTimeS <= 0.3, `stopping time ${report.stoppingTimeS} s`);
    for (let i = 0; i < extraStops; i++) {
      const again = sim.stop();
      assert.ok(again.stoppingTimeS <= report.stoppingTimeS + 1e-9, 'a second stop never extends the first');
    }
    const stepsAllowed = Math.ceil((report.stoppingTimeS * 1000) / 4) + 1;
    let previous = sim.status();
    for (let i = 0; i < stepsAllowed && sim.state === 'stopping'; i++) {
      sim.step();
      const now = sim.status();
      now.jointVelocitiesDegS.forEach((v, j) => assert.ok(Math.abs(v) <= limits.joints[j]!.maxVelocityDegS + 1e-6));
      assert.ok(now.tcpSpeedMmS <= previous.tcpSpeedMmS + 1e-6 || previous.tcpSpeedMmS === 0, 'the TCP only slows down');
      previous = now;
    }
    assert.equal(sim.state, 'idle', 'halted within the forecast');
    const halted = sim.jointsDeg;
    sim.advance(500);
    assert.deepEqual(sim.jointsDeg, halted, 'stays halted');
    // Still on the straight line from the start of the motion to its goal.
    const a = trajectory.samples[0]!.tcp, b = trajectory.samples.at(-1)!.tcp, p = sim.tcp;
    const d = { x: b.x - a.x, y: b.y - a.y, z: b.z - a.z };
    const len = Math.hypot(d.x, d.y, d.z);
    const v = { x: p.x - a.x, y: p.y - a.y, z: p.z - a.z };
    const along = (v.x * d.x + v.y * d.y + v.z * d.z) / len;
    assert.ok(Math.sqrt(Math.max(0, v.x ** 2 + v.y ** 2 + v.z ** 2 - along ** 2)) < 0.1, 'stopped on the planned path');
    assert.ok(along >= -1e-6 && along <= len + 1e-6);
  }), { numRuns: 40, seed: 99 });
});

test('stop when idle is a harmless no-op', () => {
  const sim = createRobotSimulation();
  assert.deepEqual(sim.stop(), { wasMoving: false, stoppingTimeS: 0, stoppingDistanceMm: 0, state: 'idle' });
  assert.equal(sim.state, 'idle');
});

test('the same seed and the same calls reproduce the same run exactly', () => {
  const run = (seed: number): unknown => {
    const sim = createRobotSimulation({ seed });
    const waypoints: CartesianTarget[] = [{ position: { x: -420, y: -220, z: 200 } }, { position: { x: -420, y: -220, z: 70 } }];
    const p = sim.planWaypoints(waypoints, { speedFraction: 0.8 });
    assert.ok(p.ok);
    assert.ok(sim.execute(p.trajectory, { contactAllowedWith: ['cup-1'] }).ok);
    sim.runUntilSettled();
    sim.grasp({ forceN: 12 });
    sim.advance(123);
    return { status: sim.status(), ft: sim.readForceTorque({ filter: 'raw' }), history: sim.forceTorqueHistory(100), camera: sim.captureCamera() };
  };
  assert.deepEqual(run(42), run(42));
  assert.notDeepEqual(run(42), run(43));
});

test('invalid configuration and requests are refused with clear errors', () => {
  assert.throws(() => createRobotSimulation({ initialJointsDeg: [0, 0, 0, 0, 0, 0] }), { name: 'RangeError', message: 'initial pose is outside the workspace envelope: TCP would be 855.6 mm from the shoulder centre (0, 0, 162.5) mm; the reach sphere allows at most 800 mm' });
  assert.throws(() => createRobotSimulation({ initialJointsDeg: [0, -90, 90, -90, -90, 400] }), { name: 'RangeError', message: 'initial joint 6 is 400°, outside its range [-180, 180]°' });
  assert.throws(() => createRobotSimulation({ preset: 'kuka' as 'ur5e' }), { name: 'RangeError', message: 'unknown arm preset "kuka"; expected one of: ur5e, xarm6' });
  assert.throws(() => createRobotSimulation({ protectiveStopForceN: Number.NaN }), { name: 'RangeError', message: 'protectiveStopForceN must be a finite number >= 0, got NaN' });
  const sim = createRobotSimulation();
  assert.throws(() => sim.readForceTorque({ filter: 'median' as 'raw' }), { name: 'RangeError', message: 'filter must be raw, kalman or moving_average, got median' });
  assert.throws(() => sim.readForceTorque({ axes: ['Fq' as 'Fx'] }), { name: 'RangeError', message: 'unknown force/torque axis Fq; expected Fx, Fy, Fz, Mx, My, Mz' });
  assert.throws(() => sim.advance(Number.POSITIVE_INFINITY), { name: 'RangeError', message: 'advance needs a finite, non-negative number of ms, got Infinity' });
  const release = sim.release();
  assert.deepEqual(release, { ok: false, code: 'not_holding', message: 'the gripper holds nothing' });
});

test('the xArm 6 preset runs the same way with its own mirrored scene', () => {
  const sim = createRobotSimulation({ preset: 'xarm6' });
  assert.equal(sim.preset.id, 'xarm6');
  assert.deepEqual(sim.objects()[0]!.position, { x: 420, y: 220, z: 50 });
  moveTo(sim, { x: 420, y: 220, z: 200 });
  moveTo(sim, { x: 420, y: 220, z: 70 }, { contactAllowedWith: ['cup-1'] });
  assert.ok(sim.grasp({ forceN: 15 }).ok);
});

test('a controlled stop brakes as hard as the caps allow, also on a long, gently accelerating quintic move', () => {
  const sim = createRobotSimulation();
  const plan = sim.planJointMotion([120, -90, 90, -90, -90, 0], { timeScaling: 'quintic', speedFraction: 1 });
  assert.ok(plan.ok);
  assert.ok(plan.trajectory.durationS > 3, `duration ${plan.trajectory.durationS}`);
  assert.ok(sim.execute(plan.trajectory).ok);
  sim.advance(Math.round((plan.trajectory.durationS * 1000) / 2 / 4) * 4);
  const speedBefore = Math.abs(sim.status().jointVelocitiesDegS[0]!);
  assert.ok(speedBefore > 20, `base joint at ${speedBefore}°/s`);
  const report = sim.stop();
  // With the quintic's own (gentle) peak deceleration this stop would take over 2 s; the caps allow about 0.25 s.
  assert.ok(report.stoppingTimeS <= 0.25, `stopping time ${report.stoppingTimeS} s`);
  let previous = sim.status().jointVelocitiesDegS;
  while (sim.state === 'stopping') {
    sim.step();
    const now = sim.status().jointVelocitiesDegS;
    now.forEach((v, j) => {
      const accel = Math.abs(v - previous[j]!) / 0.004;
      assert.ok(accel <= sim.limits.joints[j]!.maxAccelerationDegS2 * 1.01, `joint ${j + 1} decelerates at ${accel}°/s²`);
    });
    previous = now;
  }
  assert.equal(sim.state, 'idle');
  assert.ok(sim.nowMs / 1000 <= plan.trajectory.durationS / 2 + report.stoppingTimeS + 0.008);
});
