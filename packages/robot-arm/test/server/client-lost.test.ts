/**
 * Loss of the client is a controlled stop (heartbeat/loss of client → controlled stop). A 2025
 * session keeps a call running when its stream drops, so the client can resume it with
 * `Last-Event-ID`; the arm must not go on moving, or start moving, for a client that left. The
 * call's answer (the stopped motion, or the refusal) is still kept, and a resumption reads it.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readAuditLog } from '../../server/audit-log.js';
import { startHarness, type Harness } from '../support/robot-harness.js';
import { observedPacer, type ObservedPacer } from '../support/observed-pacer.js';
import { openEvents } from '../../../../test/support/sse-events.js';

const FAR = { target_position: { x_mm: -400, y_mm: -300, z_mm: 150 }, speed: 0.1 };
const REVISION = '2025-11-25';

/** Opens a 2025 session on the harness's server; returns the headers its requests carry. */
async function openSession(h: Harness): Promise<Record<string, string>> {
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const init = await fetch(h.url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: REVISION, capabilities: {}, clientInfo: { name: 'client-lost-test', version: '1' } } }) });
  assert.equal(init.status, 200, await init.clone().text());
  const session = init.headers.get('mcp-session-id');
  assert.ok(session !== null, 'initialize mints a session');
  await init.text();
  const sessionHeaders = { 'mcp-session-id': session, 'mcp-protocol-version': REVISION };
  const initialized = await fetch(h.url, { method: 'POST', headers: { ...headers, ...sessionHeaders }, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });
  assert.equal(initialized.status, 202);
  return sessionHeaders;
}

function moveRequest(id: number): Record<string, unknown> {
  return { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'move_arm_to_pose', arguments: FAR, _meta: { progressToken: `p${id}` } } };
}

/** The final response of a resumed POST stream (GET + Last-Event-ID). */
async function resumedAnswer(h: Harness, session: Record<string, string>, lastEventId: string): Promise<Record<string, unknown>> {
  const resumed = await openEvents(h.url, { method: 'GET', headers: { ...session, 'last-event-id': lastEventId } });
  assert.equal(resumed.status, 200, JSON.stringify(resumed.refused));
  const events = await resumed.rest();
  const answer = events.find((e) => 'result' in e.data || 'error' in e.data);
  assert.ok(answer !== undefined, `the call's answer was kept for the resumption: ${JSON.stringify(events)}`);
  return answer.data;
}

describe('loss of the client (2025 session) is a controlled stop', () => {
  it('a stream dropped mid-motion stops the arm short of its target; the resumed stream reads the cancelled motion', async () => {
    const pacer: ObservedPacer = observedPacer(20);
    const h = await startHarness({ approval: 'off', pacer });
    try {
      const session = await openSession(h);
      const call = await openEvents(h.url, { method: 'POST', headers: session, body: moveRequest(1) });
      assert.equal(call.status, 200, JSON.stringify(call.refused));
      const first = await call.next('the first progress event');
      assert.ok(first.id !== undefined, 'events of a 2025 session carry ids');
      await pacer.until(() => {
        const motion = h.robot.driver.sim.status().motion;
        return motion !== null && motion.elapsedS >= 0.5;
      });
      call.drop();
      const answer = await resumedAnswer(h, session, first.id);
      const result = answer.result as { isError?: boolean; structuredContent?: Record<string, unknown> };
      assert.equal(result.isError, true);
      assert.equal(result.structuredContent?.status, 'cancelled', 'stopped because the client left, not completed');
      const tcp = h.robot.driver.sim.tcp;
      assert.ok(Math.hypot(tcp.x + 400, tcp.y + 300, tcp.z - 150) > 50, 'the arm stopped well short of the target');
      const still = h.robot.driver.sim.jointsDeg;
      h.robot.driver.sim.advance(1000);
      assert.deepEqual(h.robot.driver.sim.jointsDeg, still, 'and stays still');
      assert.deepEqual(h.robot.controller.monitor.violations, []);
    } finally {
      await h.close();
    }
  });

  it('a client that leaves while its motion waits for the operator: off the queue, refused client_lost, the arm never moves', async () => {
    const h = await startHarness({ approval: 'always', approver: 'console' });
    try {
      const session = await openSession(h);
      const queued = new Promise<void>((resolve) => {
        const stop = h.robot.server.approvals.subscribe((event) => {
          if (event.type !== 'pending') return;
          stop();
          resolve();
        });
      });
      const settled = new Promise<string>((resolve) => {
        const stop = h.robot.server.approvals.subscribe((event) => {
          if (event.type !== 'settled') return;
          stop();
          resolve(event.outcome.approved ? 'approved' : event.outcome.reason);
        });
      });
      const joints = h.robot.driver.sim.jointsDeg;
      const call = await openEvents(h.url, { method: 'POST', headers: session, body: moveRequest(2) });
      await queued;
      const waiting = await call.next('the waiting-for-the-operator progress event');
      assert.ok(waiting.id !== undefined);
      call.drop();
      assert.equal(await settled, 'cancelled', 'the held call left the operator queue');
      assert.deepEqual(h.robot.server.approvals.pending(), []);
      const answer = await resumedAnswer(h, session, waiting.id);
      const result = answer.result as { isError?: boolean; structuredContent?: { refused?: { stage: string; code: string } } };
      assert.equal(result.isError, true);
      assert.deepEqual({ stage: result.structuredContent?.refused?.stage, code: result.structuredContent?.refused?.code }, { stage: 'approval', code: 'client_lost' });
      assert.deepEqual(h.robot.driver.sim.jointsDeg, joints, 'the arm never moved');
      assert.equal(readAuditLog(h.auditPath).records.some((r) => r.type === 'motion_start'), false, 'no motion was started');
    } finally {
      await h.close();
    }
  });
});
