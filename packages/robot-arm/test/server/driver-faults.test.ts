/**
 * The server with a driver whose link to the arm can go quiet or drop, as a remote driver's can: the
 * simulated cell behind a link the test controls. A stale snapshot or a lost controller is refused at
 * the state gate with its own code and nothing moves; a link lost mid-motion ends the motion as
 * `driver_fault`; stop_arm still answers and says the arm could not be told (a controlled stop it
 * cannot confirm latches the e-stop in the server); an operator reset it cannot confirm fails and the
 * latch holds.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'toolwright/client';
import { ArmFaultError, type ArmDriver, type ArmFault, type ArmStatus, type ExecuteOptions, type MotionEnd } from '../../driver/arm-driver.js';
import { SimArmDriver } from '../../driver/sim-arm-driver.js';
import { steppedPacer } from '../../driver/sim-pacer.js';
import type { Trajectory } from '../../model/arm-model.js';
import { readAuditLog } from '../../server/audit-log.js';
import { createRobotServer, type RobotServer } from '../../server/create-robot-server.js';
import { EmergencyStopResetError } from '../../server/robot-controller.js';
import { until } from '../../../../test/support/until.js';

const LOST: ArmFault = { kind: 'disconnected', code: 'link_lost', message: 'the controller closed the connection' };

/** The simulated arm behind a link: `up`, `quiet` (no updates since `quietSince`), or `down`. */
class LinkDriver implements ArmDriver {
  readonly description: string;
  readonly presetId: ArmDriver['presetId'];
  link: 'up' | 'quiet' | 'down' = 'up';
  /** When set, the link drops at the first progress report past this fraction. */
  dropAtFraction: number | undefined;
  private last: ArmStatus;
  private readonly faultListeners = new Set<(fault: ArmFault) => void>();

  constructor(readonly inner: SimArmDriver) {
    this.description = `${inner.description} over a test link`;
    this.presetId = inner.presetId;
    this.last = inner.status();
  }

  goQuiet(ageMs: number): void {
    this.last = { ...this.inner.status(), asOf: Date.now() - ageMs };
    this.link = 'quiet';
  }

  drop(): void {
    this.last = this.inner.status();
    this.link = 'down';
    for (const listener of this.faultListeners) listener(LOST);
  }

  status(): ArmStatus {
    if (this.link === 'up') return this.inner.status();
    if (this.link === 'quiet') return this.last;
    return { ...this.last, state: 'fault', fault: LOST };
  }

  /** Listeners subscribed now (a wait for the next report is one). */
  subscriptions = 0;

  subscribe(listener: (status: ArmStatus) => void): () => void {
    this.subscriptions++;
    const stop = this.inner.subscribe((s) => { if (this.link === 'up') listener(s); });
    return () => {
      this.subscriptions--;
      stop();
    };
  }

  onFault(listener: (fault: ArmFault) => void): () => void {
    this.faultListeners.add(listener);
    return () => this.faultListeners.delete(listener);
  }

  execute(trajectory: Trajectory, options: ExecuteOptions): Promise<MotionEnd> {
    if (this.link === 'down') return Promise.reject(new ArmFaultError(LOST));
    return new Promise<MotionEnd>((resolve, reject) => {
      const inner = this.inner.execute(trajectory, {
        ...options,
        onProgress: (p) => {
          if (this.link !== 'up') return;
          if (this.dropAtFraction !== undefined && p.fraction > this.dropAtFraction) {
            this.drop();
            reject(new ArmFaultError(LOST));
            return;
          }
          options.onProgress?.(p);
        },
      });
      inner.then((end) => (this.link === 'up' ? resolve(end) : reject(new ArmFaultError(LOST))), reject);
    });
  }

  private guarded<T>(command: () => Promise<T>): Promise<T> {
    return this.link === 'down' ? Promise.reject(new ArmFaultError(LOST)) : command();
  }

  stop: ArmDriver['stop'] = (mode) => this.guarded(() => this.inner.stop(mode));
  resetEmergencyStop: ArmDriver['resetEmergencyStop'] = () => this.guarded(() => this.inner.resetEmergencyStop());
  clearFault: ArmDriver['clearFault'] = () => this.guarded(() => this.inner.clearFault());
  grasp: ArmDriver['grasp'] = (request) => this.guarded(() => this.inner.grasp(request));
  release: ArmDriver['release'] = () => this.guarded(() => this.inner.release());
  readForceTorque: ArmDriver['readForceTorque'] = (request) => this.guarded(() => this.inner.readForceTorque(request));
  captureCamera: ArmDriver['captureCamera'] = () => this.guarded(() => this.inner.captureCamera());
  wallMsFor(armMs: number): number {
    return this.inner.wallMsFor(armMs);
  }
  async close(): Promise<void> {
    await this.inner.close();
  }
}

const TARGET = { target_position: { x_mm: -400, y_mm: -150, z_mm: 350 }, speed: 0.3 };

async function withServer(body: (driver: LinkDriver, client: ReturnType<typeof connect>, auditLogPath: string, robot: RobotServer) => Promise<void>): Promise<void> {
  const inner = new SimArmDriver({ pacer: steppedPacer(20) });
  const driver = new LinkDriver(inner);
  const auditLogPath = join(mkdtempSync(join(tmpdir(), 'robot-link-')), 'audit.jsonl');
  const robot = createRobotServer({ model: inner.model, driver, approval: 'off', auditLogPath, motionRatePerSecond: 100, motionBurst: 100 });
  const listener = await robot.server.listen({ port: 0, host: '127.0.0.1' });
  const client = connect(listener.url, { onWarning: () => {} });
  try {
    await body(driver, client, auditLogPath, robot);
  } finally {
    await client.close();
    await listener.close();
    await robot.close();
  }
}

function refusedOf(result: { structuredContent?: unknown }): unknown {
  return (result.structuredContent as { refused?: unknown } | undefined)?.refused;
}

describe('driver faults as the server sees them', () => {
  it('a snapshot older than maxStatusAgeMs is refused at the state gate (stale_status) and nothing moves', async () => {
    await withServer(async (driver, client) => {
      const before = driver.inner.status().jointsDeg;
      driver.goQuiet(5000);
      const result = await client.callTool('move_arm_to_pose', TARGET);
      assert.equal(result.isError, true);
      const refused = refusedOf(result) as { stage: string; code: string; message: string };
      assert.deepEqual([refused.stage, refused.code], ['state_gate', 'stale_status']);
      assert.match(refused.message, /^the arm's last reported state is \d+ ms old \(at most 1000 ms\); nothing is planned from a stale pose$/);
      assert.deepEqual(driver.inner.status().jointsDeg, before);
      driver.link = 'up';
      assert.equal((await client.callTool('move_arm_to_pose', TARGET)).isError, undefined, 'a fresh snapshot plans again');
    });
  });

  it('the state gate waits for the next report of a snapshot that aged while the server was busy, and plans from it', async () => {
    await withServer(async (driver, client) => {
      const listening = driver.subscriptions;
      driver.goQuiet(1500);
      const call = client.callTool('move_arm_to_pose', TARGET);
      // The call now waits at the state gate for a report; the link comes back and the arm reports.
      await until(() => driver.subscriptions > listening, 'the call waiting for the next report');
      driver.link = 'up';
      await driver.inner.stop('controlled');
      const result = await call;
      assert.equal(result.isError, undefined, JSON.stringify(result.structuredContent));
    });
  });

  it('the execute stage waits for the next update of a stale snapshot (a busy server reads its frames late), and for nothing when it is fresh', async () => {
    await withServer(async (driver, _client, _audit, robot) => {
      await robot.controller.freshStatus();
      driver.goQuiet(5000);
      let fresh = false;
      const waiting = robot.controller.freshStatus().then(() => { fresh = true; });
      await new Promise((r) => setImmediate(r));
      assert.equal(fresh, false, 'a 5 s old snapshot is not planned from');
      driver.link = 'up';
      // Any update the arm streams (here the one a stop sends) ends the wait.
      await driver.inner.stop('controlled');
      await waiting;
      assert.ok(Date.now() - robot.controller.status().asOf <= 1000);
    });
  });

  it('a lost controller: audited, motions refused (driver_disconnected), status shows the fault, sensors say what failed, stop_arm still answers', async () => {
    await withServer(async (driver, client, auditLogPath) => {
      driver.drop();
      assert.deepEqual(readAuditLog(auditLogPath).records.filter((r) => r.type === 'driver_fault').map(({ kind, code, message }) => ({ kind, code, message })), [{ kind: 'disconnected', code: 'link_lost', message: 'the controller closed the connection' }], 'the fault is audited when it happens');
      const move = await client.callTool('move_arm_to_pose', TARGET);
      assert.deepEqual(refusedOf(move), { stage: 'state_gate', code: 'driver_disconnected', message: 'the arm controller is not available (disconnected: the controller closed the connection); motions are refused until it answers again and its state is re-read' });
      const status = await client.callTool('get_device_status', {});
      assert.deepEqual([(status.structuredContent as { state: string }).state, (status.structuredContent as { state_known: boolean }).state_known], ['unknown', false], 'nobody hears from the arm: its state is unknown');
      assert.deepEqual((status.structuredContent as { fault: unknown }).fault, { code: 'link_lost', message: 'the controller closed the connection' });
      const ft = await client.callTool('read_ft_sensor', {});
      assert.deepEqual(refusedOf(ft), { stage: 'execute', code: 'driver_disconnected', message: 'the arm controller could not read the force/torque sensor (disconnected: the controller closed the connection)' });
      const stop = await client.callTool('stop_arm', { mode: 'emergency' });
      assert.equal(stop.isError, undefined);
      const summary = stop.structuredContent as { emergency_stop_latched: boolean; driver_fault?: unknown };
      assert.equal(summary.emergency_stop_latched, true, 'the server latches even when the arm cannot be told');
      assert.deepEqual(summary.driver_fault, { kind: 'disconnected', message: 'the controller closed the connection' });
      assert.match(stop.content[0]?.type === 'text' ? stop.content[0].text : '', /The arm controller did not confirm the stop \(disconnected: the controller closed the connection\)/);
    });
  });

  it('a link lost mid-motion ends the motion as driver_fault with the last reported pose; the next motion is refused', async () => {
    await withServer(async (driver, client) => {
      driver.dropAtFraction = 0.3;
      const result = await client.callTool('move_arm_to_pose', TARGET);
      assert.equal(result.isError, true);
      const s = result.structuredContent as { status: string; detail: string };
      assert.equal(s.status, 'driver_fault');
      assert.equal(s.detail, 'the arm driver failed during the motion (disconnected: the controller closed the connection); the last reported pose is shown, and the arm\'s state is re-read before anything else moves');
      const again = await client.callTool('move_arm_to_pose', TARGET);
      assert.equal((refusedOf(again) as { code: string }).code, 'driver_disconnected');
    });
  });
  it('a controlled stop_arm the controller cannot confirm latches the e-stop in the server; a reset it cannot confirm fails and the latch holds', async () => {
    await withServer(async (driver, client, auditLogPath, robot) => {
      driver.drop();
      const stop = await client.callTool('stop_arm', { mode: 'controlled' });
      const summary = stop.structuredContent as { mode: string; emergency_stop_latched: boolean; driver_fault?: unknown };
      assert.equal(summary.mode, 'controlled');
      assert.equal(summary.emergency_stop_latched, true, 'an unconfirmed controlled stop is held as an emergency stop');
      assert.deepEqual(summary.driver_fault, { kind: 'disconnected', message: 'the controller closed the connection' });
      assert.equal(robot.controller.emergencyStop?.reason, 'the controlled stop (stop requested through stop_arm) could not be confirmed: the controller closed the connection');

      await assert.rejects(robot.clearEmergencyStop('operator-bob'), (error: unknown) => error instanceof EmergencyStopResetError && error.message === 'the arm controller did not confirm the reset (disconnected: the controller closed the connection); the emergency stop stays latched');
      assert.equal(robot.controller.emergencyStop?.reason, 'the controlled stop (stop requested through stop_arm) could not be confirmed: the controller closed the connection', 'the latch holds, with its reason');
      const failed = readAuditLog(auditLogPath).records.filter((r) => r.type === 'operator_action').at(-1)!;
      assert.deepEqual({ action: failed.action, cleared: failed.cleared, error: failed.error }, { action: 'clear_emergency_stop', cleared: false, error: 'the arm controller did not confirm the reset (disconnected: the controller closed the connection); the emergency stop stays latched' });

      driver.link = 'up';
      const before = driver.inner.status().jointsDeg;
      assert.equal((refusedOf(await client.callTool('move_arm_to_pose', TARGET)) as { code: string }).code, 'estop_latched', 'the link is back, the latch still holds');
      assert.deepEqual(driver.inner.status().jointsDeg, before, 'nothing moved');
      assert.equal(await robot.clearEmergencyStop('operator-bob'), true);
      assert.equal(((await client.callTool('move_arm_to_pose', TARGET)).structuredContent as { status: string }).status, 'completed');
    });
  });
});
