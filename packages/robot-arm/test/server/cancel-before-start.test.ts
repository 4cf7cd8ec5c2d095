/**
 * A cancel that arrives during the pre-motion awaits never starts the motion (issue 30, item 2), over
 * MCP: a 2025 session's `notifications/cancelled` lands while the approved call waits for a fresh
 * snapshot of the arm (the wait a remote controller's stale state causes). Judged by ground truth (the
 * simulation's joints) and by the audit log: no `motion_start`, so no driver was ever commanded.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ArmStatus } from '../../driver/arm-driver.js';
import { SimArmDriver } from '../../driver/sim-arm-driver.js';
import { steppedPacer } from '../../driver/sim-pacer.js';
import { readAuditLog } from '../../server/audit-log.js';
import { startHarnessOn } from '../support/robot-harness.js';
import { openEvents } from '../../../../test/support/sse-events.js';

const REVISION = '2025-11-25';

/** A simulated arm whose snapshot the test can make look old, and that says when someone waits for a newer one. */
class StaleableDriver extends SimArmDriver {
  stale = false;
  readonly waiters: Array<(status: ArmStatus) => void> = [];
  onWait: (() => void) | null = null;

  override status(): ArmStatus {
    const status = super.status();
    return this.stale ? { ...status, asOf: status.asOf - 60_000 } : status;
  }

  override subscribe(listener: (status: ArmStatus) => void): () => void {
    const off = super.subscribe(listener);
    if (this.stale) {
      this.waiters.push(listener);
      this.onWait?.();
    }
    return off;
  }

  /** A fresh snapshot arrives: every waiter hears of it. */
  freshen(): void {
    this.stale = false;
    for (const listener of this.waiters.splice(0)) listener(this.status());
  }
}

describe('cancel before the motion starts (2025 session)', () => {
  it('notifications/cancelled while the approved call waits for a fresh snapshot: the arm never moves, no motion is started', async () => {
    const driver = new StaleableDriver({ pacer: steppedPacer(20) });
    const h = await startHarnessOn(driver, { approval: 'always', approver: 'console', maxStatusAgeMs: 15_000 });
    try {
      const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
      const init = await fetch(h.url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: REVISION, capabilities: {}, clientInfo: { name: 'cancel-test', version: '1' } } }) });
      const session = { 'mcp-session-id': init.headers.get('mcp-session-id')!, 'mcp-protocol-version': REVISION };
      await init.text();
      assert.equal((await fetch(h.url, { method: 'POST', headers: { ...headers, ...session }, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) })).status, 202);
      const before = driver.sim.jointsDeg;
      const waiting = new Promise<void>((resolve) => (driver.onWait = resolve));
      h.robot.server.approvals.subscribe((event) => {
        if (event.type !== 'pending') return;
        // The operator approves; from here on the server must wait for a newer snapshot before it moves.
        driver.stale = true;
        void h.robot.server.approvals.decide(event.pending.id, { approve: true, operator: 'cancel-test', digest: event.pending.digest });
      });
      // Not awaited: the response starts only when the call ends (no progress token).
      const call = openEvents(h.url, { method: 'POST', headers: session, body: { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'move_arm_to_pose', arguments: { target_position: { x_mm: -400, y_mm: -300, z_mm: 150 } } } } });
      await waiting;
      const cancelled = await fetch(h.url, { method: 'POST', headers: { ...headers, ...session }, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 7, reason: 'the user pressed stop' } }) });
      assert.equal(cancelled.status, 202);
      driver.freshen();
      const records = async (): Promise<ReturnType<typeof readAuditLog>['records']> => {
        for (;;) {
          const found = readAuditLog(h.auditPath).records;
          if (found.some((r) => r.type === 'tool_call' && r.tool === 'move_arm_to_pose')) return found;
          await new Promise((resolve) => setImmediate(resolve));
        }
      };
      const audit = await records();
      (await call).drop();
      assert.equal(audit.some((r) => r.type === 'motion_start'), false, 'no motion was started');
      const record = audit.find((r) => r.type === 'tool_call' && r.tool === 'move_arm_to_pose')!;
      assert.equal(record.outcome, 'cancelled');
      assert.deepEqual(driver.sim.jointsDeg, before, 'ground truth: the arm never moved');
      driver.sim.advance(500);
      assert.deepEqual(driver.sim.jointsDeg, before);
    } finally {
      await h.close();
    }
  });
});
