/**
 * The cancel part of the ArmDriver contract (registered for every driver × arm combination by
 * arm-driver-cancel-matrix.test.ts, over test/support/driver-matrix.ts): a cancel always stops,
 * whenever it arrives. Judged by ground truth, how far the arm really moved
 * (`DriverSubject.groundTruthJoints`: the simulation itself, not the driver's report), never by the
 * status the driver answers. Where a cancel took effect is read from the controller's own per-tick
 * samples (the last one still `moving`), not guessed from when the test sent it.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import type { ArmSample, MotionEnd } from '../../driver/arm-driver.js';
import type { DriverSubject } from './arm-driver-contract.js';
import type { Trajectory } from '../../model/arm-model.js';
import type { ArmPresetId } from '../../sim/arm-presets.js';

type Point = { x: number; y: number; z: number };
/**
 * Per preset: a point in front of the arm, well clear of the default objects, a short swing from home
 * (the UR5e's home is at -x, the xArm 6's at +x), and a second one near it.
 */
const TARGETS: Record<ArmPresetId, { clear: Point; next: Point }> = {
  ur5e: { clear: { x: -400, y: -150, z: 350 }, next: { x: -420, y: -100, z: 380 } },
  xarm6: { clear: { x: 330, y: -150, z: 300 }, next: { x: 350, y: -100, z: 330 } },
};
/**
 * Wall time a cancel may take to reach the arm (a remote controller at 2x: one socket hop and a frame),
 * as arm time, s. The travel allowed after a cancel is v * CANCEL_REACTION_S + v^2 / (2 a_stop).
 */
const CANCEL_REACTION_S = 0.1;
/** The controller's control period, s: its samples are this far apart. */
const CONTROL_STEP_S = 0.004;

function tcpGapMm(subject: DriverSubject, a: readonly number[], b: readonly number[]): number {
  const p = subject.model.tcp(a), q = subject.model.tcp(b);
  return Math.hypot(p.x - q.x, p.y - q.y, p.z - q.z);
}

function maxJointGap(a: readonly number[], b: readonly number[]): number {
  return Math.max(...a.map((q, i) => Math.abs(q - b[i]!)));
}

/** After the motion: ground truth agrees with the driver's own final report, the arm is idle and takes the next motion. */
async function assertAtRestAndUsable(subject: DriverSubject, end: MotionEnd, plan: (s: DriverSubject) => Trajectory): Promise<void> {
  // A round trip: anything the driver sent before has been done by the arm.
  await subject.driver.readForceTorque();
  const truth = subject.groundTruthJoints();
  assert.ok(maxJointGap(truth, end.final.jointsDeg) < 0.01, `the driver's final report is where the arm is: ${JSON.stringify(truth)} vs ${JSON.stringify(end.final.jointsDeg)}`);
  assert.equal(subject.driver.status().state, 'idle');
  assert.equal((await subject.driver.execute(plan(subject), { motionId: `after-${end.motionId}` })).status, 'completed', 'the next motion runs');
}

/** Registers the cancel tests; `run` wraps a body with a fresh subject, `plan` plans a straight move to a target. */
export function cancelContract(run: (body: (subject: DriverSubject) => Promise<void>) => () => Promise<void>, plan: (subject: DriverSubject, target: Point, speed?: number) => Trajectory): void {
  const targets = (s: DriverSubject): { clear: Point; next: Point } => TARGETS[s.model.preset.id];
  const toClear = (s: DriverSubject): Trajectory => plan(s, targets(s).clear);

  it('cancel: an already-aborted signal never starts the motion (nothing moved by ground truth, no progress)', run(async (subject) => {
    const before = subject.groundTruthJoints();
    const abort = new AbortController();
    abort.abort();
    let reports = 0;
    const end = await subject.driver.execute(toClear(subject), { motionId: 'cancel-before', signal: abort.signal, onProgress: () => reports++ });
    assert.deepEqual([end.status, reports], ['cancelled', 0]);
    await subject.driver.readForceTorque();
    assert.equal(tcpGapMm(subject, before, subject.groundTruthJoints()), 0, 'the arm did not move at all');
    await assertAtRestAndUsable(subject, end, toClear);
  }));

  it('cancel: during the start (on the first progress report, once the arm has started) the arm stops within its stopping distance from where the cancel took effect', run(async (subject) => {
    const before = subject.groundTruthJoints();
    const trajectory = plan(subject, targets(subject).clear, 0.5);
    const abort = new AbortController();
    // Every control sample of the motion, in order: the controller's own record of where the cancel found the arm.
    const samples: ArmSample[] = [];
    const end = await subject.driver.execute(trajectory, {
      motionId: 'cancel-start',
      signal: abort.signal,
      onProgress: (p) => {
        samples.push(...p.samples);
        // The first report is the motion's start on the arm (a remote controller's first frame, not the request leaving this process).
        abort.abort();
      },
    });
    assert.equal(end.status, 'cancelled');
    assert.ok(samples.length > 0, 'the arm reported its start');
    await subject.driver.readForceTorque();
    const truth = subject.groundTruthJoints();
    // The cancel took effect after the last sample still moving (none: before the first control step, at rest).
    const cut = samples.findLastIndex((sample) => sample.state === 'moving');
    const lastMoving = cut >= 0 ? samples[cut] : undefined;
    assert.ok(samples.slice(0, cut + 1).every((sample) => sample.state === 'moving'), 'moving until the cancel, then stopping: one stop, no resume');
    const from = lastMoving?.jointsDeg ?? before;
    const v = lastMoving?.tcpSpeedMmS ?? 0;
    const a = subject.model.limits.maxTcpAccelerationMmS2;
    // The controlled stop decelerates within the joint caps, which can bind before the TCP cap: half of it is the floor used here.
    const bound = v * CONTROL_STEP_S + (v * v) / (2 * (a / 2)) + 1e-6;
    const after = tcpGapMm(subject, from, truth);
    assert.ok(after <= bound, `travelled ${after.toFixed(3)} mm after the cancel took effect at ${v.toFixed(1)} mm/s (bound ${bound.toFixed(3)} mm)`);
    assert.ok(tcpGapMm(subject, trajectory.endJointsDeg, truth) > 1, 'stopped short of the target');
    await assertAtRestAndUsable(subject, end, toClear);
  }));

  it('cancel: mid-path the arm stops within v*t_r + v^2/(2a) of TCP travel after the cancel', run(async (subject) => {
    const trajectory = plan(subject, targets(subject).clear, 0.3);
    const abort = new AbortController();
    let atCancel: ArmSample | undefined;
    const end = await subject.driver.execute(trajectory, {
      motionId: 'cancel-mid',
      signal: abort.signal,
      onProgress: (p) => {
        if (atCancel === undefined && p.fraction > 0.4 && p.samples.length > 0) {
          atCancel = p.samples.at(-1)!;
          abort.abort();
        }
      },
    });
    assert.ok(atCancel !== undefined);
    assert.equal(end.status, 'cancelled');
    await subject.driver.readForceTorque();
    const truth = subject.groundTruthJoints();
    const after = tcpGapMm(subject, atCancel.jointsDeg, truth);
    const v = atCancel.tcpSpeedMmS;
    const a = subject.model.limits.maxTcpAccelerationMmS2;
    // The controlled stop decelerates within the joint caps, which can bind before the TCP cap: half of it is the floor used here.
    const bound = v * CANCEL_REACTION_S + (v * v) / (2 * (a / 2));
    assert.ok(after <= bound, `travelled ${after.toFixed(1)} mm after the cancel at ${v.toFixed(0)} mm/s (bound ${bound.toFixed(1)} mm)`);
    assert.ok(tcpGapMm(subject, trajectory.endJointsDeg, truth) > 1, 'stopped short of the target');
    await assertAtRestAndUsable(subject, end, toClear);
  }));

  it('cancel: at the end (on the last progress report, and after the motion resolved) the arm rests at the target and nothing else moves', run(async (subject) => {
    const trajectory = toClear(subject);
    const abort = new AbortController();
    const end = await subject.driver.execute(trajectory, { motionId: 'cancel-end', signal: abort.signal, onProgress: (p) => { if (p.fraction >= 1) abort.abort(); } });
    assert.ok(end.status === 'completed' || end.status === 'cancelled', end.status);
    await subject.driver.readForceTorque();
    assert.ok(maxJointGap(subject.groundTruthJoints(), trajectory.endJointsDeg) < 0.01, 'at the end of the path');
    // Aborting a signal whose motion is over touches nothing.
    const late = new AbortController();
    const next = plan(subject, targets(subject).next, 0.5);
    const second = await subject.driver.execute(next, { motionId: 'cancel-late', signal: late.signal });
    late.abort();
    assert.equal(second.status, 'completed');
    await subject.driver.readForceTorque();
    assert.ok(maxJointGap(subject.groundTruthJoints(), next.endJointsDeg) < 0.01);
    await assertAtRestAndUsable(subject, second, toClear);
  }));
}
