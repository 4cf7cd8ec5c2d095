/**
 * A person in the cell over MCP (issue 30, item 6), in-process simulator (the `robot-sim` process is
 * covered at the driver level: test/controller/person-in-cell-drivers.test.ts). Judged by the
 * simulation's ground truth (TCP speed and travel at every tick, state), not by the tool's answer.
 * The operator sets the sensor through `RobotServer.setPresence` (the console's route calls it) and
 * resets through `RobotServer.clearFault`, the path SIGUSR2 takes.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createArmModel } from '../../model/arm-model.js';
import { readAuditLog } from '../../server/audit-log.js';
import { DEFAULT_WARNING_SPEED_MM_S, stoppingDistanceMm, type PresenceZone } from '../../sim/presence-sensor.js';
import { refusalOf, startHarness, type Harness } from '../support/robot-harness.js';

const OPERATOR = 'Alice Operator (test)';
const MOVE = { ur5e: { x: 0, y: 300, z: 0 }, xarm6: { x: 250, y: 0, z: 50 } } as const;
const FAR = { x: 1500, y: 1500, z: 1000 };
const everywhere = (radiusMm: number): PresenceZone => ({ kind: 'cylinder', center: { x: 0, y: 0 }, radiusMm, zMinMm: -1000, zMaxMm: 3000 });

function targetOf(h: Harness, preset: 'ur5e' | 'xarm6'): Record<string, unknown> {
  const tcp = h.robot.driver.sim.tcp;
  const d = MOVE[preset];
  return { target_position: { x_mm: tcp.x + d.x, y_mm: tcp.y + d.y, z_mm: tcp.z + d.z }, speed: 1, path: 'linear' };
}

/** Records the fastest TCP tick of the simulation from now on. */
function watchPeak(h: Harness): { peak(): number } {
  const sim = h.robot.driver.sim;
  let peak = 0;
  sim.clock.onTick(() => {
    peak = Math.max(peak, sim.status().tcpSpeedMmS);
  });
  return { peak: () => peak };
}

for (const preset of ['ur5e', 'xarm6'] as const) {
  describe(`a person in the cell over MCP (${preset})`, () => {
    it('warning zone set by the operator (audited by name): status shows it, the motion is re-timed and runs at most 100 mm/s by ground truth', async () => {
      const h = await startHarness({ approval: 'off', model: createArmModel({ preset }) });
      try {
        const presence = await h.robot.setPresence({ config: { warningZones: [everywhere(3000)], protectiveZones: [], warningSpeedMmS: DEFAULT_WARNING_SPEED_MM_S }, person: FAR }, OPERATOR);
        assert.equal(presence.zone, 'warning');
        const status = (await h.call('get_device_status', {})).body.result?.structuredContent?.presence as Record<string, unknown>;
        assert.equal(status.available, true);
        assert.equal(status.zone, 'warning');
        assert.equal(status.allowed_tcp_speed_mm_s, DEFAULT_WARNING_SPEED_MM_S);
        const record = readAuditLog(h.auditPath).records.find((r) => r.type === 'operator_action' && r.action === 'set_presence');
        assert.equal(record?.operator, OPERATOR);
        assert.equal(record?.zone, 'warning');
        const watch = watchPeak(h);
        const reply = await h.call('move_arm_to_pose', targetOf(h, preset));
        assert.equal(refusalOf(reply), undefined, JSON.stringify(reply.body.result?.structuredContent));
        assert.equal(reply.body.result?.structuredContent?.status, 'completed');
        assert.ok(watch.peak() > 0.5 * DEFAULT_WARNING_SPEED_MM_S, `the arm moved (peak ${watch.peak().toFixed(1)} mm/s)`);
        assert.ok(watch.peak() <= DEFAULT_WARNING_SPEED_MM_S, `ground-truth peak ${watch.peak().toFixed(2)} mm/s`);
      } finally {
        await h.close();
      }
    });

    it('an intrusion into the protective zone mid-motion stops the arm within v*t_r + v^2/(2*a_stop); motion resumes only after the zone clears and the operator resets', async () => {
      const h = await startHarness({ approval: 'off', model: createArmModel({ preset }) });
      try {
        const sim = h.robot.driver.sim;
        const target = targetOf(h, preset);
        let intrusion: { v: number; travel: number; at: { x: number; y: number; z: number } } | null = null;
        sim.clock.onTick(() => {
          const tcp = sim.tcp;
          if (intrusion !== null) {
            intrusion.travel += Math.hypot(tcp.x - intrusion.at.x, tcp.y - intrusion.at.y, tcp.z - intrusion.at.z);
            intrusion.at = tcp;
          }
        });
        const stop = h.robot.driver.subscribe((s) => {
          if (intrusion === null && s.state === 'moving' && s.tcpSpeedMmS > 150) {
            intrusion = { v: s.tcpSpeedMmS, travel: 0, at: sim.tcp };
            // Synchronous inside the driver: the sensor sees the person before the next tick.
            void h.robot.setPresence({ config: { warningZones: [], protectiveZones: [everywhere(3000)], warningSpeedMmS: 100 }, person: FAR }, OPERATOR);
          }
        });
        const reply = await h.call('move_arm_to_pose', target);
        stop();
        assert.ok(intrusion !== null, 'the intrusion happened mid-motion');
        const { v, travel } = intrusion as { v: number; travel: number };
        const bound = stoppingDistanceMm(v, sim.clock.stepMs / 1000, sim.preset.stopDecelerationMmS2);
        assert.ok(travel <= bound + 1e-6, `travelled ${travel.toFixed(3)} mm from ${v.toFixed(1)} mm/s; bound ${bound.toFixed(3)} mm`);
        assert.equal(reply.body.result?.structuredContent?.status, 'protective_stop');
        assert.equal(sim.state, 'fault');
        const held = sim.jointsDeg;
        // The operator's reset is refused while the person is in the zone (audited), and nothing moves.
        await assert.rejects(h.robot.clearFault(OPERATOR), /protective zone is not clear/);
        await h.robot.setPresence({ person: null }, OPERATOR);
        assert.equal((await h.call('get_device_status', {})).body.result?.structuredContent?.state, 'fault');
        assert.equal(refusalOf(await h.call('move_arm_to_pose', target))?.stage, 'state_gate');
        assert.deepEqual(sim.jointsDeg, held);
        assert.equal(await h.robot.clearFault(OPERATOR), true);
        const resumed = await h.call('move_arm_to_pose', target);
        assert.equal(resumed.body.result?.structuredContent?.status, 'completed');
        const actions = readAuditLog(h.auditPath).records.filter((r) => r.type === 'operator_action').map((r) => `${String(r.action)}:${String(r.operator)}:${String(r.cleared ?? r.zone)}`);
        assert.deepEqual(actions, [`set_presence:${OPERATOR}:protective`, `clear_fault:${OPERATOR}:false`, `set_presence:${OPERATOR}:clear`, `clear_fault:${OPERATOR}:true`]);
      } finally {
        await h.close();
      }
    });
  });
}

describe('setting the presence sensor: refusals', () => {
  it('an invalid setting is refused, audited with the error, and changes nothing', async () => {
    const h = await startHarness({ approval: 'off' });
    try {
      await assert.rejects(h.robot.setPresence({ config: { warningZones: [], protectiveZones: [], warningSpeedMmS: 300 } }, OPERATOR), /below the 250 mm\/s cap/);
      assert.equal(h.robot.driver.sim.presence().config.warningSpeedMmS, DEFAULT_WARNING_SPEED_MM_S);
      const record = readAuditLog(h.auditPath).records.find((r) => r.action === 'set_presence');
      assert.match(String(record?.error), /below the 250 mm\/s cap/);
      await assert.rejects(h.robot.setPresence({ person: null }, ' '), /operator's name/);
    } finally {
      await h.close();
    }
  });
});
