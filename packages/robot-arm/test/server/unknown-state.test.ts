/**
 * Issue 30, item 5: when nobody hears from the arm, stop_arm and get_device_status say its state is
 * unknown, never "The arm was not moving". Over MCP against a real `robot-sim` process, stopped
 * (SIGSTOP) mid-motion and killed by its pid. So that the supervisor's restart cannot end the
 * unknown state before the test reads it, the pose file is made unreadable while the controller is
 * stopped (a restarted robot-sim refuses such a file); putting the saved pose back lets the next
 * restart re-read the arm, and the state is known again. Ground truth: the pose file the stopped
 * controller last wrote shows the arm was mid-path.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { connect } from 'toolwright/client';
import { RemoteArmDriver } from '../../controller/remote-arm-driver.js';
import { statusWhere } from '../support/arm-status.js';
import type { ArmFault, ArmStatus } from '../../driver/arm-driver.js';
import { ArmModel } from '../../model/arm-model.js';
import type { ArmPresetId } from '../../sim/arm-presets.js';
import { stateKnowledge } from '../../server/arm-state-knowledge.js';
import { createRobotServer } from '../../server/create-robot-server.js';
import { untilStopped } from '../support/process-stopped.js';

const dirs: string[] = [];
/** A move every preset can make from its home pose (the UR5e's home is at -x, the xArm 6's at +x). */
const TARGETS = { ur5e: { x: -400, y: -150, z: 350 }, xarm6: { x: 330, y: -150, z: 300 } } as const;
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function nextFault(driver: RemoteArmDriver): Promise<ArmFault> {
  return new Promise((resolve) => {
    const off = driver.onFault((fault) => {
      off();
      resolve(fault);
    });
  });
}

interface Structured {
  structuredContent?: unknown;
  content: Array<{ type: string; text?: string }>;
}
const summaryOf = (r: Structured): Record<string, unknown> => r.structuredContent as Record<string, unknown>;
const textOf = (r: Structured): string => (r.content[0]?.type === 'text' ? r.content[0].text ?? '' : '');

/**
 * A server on a robot-sim process, a move under way; the controller is frozen mid-path (SIGSTOP),
 * its pose file spoiled, then `lose` ends it (SIGKILL, or the heartbeat bound for the hung process).
 */
async function lostMidMotion(preset: ArmPresetId, lose: 'sigkill' | 'heartbeat', body: (ctx: { call: (name: string, args: Record<string, unknown>) => Promise<Structured>; savedPose: string; posePath: string; driver: RemoteArmDriver; model: ArmModel }) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'robot-unknown-'));
  dirs.push(dir);
  const posePath = join(dir, 'pose.json');
  const model = new ArmModel({ preset });
  const driver = await RemoteArmDriver.start({ preset, latchPath: join(dir, 'estop.json'), posePath, heartbeatTimeoutMs: lose === 'heartbeat' ? 600 : 5000, log: () => undefined });
  const robot = createRobotServer({ model, driver, approval: 'off', auditLogPath: join(dir, 'audit.jsonl'), auditKeyPath: false, motionRatePerSecond: 100, motionBurst: 100 });
  const listener = await robot.server.listen({ port: 0, host: '127.0.0.1' });
  const client = connect(listener.url, { onWarning: () => {} });
  try {
    const pid = driver.supervisor.pid!;
    const target = TARGETS[preset];
    const move = client.callTool('move_arm_to_pose', { target_position: { x_mm: target.x, y_mm: target.y, z_mm: target.z }, speed: 0.3 });
    // A move that ends (refused, or finished) before it is under way fails here instead of waiting.
    await Promise.race([statusWhere(driver, (s) => s.motion !== null && s.motion.elapsedS > 0.3 * s.motion.durationS), move.then((r) => assert.fail(`the move ended before the controller was stopped: ${JSON.stringify(r.structuredContent)}`))]);
    process.kill(pid, 'SIGSTOP');
    await untilStopped(pid);
    const savedPose = readFileSync(posePath, 'utf8');
    writeFileSync(posePath, 'not a pose');
    const faulted = nextFault(driver);
    if (lose === 'sigkill') process.kill(pid, 'SIGKILL');
    await faulted;
    const moved = summaryOf(await move);
    assert.equal(moved.status, 'driver_fault', JSON.stringify(moved));
    await body({ call: (name, args) => client.callTool(name, args) as Promise<Structured>, savedPose, posePath, driver, model });
  } finally {
    await client.close();
    await listener.close();
    await robot.close();
  }
}

/** Ground truth: the last pose the stopped controller wrote is strictly between the path's ends. */
function assertMidPath(model: ArmModel, savedPose: string): void {
  const target = TARGETS[model.preset.id];
  const joints = (JSON.parse(savedPose) as { jointsDeg: number[] }).jointsDeg;
  const tcp = model.tcp(joints);
  const home = model.tcp(model.preset.homeDeg);
  const fromHome = Math.hypot(tcp.x - home.x, tcp.y - home.y, tcp.z - home.z);
  const toTarget = Math.hypot(tcp.x - target.x, tcp.y - target.y, tcp.z - target.z);
  assert.ok(fromHome > 5 && toTarget > 5, `the arm was mid-path when its controller stopped (${fromHome.toFixed(1)} mm from home, ${toTarget.toFixed(1)} mm from the target)`);
}

describe('a controller nobody hears from: its state is unknown (robot-sim process, over MCP)', () => {
  for (const preset of ['ur5e', 'xarm6'] as const) {
    it(`${preset}: killed mid-motion: stop_arm (controlled and emergency) and get_device_status say unknown, not "not moving"; known again once a controller re-reads the arm`, async () => {
      await lostMidMotion(preset, 'sigkill', async ({ call, savedPose, posePath, driver, model }) => {
        assertMidPath(model, savedPose);
        const status = await call('get_device_status', {});
        const s = summaryOf(status);
        assert.deepEqual([s.state, s.state_known, s.tcp_speed_mm_s], ['unknown', false, null]);
        assert.match(String(s.state_unknown_reason), /^the arm controller is unreachable \(disconnected: controller unreachable: (the controller closed the connection|the controller process \(pid \d+\) was killed by SIGKILL)\)$/);
        assert.equal((s.last_report as { state: string }).state, 'fault');
        assert.match(textOf(status), /: state unknown: the arm controller is unreachable .*Its last report, \d+ ms old: TCP at .*; whether it has moved since is not known\.$/);

        for (const mode of ['controlled', 'emergency'] as const) {
          const stop = await call('stop_arm', { mode });
          const summary = summaryOf(stop);
          assert.deepEqual([summary.state, summary.state_known, summary.was_moving, summary.emergency_stop_latched], ['unknown', false, null, true], JSON.stringify(summary));
          assert.equal((summary.driver_fault as { kind: string }).kind, 'disconnected');
          const text = textOf(stop);
          assert.doesNotMatch(text, /not moving/);
          assert.match(text, /^The arm's state is unknown: the arm controller is unreachable .*Whether it was moving, and where it is now, is not known; its last report \(\d+ ms old\) had the TCP at .* Emergency stop is latched: .* The arm controller did not confirm the stop \(disconnected: /);
        }

        // A controller that can read the pose again comes back: the state is re-read and known (still in fault for the operator).
        writeFileSync(posePath, savedPose);
        await statusWhere(driver, (x) => x.fault?.code === 'link_recovered');
        const back = summaryOf(await call('get_device_status', {}));
        assert.deepEqual([back.state, back.state_known, (back.fault as { code: string }).code], ['fault', true, 'link_recovered'], JSON.stringify(back));
        const stop = summaryOf(await call('stop_arm', {}));
        assert.deepEqual([stop.state_known, stop.was_moving], [true, false], 'a re-read arm at rest is known not to move');
      });
    });
  }

  it('ur5e: stopped mid-motion (SIGSTOP) until the heartbeat bound passes: stop_arm and get_device_status say unknown (timeout)', async () => {
    await lostMidMotion('ur5e', 'heartbeat', async ({ call, savedPose, model }) => {
      assertMidPath(model, savedPose);
      const s = summaryOf(await call('get_device_status', {}));
      assert.deepEqual([s.state, s.state_known], ['unknown', false]);
      assert.equal(s.state_unknown_reason, 'the arm controller is unreachable (timeout: controller unreachable: no heartbeat from the controller for 600 ms)');
      const stop = await call('stop_arm', {});
      assert.deepEqual([summaryOf(stop).state, summaryOf(stop).was_moving], ['unknown', null]);
      assert.doesNotMatch(textOf(stop), /not moving/);
    });
  });
});

describe('stateKnowledge', () => {
  const base: Pick<ArmStatus, 'asOf' | 'fault'> = { asOf: 10_000, fault: null };
  it('known when fresh and reachable; unknown when older than the bound, or the link is lost; known again once the link is back (state re-read)', () => {
    assert.deepEqual(stateKnowledge(base, 1000, 11_000), { known: true });
    assert.deepEqual(stateKnowledge(base, 1000, 11_001), { known: false, reason: 'the arm controller has not reported for 1001 ms (more than 1000 ms)', lastReportAgeMs: 1001 });
    const lost: Pick<ArmStatus, 'asOf' | 'fault'> = { ...base, fault: { kind: 'timeout', code: 'controller_unreachable', message: 'no heartbeat' } };
    assert.deepEqual(stateKnowledge(lost, 1000, 10_000), { known: false, reason: 'the arm controller is unreachable (timeout: no heartbeat)', lastReportAgeMs: 0 });
    assert.deepEqual(stateKnowledge({ ...lost, fault: { kind: 'disconnected', code: 'link_recovered', message: 'back' } }, 1000, 10_000), { known: true });
    assert.deepEqual(stateKnowledge({ ...lost, fault: { kind: 'protective_stop', message: 'contact' } }, 1000, 10_000), { known: true }, 'a protective stop is a known state');
  });
});
