import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { UR5E, type ArmPreset } from '../../sim/arm-presets.js';
import { forwardKinematics } from '../../sim/forward-kinematics.js';
import { RobotSimulation } from '../../driver/robot-simulation.js';
import { SimArmDriver } from '../../driver/sim-arm-driver.js';
import { createArmModel } from '../../model/arm-model.js';
import type { Trajectory } from '../../sim/trajectory.js';
import { readAuditLog } from '../../server/audit-log.js';
import { createMemoryStore } from 'toolwright';
import { hashPlanContent, planIdFor, type MotionPlan } from '../../server/motion-plan.js';
import { PlanStore } from '../../server/plan-store.js';
import { planFromCurrentPose } from '../../server/motion-safety.js';
import { worldOf } from '../../server/world-binding.js';
import { isRefusal } from '../../server/safety-stages.js';
import { refusalOf, startHarness, textOf, type Harness } from '../support/robot-harness.js';

/*
 * The speed_and_acceleration codes tcp_speed, tcp_acceleration, joint_speed and joint_acceleration
 * cannot be provoked with tool arguments: the planner time-scales every segment to 98% of the very
 * caps the stage checks (speed is a fraction 0.1-1 of them). They guard plans made elsewhere, so each
 * case plans for a faster copy of the UR5e, puts that plan into the server's plan store, and runs it
 * through the real execute_trajectory tool, which re-checks stored plans before anything moves.
 */

const NEAR = { x_mm: -450, y_mm: -150, z_mm: 420 };

function fasterUr5e(tcp: { speed: number; acceleration: number }, joint: { speed: number; acceleration: number }): ArmPreset {
  return {
    ...UR5E,
    maxTcpSpeedMmS: tcp.speed,
    maxTcpAccelerationMmS2: tcp.acceleration,
    joints: UR5E.joints.map((j) => ({ ...j, maxVelocityDegS: joint.speed, maxAccelerationDegS2: joint.acceleration })),
  };
}

/** A straight TCP move to NEAR planned for `preset` (the planner stays within that preset's caps only). */
function linearPlanFor(preset: ArmPreset): MotionPlan {
  const plan = planFromCurrentPose(new SimArmDriver({ model: createArmModel({ preset }) }), { kind: 'waypoints', targets: [NEAR], speedFraction: 1, timeScaling: 'trapezoidal', path: 'linear' });
  assert.ok(!isRefusal(plan), JSON.stringify(plan));
  return plan;
}

/** Turns only the last joint by 90° (the TCP sits on its axis, so the TCP itself does not move). */
function wristTurnPlanFor(preset: ArmPreset): MotionPlan {
  const sim = new RobotSimulation({ preset });
  const goal = sim.jointsDeg.map((q, j) => (j === 5 ? q + 90 : q));
  const planned = sim.planJointMotion(goal);
  assert.ok(planned.ok, JSON.stringify(planned));
  const trajectory: Trajectory = planned.trajectory;
  const tcp = sim.tcp;
  const targets = [{ x_mm: tcp.x, y_mm: tcp.y, z_mm: tcp.z }];
  const content = { kind: 'waypoints' as const, presetId: preset.id, targets, speedFraction: 1, timeScaling: 'trapezoidal' as const, path: 'joint' as const, trajectory, toolContactObjectIds: [], gripperAction: null, world: worldOf({ jointsDeg: sim.jointsDeg, held: sim.heldObject(), objects: sim.objects() }) };
  const hash = hashPlanContent(content);
  return {
    ...content,
    id: planIdFor(hash),
    hash,
    startTcp: forwardKinematics(preset, [...trajectory.startJointsDeg]),
    endTcp: forwardKinematics(preset, [...trajectory.endJointsDeg]),
    maxDisplacementMm: 0,
    maxJointTravelDeg: 90,
  };
}

describe('speed_and_acceleration: a stored plan over a cap is refused by execute_trajectory and nothing moves', () => {
  let h: Harness;
  const store = createMemoryStore();
  before(async () => {
    h = await startHarness({ approval: 'off', store });
  });
  after(async () => {
    await h.close();
  });

  async function assertRefused(plan: MotionPlan, code: string, message: string): Promise<void> {
    const sim = h.robot.driver.sim;
    const joints = sim.jointsDeg;
    await new PlanStore(store, h.robot.model).put(plan);
    const reply = await h.call('execute_trajectory', { plan_id: plan.id });
    assert.equal(reply.body.result?.isError, true);
    assert.deepEqual(refusalOf(reply), { stage: 'speed_and_acceleration', code, message });
    assert.equal(textOf(reply), `Refused at stage speed_and_acceleration (${code}): ${message}. Nothing was executed.`);
    assert.deepEqual(sim.jointsDeg, joints);
    assert.equal(sim.state, 'idle');
    assert.equal(h.robot.controller.activeMotionId, null);
    const record = readAuditLog(h.auditPath).records.filter((r) => r.type === 'tool_call').at(-1)!;
    assert.equal(record.tool, 'execute_trajectory');
    assert.deepEqual((record.stages as Array<{ stage: string; outcome: string }>).map((s) => `${s.stage}:${s.outcome}`), [
      'shape:pass', 'finite_and_range:pass', 'state_gate:pass', 'workspace_envelope:pass', 'ik_and_joint_limits:pass', 'speed_and_acceleration:refused', 'audit:pass',
    ]);
    assert.ok(!readAuditLog(h.auditPath).records.some((r) => r.type === 'motion_start'), 'no motion started');
  }

  it('tcp_speed: a TCP peak above 250 mm/s', async () => {
    const plan = linearPlanFor(fasterUr5e({ speed: 1000, acceleration: 4000 }, { speed: 240, acceleration: 1200 }));
    const peak = plan.trajectory.peaks.peakTcpSpeedMmS;
    assert.ok(peak > 300, `peak ${peak}`);
    await assertRefused(plan, 'tcp_speed', `peak TCP speed ${peak.toFixed(1)} mm/s exceeds the 250 mm/s cap`);
  });

  it('tcp_acceleration: TCP speed within its cap, acceleration above 1000 mm/s²', async () => {
    const plan = linearPlanFor(fasterUr5e({ speed: 250, acceleration: 8000 }, { speed: 240, acceleration: 2400 }));
    const peaks = plan.trajectory.peaks;
    assert.ok(peaks.peakTcpSpeedMmS <= 250 && peaks.peakTcpAccelerationMmS2 > 2000, JSON.stringify(peaks));
    await assertRefused(plan, 'tcp_acceleration', `peak TCP acceleration ${peaks.peakTcpAccelerationMmS2.toFixed(0)} mm/s² exceeds the 1000 mm/s² cap`);
  });

  it('joint_speed: the TCP stays put while joint 6 turns faster than 60°/s', async () => {
    const plan = wristTurnPlanFor(fasterUr5e({ speed: 250, acceleration: 1000 }, { speed: 240, acceleration: 2400 }));
    const peaks = plan.trajectory.peaks;
    assert.ok(peaks.peakTcpSpeedMmS < 1 && peaks.peakJointSpeedDegS[5]! > 100, JSON.stringify(peaks));
    await assertRefused(plan, 'joint_speed', `joint 6 would reach ${peaks.peakJointSpeedDegS[5]!.toFixed(1)}°/s, above its 60°/s cap`);
  });

  it('joint_acceleration: joint 6 within 60°/s but accelerating above 300°/s²', async () => {
    const plan = wristTurnPlanFor(fasterUr5e({ speed: 250, acceleration: 1000 }, { speed: 60, acceleration: 3000 }));
    const peaks = plan.trajectory.peaks;
    assert.ok(peaks.peakJointSpeedDegS[5]! <= 60 && peaks.peakJointAccelerationDegS2[5]! > 600, JSON.stringify(peaks));
    await assertRefused(plan, 'joint_acceleration', `joint 6 would reach ${peaks.peakJointAccelerationDegS2[5]!.toFixed(0)}°/s², above its 300°/s² cap`);
  });
});
