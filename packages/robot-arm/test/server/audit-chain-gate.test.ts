/**
 * A broken audit chain at start: the robot records it, refuses motion (move, grasp, release) and
 * still serves status, sensing, planning and stop_arm, until the operator's reset acknowledges it;
 * a restart neither forgets an unacknowledged break nor asks again about an acknowledged one.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { RobotArmFeed } from '../../console/robot-arm-feed.js';
import { readAuditLogChain } from '../../server/audit-log.js';
import { installOperatorReset } from '../../server/operator-controls.js';
import { refusalOf, startHarness, type Harness } from '../support/robot-harness.js';

const root = mkdtempSync(join(tmpdir(), 'robot-chain-gate-'));
after(() => rmSync(root, { recursive: true, force: true }));

const TARGET = { target_position: { x_mm: -450, y_mm: -150, z_mm: 420 } };

function filesIn(name: string): { auditLogPath: string; auditKeyPath: string; auditHeadPath: string } {
  return { auditLogPath: join(root, name, 'audit.jsonl'), auditKeyPath: join(root, `${name}-keys`, 'audit.key'), auditHeadPath: join(root, `${name}-keys`, 'audit.head') };
}

async function withRobot<T>(files: ReturnType<typeof filesIn>, body: (h: Harness) => Promise<T>): Promise<T> {
  const h = await startHarness({ approval: 'off', ...files });
  try {
    return await body(h);
  } finally {
    await h.close();
  }
}

describe('robot arm on a broken audit chain', () => {
  it('refuses motion only, until the reset acknowledges the break; then moves; restarts remember both', async () => {
    const files = filesIn('cut');
    await withRobot(files, async (h) => {
      assert.equal(h.robot.auditChain.broken, undefined);
      assert.equal(refusalOf(await h.call('move_arm_to_pose', TARGET)), undefined, 'an intact chain moves');
    });
    // Someone who can write the log's folder cuts the end off.
    const lines = readFileSync(files.auditLogPath, 'utf8').trimEnd().split('\n');
    writeFileSync(files.auditLogPath, `${lines.slice(0, 3).join('\n')}\n`);
    const problem = `${files.auditHeadPath}: the head says the log reached seq ${lines.length}, but it ends at seq 3: ${lines.length - 3} record(s) were cut from its end`;

    await withRobot(files, async (h) => {
      assert.deepEqual(h.robot.auditChain.broken?.problems, [problem]);
      const refused = await h.call('move_arm_to_pose', TARGET);
      assert.deepEqual(refusalOf(refused), { stage: 'state_gate', code: 'audit_chain_broken', message: `the audit log's chain is broken (${problem}); motions are refused until an operator acknowledges it with the reset (kill -USR2 ${process.pid} or the console's e-stop reset). Status, sensing, planning and stop_arm stay available` });
      assert.equal(h.robot.driver.sim.status().state, 'idle', 'nothing moved');
      for (const [tool, args] of [['grasp_object_force_control', { target_position: { x_mm: -450, y_mm: -150, z_mm: 30 } }], ['release_object', {}]] as const) {
        assert.equal(refusalOf(await h.call(tool, args))?.code, 'audit_chain_broken', tool);
      }
      for (const [tool, args] of [['get_device_status', {}], ['read_ft_sensor', {}], ['stop_arm', {}], ['move_arm_to_pose', { ...TARGET, dry_run: true }]] as const) {
        const reply = await h.call(tool, args);
        assert.equal(reply.body.result?.isError, undefined, `${tool}: ${JSON.stringify(reply.body)}`);
      }
    });

    // A restart without the acknowledgement: still held (the break is on the record, unacknowledged).
    await withRobot(files, async (h) => {
      assert.equal(refusalOf(await h.call('move_arm_to_pose', TARGET))?.code, 'audit_chain_broken');
      // The operator's reset: SIGUSR2, as main.ts installs it.
      const logged: string[] = [];
      const acknowledged = new Promise<void>((done) => {
        const remove = installOperatorReset(h.robot, (line) => {
          logged.push(line);
          if (line.includes('audit chain')) {
            remove();
            done();
          }
        });
      });
      process.kill(process.pid, 'SIGUSR2');
      await acknowledged;
      assert.ok(logged.includes('robot-arm: broken audit chain acknowledged by the operator; motion accepted again'), logged.join('\n'));
      assert.equal(h.robot.auditChain.broken, undefined);
      assert.equal(refusalOf(await h.call('move_arm_to_pose', TARGET)), undefined, 'motion accepted after the acknowledgement');
    });

    // Restarted after the acknowledgement: the chain verifies, nothing is held, the record says who acknowledged.
    await withRobot(files, async (h) => {
      assert.equal(h.robot.auditChain.broken, undefined);
      assert.equal(refusalOf(await h.call('move_arm_to_pose', TARGET)), undefined);
    });
    const chain = readAuditLogChain(files.auditLogPath, { key: files.auditKeyPath, head: files.auditHeadPath });
    assert.deepEqual(chain.problems, []);
    const broken = chain.records.filter((r) => r.type === 'audit_chain_broken');
    assert.deepEqual(broken.map((r) => r.problems), [[problem]], 'recorded once, not at every start');
    const ack = chain.records.find((r) => r.type === 'audit_break_acknowledged')!;
    assert.deepEqual([ack.operator, ack.broken_seq], [`operator (SIGUSR2 to pid ${process.pid})`, broken[0]!.seq]);
  });

  it('a break left in the middle of the log is the same break at every start: acknowledged once', async () => {
    const files = filesIn('edited');
    await withRobot(files, async (h) => {
      await h.call('get_device_status', {});
    });
    const lines = readFileSync(files.auditLogPath, 'utf8').trimEnd().split('\n');
    writeFileSync(files.auditLogPath, `${lines.map((line, i) => (i === 1 ? line.replace('"server_start"', '"server_stop"') : line)).join('\n')}\n`);
    await withRobot(files, async (h) => {
      assert.deepEqual(h.robot.auditChain.broken?.problems, ['audit.jsonl line 3: prev does not match the MAC of the line before']);
      // The console's reset: its page shows the break, and the reset (no e-stop latched) acknowledges it.
      const feed = new RobotArmFeed(h.robot);
      try {
        assert.deepEqual([feed.snapshot().verification.ok, feed.snapshot().verification.message], [false, "the audit chain is broken (audit.jsonl line 3: prev does not match the MAC of the line before); motion is refused until the operator's reset acknowledges it"]);
        assert.equal(await feed.resetEmergencyStop('Grace'), true);
        assert.equal(feed.snapshot().verification.ok, true);
      } finally {
        feed.close();
      }
      assert.equal(h.robot.acknowledgeAuditBreak('Grace'), false, 'nothing left to acknowledge');
    });
    await withRobot(files, async (h) => {
      assert.equal(h.robot.auditChain.broken, undefined, 'the same problems, already acknowledged');
      assert.equal(refusalOf(await h.call('move_arm_to_pose', TARGET)), undefined);
    });
    const chain = readAuditLogChain(files.auditLogPath, { key: files.auditKeyPath, head: files.auditHeadPath });
    assert.deepEqual(chain.records.filter((r) => r.type === 'audit_chain_broken' || r.type === 'audit_break_acknowledged').map((r) => r.type), ['audit_chain_broken', 'audit_break_acknowledged']);
  });
});
