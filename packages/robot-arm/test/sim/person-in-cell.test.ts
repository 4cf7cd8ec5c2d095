/**
 * A person in the cell (issue 30, item 6), judged by the simulation's ground truth: the TCP position
 * and speed at every control tick, the state, and what the arm did after each sensor change. Both arm
 * models. The stopping bound is v*t_r + v^2/(2*a_stop) of TCP travel, t_r one control step and a_stop
 * the preset's `stopDecelerationMmS2`.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { RobotSimulation } from '../../driver/robot-simulation.js';
import { DEFAULT_WARNING_SPEED_MM_S, separationSpeedMmS, stoppingDistanceMm, zoneContains, zoneOf, type PresenceConfig, type PresenceZone } from '../../sim/presence-sensor.js';
import type { Trajectory } from '../../sim/trajectory.js';
import type { Vec3 } from '../../sim/vector3.js';

/** A long straight move each arm can follow at full speed from its home pose. */
const MOVE: Record<'ur5e' | 'xarm6', Vec3> = { ur5e: { x: 0, y: 300, z: 0 }, xarm6: { x: 250, y: 0, z: 50 } };

/** A cylinder around a point (a person standing there), 300 mm across, floor to 2 m. */
function around(p: { x: number; y: number }, radiusMm = 150): PresenceZone {
  return { kind: 'cylinder', center: { x: p.x, y: p.y }, radiusMm, zMinMm: -1000, zMaxMm: 2000 };
}

/** Far from the arm: where the person stands in the warning-zone cases (separation does not bind). */
const FAR = { x: 1500, y: 1500, z: 1000 };

function cell(preset: 'ur5e' | 'xarm6'): { sim: RobotSimulation; fast: Trajectory; target: Vec3 } {
  const sim = new RobotSimulation({ preset, objects: [] });
  const d = MOVE[preset];
  const target = { x: sim.tcp.x + d.x, y: sim.tcp.y + d.y, z: sim.tcp.z + d.z };
  const plan = sim.planToPose({ position: target }, { speedFraction: 1, path: 'linear' });
  assert.ok(plan.ok, plan.ok ? '' : plan.message);
  return { sim, fast: plan.trajectory, target };
}

/** Steps the simulation until the arm rests; returns the TCP's travel along its path and the fastest tick. */
function runToRest(sim: RobotSimulation, onTick?: () => void): { travelMm: number; peakMmS: number } {
  let travelMm = 0;
  let peakMmS = 0;
  let at = sim.tcp;
  for (let i = 0; i < 100_000 && (sim.state === 'moving' || sim.state === 'stopping'); i++) {
    sim.step();
    const now = sim.tcp;
    travelMm += Math.hypot(now.x - at.x, now.y - at.y, now.z - at.z);
    peakMmS = Math.max(peakMmS, sim.status().tcpSpeedMmS);
    at = now;
    onTick?.();
  }
  return { travelMm, peakMmS };
}

/** Steps until the TCP runs at 90% of the plan's peak (mid-path, at speed). */
function runUpToSpeed(sim: RobotSimulation, trajectory: Trajectory): number {
  for (let i = 0; i < 10_000; i++) {
    sim.step();
    const v = sim.status().tcpSpeedMmS;
    if (v >= 0.9 * trajectory.peaks.peakTcpSpeedMmS) return v;
  }
  throw new Error('the motion never reached speed');
}

function warningOnly(config: Partial<PresenceConfig> = {}): PresenceConfig {
  return { warningZones: [around(FAR, 400)], protectiveZones: [], warningSpeedMmS: DEFAULT_WARNING_SPEED_MM_S, ...config };
}

describe('presence zones and the separation speed', () => {
  it('boxes and cylinders include their boundary; the protective zone wins where both hold the person', () => {
    const box: PresenceZone = { kind: 'box', min: { x: 0, y: 0, z: 0 }, max: { x: 100, y: 100, z: 100 } };
    assert.equal(zoneContains(box, { x: 100, y: 0, z: 50 }), true);
    assert.equal(zoneContains(box, { x: 100.001, y: 0, z: 50 }), false);
    const cyl = around({ x: 0, y: 0 }, 100);
    assert.equal(zoneContains(cyl, { x: 60, y: 80, z: 0 }), true);
    assert.equal(zoneContains(cyl, { x: 60, y: 80.01, z: 0 }), false);
    const config = { warningZones: [cyl], protectiveZones: [box], warningSpeedMmS: 100 };
    assert.equal(zoneOf(config, { x: 50, y: 50, z: 50 }), 'protective');
    assert.equal(zoneOf(config, { x: -50, y: 0, z: 50 }), 'warning');
    assert.equal(zoneOf(config, { x: 500, y: 0, z: 50 }), 'clear');
    assert.equal(zoneOf(config, null), 'clear');
  });

  it('the separation speed stops the TCP exactly within the separation', () => {
    for (const separation of [0.5, 5, 10.4, 100, 1000]) {
      const v = separationSpeedMmS(separation, 0.004, 500);
      assert.ok(Math.abs(stoppingDistanceMm(v, 0.004, 500) - separation) < 1e-9, `${separation} mm`);
    }
    assert.equal(separationSpeedMmS(0, 0.004, 500), 0);
  });
});

for (const preset of ['ur5e', 'xarm6'] as const) {
  describe(`a person in the cell (${preset}, simulation ground truth)`, () => {
    it('an intrusion into the protective zone mid-path stops the TCP within v*t_r + v^2/(2*a_stop); it stays stopped until the zone is clear and the operator resets', () => {
      const { sim, fast, target } = cell(preset);
      assert.ok(sim.execute(fast).ok);
      const v = runUpToSpeed(sim, fast);
      const tcp = sim.tcp;
      const result = sim.setPresence({ config: { warningZones: [], protectiveZones: [around(tcp, 400)], warningSpeedMmS: 100 }, person: { x: tcp.x + 300, y: tcp.y, z: tcp.z } });
      assert.ok(result.ok);
      assert.equal(result.presence.zone, 'protective');
      const { travelMm } = runToRest(sim);
      const bound = stoppingDistanceMm(v, sim.clock.stepMs / 1000, sim.preset.stopDecelerationMmS2);
      assert.ok(travelMm <= bound + 1e-6, `travelled ${travelMm.toFixed(3)} mm from ${v.toFixed(1)} mm/s; bound ${bound.toFixed(3)} mm`);
      assert.equal(sim.state, 'fault');
      assert.equal(sim.status().fault?.cause, 'person_in_protective_zone');
      const stoppedAt = sim.jointsDeg;
      // The reset is refused while the person is in the zone; nothing moves.
      const refused = sim.operatorClearFault();
      assert.equal(refused.ok, false);
      assert.equal(refused.ok ? '' : refused.code, 'person_in_protective_zone');
      assert.equal(sim.state, 'fault');
      // The zone clears: still no motion until the operator resets.
      assert.ok(sim.setPresence({ person: null }).ok);
      assert.equal(sim.state, 'fault');
      const again = sim.planToPose({ position: target }, { speedFraction: 1, path: 'linear' });
      assert.ok(again.ok);
      const blocked = sim.execute(again.trajectory);
      assert.equal(blocked.ok ? 'started' : blocked.code, 'fault');
      sim.advance(200);
      assert.deepEqual(sim.jointsDeg, stoppedAt);
      // Clear zone and reset: motion resumes.
      assert.deepEqual(sim.operatorClearFault(), { ok: true });
      assert.equal(sim.state, 'idle');
      assert.ok(sim.execute(again.trajectory).ok);
      runToRest(sim);
      assert.ok(Math.hypot(sim.tcp.x - target.x, sim.tcp.y - target.y, sim.tcp.z - target.z) < 0.01, 'the resumed motion reached its target');
    });

    it('a person already in the protective zone: the arm at rest goes to fault and no motion starts', () => {
      const { sim, fast } = cell(preset);
      const before = sim.jointsDeg;
      assert.ok(sim.setPresence({ config: { warningZones: [], protectiveZones: [around({ x: 0, y: 0 }, 2000)], warningSpeedMmS: 100 }, person: { x: 800, y: 0, z: 0 } }).ok);
      assert.equal(sim.state, 'fault');
      const started = sim.execute(fast);
      assert.equal(started.ok ? 'started' : started.code, 'fault');
      sim.advance(200);
      assert.deepEqual(sim.jointsDeg, before);
    });

    it('a person in the warning zone: a full-speed path does not start; the re-timed path runs at most the warning speed at every tick and arrives', () => {
      const { sim, fast, target } = cell(preset);
      const before = sim.jointsDeg;
      assert.ok(sim.setPresence({ config: warningOnly(), person: FAR }).ok);
      assert.equal(sim.presence().zone, 'warning');
      assert.equal(sim.presence().allowedTcpSpeedMmS, DEFAULT_WARNING_SPEED_MM_S);
      assert.ok(fast.peaks.peakTcpSpeedMmS > DEFAULT_WARNING_SPEED_MM_S, 'the fast plan is faster than the warning speed');
      const refused = sim.execute(fast);
      assert.equal(refused.ok ? 'started' : refused.code, 'person_in_warning_zone');
      assert.deepEqual(sim.jointsDeg, before, 'nothing moved');
      const cap = sim.presenceSpeedCapFor(fast);
      const slow = sim.planToPose({ position: target }, { speedFraction: 1, path: 'linear', tcpSpeedCapMmS: cap * 0.97 });
      assert.ok(slow.ok);
      assert.ok(sim.execute(slow.trajectory).ok);
      let worst = 0;
      const { peakMmS } = runToRest(sim, () => {
        worst = Math.max(worst, sim.status().tcpSpeedMmS / sim.presence().allowedTcpSpeedMmS);
      });
      assert.ok(peakMmS <= DEFAULT_WARNING_SPEED_MM_S, `peak ${peakMmS.toFixed(2)} mm/s`);
      assert.ok(worst <= 1, `speed/allowed reached ${worst.toFixed(4)}`);
      assert.equal(sim.state, 'idle');
      assert.ok(Math.hypot(sim.tcp.x - target.x, sim.tcp.y - target.y, sim.tcp.z - target.z) < 0.01);
    });

    it('a person close to the path: the separation, not the warning speed, sets the TCP speed, at every tick', () => {
      const { sim, fast, target } = cell(preset);
      // 6 mm beside the end of the path: stopping from 100 mm/s takes about 10.4 mm, so the separation binds.
      const person = { x: target.x, y: target.y, z: target.z + 6 };
      assert.ok(sim.setPresence({ config: { warningZones: [around(person, 50)], protectiveZones: [], warningSpeedMmS: 100 }, person }).ok);
      const cap = sim.presenceSpeedCapFor(fast);
      assert.ok(cap < DEFAULT_WARNING_SPEED_MM_S * 0.9, `cap ${cap.toFixed(1)} mm/s`);
      const slow = sim.planToPose({ position: target }, { speedFraction: 1, path: 'linear', tcpSpeedCapMmS: cap * 0.97 });
      assert.ok(slow.ok);
      assert.ok(sim.execute(slow.trajectory).ok);
      let worst = 0;
      runToRest(sim, () => {
        const p = sim.presence();
        worst = Math.max(worst, sim.status().tcpSpeedMmS / p.allowedTcpSpeedMmS);
        // Ground truth of the rule itself: from this speed the TCP could stop before reaching the person.
        assert.ok(stoppingDistanceMm(sim.status().tcpSpeedMmS, sim.clock.stepMs / 1000, sim.preset.stopDecelerationMmS2) <= p.separationMm! + 1e-9);
      });
      assert.ok(worst <= 1, `speed/allowed reached ${worst.toFixed(4)}`);
      assert.equal(sim.state, 'idle');
    });

    it('a person entering the warning zone while the TCP runs faster than allowed: a controlled stop within the bound, at rest without a fault', () => {
      const { sim, fast } = cell(preset);
      assert.ok(sim.setPresence({ config: warningOnly() }).ok);
      const started = sim.execute(fast);
      assert.ok(started.ok);
      const v = runUpToSpeed(sim, fast);
      assert.ok(v > DEFAULT_WARNING_SPEED_MM_S);
      assert.ok(sim.setPresence({ person: FAR }).ok);
      const { travelMm } = runToRest(sim);
      const bound = stoppingDistanceMm(v, sim.clock.stepMs / 1000, sim.preset.stopDecelerationMmS2);
      assert.ok(travelMm <= bound + 1e-6, `travelled ${travelMm.toFixed(3)} mm; bound ${bound.toFixed(3)} mm`);
      assert.equal(sim.state, 'idle');
      assert.equal(sim.status().fault, null);
      assert.equal(sim.wasStoppedByPresence(started.ok ? started.motionId : ''), true);
    });

    it('an invalid setting is refused and changes nothing', () => {
      const { sim } = cell(preset);
      const cases: Array<[PresenceConfig, RegExp]> = [
        [warningOnly({ warningSpeedMmS: sim.preset.maxTcpSpeedMmS }), /below the 250 mm\/s cap/],
        [warningOnly({ warningSpeedMmS: 0 }), /above 0/],
        [warningOnly({ protectiveZones: [{ kind: 'box', min: { x: 1, y: 0, z: 0 }, max: { x: 0, y: 1, z: 1 } }] }), /protective zone 0: min must not exceed max/],
        [warningOnly({ warningZones: [{ kind: 'cylinder', center: { x: 0, y: 0 }, radiusMm: 0, zMinMm: 0, zMaxMm: 1 }] }), /warning zone 0: radiusMm must be above 0/],
        [warningOnly({ warningZones: [{ kind: 'cylinder', center: { x: Number.NaN, y: 0 }, radiusMm: 5, zMinMm: 0, zMaxMm: 1 }] }), /finite/],
      ];
      for (const [config, message] of cases) {
        const outcome = sim.setPresence({ config, person: FAR });
        assert.equal(outcome.ok, false);
        assert.match(outcome.ok ? '' : outcome.message, message);
        assert.equal(sim.presence().zone, 'clear');
        assert.equal(sim.presence().person, null);
      }
      const badPerson = sim.setPresence({ person: { x: Number.POSITIVE_INFINITY, y: 0, z: 0 } });
      assert.equal(badPerson.ok ? '' : badPerson.code, 'invalid_presence');
      assert.equal(sim.presence().person, null);
    });
  });
}
