/**
 * A person in the cell at the driver level, against both drivers (the in-process `SimArmDriver` and a
 * `robot-sim` child process through `RemoteArmDriver`) and both arm models. Judged by the controller's
 * own simulation: its per-tick samples (every control step, streamed) and its ground-truth joints (the
 * simulation itself, or the pose file the `robot-sim` process writes on every change). The combinations
 * are test/support/driver-matrix.ts's; robot-sim runs at 4x here.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { isArmFaultError, type ArmSample } from '../../driver/arm-driver.js';
import type { Trajectory } from '../../model/arm-model.js';
import { pathTcpSpeedCapMmS, stoppingDistanceMm, type PresenceZone } from '../../sim/presence-sensor.js';
import { DRIVER_MATRIX, type MatrixSubject } from '../support/driver-matrix.js';

type Preset = 'ur5e' | 'xarm6';
const MOVE: Record<Preset, { x: number; y: number; z: number }> = { ur5e: { x: 0, y: 300, z: 0 }, xarm6: { x: 250, y: 0, z: 50 } };
const FAR = { x: 1500, y: 1500, z: 1000 };
const everywhere: PresenceZone = { kind: 'cylinder', center: { x: 0, y: 0 }, radiusMm: 3000, zMinMm: -1000, zMaxMm: 3000 };
const STEP_S = 0.004;

function plan(subject: MatrixSubject, preset: Preset, tcpSpeedCapMmS?: number): Trajectory {
  const s = subject.driver.status();
  const d = MOVE[preset];
  const result = subject.model.planWaypoints(s.jointsDeg, [{ position: { x: s.tcp.x + d.x, y: s.tcp.y + d.y, z: s.tcp.z + d.z } }], { speedFraction: 1, path: 'linear', ...(tcpSpeedCapMmS !== undefined ? { tcpSpeedCapMmS } : {}) });
  assert.ok(result.ok, result.ok ? '' : result.message);
  return result.trajectory;
}

for (const driverCase of DRIVER_MATRIX) {
  const { kind, preset } = driverCase;
  describe(`a person in the cell, ${kind} driver (${preset})`, () => {
    it('warning zone: a full-speed path is refused without moving; the re-timed path runs at most 100 mm/s at every control step', async () => {
      const subject = await driverCase.create({ timeScale: 4 });
      try {
        const { driver } = subject;
        const presence = await driver.setPresence!({ config: { warningZones: [everywhere], protectiveZones: [], warningSpeedMmS: 100 }, person: FAR });
        assert.equal(presence.zone, 'warning');
        const before = subject.groundTruthJoints();
        const fast = plan(subject, preset);
        const refused = await driver.execute(fast, { motionId: 'fast' }).then(() => null, (error: unknown) => error);
        assert.ok(isArmFaultError(refused), String(refused));
        assert.equal(refused.fault.code, 'person_in_warning_zone');
        assert.deepEqual(subject.groundTruthJoints(), before);
        const cap = pathTcpSpeedCapMmS(driver.status().presence!, fast.samples.map((s) => s.tcp));
        const samples: ArmSample[] = [];
        const end = await driver.execute(plan(subject, preset, cap * 0.97), { motionId: 'slow', onProgress: (p) => samples.push(...p.samples) });
        assert.equal(end.status, 'completed');
        const peak = Math.max(...samples.map((s) => s.tcpSpeedMmS));
        assert.ok(peak > 50 && peak <= 100, `peak ${peak.toFixed(2)} mm/s over ${samples.length} samples`);
      } finally {
        await subject.close();
      }
    });

    it('protective zone mid-path: stopped within v*t_r + v^2/(2*a_stop); the fault stays until the zone is clear and the operator clears it', async () => {
      const subject = await driverCase.create({ timeScale: 4 });
      try {
        const { driver, model } = subject;
        const fast = plan(subject, preset);
        const samples: ArmSample[] = [];
        let intruding: Promise<unknown> | null = null;
        const end = await driver.execute(fast, {
          motionId: 'fast',
          onProgress: (p) => {
            samples.push(...p.samples);
            if (intruding === null && p.samples.some((s) => s.tcpSpeedMmS >= 0.9 * fast.peaks.peakTcpSpeedMmS)) {
              intruding = driver.setPresence!({ config: { warningZones: [], protectiveZones: [everywhere], warningSpeedMmS: 100 }, person: FAR });
            }
          },
        });
        await intruding;
        assert.equal(end.status, 'protective_stop');
        // The last full-speed sample before the stop began: the speed and place of the intrusion.
        const firstStopping = samples.findIndex((s) => s.state !== 'moving');
        assert.ok(firstStopping > 0, 'the stop happened mid-path');
        const at = samples[firstStopping - 1]!;
        let travel = 0;
        for (let i = firstStopping; i < samples.length; i++) {
          const a = samples[i - 1]!.tcp, b = samples[i]!.tcp;
          travel += Math.hypot(b.x - a.x, b.y - a.y, b.z - a.z);
        }
        const bound = stoppingDistanceMm(at.tcpSpeedMmS, STEP_S, model.preset.stopDecelerationMmS2);
        assert.ok(travel <= bound + 1e-6, `travelled ${travel.toFixed(3)} mm from ${at.tcpSpeedMmS.toFixed(1)} mm/s; bound ${bound.toFixed(3)} mm`);
        assert.equal(driver.status().state, 'fault');
        const held = subject.groundTruthJoints();
        const notCleared = await driver.clearFault().then(() => null, (error: unknown) => error);
        assert.ok(isArmFaultError(notCleared));
        assert.equal(notCleared.fault.code, 'person_in_protective_zone');
        await driver.setPresence!({ person: null });
        const blocked = await driver.execute(plan(subject, preset), { motionId: 'blocked' }).then(() => null, (error: unknown) => error);
        assert.ok(isArmFaultError(blocked), 'no motion before the operator clears the fault');
        assert.deepEqual(subject.groundTruthJoints(), held);
        await driver.clearFault();
        assert.equal((await driver.execute(plan(subject, preset, 200), { motionId: 'resumed' })).status, 'completed');
      } finally {
        await subject.close();
      }
    });
  });
}
