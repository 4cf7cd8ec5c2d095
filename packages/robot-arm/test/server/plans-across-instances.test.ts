/**
 * Two robot server instances sharing one real Redis (on loopback, started and stopped by this test):
 * a plan made and approved on one executes on the other, once; the rate limits count the calls of
 * both; two instances racing for one plan move one arm; with the store gone, nothing is planned or moved.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createRedisStore, type RedisStore } from 'toolwright';
import { SimArmDriver } from '../../driver/sim-arm-driver.js';
import { steppedPacer } from '../../driver/sim-pacer.js';
import { readAuditLog } from '../../server/audit-log.js';
import type { RobotServerOptions } from '../../server/create-robot-server.js';
import { ELICITATION, refusalOf, startHarnessOn, textOf, type Harness } from '../support/robot-harness.js';
import { missing, startRedis, type RedisProcess } from '../../../../test/support/local-services.js';

const SECRET = 'one-secret-for-every-instance-of-this-test';
const NEAR = { x_mm: -450, y_mm: -150, z_mm: 420 };
const WAYPOINTS = [NEAR, { x_mm: -420, y_mm: -150, z_mm: 420 }];
const ACCEPT = { approval: { action: 'accept', content: { approve: true } } };

let nextPrefix = 1;

/** Two instances on one Redis with a key prefix of their own (so no test sees another's buckets or plans). */
async function twoInstances(redis: RedisProcess, options: Omit<RobotServerOptions, 'driver'>, drivers: readonly [SimArmDriver, SimArmDriver]): Promise<{ one: Harness; two: Harness; close(): Promise<void> }> {
  const keyPrefix = `robot-test-${process.pid}-${nextPrefix++}:`;
  const stores: RedisStore[] = [createRedisStore({ url: redis.url, keyPrefix }), createRedisStore({ url: redis.url, keyPrefix })];
  await Promise.all(stores.map((s) => s.ready()));
  const one = await startHarnessOn(drivers[0], { ...options, store: stores[0]!, requestStateSecret: SECRET });
  const two = await startHarnessOn(drivers[1], { ...options, store: stores[1]!, requestStateSecret: SECRET });
  return {
    one,
    two,
    async close() {
      await one.close();
      await two.close();
      await Promise.all(stores.map((s) => s.close()));
    },
  };
}

function motionStarts(h: Harness): number {
  return readAuditLog(h.auditPath).records.filter((r) => r.type === 'motion_start').length;
}

function atPathEnd(driver: SimArmDriver): boolean {
  const tcp = driver.sim.tcp;
  const end = WAYPOINTS[1]!;
  return Math.hypot(tcp.x - end.x_mm, tcp.y - end.y_mm, tcp.z - end.z_mm) < 0.5;
}

const skip = missing('redis-server');
if (skip !== undefined) console.log(`# skipped: robot plans across instances: ${skip}`);

describe('the robot\'s plans and rate limits in a store shared by two instances', { skip }, () => {
  let redis: RedisProcess;
  before(async () => {
    redis = await startRedis();
  });
  after(async () => {
    await redis.stop();
  });

  it('a plan made and approved on instance 1 executes on instance 2 (one arm behind both), once', async () => {
    const arm = new SimArmDriver({ pacer: steppedPacer(20) });
    const { one, two, close } = await twoInstances(redis, { approval: 'always' }, [arm, arm]);
    try {
      const planned = await one.call('plan_trajectory', { waypoints: WAYPOINTS });
      const planId = planned.body.result?.structuredContent?.plan_id;
      assert.equal(typeof planId, 'string', JSON.stringify(planned.body));
      const asked = await one.call('execute_trajectory', { plan_id: planId }, { capabilities: ELICITATION });
      assert.equal(asked.body.result?.resultType, 'input_required', JSON.stringify(asked.body));
      const requestState = asked.body.result!.requestState!;
      const before = arm.sim.jointsDeg;
      const ran = await two.call('execute_trajectory', { plan_id: planId }, { capabilities: ELICITATION, requestState, inputResponses: ACCEPT });
      assert.equal(ran.body.result?.structuredContent?.status, 'completed', JSON.stringify(ran.body));
      assert.notDeepEqual(arm.sim.jointsDeg, before);
      assert.equal(motionStarts(two), 1);
      assert.equal(motionStarts(one), 0);
      const record = readAuditLog(two.auditPath).records.find((r) => r.type === 'tool_call' && r.tool === 'execute_trajectory');
      assert.equal((record?.approval as { decision?: string } | undefined)?.decision, 'approved');
      // The plan ran once: the same answer again, on either instance, finds no plan (refused before the approval's claim).
      const gone = { stage: 'state_gate', code: 'unknown_plan', message: `no plan ${String(planId)}: it was never made, already executed, or expired (plans last 10 minutes); call plan_trajectory` };
      assert.deepEqual(refusalOf(await one.call('execute_trajectory', { plan_id: planId }, { capabilities: ELICITATION, requestState, inputResponses: ACCEPT })), gone);
      assert.deepEqual(refusalOf(await two.call('execute_trajectory', { plan_id: planId }, { capabilities: ELICITATION })), gone);
      assert.equal(motionStarts(one) + motionStarts(two), 1);
    } finally {
      await close();
    }
  });

  it('the motion and planning rate limits count the calls of both instances', async () => {
    const arm = new SimArmDriver({ pacer: steppedPacer(20) });
    const { one, two, close } = await twoInstances(redis, { approval: 'off', motionRatePerSecond: 0.01, motionBurst: 1, planRatePerSecond: 0.01, planBurst: 2 }, [arm, arm]);
    try {
      assert.equal(typeof (await one.call('plan_trajectory', { waypoints: WAYPOINTS })).body.result?.structuredContent?.plan_id, 'string');
      assert.equal(typeof (await two.call('plan_trajectory', { waypoints: WAYPOINTS })).body.result?.structuredContent?.plan_id, 'string');
      const planLimited = refusalOf(await one.call('plan_trajectory', { waypoints: WAYPOINTS }));
      assert.equal(planLimited?.code, 'rate_limited');
      assert.match(planLimited!.message, /^planning requests are limited to 0\.01 per second \(burst 2\); retry in (\d+) ms$/);
      const moved = await two.call('move_arm_to_pose', { target_position: NEAR });
      assert.equal(moved.body.result?.structuredContent?.status, 'completed', JSON.stringify(moved.body));
      const joints = arm.sim.jointsDeg;
      const motionLimited = await one.call('move_arm_to_pose', { target_position: { x_mm: -420, y_mm: -150, z_mm: 420 } });
      assert.equal(refusalOf(motionLimited)?.stage, 'state_gate');
      assert.equal(refusalOf(motionLimited)?.code, 'rate_limited');
      const wait = Number(/^motion commands are limited to 0\.01 per second \(burst 1\); retry in (\d+) ms$/.exec(refusalOf(motionLimited)!.message)?.[1]);
      assert.ok(wait > 90_000 && wait <= 100_000, `retry in ${wait} ms`);
      assert.deepEqual(arm.sim.jointsDeg, joints);
    } finally {
      await close();
    }
  });

  it('two instances executing one plan at once (each with its own arm) move exactly one arm', async () => {
    const arms = [new SimArmDriver({ pacer: steppedPacer(20) }), new SimArmDriver({ pacer: steppedPacer(20) })] as const;
    const { one, two, close } = await twoInstances(redis, { approval: 'off' }, arms);
    try {
      const planned = await one.call('plan_trajectory', { waypoints: WAYPOINTS });
      const planId = planned.body.result?.structuredContent?.plan_id;
      const [a, b] = await Promise.all([one.call('execute_trajectory', { plan_id: planId }), two.call('execute_trajectory', { plan_id: planId })]);
      const outcomes = [a, b].map((reply) => reply.body.result?.structuredContent?.status ?? refusalOf(reply)?.code);
      assert.equal(outcomes.filter((o) => o === 'completed').length, 1, JSON.stringify(outcomes));
      assert.ok(outcomes.some((o) => o === 'plan_gone' || o === 'unknown_plan'), JSON.stringify(outcomes));
      assert.equal(arms.filter(atPathEnd).length, 1);
      assert.equal(motionStarts(one) + motionStarts(two), 1);
    } finally {
      await close();
    }
  });

  it('with the store gone, planning and execution are refused (store_unavailable) and nothing moves', async () => {
    const own = await startRedis();
    const arm = new SimArmDriver({ pacer: steppedPacer(20) });
    const { one, close } = await twoInstances(own, { approval: 'off' }, [arm, arm]);
    try {
      const planId = (await one.call('plan_trajectory', { waypoints: WAYPOINTS })).body.result?.structuredContent?.plan_id;
      assert.equal(typeof planId, 'string');
      await own.kill();
      const before = arm.sim.jointsDeg;
      for (const reply of [await one.call('plan_trajectory', { waypoints: WAYPOINTS }), await one.call('execute_trajectory', { plan_id: planId })]) {
        assert.equal(refusalOf(reply)?.stage, 'state_gate');
        assert.equal(refusalOf(reply)?.code, 'store_unavailable');
        assert.match(refusalOf(reply)!.message, /^the server's store did not answer \(store unavailable: redis redis:\/\/127\.0\.0\.1:\d+: .+\); nothing was planned or moved, retry when it is back$/);
        assert.match(textOf(reply), /Nothing was executed\.$/);
      }
      assert.deepEqual(arm.sim.jointsDeg, before);
      assert.equal(motionStarts(one), 0);
    } finally {
      await close();
      await own.stop();
    }
  });
});
