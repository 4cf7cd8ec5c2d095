/**
 * The robot's stored plans and rate limits live in the server's store (memory here; Redis in
 * plans-across-instances.test.ts): a stored plan reads back as the same plan, a record that is not
 * one of this arm's plans is refused, a plan is taken once, and a motion that did not start puts it back.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createMemoryStore, type JsonValue } from 'toolwright';
import { ArmFaultError, type ExecuteOptions, type MotionEnd } from '../../driver/arm-driver.js';
import { SimArmDriver } from '../../driver/sim-arm-driver.js';
import { steppedPacer } from '../../driver/sim-pacer.js';
import { createArmModel, type Trajectory } from '../../model/arm-model.js';
import { readAuditLog } from '../../server/audit-log.js';
import type { MotionPlan } from '../../server/motion-plan.js';
import { MotionRateLimits } from '../../server/motion-rate-limits.js';
import { planFromCurrentPose } from '../../server/motion-safety.js';
import { PLAN_TTL_MS, PlanStore } from '../../server/plan-store.js';
import { isRefusal } from '../../server/safety-stages.js';
import { refusalOf, startHarnessOn } from '../support/robot-harness.js';

const NEAR = { x_mm: -450, y_mm: -150, z_mm: 420 };

function planOn(driver: SimArmDriver, targets: MotionPlan['targets'] = [NEAR]): MotionPlan {
  const plan = planFromCurrentPose(driver, { kind: 'waypoints', targets, speedFraction: 0.5, timeScaling: 'trapezoidal', path: 'linear' });
  assert.ok(!isRefusal(plan), JSON.stringify(plan));
  return plan;
}

/** A clock the test moves, and a memory store on it. */
function clockedStore() {
  const clock = { t: 1_700_000_000_000, now() { return this.t; } };
  return { clock, store: createMemoryStore({ clock }) };
}

describe('PlanStore: plans as records of the server\'s store', () => {
  const driver = new SimArmDriver({ pacer: steppedPacer(20) });
  const model = driver.model;

  it('a stored plan reads back as the same plan (hash, id, every sample) until its TTL, on the store\'s clock', async () => {
    const { clock, store } = clockedStore();
    const plans = new PlanStore(store, model);
    const plan = planOn(driver, [NEAR, { x_mm: -420, y_mm: -150, z_mm: 420 }]);
    const { expiresAt } = await plans.put(plan);
    assert.equal(expiresAt, clock.t + PLAN_TTL_MS);
    const stored = await plans.get(plan.id);
    assert.ok(!isRefusal(stored), JSON.stringify(stored));
    assert.equal(stored.expiresAt, expiresAt);
    assert.equal(stored.plan.id, plan.id);
    assert.equal(stored.plan.hash, plan.hash);
    assert.deepEqual(stored.plan.targets, plan.targets);
    assert.deepEqual(stored.plan.world, plan.world);
    // Rebuilt from its definition (knots, timing): the same samples up to float rounding, far below the hash's 1e-6°.
    assert.equal(stored.plan.trajectory.samples.length, plan.trajectory.samples.length);
    const drift = Math.max(...stored.plan.trajectory.samples.flatMap((s, i) => s.jointsDeg.map((q, j) => Math.abs(q - plan.trajectory.samples[i]!.jointsDeg[j]!))));
    assert.ok(drift < 1e-9, `samples differ by up to ${drift}°`);
    assert.ok(Math.abs(stored.plan.maxDisplacementMm - plan.maxDisplacementMm) < 1e-9 && Math.abs(stored.plan.maxJointTravelDeg - plan.maxJointTravelDeg) < 1e-9);
    clock.t = expiresAt;
    assert.deepEqual(await plans.get(plan.id), { stage: 'state_gate', code: 'unknown_plan', message: `no plan ${plan.id}: it was never made, already executed, or expired (plans last 10 minutes); call plan_trajectory` });
  });

  it('a record whose content does not hash to its plan id is refused as plan_corrupt', async () => {
    const { store } = clockedStore();
    const plan = planOn(driver);
    await new PlanStore(store, model).put(plan);
    const record = await store.get(`robot-arm:plan:${plan.id}`);
    assert.ok(record !== undefined && typeof record.value === 'object' && record.value !== null && !Array.isArray(record.value));
    const moved: JsonValue = { ...record.value, targets: [{ x_mm: -300, y_mm: -150, z_mm: 420 }] };
    await store.set(`robot-arm:plan:${plan.id}`, moved, { ttlMs: 60_000 });
    const refused = await new PlanStore(store, model).get(plan.id);
    assert.ok(isRefusal(refused));
    assert.equal(refused.code, 'plan_corrupt');
    assert.match(refused.message, new RegExp(`^the stored plan ${plan.id} is not a plan of this arm \\(its content hashes to [0-9a-f]{16}…, not to the plan's own hash\\); nothing was executed; call plan_trajectory$`));
    await store.set(`robot-arm:plan:${plan.id}`, 'not a plan', { ttlMs: 60_000 });
    assert.deepEqual(await new PlanStore(store, model).get(plan.id), { stage: 'state_gate', code: 'plan_corrupt', message: `the stored plan ${plan.id} is not a plan of this arm (the record is not an object); nothing was executed; call plan_trajectory` });
  });

  it('a plan of another arm is not read as one of this arm\'s', async () => {
    const { store } = clockedStore();
    const xarm = new SimArmDriver({ model: createArmModel({ preset: 'xarm6' }), pacer: steppedPacer(20) });
    const plan = planFromCurrentPose(xarm, { kind: 'pose', targets: [{ x_mm: 300, y_mm: 100, z_mm: 300 }], speedFraction: 0.5, timeScaling: 'trapezoidal', path: 'linear' });
    assert.ok(!isRefusal(plan), JSON.stringify(plan));
    await new PlanStore(store, xarm.model).put(plan);
    assert.deepEqual(await new PlanStore(store, model).get(plan.id), { stage: 'state_gate', code: 'plan_corrupt', message: `the stored plan ${plan.id} is not a plan of this arm (it is a plan for preset xarm6, not this ur5e); nothing was executed; call plan_trajectory` });
    await xarm.close();
  });

  it('a plan is taken once; put back, it lives to its old expiry; a plan stored again meanwhile is not overwritten', async () => {
    const { clock, store } = clockedStore();
    const plans = new PlanStore(store, model);
    const plan = planOn(driver);
    await plans.put(plan);
    const stored = await plans.get(plan.id);
    assert.ok(!isRefusal(stored));
    assert.equal(await plans.take(plan.id), true);
    assert.equal(await plans.take(plan.id), false);
    const gone = await plans.get(plan.id);
    assert.ok(isRefusal(gone));
    assert.equal(gone.code, 'unknown_plan');
    await plans.restore(stored);
    const back = await plans.get(plan.id);
    assert.ok(!isRefusal(back));
    assert.equal(back.plan.hash, plan.hash);
    assert.equal(await plans.take(plan.id), true);
    clock.t += 60_000;
    const again = await plans.put(plan);
    await plans.restore(stored);
    const kept = await plans.get(plan.id);
    assert.ok(!isRefusal(kept));
    assert.equal(kept.expiresAt, again.expiresAt, 'the newer record stays');
  });
});

describe('MotionRateLimits: the arm\'s buckets in the server\'s store', () => {
  it('takes a motion token per motion and a planning token per plan, in separate buckets; gripper commands take none', async () => {
    const { clock, store } = clockedStore();
    const limits = new MotionRateLimits({ motionRatePerSecond: 0.5, motionBurst: 1, planRatePerSecond: 4, planBurst: 1 });
    assert.equal(await limits.take(store, 'motion'), null);
    assert.deepEqual(await limits.take(store, 'motion'), { stage: 'state_gate', code: 'rate_limited', message: 'motion commands are limited to 0.5 per second (burst 1); retry in 2000 ms' });
    assert.equal(await limits.take(store, 'plan'), null);
    assert.deepEqual(await limits.take(store, 'plan'), { stage: 'state_gate', code: 'rate_limited', message: 'planning requests are limited to 4 per second (burst 1); retry in 250 ms' });
    assert.equal(await limits.take(store, 'gripper'), null);
    clock.t += 1500;
    assert.deepEqual(await limits.take(store, 'motion'), { stage: 'state_gate', code: 'rate_limited', message: 'motion commands are limited to 0.5 per second (burst 1); retry in 500 ms' });
    clock.t += 500;
    assert.equal(await limits.take(store, 'motion'), null);
  });

  it('refuses a rate or burst that is not a positive number of commands', () => {
    assert.throws(() => new MotionRateLimits({ motionRatePerSecond: 0 }), { name: 'RangeError', message: 'rate limit must be a positive number of commands per second, got 0' });
    assert.throws(() => new MotionRateLimits({ planBurst: 1.5 }), { name: 'RangeError', message: 'rate-limit burst must be a positive integer, got 1.5' });
  });
});

/** A simulated arm whose controller refuses the next motion before it moves (as a busy controller would). */
class RefusingOnceDriver extends SimArmDriver {
  refuseNext = true;

  override execute(trajectory: Trajectory, options: ExecuteOptions): Promise<MotionEnd> {
    if (!this.refuseNext) return super.execute(trajectory, options);
    this.refuseNext = false;
    return Promise.reject(new ArmFaultError({ kind: 'rejected', code: 'busy', message: 'the controller is busy with its own start-up' }));
  }
}

describe('execute_trajectory takes its stored plan only to run it', () => {
  it('a start the driver refuses (nothing moved) puts the plan back: the same plan_id runs on the next call', async () => {
    const driver = new RefusingOnceDriver({ pacer: steppedPacer(20) });
    const h = await startHarnessOn(driver, { approval: 'off' });
    try {
      const planned = await h.call('plan_trajectory', { waypoints: [NEAR, { x_mm: -420, y_mm: -150, z_mm: 420 }] });
      const planId = planned.body.result?.structuredContent?.plan_id;
      assert.equal(typeof planId, 'string', JSON.stringify(planned.body));
      const before = driver.sim.jointsDeg;
      const refused = await h.call('execute_trajectory', { plan_id: planId });
      assert.deepEqual(refusalOf(refused), { stage: 'state_gate', code: 'busy', message: 'the controller is busy with its own start-up' });
      assert.deepEqual(driver.sim.jointsDeg, before);
      const ran = await h.call('execute_trajectory', { plan_id: planId });
      assert.equal(ran.body.result?.structuredContent?.status, 'completed', JSON.stringify(ran.body));
      const again = await h.call('execute_trajectory', { plan_id: planId });
      assert.equal(refusalOf(again)?.code, 'unknown_plan');
      assert.equal(readAuditLog(h.auditPath).records.filter((r) => r.type === 'motion_start').length, 2, 'the refused start and the run');
    } finally {
      await h.close();
    }
  });
});
