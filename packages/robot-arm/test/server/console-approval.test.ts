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
import { isPlannedMotion } from '../../view/arm-feed.js';
import { RobotArmFeed } from '../../console/robot-arm-feed.js';
import { ArmFaultError } from '../../driver/arm-driver.js';
import { SimArmDriver } from '../../driver/sim-arm-driver.js';
import { readAuditLog } from '../../server/audit-log.js';
import type { SimulatedRobotServerOptions } from '../../wiring/simulated-robot-server.js';
import { ELICITATION, refusalOf, startHarness, textOf, type Harness } from '../support/robot-harness.js';
import { sseMessages } from '../../../../test/support/sse-events.js';

const TARGET = { target_position: { x_mm: -450, y_mm: -150, z_mm: 420 } };
const TOKEN = 'robot-console-test-token-0123456789';
// The name main.ts gives the console's operator: the refusal texts below must read it once.
const OPERATOR = `console operator (pid ${process.pid})`;

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

async function startConsole(options: SimulatedRobotServerOptions = {}): Promise<ConsoleHarness> {
  let feed: RobotArmFeed | undefined;
  let mount: ConsoleMount | undefined;
  const h = await startHarness({ approval: 'always', ...options }, async (robot) => {
    feed = new RobotArmFeed(robot);
    mount = createArmConsole({ server: robot.server, feed, operator: OPERATOR, token: TOKEN, awaitingUser: robot.approval.awaitingUser });
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
    assert.equal(refusalOf(reply)?.message, `The call of move_arm_to_pose was declined by ${OPERATOR}`);
    assert.equal(textOf(reply), `Refused at stage approval (approval_declined): The call of move_arm_to_pose was declined by ${OPERATOR}. Nothing was executed.`);
    assert.deepEqual(h.robot.driver.sim.jointsDeg, before);
  });

  it('a held client that sent a progress token is told the approval id and that the console at /console decides it, never the token', async () => {
    const waiting = nextPending(h.robot.server.approvals);
    const message = {
      jsonrpc: '2.0', id: 'progress-1', method: 'tools/call',
      params: {
        name: 'move_arm_to_pose', arguments: { target_position: { x_mm: -410, y_mm: 120, z_mm: 390 } },
        _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {}, progressToken: 'held-1' },
      },
    };
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'move_arm_to_pose' };
    const response = fetch(h.url, { method: 'POST', headers, body: JSON.stringify(message), signal: AbortSignal.timeout(60_000) }).then((r) => r.text());
    const pending = await waiting;
    const decided = await h.post('/api/approvals/decide', { id: pending.id, approve: false });
    assert.equal(decided.status, 200);
    const events = sseMessages(await response) as { method?: string; params?: { message?: string } }[];
    const { message: told, ...first } = events[0]?.params ?? {};
    assert.deepEqual({ ...events[0], params: first }, { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'held-1', progress: 1 } });
    assert.match(told ?? '', new RegExp(`^waiting for an operator to approve move_arm_to_pose \\(approval id ${pending.id}; \\d+ s left\\): it is approved or declined in the operator console at /console on this server$`));
    assert.ok(!JSON.stringify(events).includes(TOKEN), 'the console token never reaches the client');
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

  it('a stop_arm ends the wait at once: the held call returns its refusal without any decision, and a late approval is settled', async () => {
    const before = h.robot.driver.sim.jointsDeg;
    const waiting = nextPending(h.robot.server.approvals);
    const call = h.call('move_arm_to_pose', { target_position: { x_mm: -380, y_mm: -50, z_mm: 450 } });
    const pending = await waiting;
    const settled = new Promise<unknown>((resolve) => {
      const stop = h.robot.server.approvals.subscribe((event) => {
        if (event.type === 'settled' && event.pending.id === pending.id) {
          stop();
          resolve(event.outcome);
        }
      });
    });
    const stop = await h.call('stop_arm', {});
    assert.equal(stop.body.result?.isError, undefined, JSON.stringify(stop.body));
    // No decision and no deadline (45 s) in between: the stop alone ends the wait.
    assert.deepEqual(await settled, { approved: false, reason: 'cancelled', by: undefined });
    const reply = await call;
    assert.equal(refusalOf(reply)?.code, 'approval_cancelled');
    assert.equal(textOf(reply), 'Refused at stage approval (approval_cancelled): a stop of the arm while the call waited for the operator cancelled it. Nothing was executed.');
    assert.deepEqual(h.robot.server.approvals.pending(), []);
    const late = await h.post('/api/approvals/decide', { id: pending.id, approve: true, digest: pending.digest });
    assert.equal(late.status, 409);
    assert.equal(((await late.json()) as { reason: string }).reason, 'settled');
    assert.deepEqual(h.robot.driver.sim.jointsDeg, before);
  });

  it('the console e-stop ends a held wait at once too', async () => {
    const waiting = nextPending(h.robot.server.approvals);
    const call = h.call('move_arm_to_pose', { target_position: { x_mm: -380, y_mm: 60, z_mm: 450 } });
    await waiting;
    assert.equal((await h.post('/api/estop', { reason: 'e-stop while a call waits' })).status, 200);
    const reply = await call;
    assert.equal(refusalOf(reply)?.code, 'approval_cancelled');
    assert.deepEqual(h.robot.server.approvals.pending(), []);
    assert.equal((await h.post('/api/estop/reset', { confirm: true })).status, 200);
  });

  it('an eliciting client still gets input_required, and nothing waits in the console', async () => {
    const reply = await h.call('move_arm_to_pose', TARGET, { capabilities: ELICITATION });
    assert.equal(reply.body.result?.resultType, 'input_required', JSON.stringify(reply.body));
    assert.deepEqual(h.robot.server.approvals.pending(), []);
  });

  it('the console e-stop latches, is audited naming the operator, and only a confirmed reset clears it', async () => {
    const stopped = await h.post('/api/estop', { reason: 'test pressed e-stop' });
    assert.equal(stopped.status, 200);
    assert.equal(h.robot.controller.emergencyStop?.reason, `${OPERATOR}: test pressed e-stop`);
    const refused = await h.call('move_arm_to_pose', TARGET);
    assert.equal(refusalOf(refused)?.code, 'estop_latched');
    assert.equal((await h.post('/api/estop/reset', {})).status, 400);
    assert.notEqual(h.robot.controller.emergencyStop, null);
    const reset = await h.post('/api/estop/reset', { confirm: true });
    assert.equal(reset.status, 200);
    assert.equal(h.robot.controller.emergencyStop, null);
    assert.equal((await h.post('/api/estop/reset', { confirm: true })).status, 409);
    const actions = readAuditLog(h.auditPath).records.filter((r) => r.type === 'operator_action').map((r) => [r.action, r.operator]);
    // Each reset is SIGUSR2's: it also acknowledges a protective-stop fault, recorded even when there was none.
    assert.deepEqual(actions.slice(-5), [['emergency_stop', OPERATOR], ['clear_emergency_stop', OPERATOR], ['clear_fault', OPERATOR], ['clear_emergency_stop', OPERATOR], ['clear_fault', OPERATOR]]);
  });

  it('a reset the arm controller cannot confirm answers 503 saying why; the stop stays latched and motions are refused', async () => {
    assert.equal((await h.post('/api/estop', { reason: 'test pressed e-stop' })).status, 200);
    const driver = h.robot.driver;
    // The simulated arm's controller stops answering for this one command (as robot-sim's would when unreachable).
    driver.resetEmergencyStop = () => Promise.reject(new ArmFaultError({ kind: 'disconnected', code: 'controller_unreachable', message: 'controller unreachable: test' }));
    try {
      const reset = await h.post('/api/estop/reset', { confirm: true });
      assert.equal(reset.status, 503);
      assert.deepEqual(await reset.json(), { error: 'the arm controller did not confirm the reset (disconnected: controller unreachable: test); the emergency stop stays latched' });
      assert.equal(h.robot.controller.emergencyStop?.reason, `${OPERATOR}: test pressed e-stop`);
      assert.equal(refusalOf(await h.call('move_arm_to_pose', TARGET))?.code, 'estop_latched');
    } finally {
      driver.resetEmergencyStop = SimArmDriver.prototype.resetEmergencyStop;
    }
    assert.equal((await h.post('/api/estop/reset', { confirm: true })).status, 200);
    assert.equal(h.robot.controller.emergencyStop, null);
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

describe('robot console: a motion of a client that can elicit is shown as awaiting the client\'s user', () => {
  let h: ConsoleHarness;
  const ACCEPT = { approval: { action: 'accept', content: { approve: true } } };
  const ask = async (x: number) => {
    const args = { target_position: { x_mm: x, y_mm: -150, z_mm: 420 } };
    const reply = await h.call('move_arm_to_pose', args, { capabilities: ELICITATION });
    assert.equal(reply.body.result?.resultType, 'input_required', JSON.stringify(reply.body));
    return { args, requestState: reply.body.result!.requestState!, message: reply.body.result!.inputRequests!.approval!.params.message };
  };
  before(async () => {
    h = await startConsole();
  });
  after(async () => {
    await h.close();
  });

  it('lists it with its plan; the operator cannot approve it but can decline it, and then the user\'s accept is refused', async () => {
    const before = h.robot.driver.sim.jointsDeg;
    const { args, requestState, message } = await ask(-450);
    const [entry, ...others] = h.robot.approval.awaitingUser.list();
    assert.equal(others.length, 0);
    assert.equal(entry?.tool, 'move_arm_to_pose');
    assert.equal(entry?.summary, message);
    assert.ok(isPlannedMotion(entry?.details));
    assert.equal(entry.details.planHash, entry.planHash);
    assert.ok(entry.details.path.length >= 2, 'the plan is there to draw');
    assert.deepEqual(h.robot.server.approvals.pending(), [], 'not a held call: nothing for the operator to approve');
    const approve = await h.post('/api/approvals/decide', { id: entry.id, approve: true, digest: entry.planHash });
    assert.equal(approve.status, 404);
    assert.equal(((await approve.json()) as { reason: string }).reason, 'unknown');

    const declined = await h.post('/api/approvals/decline-user', { id: entry.id });
    assert.equal(declined.status, 200);
    assert.deepEqual(await declined.json(), { declined: entry.id, operator: OPERATOR });
    assert.deepEqual(h.robot.approval.awaitingUser.list(), []);
    const again = await h.post('/api/approvals/decline-user', { id: entry.id });
    assert.equal(again.status, 404);

    const reply = await h.call('move_arm_to_pose', args, { capabilities: ELICITATION, requestState, inputResponses: ACCEPT });
    assert.equal(refusalOf(reply)?.code, 'approval_declined');
    assert.equal(textOf(reply), `Refused at stage approval (approval_declined): the motion was declined at the console by ${OPERATOR} while it awaited the client's user. Nothing was executed.`);
    assert.deepEqual(h.robot.driver.sim.jointsDeg, before);
  });

  it('a bad decline is refused precisely and declines nothing', async () => {
    const { args, requestState } = await ask(-440);
    const [entry] = h.robot.approval.awaitingUser.list();
    for (const body of [{}, { id: 7 }, { id: '' }]) {
      const res = await h.post('/api/approvals/decline-user', body);
      assert.equal(res.status, 400);
      assert.deepEqual(await res.json(), { error: '"id" must be the id of a motion awaiting the client\'s user' });
    }
    const unknown = await h.post('/api/approvals/decline-user', { id: 'no-such-id' });
    assert.equal(unknown.status, 404);
    assert.equal((await h.post('/api/approvals/decline-user', { id: entry!.id }, '')).status, 401);
    assert.deepEqual(h.robot.approval.awaitingUser.list().map((e) => e.id), [entry!.id]);
    // The user approves: it runs, and leaves the board.
    const reply = await h.call('move_arm_to_pose', args, { capabilities: ELICITATION, requestState, inputResponses: ACCEPT });
    assert.equal(reply.body.result?.structuredContent?.status, 'completed', JSON.stringify(reply.body));
    assert.deepEqual(h.robot.approval.awaitingUser.list(), []);
  });

  it('an e-stop (or stop_arm) takes every such motion off the board; the answer is refused', async () => {
    const { args, requestState } = await ask(-460);
    assert.equal(h.robot.approval.awaitingUser.list().length, 1);
    assert.equal((await h.post('/api/estop', { reason: 'stop while a user decides' })).status, 200);
    assert.deepEqual(h.robot.approval.awaitingUser.list(), []);
    // Even once the operator has reset the e-stop, the answer given to the old question is void.
    assert.equal((await h.post('/api/estop/reset', { confirm: true })).status, 200);
    const before = h.robot.driver.sim.jointsDeg;
    const reply = await h.call('move_arm_to_pose', args, { capabilities: ELICITATION, requestState, inputResponses: ACCEPT });
    assert.equal(refusalOf(reply)?.code, 'approval_cancelled');
    assert.deepEqual(h.robot.driver.sim.jointsDeg, before);
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
      // One sentence, one period: the queue's ending "; it was not executed." gives way to the robot's own (it once read "server.. Nothing").
      assert.equal(textOf(reply), 'Refused at stage approval (approval_timeout): No operator decided on the call of move_arm_to_pose within 300 ms (calls held for approval are approved or declined in the operator console at /console on this server). Nothing was executed.');
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

describe('robot console: a release waiting for the operator shows the object\'s computed fall', () => {
  it('its details are a planned path from where the object is held straight down to where it lands, with the release hash', async () => {
    const h = await startHarness({ approval: 'always', approver: 'console' });
    // Everything but the release is approved as it comes, so the test reaches a held object.
    const stop = h.robot.server.approvals.subscribe((event) => {
      if (event.type === 'pending' && event.pending.tool !== 'release_object') void h.robot.server.approvals.decide(event.pending.id, { approve: true, operator: 'ops-setup', digest: event.pending.digest });
    });
    try {
      const o = h.robot.driver.sim.objects().find((x) => x.id === 'block-1')!;
      const p = o.position;
      const above = await h.call('move_arm_to_pose', { target_position: { x_mm: p.x, y_mm: p.y, z_mm: p.z + 100 }, path: 'joint' });
      assert.equal(above.body.result?.structuredContent?.status, 'completed', JSON.stringify(above.body));
      const grasp = await h.call('grasp_object_force_control', { target_position: { x_mm: p.x, y_mm: p.y, z_mm: p.z }, force_n: 15 });
      assert.equal(grasp.body.result?.structuredContent?.grasped, true, JSON.stringify(grasp.body));
      const lift = await h.call('move_arm_to_pose', { target_position: { x_mm: p.x, y_mm: p.y + 60, z_mm: p.z + 40 } });
      assert.equal(lift.body.result?.structuredContent?.status, 'completed');
      const landing = h.robot.driver.sim.planRelease();
      assert.ok(landing.ok);

      const waiting = nextPending(h.robot.server.approvals);
      const call = h.call('release_object', {});
      const pending = await waiting;
      assert.equal(pending.tool, 'release_object');
      assert.ok(isPlannedMotion(pending.details), JSON.stringify(pending.details));
      const plan = pending.details;
      assert.equal(plan.planHash, pending.digest);
      assert.deepEqual(plan.release, { objectId: 'block-1', dropMm: Math.round(landing.dropHeightMm * 10) / 10 });
      const [from, to] = plan.path;
      assert.equal(plan.path.length, 2);
      const r = (v: number): number => Math.round(v * 10) / 10;
      assert.deepEqual(to, [r(landing.position.x), r(landing.position.y), r(landing.position.z)], 'ends where it lands');
      assert.deepEqual(from, [r(landing.position.x), r(landing.position.y), r(landing.position.z + landing.dropHeightMm)], 'starts straight above, where it is held');
      assert.ok(plan.durationS > 0 && plan.peakSpeedMmS > 0);
      assert.equal(plan.gripForceN, null);
      await h.robot.server.approvals.decide(pending.id, { approve: false, operator: 'ops-http-test' });
      assert.equal(refusalOf(await call)?.code, 'approval_declined');
      assert.equal(h.robot.driver.sim.heldObjectId, 'block-1', 'declined: still held');
    } finally {
      stop();
      await h.close();
    }
  });
});
