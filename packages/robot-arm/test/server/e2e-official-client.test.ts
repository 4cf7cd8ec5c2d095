import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { readAuditLog } from '../../server/audit-log.js';
import { startHarness, type Harness } from '../support/robot-harness.js';

type Answer = { action: 'accept'; content: { approve: boolean } } | { action: 'decline' };

async function connect(url: string, options: { elicitation: boolean; answer?: (message: string) => Answer }): Promise<Client> {
  const client = new Client(
    { name: 'robot-e2e', version: '1.0.0' },
    {
      capabilities: options.elicitation ? { elicitation: { form: {} } } : {},
      versionNegotiation: { mode: { pin: '2026-07-28' } },
    } as ConstructorParameters<typeof Client>[1],
  );
  if (options.elicitation) {
    client.setRequestHandler('elicitation/create', async (request: { params: { message: string } }) => options.answer!(request.params.message));
  }
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

interface ToolResult {
  content: Array<{ type: string; text?: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

describe('end to end over Streamable HTTP with the official @modelcontextprotocol/client 2.4.0', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ approval: 'always' });
  });
  after(async () => {
    await h.close();
  });

  it('lists nine tools with units in their schemas and honest annotations', async () => {
    const client = await connect(h.url, { elicitation: false });
    try {
      const { tools } = await client.listTools();
      const byName = new Map(tools.map((t) => [t.name, t]));
      assert.deepEqual([...byName.keys()].sort(), ['execute_trajectory', 'get_device_status', 'get_object_pose', 'grasp_object_force_control', 'move_arm_to_pose', 'plan_trajectory', 'read_ft_sensor', 'release_object', 'stop_arm']);
      for (const name of ['get_device_status', 'get_object_pose', 'read_ft_sensor']) assert.equal(byName.get(name)!.annotations?.readOnlyHint, true, name);
      for (const name of ['move_arm_to_pose', 'execute_trajectory', 'grasp_object_force_control', 'release_object']) assert.equal(byName.get(name)!.annotations?.destructiveHint, true, name);
      assert.equal(byName.get('stop_arm')!.annotations?.idempotentHint, true);
      assert.equal(byName.get('stop_arm')!.annotations?.destructiveHint, false);
      const waypoints = (byName.get('plan_trajectory')!.inputSchema.properties as Record<string, { minItems?: number }>).waypoints!;
      assert.equal(waypoints.minItems, 2);
      const force = (byName.get('grasp_object_force_control')!.inputSchema.properties as Record<string, { minimum?: number; maximum?: number; default?: number; description?: string }>).force_n!;
      // No single default: an omitted force is chosen per object class, never above the object's limit.
      assert.deepEqual([force.minimum, force.maximum, force.default], [5, 30, undefined]);
      assert.match(force.description ?? '', /Default: per object class, never above its limit/);
    } finally {
      await client.close();
    }
  });

  it('approval round trip: the client is asked with the exact plan and hash, approves, and the arm moves', async () => {
    const messages: string[] = [];
    const client = await connect(h.url, { elicitation: true, answer: (message) => (messages.push(message), { action: 'accept', content: { approve: true } }) });
    try {
      const before = h.robot.driver.sim.jointsDeg;
      const progress: number[] = [];
      const result = (await client.callTool(
        { name: 'move_arm_to_pose', arguments: { target_position: { x_mm: -450, y_mm: -150, z_mm: 420 } } },
        { onprogress: (p: { progress: number }) => progress.push(p.progress) } as Parameters<Client['callTool']>[1],
      )) as ToolResult;
      assert.equal(result.isError, undefined, JSON.stringify(result));
      assert.equal(result.structuredContent?.status, 'completed');
      // Long motions report progress (notifications/progress over the SSE stream) instead of going silent.
      // (The client itself reports 1 when the approval round finishes; the motion's own values are below 1.)
      const motion = progress.filter((v) => v < 1);
      assert.ok(motion.length > 3, `progress notifications: ${JSON.stringify(progress)}`);
      assert.ok(motion.every((v, i) => i === 0 || v > motion[i - 1]!), JSON.stringify(motion));
      assert.equal(messages.length, 1);
      assert.match(messages[0]!, /SHA-256 [0-9a-f]{64}/);
      assert.match(messages[0]!, /to \(-450\.0, -150\.0, 420\.0\) mm/);
      assert.notDeepEqual(h.robot.driver.sim.jointsDeg, before);
      const tcp = h.robot.driver.sim.tcp;
      assert.ok(Math.hypot(tcp.x + 450, tcp.y + 150, tcp.z - 420) < 0.1);
      const hash = /SHA-256 ([0-9a-f]{64})/.exec(messages[0]!)![1];
      const record = readAuditLog(h.auditPath).records.filter((r) => r.type === 'tool_call' && r.tool === 'move_arm_to_pose').at(-1)!;
      assert.equal(record.plan_hash, hash);
      assert.equal((record.approval as { decision: string }).decision, 'approved');
    } finally {
      await client.close();
    }
  });

  it('a declined approval moves nothing and says so', async () => {
    const client = await connect(h.url, { elicitation: true, answer: () => ({ action: 'decline' }) });
    try {
      const before = h.robot.driver.sim.jointsDeg;
      const result = (await client.callTool({ name: 'move_arm_to_pose', arguments: { target_position: { x_mm: -470, y_mm: -160, z_mm: 400 } } })) as ToolResult;
      assert.equal(result.isError, true);
      assert.equal((result.structuredContent?.refused as { code: string }).code, 'approval_declined');
      assert.deepEqual(h.robot.driver.sim.jointsDeg, before);
    } finally {
      await client.close();
    }
  });

  it('a refusal: a target inside the base keep-out zone is refused before anyone is asked', async () => {
    const messages: string[] = [];
    const client = await connect(h.url, { elicitation: true, answer: (message) => (messages.push(message), { action: 'accept', content: { approve: true } }) });
    try {
      const before = h.robot.driver.sim.jointsDeg;
      const result = (await client.callTool({ name: 'move_arm_to_pose', arguments: { target_position: { x_mm: 50, y_mm: 50, z_mm: 300 } } })) as ToolResult;
      assert.equal(result.isError, true);
      assert.deepEqual(result.structuredContent?.refused, {
        stage: 'workspace_envelope',
        code: 'inside_base_keep_out',
        message: 'target (50, 50, 300) mm is outside the workspace: TCP would be 70.7 mm from the base axis; the keep-out cylinder around the base requires at least 175 mm',
      });
      assert.equal(messages.length, 0, 'a refused motion never reaches the human');
      assert.deepEqual(h.robot.driver.sim.jointsDeg, before);
    } finally {
      await client.close();
    }
  });

  it('a client without elicitation cannot move the arm', async () => {
    const client = await connect(h.url, { elicitation: false });
    try {
      const result = (await client.callTool({ name: 'move_arm_to_pose', arguments: { target_position: { x_mm: -470, y_mm: -160, z_mm: 400 } } })) as ToolResult;
      assert.equal(result.isError, true);
      assert.equal((result.structuredContent?.refused as { code: string }).code, 'approval_unavailable');
    } finally {
      await client.close();
    }
  });
});

describe('read-only mode', () => {
  it('motion tools are not registered at all', async () => {
    const h = await startHarness({ readOnly: true });
    const client = await connect(h.url, { elicitation: true, answer: () => ({ action: 'accept', content: { approve: true } }) });
    try {
      const { tools } = await client.listTools();
      assert.deepEqual(tools.map((t) => t.name).sort(), ['get_device_status', 'get_object_pose', 'plan_trajectory', 'read_ft_sensor', 'stop_arm']);
      const before = h.robot.driver.sim.jointsDeg;
      await assert.rejects(client.callTool({ name: 'move_arm_to_pose', arguments: { target_position: { x_mm: -450, y_mm: -150, z_mm: 420 } } }), /Unknown tool: move_arm_to_pose/);
      await assert.rejects(client.callTool({ name: 'release_object', arguments: {} }), /Unknown tool: release_object/);
      assert.deepEqual(h.robot.driver.sim.jointsDeg, before);
      const status = (await client.callTool({ name: 'get_device_status', arguments: {} })) as ToolResult;
      assert.equal(status.structuredContent?.read_only_mode, true);
    } finally {
      await client.close();
      await h.close();
    }
  });
});
