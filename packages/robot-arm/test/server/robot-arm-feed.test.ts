/**
 * The robot's console feed: states while the arm moves (the trace restarts with each motion and
 * follows the TCP), the e-stop through the controller (latched, audited naming the operator), a reset
 * only when latched, the audit tail with each appended record checked against the one before, and an
 * edited log file reported as a broken chain when the feed starts.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ArmFeedEvent } from '../../view/arm-feed.js';
import { RobotArmFeed } from '../../console/robot-arm-feed.js';
import { AuditLog, readAuditLog } from '../../server/audit-log.js';
import { createSimulatedRobotServer } from '../../wiring/simulated-robot-server.js';
import { steppedPacer, type SimPacer } from '../../driver/sim-pacer.js';
import { startHarness } from '../support/robot-harness.js';

const auditPath = (): string => join(mkdtempSync(join(tmpdir(), 'robot-feed-')), 'audit.jsonl');

describe('RobotArmFeed', () => {
  it('reports the motion frame by frame, restarts the trace, and stops and resets through the controller', async () => {
    let feed: RobotArmFeed | undefined;
    const inner = steppedPacer(20);
    // Samples the feed at every control frame, so the test sees every pose without a timer.
    const pacer: SimPacer = { ...inner, next: () => { feed?.sample(); return inner.next(); } };
    const h = await startHarness({ pacer, approval: 'off' });
    const robot = h.robot;
    feed = new RobotArmFeed(robot);
    const events: ArmFeedEvent[] = [];
    const stop = feed.subscribe((event) => events.push(event));
    try {
      const reply = await h.call('move_arm_to_pose', { target_position: { x_mm: -450, y_mm: -150, z_mm: 420 } });
      assert.equal(reply.body.result?.structuredContent?.status, 'completed', JSON.stringify(reply.body));
      feed.sample();
      const states = events.filter((e) => e.type === 'state').map((e) => e.state);
      assert.ok(events.some((e) => e.type === 'trace-reset'));
      assert.ok(states.filter((s) => s.moving).length >= 10, `${states.length} states`);
      assert.equal(states.at(-1)?.moving, false);
      const snapshot = feed.snapshot();
      const tcp = robot.driver.sim.tcp;
      assert.deepEqual(snapshot.state.tcp, [tcp.x, tcp.y, tcp.z].map((v) => Math.round(v * 10) / 10));
      assert.ok(snapshot.trace.length >= 10);
      assert.equal(snapshot.verification.ok, true);
      assert.ok(events.some((e) => e.type === 'audit' && e.entry.kind === 'tool_call' && /tool move_arm_to_pose, outcome ok/.test(e.entry.summary)));

      assert.equal(await feed.resetEmergencyStop('ops-feed'), false, 'nothing latched');
      feed.emergencyStop('ops-feed', 'test stop');
      assert.match(robot.controller.emergencyStop?.reason ?? '', /^ops-feed: test stop$/);
      assert.equal(feed.snapshot().state.estop.latched, true);
      assert.equal(await feed.resetEmergencyStop('ops-feed'), true);
      assert.equal(robot.controller.emergencyStop, null);
      const actions = readAuditLog(robot.audit.path).records.filter((r) => r.type === 'operator_action').map((r) => [r.action, r.operator, r.cleared ?? r.reason]);
      // The console's reset is SIGUSR2's: it also acknowledges a protective-stop fault (none here, recorded as not cleared).
      assert.deepEqual(actions, [['clear_emergency_stop', 'ops-feed', false], ['clear_fault', 'ops-feed', false], ['emergency_stop', 'ops-feed', 'test stop'], ['clear_emergency_stop', 'ops-feed', true], ['clear_fault', 'ops-feed', false]]);
      const last = events.filter((e) => e.type === 'audit').at(-1);
      assert.equal(last?.type === 'audit' && last.verification.ok, true);
      assert.equal(last?.type === 'audit' && last.verification.records, readAuditLog(robot.audit.path).records.length);
    } finally {
      stop();
      feed.close();
      await h.close();
    }
  });

  it('reports an edited audit file as a broken chain, naming the first record that does not link', async () => {
    const path = auditPath();
    const log = new AuditLog(path);
    for (let i = 0; i < 3; i++) log.append({ type: 'note', n: i });
    log.close();
    const lines = readFileSync(path, 'utf8').split('\n');
    // lines[0] is the chain_keyed record: lines[2] is seq 3, the note n 1.
    lines[2] = lines[2]!.replace('"n":1', '"n":7');
    writeFileSync(path, lines.join('\n'));
    const robot = createSimulatedRobotServer({ pacer: steppedPacer(20), approval: 'off', auditLogPath: path });
    const feed = new RobotArmFeed(robot);
    try {
      const { verification } = feed.snapshot();
      assert.equal(verification.ok, false);
      assert.equal(verification.brokenAt, 4);
      assert.equal(verification.message, "the audit chain is broken (audit.jsonl line 4: prev does not match the MAC of the line before); motion is refused until the operator's reset acknowledges it");
    } finally {
      feed.close();
      await robot.close();
    }
  });
});
