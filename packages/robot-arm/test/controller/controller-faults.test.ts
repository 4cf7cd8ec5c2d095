/**
 * Real faults of the controller process: `robot-sim` runs as a child (spawned by the supervisor, the
 * way `npm start` runs it), and the tests kill it with SIGKILL mid-motion and hang it with SIGSTOP.
 * Every wait is for an event (fault listener, progress, reconnection), bounded by the test timeout;
 * only PIDs this test started are signalled.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { newSecret } from '../../controller/controller-auth.js';
import { ControllerLink } from '../../controller/controller-link.js';
import { PoseFile } from '../../controller/controller-pose-file.js';
import { RemoteArmDriver } from '../../controller/remote-arm-driver.js';
import { statusWhere } from '../support/arm-status.js';
import { isArmFaultError, type ArmFault, type ArmStatus } from '../../driver/arm-driver.js';
import { SimArmDriver } from '../../driver/sim-arm-driver.js';
import { ArmModel } from '../../model/arm-model.js';
import type { Vec3 } from '../../sim/vector3.js';
import { untilStopped } from '../support/process-stopped.js';

const HOME = [0, -90, 90, -90, -90, 0];
const model = new ArmModel({ preset: 'ur5e' });
const dirs: string[] = [];
const drivers: RemoteArmDriver[] = [];

function workDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'robot-sim-faults-'));
  dirs.push(dir);
  return dir;
}

async function startDriver(dir: string, heartbeatTimeoutMs?: number, timeScale = 1): Promise<RemoteArmDriver> {
  const driver = await RemoteArmDriver.start({ preset: 'ur5e', latchPath: join(dir, 'estop.json'), posePath: join(dir, 'pose.json'), timeScale, ...(heartbeatTimeoutMs !== undefined ? { heartbeatTimeoutMs } : {}), log: () => undefined });
  drivers.push(driver);
  return driver;
}

/** Resolves with the next fault the driver reports. */
function nextFault(driver: RemoteArmDriver): Promise<ArmFault> {
  return new Promise((resolve) => {
    const off = driver.onFault((fault) => {
      off();
      resolve(fault);
    });
  });
}

/** SIGKILLs the controller and resolves with the first status of the one the supervisor restarted. */
async function killAndRecover(driver: RemoteArmDriver): Promise<ArmStatus> {
  const firstPid = driver.supervisor.pid!;
  const faulted = nextFault(driver);
  process.kill(firstPid, 'SIGKILL');
  await faulted;
  const back = await statusWhere(driver, (s) => s.fault?.code === 'link_recovered');
  assert.notEqual(driver.supervisor.pid, firstPid);
  return back;
}

/** Moves the TCP straight to `target` and waits until the arm is at rest there. */
async function moveTo(driver: RemoteArmDriver, target: Vec3, motionId: string, contactAllowedWith: string[] = []): Promise<void> {
  const plan = model.planWaypoints(driver.status().jointsDeg, [{ position: target }], { speedFraction: 0.5, path: 'linear' });
  assert.ok(plan.ok, plan.ok ? '' : plan.message);
  assert.equal((await driver.execute(plan.trajectory, { motionId, contactAllowedWith })).status, 'completed');
}

function planFrom(status: ArmStatus, x: number) {
  const plan = model.planWaypoints(status.jointsDeg, [{ position: { x, y: -150, z: 420 } }], { speedFraction: 0.3 });
  assert.ok(plan.ok, plan.ok ? '' : plan.message);
  return plan.trajectory;
}

after(async () => {
  for (const driver of drivers) await driver.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('robot-sim controller process', () => {
  it('keeps its socket in a private directory (0700) and refuses a peer with another secret', async () => {
    const driver = await startDriver(workDir());
    assert.equal(statSync(driver.supervisor.directory).mode & 0o777, 0o700);
    assert.equal(statSync(driver.supervisor.socketPath).mode & 0o777, 0o600);
    const before = driver.status();
    await assert.rejects(ControllerLink.open({ socketPath: driver.supervisor.socketPath, secret: newSecret() }), /auth_failed/);
    // The refused peer did not take over: the server's link still streams and the arm has not moved.
    const after = await statusWhere(driver, (s) => s.asOf > before.asOf);
    assert.deepEqual(after.jointsDeg, HOME);
    assert.equal(after.state, 'idle');
    assert.equal(driver.status().fault, null);
  });

  it('SIGKILL mid-motion: the motion fails with the reason, motions are refused, stop says it was not confirmed; the restarted controller is re-read where the arm stopped, with its latch', async () => {
    const dir = workDir();
    const driver = await startDriver(dir, 1500);
    const firstPid = driver.supervisor.pid!;
    let moving!: () => void;
    const movingSeen = new Promise<void>((resolve) => (moving = resolve));
    let reports = 0;
    const motion = driver.execute(planFrom(driver.status(), -450), { motionId: 'kill-me', onProgress: (p) => {
      // The second report after the arm left home: the controller saved the pose of the first one before sending this.
      if (p.fraction > 0.1 && ++reports === 2) moving();
    } });
    const outcome = motion.then(() => 'resolved', (error: unknown) => error);
    await movingSeen;
    // Freeze it first so the pose file holds exactly where the arm is when it dies.
    process.kill(firstPid, 'SIGSTOP');
    await untilStopped(firstPid);
    const saved = JSON.parse(readFileSync(join(dir, 'pose.json'), 'utf8')) as { jointsDeg: number[] };
    const faulted = nextFault(driver);
    process.kill(firstPid, 'SIGKILL');
    const fault = await faulted;
    assert.equal(fault.kind, 'disconnected');
    assert.match(fault.message, /controller unreachable: .*(killed by SIGKILL|closed the connection)/);
    const error = await outcome;
    assert.ok(isArmFaultError(error), `the motion must fail, got ${String(error)}`);
    assert.equal(error.fault.code, 'controller_unreachable');
    assert.match(error.message, /controller unreachable/);
    assert.equal(driver.status().state, 'fault');
    await assert.rejects(driver.execute(planFrom(driver.status(), -400), { motionId: 'refused' }), (e: unknown) => isArmFaultError(e) && e.fault.kind === 'disconnected');
    await assert.rejects(driver.stop('emergency'), (e: unknown) => isArmFaultError(e) && /could not be confirmed/.test(e.message));

    // Back: a new process, its state read from it (not assumed), still in fault until an operator clears it.
    const back = await statusWhere(driver, (s) => s.fault?.code === 'link_recovered');
    assert.notEqual(driver.supervisor.pid, firstPid);
    assert.deepEqual(back.jointsDeg, saved.jointsDeg, 'the restarted controller reports the pose where the arm stopped');
    assert.notDeepEqual(back.jointsDeg, HOME);
    // The emergency stop asked for while it was unreachable was sent on reconnection, and latched by the controller.
    const latched = await statusWhere(driver, (s) => s.estopLatched && driver.controllerLatch !== null);
    assert.equal(driver.controllerLatch?.reason, 'emergency stop requested while the controller was unreachable');
    assert.equal(latched.state, 'fault', 'the link fault stays until cleared');
    assert.ok(JSON.parse(readFileSync(join(dir, 'estop.json'), 'utf8')).latched);
    await assert.rejects(driver.execute(planFrom(driver.status(), -400), { motionId: 'still-refused' }), (e: unknown) => isArmFaultError(e) && e.fault.code === 'link_recovered');

    // Killed again while latched: the third controller comes back latched, from its own file.
    const secondPid = driver.supervisor.pid!;
    const faultedAgain = nextFault(driver);
    process.kill(secondPid, 'SIGKILL');
    await faultedAgain;
    const third = await statusWhere(driver, (s) => s.fault?.code === 'link_recovered' && driver.supervisor.pid !== secondPid);
    assert.equal(third.estopLatched, true);
    assert.deepEqual(third.jointsDeg, saved.jointsDeg);
    await driver.clearFault();
    await assert.rejects(driver.execute(planFrom(driver.status(), -400), { motionId: 'latched' }), (e: unknown) => isArmFaultError(e) && e.fault.code === 'estop_latched');
    await driver.resetEmergencyStop();
    const ready = await statusWhere(driver, (s) => s.state === 'idle' && !s.estopLatched);
    const end = await driver.execute(planFrom(ready, -400), { motionId: 'after-reset' });
    assert.equal(end.status, 'completed');
  });

  it('SIGKILL while holding an object: the restarted controller still holds it with the same grip, refuses a second grasp, and lets it fall where it would have', async () => {
    const dir = workDir();
    const driver = await startDriver(dir, undefined, 4);
    const block = driver.status().objects.find((o) => o.id === 'block-1')!;
    await moveTo(driver, { ...block.position, z: block.position.z + 100 }, 'above-block');
    await moveTo(driver, block.position, 'down-to-block', ['block-1']);
    const grasp = await driver.grasp({ forceN: 15 });
    assert.ok(grasp.ok, JSON.stringify(grasp));
    await moveTo(driver, { ...block.position, z: block.position.z + 30 }, 'lift-block');
    const before = driver.status();
    assert.equal(before.heldObjectId, 'block-1');
    const expected = model.planRelease(before);
    assert.ok(expected.ok, JSON.stringify(expected));
    assert.ok(expected.dropHeightMm > 25, `a real fall, got ${expected.dropHeightMm} mm`);
    const saved = JSON.parse(readFileSync(join(dir, 'pose.json'), 'utf8')) as { held: { objectId: string } | null; broken: string[] };
    assert.equal(saved.held?.objectId, 'block-1');
    assert.deepEqual(saved.broken, []);

    const back = await killAndRecover(driver);
    assert.deepEqual(back.jointsDeg, before.jointsDeg);
    assert.equal(back.heldObjectId, 'block-1', 'the restarted controller knows what its gripper holds');
    assert.deepEqual(back.held?.offsetInToolMm, before.held?.offsetInToolMm);
    assert.deepEqual(back.held?.rotationInTool, before.held?.rotationInTool);
    const carried = back.objects.find((o) => o.id === 'block-1')!;
    assert.equal(carried.held, true);
    assert.ok(Math.hypot(carried.position.x - block.position.x, carried.position.y - block.position.y, carried.position.z - block.position.z - 30) < 0.5, `still carried 30 mm up: ${JSON.stringify(carried.position)}`);

    await driver.clearFault();
    assert.deepEqual(await driver.grasp({ forceN: 15 }), { ok: false, code: 'already_holding', message: 'the gripper already holds an object; release it first' });
    const release = await driver.release();
    assert.ok(release.ok, JSON.stringify(release));
    assert.equal(release.objectId, 'block-1');
    assert.equal(release.broke, false);
    assert.ok(Math.abs(release.dropHeightMm - expected.dropHeightMm) < 1e-6, `fell ${release.dropHeightMm} mm, expected ${expected.dropHeightMm} mm`);
    for (const axis of ['x', 'y', 'z'] as const) assert.ok(Math.abs(release.position[axis] - expected.position[axis]) < 1e-6, `landed at ${JSON.stringify(release.position)}, expected ${JSON.stringify(expected.position)}`);
    const after = await statusWhere(driver, (s) => s.heldObjectId === null);
    assert.equal(after.objects.find((o) => o.id === 'block-1')?.held, false);
  });

  it('a broken object stays broken across a SIGKILL of the controller (its camera still reports it broken)', async () => {
    const dir = workDir();
    // What a controller whose egg broke left on disk.
    const before = new SimArmDriver({ restoredGripper: { held: null, brokenObjectIds: ['egg-1'] } });
    new PoseFile(join(dir, 'pose.json')).save(before.status());
    await before.close();
    const driver = await startDriver(dir, undefined, 4);
    const conditions = (s: ArmStatus) => Object.fromEntries(s.objects.map((o) => [o.id, o.condition]));
    assert.deepEqual(conditions(driver.status()), { 'cup-1': 'intact', 'egg-1': 'broken', 'block-1': 'intact', 'bottle-1': 'intact', 'tray-1': 'intact' });
    const back = await killAndRecover(driver);
    assert.equal(conditions(back)['egg-1'], 'broken');
    await driver.clearFault();
    const egg = (await driver.captureCamera()).find((d) => d.id === 'egg-1');
    assert.equal(egg?.condition, 'broken');
  });

  it('SIGSTOP (a hung controller): fault by heartbeat timeout within the bound, then a fresh controller', async () => {
    const driver = await startDriver(workDir(), 500);
    const pid = driver.supervisor.pid!;
    const faulted = nextFault(driver);
    const stoppedAt = performance.now();
    process.kill(pid, 'SIGSTOP');
    const fault = await faulted;
    const tookMs = performance.now() - stoppedAt;
    assert.equal(fault.kind, 'timeout');
    assert.equal(fault.message, 'controller unreachable: no heartbeat from the controller for 500 ms');
    // Not before the bound (it is a heartbeat timeout, not a guess); the upper side allows a loaded CI machine.
    assert.ok(tookMs >= 400 && tookMs < 500 + 4000, `fault after ${tookMs.toFixed(0)} ms`);
    await assert.rejects(driver.readForceTorque(), (e: unknown) => isArmFaultError(e) && e.fault.kind === 'disconnected');
    const back = await statusWhere(driver, (s) => s.fault?.code === 'link_recovered');
    assert.notEqual(driver.supervisor.pid, pid, 'the hung process was replaced');
    assert.deepEqual(back.jointsDeg, HOME);
    const reading = await driver.readForceTorque({ filter: 'raw', axes: ['Fz'] });
    assert.equal(typeof reading.values.Fz, 'number');
  });
});
