/**
 * The robot's operator console over plain HTTP (no browser): a client that cannot elicit has its
 * motion held open while the console decides (approver `either`, the default), bound to the plan
 * hash the console was shown; approve runs it once, decline and a wrong digest move nothing; the
 * console's e-stop latches and is audited naming the operator; no action without the token; an
 * eliciting client still gets `input_required` as before; approver `console` holds it too; a stop
 * while the call waited voids the approval; the wait ends with a refusal naming the reason.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ApprovalQueue, PendingApproval } from 'toolwright';
import type { ConsoleMount } from 'toolwright/console';
import { createArmConsole } from '../../console/arm-console.js';
import { isPlannedMotion } from '../../console/arm-feed.js';
import { RobotArmFeed } from '../../console/robot-arm-feed.js';
import { readAuditLog } from '../../server/audit-log.js';
import type { RobotServerOptions } from '../../server/create-robot-server.js';
import { ELICITATION, refusalOf, startHarness, textOf, type Harness } from '../support/robot-harness.js';

const TARGET = { target_position: { x_mm: -450, y_mm: -150, z_mm: 420 } };
const TOKEN = 'robot-console-test-token-0123456789';
const OPERATOR = 'ops-http-test';

/** The next call that starts waiting for the operator (an event, not a poll). */
function nextPending(queue: ApprovalQueue): Promise<PendingApproval> {
  return new Promise((resolve) => {
    const stop = queue.subscribe((event) => {
      if (event.type !== 'pending') return;
      stop();
      resolve(event.pending);
    });
  });
}

interface ConsoleHarness extends Harness {
  base: string;
  post(path: string, body: unknown, token?: string): Promise<Response>;
}

async function startConsole(options: RobotServerOptions = {}): Promise<ConsoleHarness> {
  let feed: RobotArmFeed | undefined;
  let mount: ConsoleMount | undefined;
  const h = await startHarness({ approval: 'always', ...options }, async (robot) => {
    feed = new RobotArmFeed(robot);
    mount = createArmConsole({ server: robot.server, feed, operator: OPERATOR, token: TOKEN });
    await mount.ready();
    return [mount];
  });
  const base = `http://127.0.0.1:${h.port}/console`;
  return {
    ...h,
    base,
    post: (path, body, token = TOKEN) => fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...(token !== '' ? { 'x-console-token': token } : {}) }, body: JSON.stringify(body) }),
    async close() {
      mount?.close();
      feed?.close();
      await h.close();
    },
  };
}

describe('robot console over HTTP: held calls decided by the operator (approver either)', () => {
  let h: ConsoleHarness;
  before(async () => {
    h = await startConsole();
  });
  after(async () => {
    await h.close();
  });

  it('holds the call of a client that cannot elicit, shows the plan, and runs it once when approved', async () => {
    const before = h.robot.driver.sim.jointsDeg;
    const waiting = nextPending(h.robot.server.approvals);
    const call = h.call('move_arm_to_pose', TARGET);
    const pending = await waiting;
    assert.equal(pending.tool, 'move_arm_to_pose');
    assert.match(pending.digest, /^[0-9a-f]{64}$/);
    assert.ok(isPlannedMotion(pending.details), JSON.stringify(pending.details));
    assert.equal(pending.details.planHash, pending.digest);
    assert.ok(pending.details.path.length >= 2);
    assert.match(pending.summary, new RegExp(`SHA-256 ${pending.digest}`));
    assert.equal(pending.deadline - pending.requestedAt, 45_000);
    assert.deepEqual(h.robot.driver.sim.jointsDeg, before, 'waiting moves nothing');

    const decided = await h.post('/api/approvals/decide', { id: pending.id, approve: true, digest: pending.digest });
    assert.equal(decided.status, 200);
    assert.deepEqual(await decided.json(), { decided: 'approved', id: pending.id, operator: OPERATOR });
    const reply = await call;
    assert.equal(reply.body.result?.structuredContent?.status, 'completed', JSON.stringify(reply.body));
    assert.notDeepEqual(h.robot.driver.sim.jointsDeg, before);

    const replay = await h.post('/api/approvals/decide', { id: pending.id, approve: true, digest: pending.digest });
    assert.equal(replay.status, 409);
    assert.equal(((await replay.json()) as { reason: string }).reason, 'settled');

    const record = readAuditLog(h.auditPath).records.findLast((r) => r.type === 'tool_call');
    assert.deepEqual((record?.approval as { approvedBy?: unknown } | undefined)?.approvedBy, { kind: 'operator', operator: OPERATOR, via: 'console' });
    assert.equal(record?.plan_hash, pending.digest);
    assert.equal(record?.outcome, 'ok');
  });

  it('decline: the call is refused naming the operator, and nothing moves', async () => {
    const before = h.robot.driver.sim.jointsDeg;
    const waiting = nextPending(h.robot.server.approvals);
    const call = h.call('move_arm_to_pose', { target_position: { x_mm: -400, y_mm: 100, z_mm: 400 } });
    const pending = await waiting;
    const decided = await h.post('/api/approvals/decide', { id: pending.id, approve: false });
    assert.equal(decided.status, 200);
    const reply = await call;
    assert.equal(refusalOf(reply)?.code, 'approval_declined');
    assert.equal(refusalOf(reply)?.message, `The operator ${OPERATOR} declined the call of move_arm_to_pose; the motion was not executed`);
    assert.deepEqual(h.robot.driver.sim.jointsDeg, before);
  });

  it('refuses an action without the token (401) or with a wrong one (403) and a wrong digest (409): nothing is decided', async () => {
    const before = h.robot.driver.sim.jointsDeg;
    const waiting = nextPending(h.robot.server.approvals);
    const call = h.call('move_arm_to_pose', { target_position: { x_mm: -420, y_mm: 50, z_mm: 380 } });
    const pending = await waiting;
    const approve = { id: pending.id, approve: true, digest: pending.digest };
    assert.equal((await h.post('/api/approvals/decide', approve, '')).status, 401);
    assert.equal((await h.post('/api/approvals/decide', approve, 'x'.repeat(40))).status, 403);
    assert.equal((await h.post('/api/estop', {}, '')).status, 401);
    const wrong = await h.post('/api/approvals/decide', { ...approve, digest: 'f'.repeat(64) });
    assert.equal(wrong.status, 409);
    assert.equal(((await wrong.json()) as { reason: string }).reason, 'wrong-digest');
    assert.deepEqual(h.robot.server.approvals.pending().map((p) => p.id), [pending.id], 'still waiting');
    assert.equal(h.robot.controller.emergencyStop, null);
    assert.equal((await h.post('/api/approvals/decide', { id: pending.id, approve: false })).status, 200);
    assert.equal(refusalOf(await call)?.code, 'approval_declined');
    assert.deepEqual(h.robot.driver.sim.jointsDeg, before);
  });

  it('a stop_arm while the call waits voids the approval given afterwards', async () => {
    const before = h.robot.driver.sim.jointsDeg;
    const waiting = nextPending(h.robot.server.approvals);
    const call = h.call('move_arm_to_pose', { target_position: { x_mm: -380, y_mm: -50, z_mm: 450 } });
    const pending = await waiting;
    const stop = await h.call('stop_arm', {});
    assert.equal(stop.body.result?.isError, undefined, JSON.stringify(stop.body));
    assert.equal((await h.post('/api/approvals/decide', { id: pending.id, approve: true, digest: pending.digest })).status, 200);
    const reply = await call;
    assert.equal(refusalOf(reply)?.code, 'approval_cancelled');
    assert.deepEqual(h.robot.driver.sim.jointsDeg, before);
  });

  it('an eliciting client still gets input_required, and nothing waits in the console', async () => {
    const reply = await h.call('move_arm_to_pose', TARGET, { capabilities: ELICITATION });
    assert.equal(reply.body.result?.resultType, 'input_required', JSON.stringify(reply.body));
    assert.deepEqual(h.robot.server.approvals.pending(), []);
  });

  it('the console e-stop latches, is audited naming the operator, and only a confirmed reset clears it', async () => {
    const stopped = await h.post('/api/estop', { reason: 'test pressed e-stop' });
    assert.equal(stopped.status, 200);
    assert.match(h.robot.controller.emergencyStop?.reason ?? '', /ops-http-test: test pressed e-stop/);
    const refused = await h.call('move_arm_to_pose', TARGET);
    assert.equal(refusalOf(refused)?.code, 'estop_latched');
    assert.equal((await h.post('/api/estop/reset', {})).status, 400);
    assert.notEqual(h.robot.controller.emergencyStop, null);
    const reset = await h.post('/api/estop/reset', { confirm: true });
    assert.equal(reset.status, 200);
    assert.equal(h.robot.controller.emergencyStop, null);
    assert.equal((await h.post('/api/estop/reset', { confirm: true })).status, 409);
    const actions = readAuditLog(h.auditPath).records.filter((r) => r.type === 'operator_action').map((r) => [r.action, r.operator]);
    assert.deepEqual(actions.slice(-3), [['emergency_stop', OPERATOR], ['clear_emergency_stop', OPERATOR], ['clear_emergency_stop', OPERATOR]]);
  });

  it('the arm snapshot carries the live pose, the envelope, the objects and a verified audit tail', async () => {
    const arm = (await (await fetch(`${h.base}/api/arm?token=${TOKEN}`)).json()) as { state: { joints: unknown[]; tcp: number[] }; envelope: { reachRadiusMm: number }; objects: unknown[]; audit: { kind: string }[]; verification: { ok: boolean; records: number } };
    const tcp = h.robot.driver.sim.tcp;
    assert.deepEqual(arm.state.tcp, [tcp.x, tcp.y, tcp.z].map((v) => Math.round(v * 10) / 10));
    assert.equal(arm.state.joints.length, 7);
    assert.equal(arm.envelope.reachRadiusMm, h.robot.driver.sim.envelope.reachRadiusMm);
    assert.equal(arm.objects.length, h.robot.driver.sim.objects().length);
    assert.equal(arm.verification.ok, true);
    assert.equal(arm.verification.records, readAuditLog(h.auditPath).records.length);
    assert.ok(arm.audit.some((e) => e.kind === 'operator_action'));
  });
});

describe('robot console: approver console and the operator wait', () => {
  it('approver console holds an eliciting client too; the wait ends in a refusal naming the reason', async () => {
    const h = await startConsole({ approver: 'console', operatorTimeoutMs: 300 });
    try {
      const before = h.robot.driver.sim.jointsDeg;
      const waiting = nextPending(h.robot.server.approvals);
      const call = h.call('move_arm_to_pose', TARGET, { capabilities: ELICITATION });
      const pending = await waiting;
      assert.equal(pending.deadline - pending.requestedAt, 300);
      const reply = await call;
      assert.equal(refusalOf(reply)?.code, 'approval_timeout');
      assert.match(textOf(reply), /No operator decided on the call of move_arm_to_pose within 300 ms/);
      assert.deepEqual(h.robot.driver.sim.jointsDeg, before);
    } finally {
      await h.close();
    }
  });

  it('approver either with no console attached refuses a client that cannot elicit at once', async () => {
    const h = await startHarness({ approval: 'always' });
    try {
      const reply = await h.call('move_arm_to_pose', TARGET);
      assert.equal(refusalOf(reply)?.code, 'approval_unavailable');
      assert.deepEqual(h.robot.server.approvals.pending(), []);
    } finally {
      await h.close();
    }
  });
});
