import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readAuditLog } from '../../server/audit-log.js';
import { startHarness, type Harness } from '../support/robot-harness.js';

const FAR = { target_position: { x_mm: -400, y_mm: -300, z_mm: 150 }, speed: 0.1 };

async function untilMoving(h: Harness, minElapsedS: number): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const motion = h.robot.controller.sim.status().motion;
    if (motion !== null && motion.elapsedS >= minElapsedS) return;
    if (Date.now() > deadline) throw new Error('the motion never started');
    await new Promise((r) => setTimeout(r, 2));
  }
}

describe('stop always wins over a running motion', () => {
  it('stop_arm decelerates the running motion, which reports stopped short of its target; the arm then stays still', async () => {
    const h = await startHarness({ approval: 'off' });
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
      const tcp = h.robot.controller.sim.tcp;
      assert.ok(Math.hypot(tcp.x + 400, tcp.y + 300, tcp.z - 150) > 50, 'the arm stopped well short of the target');
      const still = h.robot.controller.sim.jointsDeg;
      h.robot.controller.sim.advance(1000);
      assert.deepEqual(h.robot.controller.sim.jointsDeg, still);
      assert.equal(h.robot.controller.sim.state, 'idle');
      // Idempotent: a second stop is harmless and reports nothing moving.
      const again = await h.call('stop_arm', {});
      assert.equal(again.body.result?.structuredContent?.was_moving, false);
      assert.deepEqual(h.robot.controller.monitor.violations, []);
    } finally {
      await h.close();
    }
  });

  it('an emergency stop freezes the arm at once and latches', async () => {
    const h = await startHarness({ approval: 'off' });
    try {
      const move = h.call('move_arm_to_pose', FAR);
      await untilMoving(h, 0.5);
      const stop = await h.call('stop_arm', { mode: 'emergency' });
      assert.equal(stop.body.result?.structuredContent?.emergency_stop_latched, true);
      assert.equal(stop.body.result?.structuredContent?.state, 'estop');
      const moved = await move;
      assert.equal(moved.body.result?.structuredContent?.status, 'emergency_stopped');
      const frozen = h.robot.controller.sim.jointsDeg;
      h.robot.controller.sim.advance(1000);
      assert.deepEqual(h.robot.controller.sim.jointsDeg, frozen);
      assert.deepEqual(h.robot.controller.monitor.violations, []);
    } finally {
      await h.close();
    }
  });

  it('cancelling the MCP request (the client goes away) stops the motion the same way', async () => {
    const h = await startHarness({ approval: 'off' });
    try {
      const abort = new AbortController();
      const move = h.call('move_arm_to_pose', FAR, { signal: abort.signal });
      await untilMoving(h, 0.5);
      abort.abort();
      await assert.rejects(move);
      const deadline = Date.now() + 20_000;
      while (h.robot.controller.activeMotionId !== null && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
      assert.equal(h.robot.controller.activeMotionId, null);
      const tcp = h.robot.controller.sim.tcp;
      assert.ok(Math.hypot(tcp.x + 400, tcp.y + 300, tcp.z - 150) > 50, 'the arm stopped short of the target');
      // The audit record is written when the tool code returns, just after the motion came to rest.
      while (!readAuditLog(h.auditPath).records.some((r) => r.tool === 'move_arm_to_pose' && r.type === 'tool_call') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
      const record = readAuditLog(h.auditPath).records.find((r) => r.tool === 'move_arm_to_pose' && r.type === 'tool_call')!;
      assert.equal(record.outcome, 'cancelled');
      assert.equal((record.motion as { status: string }).status, 'cancelled');
    } finally {
      await h.close();
    }
  });
});
