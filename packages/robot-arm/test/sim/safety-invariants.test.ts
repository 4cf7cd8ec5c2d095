import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { checkArmCollision } from '../../sim/collision-check.js';
import { createRobotSimulation, type RobotSimulation } from '../../driver/robot-simulation.js';
import { checkPose } from '../../sim/workspace-envelope.js';

const hostileNumber = fc.oneof(
  fc.double({ min: -1200, max: 1200, noNaN: true }),
  fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 1e308, -0, 0),
);

const objectIds = ['cup-1', 'egg-1', 'block-1', 'bottle-1', 'tray-1', 'table', 'robot_base'];

const command = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('move_pose' as const),
      x: hostileNumber, y: hostileNumber, z: hostileNumber,
      path: fc.constantFrom('linear' as const, 'joint' as const),
      speedFraction: fc.oneof(fc.double({ min: 0.1, max: 1, noNaN: true }), fc.constantFrom(0, 1.5, Number.NaN)),
      contact: fc.subarray(objectIds),
      settle: fc.boolean(),
    }),
  },
  {
    // Targets in the part of the table the arm works on, so that many motions really run.
    weight: 8,
    arbitrary: fc.record({
      kind: fc.constant('move_pose' as const),
      x: fc.noBias(fc.double({ min: -650, max: -200, noNaN: true })), y: fc.noBias(fc.double({ min: -450, max: 450, noNaN: true })), z: fc.noBias(fc.double({ min: 10, max: 450, noNaN: true })),
      path: fc.constantFrom('linear' as const, 'joint' as const),
      speedFraction: fc.double({ min: 0.1, max: 1, noNaN: true }),
      contact: fc.subarray(objectIds),
      settle: fc.boolean(),
    }),
  },
  {
    // Near the objects, so that grasps and contacts really happen.
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('move_near_object' as const),
      object: fc.constantFrom('cup-1', 'egg-1', 'block-1', 'tray-1'),
      dz: fc.noBias(fc.double({ min: -10, max: 120, noNaN: true })),
      contact: fc.boolean(),
      settle: fc.boolean(),
    }),
  },
  {
    // Go to an object's grasp height and close the gripper with a random force and strategy.
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('pick' as const),
      object: fc.constantFrom('cup-1', 'egg-1', 'block-1', 'bottle-1'),
      forceN: fc.noBias(fc.double({ min: 5, max: 30, noNaN: true })),
      strategy: fc.constantFrom('parallel' as const, 'adaptive' as const),
    }),
  },
  {
    // Start a motion and stop it part-way.
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('move_then_stop' as const),
      x: fc.noBias(fc.double({ min: -600, max: -250, noNaN: true })), y: fc.noBias(fc.double({ min: -400, max: 400, noNaN: true })), z: fc.noBias(fc.double({ min: 60, max: 450, noNaN: true })),
      fraction: fc.noBias(fc.double({ min: 0, max: 1, noNaN: true })),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('move_joints' as const), joints: fc.array(hostileNumber, { minLength: 6, maxLength: 6 }) }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('advance' as const), ms: fc.integer({ min: 0, max: 1500 }) }) },
  { weight: 2, arbitrary: fc.constant({ kind: 'stop' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'estop' as const }) },
  { weight: 2, arbitrary: fc.constant({ kind: 'operator_reset' as const }) },
  { weight: 2, arbitrary: fc.constant({ kind: 'operator_clear_fault' as const }) },
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('grasp' as const), forceN: fc.oneof(fc.noBias(fc.double({ min: 0, max: 40, noNaN: true })), fc.constant(Number.NaN)), strategy: fc.constantFrom('parallel' as const, 'suction' as const, 'adaptive' as const) }) },
  { weight: 2, arbitrary: fc.constant({ kind: 'release' as const }) },
);

type Command = typeof command extends fc.Arbitrary<infer T> ? T : never;

/** Every physical invariant the simulator promises, checked after every clock step. */
function checkInvariants(sim: RobotSimulation, previousJoints: readonly number[], previousState: string): void {
  const status = sim.status();
  status.jointsDeg.forEach((v, j) => {
    const lim = sim.limits.joints[j]!;
    assert.ok(Number.isFinite(v) && v >= lim.minDeg - 1e-6 && v <= lim.maxDeg + 1e-6, `joint ${j + 1} at ${v}°`);
    assert.ok(Math.abs(status.jointVelocitiesDegS[j]!) <= lim.maxVelocityDegS * 1.001, `joint ${j + 1} speed ${status.jointVelocitiesDegS[j]}`);
  });
  assert.ok(status.tcpSpeedMmS <= sim.limits.maxTcpSpeedMmS * 1.001, `TCP speed ${status.tcpSpeedMmS}`);
  const pose = checkPose(sim.envelope, status.tcp);
  assert.ok(pose.ok, `left the envelope: ${pose.violations.map((v) => v.message).join('; ')}`);
  const world = sim.collisionWorld();
  // Links and a carried object must never touch anything; only the gripper (tool) may touch objects.
  const hit = checkArmCollision(sim.preset, world, status.jointsDeg, { marginMm: 0, toolContactObjectIds: world.objects.map((o) => o.id), held: sim.heldObject() });
  assert.equal(hit, null, `collision: ${JSON.stringify(hit)}`);
  const contactN = status.contacts.reduce((s, c) => s + c.forceN, 0);
  // The protective stop fires within one 4 ms step; at 250 mm/s and 3 N/mm that adds at most 3 N.
  assert.ok(contactN <= 40 + 3.01, `contact force ${contactN} N`);
  if (previousState === 'estop' || previousState === 'fault' || previousState === 'idle') {
    assert.deepEqual(status.jointsDeg, previousJoints, `moved while ${previousState}`);
  }
}

function stepChecked(sim: RobotSimulation, ms: number): void {
  for (let t = 0; t < ms; t += 4) {
    const joints = sim.jointsDeg;
    const state = sim.state;
    sim.step();
    checkInvariants(sim, joints, state);
  }
}

/** What actually happened across all runs, so the property cannot pass by doing nothing. */
const activity = { motions: 0, stopsWhileMoving: 0, grasps: 0, estops: 0 };

/** Counts a started motion and, if asked, plays it to the end (checking every step). */
function execute(sim: RobotSimulation, result: ReturnType<RobotSimulation['execute']>, settle: boolean): void {
  if (!result.ok) return;
  activity.motions++;
  if (settle) stepChecked(sim, Math.ceil(result.durationS * 1000 / 4) * 4 + 8);
}

function run(sim: RobotSimulation, c: Command): void {
  switch (c.kind) {
    case 'move_pose': {
      const plan = sim.planToPose({ position: { x: c.x, y: c.y, z: c.z } }, { path: c.path, speedFraction: c.speedFraction });
      if (plan.ok) execute(sim, sim.execute(plan.trajectory, { contactAllowedWith: c.contact }), c.settle);
      return;
    }
    case 'move_near_object': {
      const o = sim.objects().find((x) => x.id === c.object)!;
      const plan = sim.planToPose({ position: { x: o.position.x, y: o.position.y, z: o.position.z + c.dz } });
      if (plan.ok) execute(sim, sim.execute(plan.trajectory, c.contact ? { contactAllowedWith: [c.object] } : {}), c.settle);
      return;
    }
    case 'pick': {
      const o = sim.objects().find((x) => x.id === c.object)!;
      const top = o.position.z + (o.shape === 'sphere' ? o.sizeMm.x : o.sizeMm.z) / 2;
      const z = Math.max(sim.envelope.tableZMm + sim.envelope.tableClearanceMm + 1, top - 15);
      const above = sim.planToPose({ position: { x: o.position.x, y: o.position.y, z: z + 100 } });
      if (above.ok) execute(sim, sim.execute(above.trajectory), true);
      const down = sim.planToPose({ position: { x: o.position.x, y: o.position.y, z } });
      if (down.ok) execute(sim, sim.execute(down.trajectory, { contactAllowedWith: [o.id] }), true);
      if (sim.grasp({ forceN: c.forceN, strategy: c.strategy }).ok) activity.grasps++;
      return;
    }
    case 'move_then_stop': {
      const plan = sim.planToPose({ position: { x: c.x, y: c.y, z: c.z } });
      if (!plan.ok) return;
      const started = sim.execute(plan.trajectory);
      if (!started.ok) return;
      activity.motions++;
      stepChecked(sim, Math.floor((c.fraction * started.durationS * 1000) / 4) * 4);
      run(sim, { kind: 'stop' });
      return;
    }
    case 'move_joints': {
      const plan = sim.planJointMotion(c.joints);
      if (plan.ok) execute(sim, sim.execute(plan.trajectory), true);
      return;
    }
    case 'advance': stepChecked(sim, c.ms); return;
    case 'stop': {
      const before = sim.state;
      const report = sim.stop();
      if (before === 'moving' || before === 'stopping') {
        activity.stopsWhileMoving++;
        stepChecked(sim, Math.ceil((report.stoppingTimeS * 1000) / 4) * 4 + 4);
        assert.ok(sim.state !== 'moving' && sim.state !== 'stopping', `still ${sim.state} after the forecast stopping time`);
      }
      return;
    }
    case 'estop': sim.emergencyStop(); activity.estops++; return;
    case 'operator_reset': sim.operatorResetEmergencyStop(); return;
    case 'operator_clear_fault': sim.operatorClearFault(); return;
    case 'grasp': if (sim.grasp({ forceN: c.forceN, strategy: c.strategy }).ok) activity.grasps++; return;
    case 'release': sim.release(); return;
  }
}

test('no sequence of commands, hostile ones included, makes the arm leave the envelope, exceed a limit, collide or move while stopped', () => {
  fc.assert(fc.property(fc.array(command, { minLength: 1, maxLength: 12 }), fc.integer({ min: 0, max: 1000 }), (commands, seed) => {
    const sim = createRobotSimulation({ seed });
    for (const c of commands) {
      run(sim, c);
      stepChecked(sim, 40);
    }
    sim.stop();
    stepChecked(sim, 400);
    assert.ok(sim.state !== 'moving' && sim.state !== 'stopping');
  }), { numRuns: 25, seed: 20261130 });
  assert.ok(activity.motions >= 20 && activity.stopsWhileMoving >= 3 && activity.estops >= 1 && activity.grasps >= 3, `too little happened: ${JSON.stringify(activity)}`);
});
