// A latched emergency stop survives restarts: the latch is a state file beside the audit log, and a
// new server (or a process killed with SIGKILL and started again) comes up latched until an operator
// clears it.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { latchPathFor } from '../../server/estop-latch-file.js';
import { REPO_ROOT, tsxArgs } from '../../../../test/support/repo-paths.js';
import { startHarness } from '../support/robot-harness.js';
import { robotAuthHeaders } from '../../../../test/support/robot-token.js';

const TARGET = { target_position: { x_mm: -450, y_mm: -150, z_mm: 420 } };

function auditPathInNewDir(): string {
  return join(mkdtempSync(join(tmpdir(), 'robot-latch-')), 'audit.jsonl');
}

describe('the emergency-stop latch persists across restarts', () => {
  it('a new server on the same audit log comes up latched; only the operator reset clears it', async () => {
    const auditLogPath = auditPathInNewDir();
    const first = await startHarness({ auditLogPath, approval: 'off' });
    try {
      assert.equal(existsSync(latchPathFor(auditLogPath)), false);
      const stop = await first.call('stop_arm', { mode: 'emergency' });
      assert.equal(stop.body.result?.structuredContent?.emergency_stop_latched, true);
      const saved = JSON.parse(readFileSync(latchPathFor(auditLogPath), 'utf8')) as Record<string, unknown>;
      assert.equal(saved.latched, true);
      assert.equal(saved.source, 'stop_arm');
      assert.equal(saved.reason, 'emergency stop requested through stop_arm');
    } finally {
      await first.close();
    }

    const second = await startHarness({ auditLogPath, approval: 'off' });
    try {
      const joints = second.robot.driver.sim.jointsDeg;
      const status = await second.call('get_device_status', {});
      assert.equal(status.body.result?.structuredContent?.state, 'estop');
      assert.deepEqual((status.body.result?.structuredContent?.emergency_stop as Record<string, unknown>).reason, 'emergency stop requested through stop_arm');
      const move = await second.call('move_arm_to_pose', TARGET);
      assert.equal(move.body.result?.isError, true);
      assert.deepEqual(move.body.result?.structuredContent?.refused, {
        stage: 'state_gate',
        code: 'estop_latched',
        message: 'the emergency stop is latched (emergency stop requested through stop_arm); only an operator can clear it, no tool can',
      });
      assert.deepEqual(second.robot.driver.sim.jointsDeg, joints, 'nothing moved');
      assert.equal(await second.robot.clearEmergencyStop('operator-alice'), true);
      assert.equal(existsSync(latchPathFor(auditLogPath)), false, 'the reset removed the state file');
    } finally {
      await second.close();
    }

    const third = await startHarness({ auditLogPath, approval: 'off' });
    try {
      assert.equal(third.robot.controller.emergencyStop, null);
      assert.equal((await third.call('move_arm_to_pose', TARGET)).body.result?.structuredContent?.status, 'completed');
    } finally {
      await third.close();
    }
  });

  it('a damaged state file counts as latched (when in doubt the arm stays stopped)', async () => {
    const auditLogPath = auditPathInNewDir();
    writeFileSync(latchPathFor(auditLogPath), '{"latched": tru');
    const h = await startHarness({ auditLogPath, approval: 'off' });
    try {
      const move = await h.call('move_arm_to_pose', TARGET);
      const refused = move.body.result?.structuredContent?.refused as { code: string; message: string };
      assert.equal(refused.code, 'estop_latched');
      assert.match(refused.message, /state file .* is damaged; treated as latched/);
    } finally {
      await h.close();
    }
  });

  it('survives SIGKILL of the npm start process', async () => {
    const audit = auditPathInNewDir();
    const start = (): { child: ReturnType<typeof spawn>; url: Promise<string> } => {
      const child = spawn(process.execPath, tsxArgs('packages/robot-arm/main.ts', '--port', '0', '--approval', 'off', '--audit-log', audit), { cwd: REPO_ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      const url = new Promise<string>((done, reject) => {
        child.stderr!.on('data', (chunk: Buffer) => {
          stderr += chunk.toString('utf8');
          const match = /at (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(stderr);
          if (match !== null) done(match[1]!);
        });
        child.once('exit', (code) => reject(new Error(`exited with ${code}: ${stderr}`)));
      });
      return { child, url };
    };
    let id = 1;
    const call = async (url: string, name: string, args: Record<string, unknown>): Promise<{ structuredContent?: Record<string, unknown> }> => {
      const response = await fetch(url, {
        method: 'POST',
        headers: { ...robotAuthHeaders(), 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': name },
        body: JSON.stringify({ jsonrpc: '2.0', id: id++, method: 'tools/call', params: { name, arguments: args, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } } }),
        signal: AbortSignal.timeout(30_000),
      });
      return ((await response.json()) as { result: { structuredContent?: Record<string, unknown> } }).result;
    };
    const stopChild = async (child: ReturnType<typeof spawn>, signal: NodeJS.Signals): Promise<void> => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill(signal);
      await exited;
    };

    const first = start();
    try {
      assert.equal((await call(await first.url, 'stop_arm', { mode: 'emergency' })).structuredContent?.emergency_stop_latched, true);
    } finally {
      await stopChild(first.child, 'SIGKILL');
    }
    const second = start();
    try {
      const status = await call(await second.url, 'get_device_status', {});
      assert.equal(status.structuredContent?.state, 'estop');
      assert.equal((status.structuredContent?.emergency_stop as { latched: boolean }).latched, true);
      assert.equal(((await call(await second.url, 'move_arm_to_pose', TARGET)).structuredContent?.refused as { code: string }).code, 'estop_latched');
    } finally {
      await stopChild(second.child, 'SIGTERM');
    }
  });
});
