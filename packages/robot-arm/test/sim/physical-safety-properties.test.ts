/**
 * Property tests that would have found issue 12: random and adversarial commands, with every property
 * checked on the simulator's ground truth after every 4 ms tick (link-to-link and body-to-world
 * distances by brute-force point sampling, object states, applied force, acceleration as the change of
 * velocity over the tick), never on the planner's own verdict. Fixed seeds; sized for a 2-core CI
 * (a few hundred cases in all).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ARM_PRESETS, type ArmPreset } from '../../sim/arm-presets.js';
import { armCapsules, selfCollisionPairs, type Capsule } from '../../sim/arm-capsules.js';
import { heldPose } from '../../sim/held-object-shape.js';
import { tcpFrameRad } from '../../sim/forward-kinematics.js';
import { signedDistance } from '../../sim/obstacle-geometry.js';
import { createRobotSimulation, type RobotSimulation } from '../../driver/robot-simulation.js';
import { heightOf, obstacleOf, type SceneObjectState } from '../../sim/scene-objects.js';
import { add, distance, lerp, scale, type Vec3 } from '../../sim/vector3.js';
import { apply } from '../../sim/rotation.js';

const POINTS = 12;

/** Smallest surface gap between two capsules by point sampling, ignoring points inside the pair's joint housings. */
function sampledGap(a: Capsule, b: Capsule, housings: ReadonlyArray<{ center: Vec3; radiusMm: number }>): number {
  const pointsOf = (c: Capsule): Vec3[] => Array.from({ length: POINTS + 1 }, (_, i) => lerp(c.a, c.b, i / POINTS)).filter((p) => housings.every((h) => distance(p, h.center) >= h.radiusMm));
  let best = Number.POSITIVE_INFINITY;
  for (const p of pointsOf(a)) for (const q of pointsOf(b)) best = Math.min(best, distance(p, q) - a.radiusMm - b.radiusMm);
  return best;
}

/** Ground truth for one configuration: no two links touch, no moving link is below the table. */
function assertArmClear(preset: ArmPreset, jointsDeg: readonly number[], where: string): void {
  const caps = armCapsules(preset, jointsDeg);
  for (const pair of selfCollisionPairs(preset).pairs) {
    const housings = pair.housings.map((h) => ({ center: caps[h.capsule]!.b, radiusMm: h.radiusMm }));
    const gap = sampledGap(caps[pair.first]!, caps[pair.second]!, housings);
    assert.ok(gap >= 0, `${where}: ${caps[pair.first]!.link} and ${caps[pair.second]!.link} overlap by ${(-gap).toFixed(1)} mm at [${jointsDeg.map((q) => q.toFixed(1))}]`);
  }
  for (const c of caps) {
    if (c.mountedOnBase) continue;
    assert.ok(Math.min(c.a.z, c.b.z) - c.radiusMm >= 0, `${where}: ${c.link} below the table`);
  }
}

/** Runs a started motion to the end, calling `check` after every tick. */
function runChecked(sim: RobotSimulation, check: () => void, maxTicks = 20_000): void {
  for (let i = 0; i < maxTicks && (sim.state === 'moving' || sim.state === 'stopping'); i++) {
    sim.step();
    check();
  }
  assert.ok(sim.state !== 'moving' && sim.state !== 'stopping', 'motion ended');
}

/**
 * Joint targets that keep the upper arm above the table (most uniform samples would drive it straight
 * into the table and be refused, which tests nothing); `folded` pushes the elbow and the wrist to their limits.
 */
function upperHalfTargets(preset: ArmPreset, folded: boolean): fc.Arbitrary<number[]> {
  const range = (j: number, lo: number, hi: number): fc.Arbitrary<number> => {
    const l = preset.joints[j]!;
    return fc.double({ min: Math.max(l.minDeg, lo), max: Math.min(l.maxDeg, hi), noNaN: true });
  };
  const edge = (j: number): fc.Arbitrary<number> => {
    const l = preset.joints[j]!;
    const lo = Math.max(l.minDeg, -180), hi = Math.min(l.maxDeg, 180);
    return fc.oneof(fc.double({ min: lo, max: lo + 35, noNaN: true }), fc.double({ min: hi - 35, max: hi, noNaN: true }));
  };
  const shoulder = preset.id === 'ur5e' ? range(1, -150, -30) : range(1, -60, 60);
  // A stretched elbow mostly leaves the reach sphere; bent ones stay inside it.
  const elbow = folded ? edge(2) : preset.id === 'ur5e' ? fc.oneof(range(2, -150, -50), range(2, 50, 150)) : range(2, -150, -20);
  const wrist = folded ? edge(4) : range(4, -150, 150);
  return fc.tuple(range(0, -120, 120), shoulder, elbow, range(3, -180, 180), wrist, range(5, -180, 180)).map((q) => [...q]);
}

for (const preset of Object.values(ARM_PRESETS)) {
  test(`${preset.id}: random and folded joint-space targets never bring two links or a link and the table into contact`, () => {
    let executed = 0;
    const uniform = upperHalfTargets(preset, false);
    // Adversarial: the elbow and the wrist folded towards their limits.
    const folded = upperHalfTargets(preset, true);
    fc.assert(fc.property(fc.oneof(uniform, folded), (goal) => {
      const sim = createRobotSimulation({ preset: preset.id, objects: [] });
      const plan = sim.planJointMotion(goal, { speedFraction: 1 });
      if (!plan.ok || !sim.execute(plan.trajectory).ok) return;
      executed++;
      runChecked(sim, () => assertArmClear(preset, sim.jointsDeg, `${preset.id} tick ${sim.nowMs} ms`));
    }), { numRuns: 30, seed: 1202 });
    assert.ok(executed >= 3, `only ${executed} of 30 targets were executed: the property would be vacuous`);
  });
}

/** Moves the TCP (tool down) to a point and waits; asserts it worked (test setup). */
function moveTo(sim: RobotSimulation, p: Vec3, contactAllowedWith: readonly string[] = []): void {
  const plan = sim.planToPose({ position: p }, { path: 'joint', speedFraction: 1 });
  assert.ok(plan.ok, `setup: plan to ${JSON.stringify(p)}: ${!plan.ok ? plan.message : ''}`);
  const started = sim.execute(plan.trajectory, { contactAllowedWith });
  assert.ok(started.ok, `setup: execute to ${JSON.stringify(p)}: ${!started.ok ? started.message : ''}`);
  sim.runUntilSettled();
}

/** Points on the surface of the held object (rims and faces), base frame, from the simulator's own state. */
function heldSurface(sim: RobotSimulation): Vec3[] {
  const held = sim.heldObject()!;
  const pose = heldPose(tcpFrameRad(sim.preset, sim.jointsDeg.map((d) => (d * Math.PI) / 180)), held);
  const o = held.object;
  const local: Vec3[] = [];
  const h = heightOf(o) / 2;
  if (o.shape === 'box') {
    for (const sx of [-1, 1]) for (const sy of [-1, 1]) for (const sz of [-1, 1]) local.push({ x: (sx * o.sizeMm.x) / 2, y: (sy * o.sizeMm.y) / 2, z: sz * h });
  } else {
    const r = o.sizeMm.x / 2;
    for (let k = 0; k < 24; k++) {
      const a = (k / 24) * 2 * Math.PI;
      for (const z of o.shape === 'sphere' ? [0] : [-h, h]) local.push({ x: r * Math.cos(a) * (o.shape === 'sphere' ? 1 : 1), y: r * Math.sin(a), z });
    }
    if (o.shape === 'sphere') local.push({ x: 0, y: 0, z: -r }, { x: 0, y: 0, z: r });
  }
  return local.map((p) => add(pose.center, apply(pose.rotation, p)));
}

test('ur5e: a held cup moved to random orientations never goes into the table or another object', () => {
  const sim = createRobotSimulation({ seed: 3 });
  const cup = sim.objects().find((o) => o.id === 'cup-1')!;
  moveTo(sim, { ...cup.position, z: 160 });
  moveTo(sim, { ...cup.position, z: 60 }, ['cup-1']);
  assert.ok(sim.grasp({ forceN: 12 }).ok);
  let executed = 0;
  const step = fc.record({
    dx: fc.double({ min: -80, max: 80, noNaN: true }), dy: fc.double({ min: -80, max: 80, noNaN: true }), z: fc.double({ min: 40, max: 260, noNaN: true }),
    roll: fc.double({ min: 120, max: 240, noNaN: true }), pitch: fc.double({ min: -60, max: 60, noNaN: true }),
  });
  fc.assert(fc.property(step, (s) => {
    const tcp = sim.tcp;
    const plan = sim.planToPose({ position: { x: tcp.x + s.dx, y: tcp.y + s.dy, z: s.z }, orientation: { kind: 'rpy', rpyDeg: { rollDeg: s.roll, pitchDeg: s.pitch, yawDeg: tcp.yawDeg } } }, { speedFraction: 1, path: 'joint' });
    if (!plan.ok || !sim.execute(plan.trajectory).ok) return;
    executed++;
    const others = sim.objects().filter((o) => !o.held).map((o) => obstacleOf(o));
    runChecked(sim, () => {
      for (const p of heldSurface(sim)) {
        // The cup started on the table (lift-off): it may touch it, never sink into it.
        assert.ok(p.z >= -0.05, `held cup point at z = ${p.z.toFixed(2)} mm, t = ${sim.nowMs} ms`);
        for (const o of others) assert.ok(signedDistance(o, p) >= 0, `held cup inside ${o.id} at t = ${sim.nowMs} ms`);
      }
    });
  }), { numRuns: 30, seed: 1203 });
  assert.ok(executed >= 5, `only ${executed} of 30 moves executed`);
});

test('every scene object, every strategy, default and extreme forces: nothing is ever broken and the applied force never exceeds the object\'s limit or the command', () => {
  for (const preset of Object.values(ARM_PRESETS)) {
    const sim = createRobotSimulation({ preset: preset.id });
    const g = preset.gripper;
    for (const target of sim.objects()) {
      const top = target.position.z + heightOf(target) / 2;
      const at = { x: target.position.x, y: target.position.y, z: Math.max(target.position.z, top - 45, 21) };
      moveTo(sim, { ...at, z: top + 80 });
      moveTo(sim, at, [target.id]);
      const limit = target.maxGripForceN;
      const forces = [g.minForceN, g.maxForceN, g.defaultForceN, ...(limit !== null ? [limit, Math.min(g.maxForceN, limit + 0.5)] : [])];
      for (const strategy of ['parallel', 'adaptive', 'suction'] as const) {
        for (const forceN of forces) {
          const suctionAt = strategy === 'suction' ? top : null;
          if (suctionAt !== null && Math.abs(sim.tcp.z - suctionAt) > 5) continue;
          const outcome = sim.grasp({ forceN, strategy });
          const now = sim.objects().find((o) => o.id === target.id)!;
          assert.equal(now.condition, 'intact', `${preset.id} ${target.id} ${strategy} ${forceN} N broke it`);
          if (outcome.ok) {
            assert.ok(outcome.appliedForceN <= forceN + 1e-9, 'never above the command');
            assert.ok(limit === null || outcome.appliedForceN <= limit, `${target.id}: ${outcome.appliedForceN} N above its ${limit} N`);
            assert.ok(outcome.appliedForceN <= g.maxForceN);
            const released = sim.release();
            assert.ok(released.ok, `release on the spot: ${JSON.stringify(released)}`);
          }
        }
      }
      moveTo(sim, { ...at, z: top + 80 }, [target.id]);
    }
  }
});

/** A fresh cell with the wooden block held 250 mm up (test setup). */
function holdingBlock(): RobotSimulation {
  const sim = createRobotSimulation({ seed: 5 });
  const block = sim.objects().find((o) => o.id === 'block-1')!;
  moveTo(sim, { ...block.position, z: 130 });
  moveTo(sim, block.position, ['block-1']);
  assert.ok(sim.grasp({ forceN: 15 }).ok);
  moveTo(sim, { ...block.position, z: 250 });
  return sim;
}

test('releases over random spots never put one object on or into another, and never drop one more than 50 mm', () => {
  let sim = holdingBlock();
  let released = 0, refused = 0;
  const spot = fc.record({ x: fc.double({ min: -560, max: -280, noNaN: true }), y: fc.double({ min: -420, max: 420, noNaN: true }), z: fc.oneof(fc.double({ min: 45, max: 70, noNaN: true }), fc.double({ min: 70, max: 300, noNaN: true })) });
  fc.assert(fc.property(spot, (p) => {
    if (sim.heldObjectId === null) sim = holdingBlock();
    const plan = sim.planToPose({ position: p }, { path: 'joint', speedFraction: 1 });
    if (!plan.ok || !sim.execute(plan.trajectory).ok) return;
    sim.runUntilSettled();
    const outcome = sim.release();
    if (!outcome.ok) {
      refused++;
      assert.equal(sim.heldObjectId, 'block-1', 'a refused release keeps holding');
      return;
    }
    released++;
    assert.ok(outcome.dropHeightMm <= 50, `dropped ${outcome.dropHeightMm} mm`);
    const landed = sim.objects().find((o) => o.id === 'block-1')!;
    const corners: Vec3[] = [];
    const half = scale(landed.sizeMm, 0.5);
    for (const sx of [-1, 1]) for (const sy of [-1, 1]) for (const sz of [-0.99, 0, 0.99]) corners.push({ x: landed.position.x + sx * half.x, y: landed.position.y + sy * half.y, z: landed.position.z + sz * half.z });
    for (const other of sim.objects() as SceneObjectState[]) {
      if (other.id === 'block-1') continue;
      assert.equal(other.condition, 'intact', `${other.id} broke`);
      for (const c of [...corners, landed.position]) assert.ok(signedDistance(obstacleOf(other), c) > 0, `block-1 landed in ${other.id}`);
    }
  }), { numRuns: 24, seed: 1204 });
  assert.ok(released >= 2 && refused >= 2, `released ${released}, refused ${refused}: both outcomes must occur`);
});

for (const preset of Object.values(ARM_PRESETS)) {
  test(`${preset.id}: controlled stops at random times keep joint and TCP acceleration within the caps at the monitor's rate`, () => {
    let stops = 0;
    const sim = createRobotSimulation({ preset: preset.id, objects: [], seed: 9 });
    fc.assert(fc.property(upperHalfTargets(preset, false), fc.double({ min: 0, max: 1, noNaN: true }), (q, when) => {
      const plan = sim.planJointMotion(q, { speedFraction: 1 });
      if (!plan.ok || !sim.execute(plan.trajectory).ok) return;
      const stopAtMs = Math.floor((when * plan.trajectory.durationS * 1000) / sim.clock.stepMs) * sim.clock.stepMs;
      let previous = { v: sim.status().tcpVelocityMmS, t: sim.nowMs };
      const check = (): void => {
        const s = sim.status();
        const dt = (sim.nowMs - previous.t) / 1000;
        const v = s.tcpVelocityMmS;
        const accel = Math.hypot(v.x - previous.v.x, v.y - previous.v.y, v.z - previous.v.z) / dt;
        assert.ok(accel <= sim.limits.maxTcpAccelerationMmS2 * 1.000001, `TCP ${accel.toFixed(0)} mm/s² at t = ${sim.nowMs} ms (stop at ${stopAtMs} ms)`);
        s.jointAccelerationsDegS2.forEach((a, j) => assert.ok(Math.abs(a) <= sim.limits.joints[j]!.maxAccelerationDegS2 * 1.000001, `joint ${j + 1} ${a.toFixed(0)}°/s²`));
        previous = { v, t: sim.nowMs };
      };
      const start = sim.nowMs;
      while (sim.state === 'moving' && sim.nowMs - start < stopAtMs) {
        sim.step();
        check();
      }
      if (sim.state === 'moving') {
        sim.stop();
        stops++;
      }
      runChecked(sim, check);
    }), { numRuns: 30, seed: 1205 });
    assert.ok(stops >= 6, `only ${stops} stops happened`);
  });
}
