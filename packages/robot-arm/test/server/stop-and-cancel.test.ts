import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { readAuditLog } from '../../server/audit-log.js';
import { startHarness, type Harness } from '../support/robot-harness.js';
import { observedPacer, type ObservedPacer } from '../support/observed-pacer.js';
import { untilFile } from '../../../../test/support/file-events.js';

const FAR = { target_position: { x_mm: -400, y_mm: -300, z_mm: 150 }, speed: 0.1 };

/** A harness whose simulation the test can wait on, frame by frame. */
async function startObserved(): Promise<Harness & { pacer: ObservedPacer }> {
  const pacer = observedPacer(20);
  return Object.assign(await startHarness({ approval: 'off', pacer }), { pacer });
}

/** Resolves at the first control frame at which the running motion has run `minElapsedS` of simulated time. */
function untilMoving(h: Harness & { pacer: ObservedPacer }, minElapsedS: number): Promise<void> {
  return h.pacer.until(() => {
    const motion = h.robot.driver.sim.status().motion;
    return motion !== null && motion.elapsedS >= minElapsedS;
  });
}

describe('stop always wins over a running motion', () => {
  it('stop_arm decelerates the running motion, which reports stopped short of its target; the arm then stays still', async () => {
    const h = await startObserved();
    try {
      const move = h.call('move_arm_to_pose', FAR);
      await untilMoving(h, 0.5);
      const stop = await h.call('stop_arm', {});
      const s = stop.body.result!.structuredContent!;
      assert.equal(s.was_moving, true);
      assert.equal(s.mode, 'controlled');
      assert.ok((s.stopping_time_s as number) > 0 && (s.stopping_time_s as number) < 1, `stopping time ${String(s.stopping_time_s)} s`);
      const moved = await move;
      assert.equal(moved.body.result?.isError, true);
      assert.equal(moved.body.result?.structuredContent?.status, 'stopped');
      const tcp = h.robot.driver.sim.tcp;
      assert.ok(Math.hypot(tcp.x + 400, tcp.y + 300, tcp.z - 150) > 50, 'the arm stopped well short of the target');
      const still = h.robot.driver.sim.jointsDeg;
      h.robot.driver.sim.advance(1000);
      assert.deepEqual(h.robot.driver.sim.jointsDeg, still);
      assert.equal(h.robot.driver.sim.state, 'idle');
      // Idempotent: a second stop is harmless and reports nothing moving.
      const again = await h.call('stop_arm', {});
      assert.equal(again.body.result?.structuredContent?.was_moving, false);
      assert.deepEqual(h.robot.controller.monitor.violations, []);
    } finally {
      await h.close();
    }
  });

  it('an emergency stop freezes the arm at once and latches', async () => {
    const h = await startObserved();
    try {
      const move = h.call('move_arm_to_pose', FAR);
      await untilMoving(h, 0.5);
      const stop = await h.call('stop_arm', { mode: 'emergency' });
      assert.equal(stop.body.result?.structuredContent?.emergency_stop_latched, true);
      assert.equal(stop.body.result?.structuredContent?.state, 'estop');
      const moved = await move;
      assert.equal(moved.body.result?.structuredContent?.status, 'emergency_stopped');
      const frozen = h.robot.driver.sim.jointsDeg;
      h.robot.driver.sim.advance(1000);
      assert.deepEqual(h.robot.driver.sim.jointsDeg, frozen);
      assert.deepEqual(h.robot.controller.monitor.violations, []);
    } finally {
      await h.close();
    }
  });

  it('cancelling the MCP request (the client goes away) stops the motion the same way', async () => {
    const h = await startObserved();
    try {
      const abort = new AbortController();
      const move = h.call('move_arm_to_pose', FAR, { signal: abort.signal });
      await untilMoving(h, 0.5);
      abort.abort();
      await assert.rejects(move);
      // The audit record is written when the tool code returns, just after the motion came to rest.
      const record = await untilFile(dirname(h.auditPath), () => existsSync(h.auditPath) ? readAuditLog(h.auditPath).records.find((r) => r.tool === 'move_arm_to_pose' && r.type === 'tool_call') : undefined, 'the cancelled move_arm_to_pose call record');
      assert.equal(h.robot.controller.activeMotionId, null);
      const tcp = h.robot.driver.sim.tcp;
      assert.ok(Math.hypot(tcp.x + 400, tcp.y + 300, tcp.z - 150) > 50, 'the arm stopped short of the target');
      assert.equal(record.outcome, 'cancelled');
      assert.equal((record.motion as { status: string }).status, 'cancelled');
    } finally {
      await h.close();
    }
  });
});
