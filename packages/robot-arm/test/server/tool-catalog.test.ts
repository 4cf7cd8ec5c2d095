import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { MOTION_TOOL_NAMES } from '../../server/create-robot-server.js';
import { createSimulatedRobotServer } from '../../wiring/simulated-robot-server.js';
import { steppedPacer } from '../../driver/sim-pacer.js';

const ROOT = resolve(import.meta.dirname, '..', '..', '..', '..');

function auditPath(): string {
  return join(mkdtempSync(join(tmpdir(), 'robot-catalog-')), 'audit.jsonl');
}

describe('tool catalog', () => {
  it('every tool is classified: motion tools are destructive and absent in read-only mode; the rest are read-only or stop_arm', async () => {
    const full = createSimulatedRobotServer({ pacer: steppedPacer(), auditLogPath: auditPath() });
    const readOnly = createSimulatedRobotServer({ pacer: steppedPacer(), auditLogPath: auditPath(), readOnly: true });
    try {
      for (const tool of full.server.tools) {
        const a = tool.annotations ?? {};
        assert.equal(a.openWorldHint, false, tool.name);
        if ((MOTION_TOOL_NAMES as readonly string[]).includes(tool.name)) assert.equal(a.destructiveHint, true, tool.name);
        else if (tool.name === 'stop_arm') assert.deepEqual([a.destructiveHint, a.idempotentHint], [false, true]);
        else assert.equal(a.readOnlyHint, true, `${tool.name} must be a motion tool, stop_arm, or read-only`);
        assert.equal((tool.inputSchema as { additionalProperties?: unknown }).additionalProperties, false, `${tool.name} is closed to unknown arguments`);
      }
      const expected = full.server.tools.map((t) => t.name).filter((n) => !(MOTION_TOOL_NAMES as readonly string[]).includes(n));
      assert.deepEqual(readOnly.server.tools.map((t) => t.name), expected);
    } finally {
      await full.close();
      await readOnly.close();
    }
  });

  it('in read-only mode no description sends the model to a tool that mode does not serve', async () => {
    const full = createSimulatedRobotServer({ pacer: steppedPacer(), auditLogPath: auditPath() });
    const readOnly = createSimulatedRobotServer({ pacer: steppedPacer(), auditLogPath: auditPath(), readOnly: true });
    try {
      // The check can fail: in full mode the same descriptions do name motion tools.
      assert.match(JSON.stringify(full.server.tools.find((t) => t.name === 'read_ft_sensor')), /grasp_object_force_control/);
      for (const tool of readOnly.server.tools) {
        const text = JSON.stringify({ description: tool.description, inputSchema: tool.inputSchema });
        for (const name of MOTION_TOOL_NAMES) assert.ok(!text.includes(name), `${tool.name} names ${name}, which read-only mode does not serve`);
      }
    } finally {
      await full.close();
      await readOnly.close();
    }
  });

  it('toolwright lint finds no problems in either preset or in read-only mode', () => {
    for (const env of [{}, { ROBOT_PRESET: 'xarm6' }, { ROBOT_READ_ONLY: '1' }]) {
      const result = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'src', 'cli', 'main.ts'), 'lint', join(ROOT, 'packages', 'robot-arm', 'server.ts')], {
        cwd: ROOT,
        env: { ...process.env, ...env, ROBOT_AUDIT_LOG: auditPath() },
        encoding: 'utf8',
        timeout: 120_000,
      });
      assert.equal(result.status, 0, `${JSON.stringify(env)}: ${result.stdout}${result.stderr}`);
      assert.match(result.stdout, /No problems found in (9|5) tools/);
    }
  });

  it('the xArm 6 preset serves and moves too (schemas follow its reach)', async () => {
    const robot = createSimulatedRobotServer({ preset: 'xarm6', pacer: steppedPacer(), auditLogPath: auditPath(), approval: 'off' });
    try {
      const move = robot.server.tools.find((t) => t.name === 'move_arm_to_pose')!;
      const x = ((move.inputSchema.properties as Record<string, { properties: Record<string, { maximum: number }> }>).target_position!).properties.x_mm!;
      assert.equal(x.maximum, 700);
      const listener = await robot.server.listen({ port: 0 });
      try {
        const tcp = robot.driver.sim.tcp;
        const response = await fetch(String(listener.url), {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'move_arm_to_pose' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'move_arm_to_pose', arguments: { target_position: { x_mm: tcp.x + 60, y_mm: tcp.y + 40, z_mm: tcp.z + 80 } }, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } } }),
          signal: AbortSignal.timeout(30_000),
        });
        const body = (await response.json()) as { result: { structuredContent: { status: string } } };
        assert.equal(body.result.structuredContent.status, 'completed', JSON.stringify(body));
        assert.deepEqual(robot.controller.monitor.violations, []);
      } finally {
        await listener.close();
      }
    } finally {
      await robot.close();
    }
  });
});
