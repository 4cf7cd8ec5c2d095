/**
 * The ArmDriver contract as a test suite any driver runs (driver/arm-driver.ts states it): call
 * `armDriverContract(name, options)` from a test file with a factory of fresh drivers. Every motion is
 * planned with the driver's model from the driver's own snapshot, so the suite needs nothing but the
 * interface; the scene it uses is the default table (`block-1` among the objects). Waits are on the
 * driver's own progress reports and promises, never on wall-clock sleeps. Its cancel part
 * (arm-driver-cancel-contract.ts) runs over every driver × arm combination in
 * arm-driver-cancel-matrix.test.ts.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ArmFaultError, type ArmDriver, type ArmFaultKind, type ArmSample, type ArmStatus, type MotionProgress } from '../../driver/arm-driver.js';
import type { ArmModel, Trajectory } from '../../model/arm-model.js';

/** A driver under test and the model it is for. */
export interface DriverSubject {
  readonly driver: ArmDriver;
  readonly model: ArmModel;
  /**
   * The joints as the simulated arm itself has them (not the driver's report): the in-process
   * simulation, or what the controller process's simulation wrote to its pose file. Read at rest.
   */
  groundTruthJoints(): readonly number[];
  /** Closes the driver and anything behind it (a controller process). */
  close(): Promise<void>;
}

export interface DriverContractOptions {
  /** A fresh driver: arm idle at its home pose, default scene, no e-stop, no fault. */
  create(): Promise<DriverSubject>;
  /**
   * How to put this driver into a fault (protective stop, lost controller) and which kind it must
   * report. Omitted: the fault tests are skipped with a printed reason.
   */
  readonly fault?: {
    readonly kind: ArmFaultKind;
    /** A driver for the fault test (default `create`). */
    create?(): Promise<DriverSubject>;
    /** Drives the subject into the fault; resolves once the fault has happened. */
    provoke(subject: DriverSubject): Promise<void>;
  };
}

/** A point in front of the arm every preset reaches, well clear of the default objects. */
const CLEAR_TARGET = { x: -400, y: -150, z: 350 };

/** Plans a straight move of the TCP from the driver's current snapshot. */
export function planTo(subject: DriverSubject, target: { x: number; y: number; z: number }, speedFraction = 0.5): Trajectory {
  const plan = subject.model.planWaypoints(subject.driver.status().jointsDeg, [{ position: target }], { speedFraction, path: 'joint' });
  assert.ok(plan.ok, `planning to ${JSON.stringify(target)}: ${plan.ok ? '' : plan.message}`);
  return plan.trajectory;
}

/** Asserts that `promise` rejects with an ArmFaultError of this kind (and code, when given). */
export async function rejectsWithFault(promise: Promise<unknown>, kind: ArmFaultKind, code?: string): Promise<ArmFaultError> {
  let caught: unknown;
  try {
    await promise;
  } catch (error) {
    caught = error;
  }
  assert.ok(caught instanceof ArmFaultError, `expected an ArmFaultError (${kind}${code !== undefined ? `/${code}` : ''}), got ${caught === undefined ? 'a resolved promise' : String(caught)}`);
  assert.equal(caught.kind, kind, caught.message);
  if (code !== undefined) assert.equal(caught.fault.code, code, caught.message);
  return caught;
}

function maxJointGap(a: readonly number[], b: readonly number[]): number {
  return Math.max(...a.map((q, i) => Math.abs(q - b[i]!)));
}

/** Runs `body` with a fresh subject and closes it afterwards, whatever happened. */
export async function withSubject(create: () => Promise<DriverSubject>, body: (subject: DriverSubject) => Promise<void>): Promise<void> {
  const subject = await create();
  try {
    await body(subject);
  } finally {
    await subject.close();
  }
}

/** Registers the contract tests for one driver. */
export function armDriverContract(name: string, options: DriverContractOptions): void {
  const run = (body: (subject: DriverSubject) => Promise<void>) => () => withSubject(options.create, body);

  describe(`ArmDriver contract: ${name}`, () => {
    it('status is a current snapshot of the arm at rest, consistent with the model', run(async ({ driver, model }) => {
      const before = Date.now();
      const s = driver.status();
      assert.equal(driver.presetId, model.preset.id);
      assert.equal(s.presetId, model.preset.id);
      assert.equal(s.state, 'idle');
      assert.equal(s.fault, null);
      assert.equal(s.estopLatched, false);
      assert.equal(s.motion, null);
      assert.equal(s.held, null);
      assert.equal(s.heldObjectId, null);
      assert.equal(s.jointsDeg.length, model.preset.joints.length);
      assert.ok(s.asOf <= Date.now() && s.asOf > before - 60_000, `asOf ${s.asOf} is a wall-clock time of this process`);
      const tcp = model.tcp(s.jointsDeg);
      assert.ok(Math.hypot(tcp.x - s.tcp.x, tcp.y - s.tcp.y, tcp.z - s.tcp.z) < 0.01, 'the reported TCP is the model\'s forward kinematics of the reported joints');
      assert.ok(s.jointVelocitiesDegS.every((v) => v === 0) && s.tcpSpeedMmS === 0, 'at rest');
      assert.ok(s.objects.some((o) => o.id === 'block-1'), 'the default scene');
      assert.equal(typeof driver.description, 'string');
    }));

    it('execute streams every control sample with rising progress and resolves completed at the end of the trajectory', run(async (subject) => {
      const { driver, model } = subject;
      const trajectory = planTo(subject, CLEAR_TARGET);
      const reports: MotionProgress[] = [];
      const streamed: ArmStatus[] = [];
      const unsubscribe = driver.subscribe((s) => streamed.push(s));
      const end = await driver.execute(trajectory, { motionId: 'contract-1', onProgress: (p) => reports.push(p) });
      unsubscribe();
      assert.equal(end.motionId, 'contract-1');
      assert.equal(end.status, 'completed');
      assert.ok(maxJointGap(end.final.jointsDeg, trajectory.endJointsDeg) < 0.01, 'ends at the trajectory\'s last joints');
      assert.ok(Math.abs(end.elapsedS - trajectory.durationS) < 0.1, `took ${end.elapsedS} s of controller time for a ${trajectory.durationS} s plan`);
      assert.ok(reports.length > 3, `${reports.length} progress reports`);
      const samples: ArmSample[] = reports.flatMap((r) => r.samples);
      for (let i = 1; i < reports.length; i++) assert.ok(reports[i]!.fraction >= reports[i - 1]!.fraction, 'progress never goes back');
      assert.ok(reports.every((r) => r.motionId === 'contract-1' && r.fraction >= 0 && r.fraction <= 1));
      assert.ok(reports.at(-1)!.fraction > 0.95);
      for (let i = 1; i < samples.length; i++) assert.ok(samples[i]!.timeMs > samples[i - 1]!.timeMs, 'samples are in controller-time order');
      assert.ok(samples.length >= trajectory.durationS / 0.02, `${samples.length} samples for ${trajectory.durationS} s`);
      for (const sample of samples) {
        sample.jointsDeg.forEach((q, j) => assert.ok(q >= model.limits.joints[j]!.minDeg - 1e-6 && q <= model.limits.joints[j]!.maxDeg + 1e-6));
      }
      assert.ok(streamed.length > 0, 'the state stream reported during the motion');
      const after = driver.status();
      assert.equal(after.state, 'idle');
      assert.ok(maxJointGap(after.jointsDeg, trajectory.endJointsDeg) < 0.01);
    }));

    it('execute refuses without moving: a trajectory from another pose (stale_start) and a second motion while one runs (busy)', run(async (subject) => {
      const { driver } = subject;
      const home = driver.status().jointsDeg;
      const first = planTo(subject, CLEAR_TARGET);
      const end = await driver.execute(first, { motionId: 'contract-1' });
      assert.equal(end.status, 'completed');
      const here = driver.status().jointsDeg;
      // `first` starts at home, where the arm no longer is.
      await rejectsWithFault(driver.execute(first, { motionId: 'contract-2' }), 'rejected', 'stale_start');
      assert.deepEqual(driver.status().jointsDeg, here, 'nothing moved');
      assert.ok(maxJointGap(here, home) > 1);
      const back = subject.model.planJointMotion(here, home, { speedFraction: 0.3 });
      assert.ok(back.ok);
      let busy: Promise<unknown> | undefined;
      const running = driver.execute(back.trajectory, {
        motionId: 'contract-3',
        onProgress: () => {
          busy ??= rejectsWithFault(driver.execute(back.trajectory, { motionId: 'contract-4' }), 'rejected', 'busy');
        },
      });
      assert.equal((await running).status, 'completed', 'the running motion went on');
      assert.ok(busy !== undefined, 'a second execute was tried while moving');
      await busy;
    }));

    it('aborting the signal stops the motion in a controlled way: cancelled, at rest short of the target', run(async (subject) => {
      const { driver } = subject;
      const trajectory = planTo(subject, CLEAR_TARGET, 0.3);
      const abort = new AbortController();
      const end = await driver.execute(trajectory, { motionId: 'contract-1', signal: abort.signal, onProgress: (p) => { if (p.fraction > 0.3) abort.abort(); } });
      assert.equal(end.status, 'cancelled');
      const s = driver.status();
      assert.equal(s.state, 'idle');
      assert.ok(s.jointVelocitiesDegS.every((v) => v === 0));
      assert.ok(maxJointGap(s.jointsDeg, trajectory.endJointsDeg) > 0.5, 'stopped short of the end');
      // At rest and idle: the next motion from here is accepted.
      assert.equal((await driver.execute(planTo(subject, CLEAR_TARGET), { motionId: 'contract-2' })).status, 'completed');
    }));

    it('stop(controlled) during a motion decelerates and holds: stopped, then the arm takes new motions; stop at rest is a no-op', run(async (subject) => {
      const { driver } = subject;
      const idle = await driver.stop('controlled');
      assert.deepEqual([idle.wasMoving, idle.state], [false, 'idle']);
      const trajectory = planTo(subject, CLEAR_TARGET, 0.3);
      let report: Promise<Awaited<ReturnType<ArmDriver['stop']>>> | undefined;
      const end = await driver.execute(trajectory, { motionId: 'contract-1', onProgress: (p) => { if (p.fraction > 0.3) report ??= driver.stop('controlled'); } });
      assert.ok(report !== undefined);
      const stop = await report;
      assert.equal(stop.wasMoving, true);
      assert.ok(stop.stoppingTimeS > 0 && stop.stoppingDistanceMm > 0, JSON.stringify(stop));
      assert.equal(end.status, 'stopped');
      assert.equal(driver.status().state, 'idle');
      assert.deepEqual([(await driver.stop('controlled')).wasMoving, (await driver.stop('controlled')).wasMoving], [false, false], 'idempotent');
      assert.equal((await driver.execute(planTo(subject, CLEAR_TARGET), { motionId: 'contract-2' })).status, 'completed');
    }));

    it('stop(emergency) during a motion halts at once and latches: every command is refused until the operator reset', run(async (subject) => {
      const { driver } = subject;
      const trajectory = planTo(subject, CLEAR_TARGET, 0.3);
      let stopped: Promise<Awaited<ReturnType<ArmDriver['stop']>>> | undefined;
      let jointsAtStop: readonly number[] = [];
      const end = await driver.execute(trajectory, {
        motionId: 'contract-1',
        onProgress: (p) => {
          if (p.fraction > 0.3 && stopped === undefined) {
            // Where the stop took effect: the status once it is answered (a remote controller gets it a frame later).
            stopped = driver.stop('emergency').then((report) => {
              jointsAtStop = driver.status().jointsDeg;
              return report;
            });
          }
        },
      });
      assert.ok(stopped !== undefined);
      const report = await stopped;
      assert.deepEqual([report.wasMoving, report.state, report.stoppingTimeS], [true, 'estop', 0]);
      assert.equal(end.status, 'emergency_stopped');
      const s = driver.status();
      assert.deepEqual([s.state, s.estopLatched], ['estop', true]);
      assert.ok(maxJointGap(s.jointsDeg, jointsAtStop) < 1e-9, 'frozen where the stop found it');
      await rejectsWithFault(driver.execute(planTo(subject, CLEAR_TARGET), { motionId: 'contract-2' }), 'rejected', 'estop_latched');
      await rejectsWithFault(driver.grasp({ forceN: 15 }), 'rejected', 'estop_latched');
      assert.equal((await driver.stop('emergency')).state, 'estop', 'a second emergency stop is accepted');
      assert.equal((await driver.stop('controlled')).state, 'estop', 'a controlled stop does not clear the latch');
      assert.deepEqual(driver.status().jointsDeg, s.jointsDeg, 'nothing moved while latched');
      await driver.resetEmergencyStop();
      assert.deepEqual([driver.status().state, driver.status().estopLatched], ['idle', false]);
      assert.equal((await driver.execute(planTo(subject, CLEAR_TARGET), { motionId: 'contract-3' })).status, 'completed');
    }));

    it('the gripper closes on an object under the TCP and lets it go onto the table; with nothing there it says so; busy while moving', run(async (subject) => {
      const { driver } = subject;
      const empty = await driver.grasp({ forceN: 15 });
      assert.ok(!empty.ok, 'nothing under the TCP at home');
      assert.deepEqual(await driver.release(), { ok: false, code: 'not_holding', message: 'the gripper holds nothing' });
      const block = driver.status().objects.find((o) => o.id === 'block-1')!;
      const above = { x: block.position.x, y: block.position.y, z: block.position.z + 100 };
      let busy: Promise<unknown> | undefined;
      const move = await driver.execute(planTo(subject, above), { motionId: 'contract-1', onProgress: () => { busy ??= rejectsWithFault(driver.grasp({ forceN: 15 }), 'rejected', 'busy'); } });
      assert.equal(move.status, 'completed');
      await busy;
      const approach = subject.model.planWaypoints(driver.status().jointsDeg, [{ position: block.position }], { speedFraction: 0.3, path: 'linear' });
      assert.ok(approach.ok);
      assert.equal((await driver.execute(approach.trajectory, { motionId: 'contract-2', contactAllowedWith: ['block-1'] })).status, 'completed');
      const grasp = await driver.grasp({ forceN: 15 });
      assert.ok(grasp.ok, JSON.stringify(grasp));
      assert.equal(grasp.objectId, 'block-1');
      assert.equal(driver.status().heldObjectId, 'block-1');
      assert.equal(driver.status().held?.object.id, 'block-1');
      const release = await driver.release();
      assert.ok(release.ok, JSON.stringify(release));
      assert.equal(release.objectId, 'block-1');
      assert.equal(driver.status().heldObjectId, null);
    }));

    it('sensors: force/torque through each filter and the camera\'s detections of the scene; a bad request is rejected', run(async ({ driver }) => {
      const all = await driver.readForceTorque();
      assert.equal(all.filter, 'kalman');
      assert.deepEqual(Object.keys(all.values).sort(), ['Fx', 'Fy', 'Fz', 'Mx', 'My', 'Mz']);
      assert.ok(Object.values(all.values).every(Number.isFinite));
      const fz = await driver.readForceTorque({ filter: 'moving_average', axes: ['Fz'] });
      assert.deepEqual([fz.filter, Object.keys(fz.values)], ['moving_average', ['Fz']]);
      assert.ok(fz.timeMs >= all.timeMs, 'controller time does not go back');
      await rejectsWithFault(driver.readForceTorque({ filter: 'median' as never }), 'rejected');
      const seen = await driver.captureCamera();
      const ids = driver.status().objects.map((o) => o.id).sort();
      assert.deepEqual(seen.map((d) => d.id).sort(), ids);
      for (const d of seen) assert.ok(Number.isFinite(d.position.x) && d.confidence >= 0 && d.confidence <= 1);
    }));

    it('close stops the link: later commands reject as disconnected; close is idempotent', async () => {
      const subject = await options.create();
      await subject.driver.close();
      await subject.driver.close();
      await rejectsWithFault(subject.driver.execute(planTo(subject, CLEAR_TARGET), { motionId: 'contract-1' }), 'disconnected');
      await rejectsWithFault(subject.driver.readForceTorque(), 'disconnected');
      await subject.close();
    });

    const fault = options.fault;
    it('a fault is reported in status and to the fault listeners once; motions are refused with its kind; stop still answers', async (t) => {
      if (fault === undefined) {
        t.skip(`${name} has no way to provoke a fault in tests`);
        return;
      }
      await withSubject(fault.create ?? options.create, async (subject) => {
        const { driver } = subject;
        const heard: string[] = [];
        driver.onFault((f) => heard.push(f.kind));
        await fault.provoke(subject);
        const s = driver.status();
        assert.equal(s.state, 'fault');
        assert.equal(s.fault?.kind, fault.kind);
        assert.deepEqual(heard, [fault.kind]);
        const target = { x: s.tcp.x, y: s.tcp.y, z: s.tcp.z + 50 };
        const plan = subject.model.planWaypoints(s.jointsDeg, [{ position: target }], { speedFraction: 0.3 });
        assert.ok(plan.ok);
        await rejectsWithFault(driver.execute(plan.trajectory, { motionId: 'contract-fault' }), fault.kind);
        // stop never hangs and fails only with the typed fault.
        try {
          await driver.stop('controlled');
        } catch (error) {
          assert.ok(error instanceof ArmFaultError, String(error));
        }
        assert.deepEqual(heard, [fault.kind], 'reported once');
      });
    });
  });
}
