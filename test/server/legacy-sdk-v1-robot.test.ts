/**
 * A 2025 client, the official SDK v1 (1.32.2) with default options plus an elicitation handler,
 * drives the robot arm's approval on the legacy wire: over Streamable HTTP (sessions, the approval
 * as a server-to-client `elicitation/create` on the call's SSE stream) and over stdio (a real
 * child process started as the banner's desktop recipe starts it). One approved motion moves the
 * arm; one declined motion moves nothing. Every server message is validated against the official
 * 2025-11-25 schema, the revision the SDK negotiates.
 */
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { createSimulatedRobotServer } from '../../packages/robot-arm/wiring/simulated-robot-server.js';
import type { RobotServer } from '../../packages/robot-arm/server/create-robot-server.js';
import type { SimArmDriver } from '../../packages/robot-arm/driver/sim-arm-driver.js';
import { steppedPacer } from '../../packages/robot-arm/driver/sim-pacer.js';
import { DEFAULT_APPROVER_SCOPE } from '../../src/index.js';
import { createWireTap } from '../fixtures/servers/validating-fetch.js';
import { assertServerMessage } from '../fixtures/servers/wire-schema.js';
import { repoPath, TSX_LOADER } from '../support/repo-paths.js';

type Json = Record<string, unknown>;
const TARGET = { target_position: { x_mm: -450, y_mm: -150, z_mm: 420 } };
const OTHER = { target_position: { x_mm: -400, y_mm: -100, z_mm: 450 } };

/** A client whose elicitation handler answers with `answer` and records each question. */
function sdkClient(answer: () => Json, asked: string[]): Client {
  const client = new Client({ name: 'sdk-v1-robot', version: '1.0.0' }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    asked.push(String(request.params.message));
    return answer() as never;
  });
  return client;
}

interface CallOutcome { isError?: boolean; structuredContent?: Json; content: { type: string; text?: string }[] }

describe('SDK v1 client over Streamable HTTP: approval by elicitation on the legacy wire', () => {
  let robot: RobotServer<SimArmDriver>;
  let url: string;
  before(async () => {
    robot = createSimulatedRobotServer({ pacer: steppedPacer(20), motionRatePerSecond: 100, motionBurst: 100, auditLogPath: join(mkdtempSync(join(tmpdir(), 'legacy-v1-')), 'audit.jsonl'), approval: 'always',
      // The SDK client holds the approver scope: its user's elicitation answer approves (approver-trust.ts).
      authorize: () => ({ scopes: [DEFAULT_APPROVER_SCOPE] }) });
    url = (await robot.server.listen({ port: 0 })).url;
  });
  after(() => robot.close());

  for (const [decision, answer] of [
    ['approves: the arm moves', { action: 'accept', content: { approve: true } }],
    ['declines: nothing moves', { action: 'decline' }],
  ] as const) {
    it(`the user ${decision}`, async () => {
      const tap = createWireTap();
      const asked: string[] = [];
      const client = sdkClient(() => answer, asked);
      await client.connect(new StreamableHTTPClientTransport(new URL(url), { fetch: tap.fetch }));
      try {
        assert.equal(client.getServerVersion()?.name, 'toolwright-robot-arm');
        const before = robot.driver.sim.jointsDeg;
        const result = (await client.callTool({ name: 'move_arm_to_pose', arguments: answer.action === 'accept' ? TARGET : OTHER })) as CallOutcome;
        assert.equal(asked.length, 1);
        assert.match(asked[0] as string, /SHA-256 [0-9a-f]{64}/);
        if (answer.action === 'accept') {
          assert.equal(result.isError, undefined, JSON.stringify(result));
          assert.equal(result.structuredContent?.status, 'completed');
          assert.notDeepEqual(robot.driver.sim.jointsDeg, before);
        } else {
          assert.equal(result.isError, true, JSON.stringify(result));
          assert.deepEqual(robot.driver.sim.jointsDeg, before);
        }
        assert.equal('resultType' in result, false);
      } finally {
        await client.close();
        await tap.settled();
      }
      assert.deepEqual(tap.failures, []);
      assert.ok(tap.checked >= 3, `validated ${tap.checked} messages`);
    });
  }
});

/** Wraps a transport so every message the server sends is validated before the client sees it. */
function validating(inner: Transport, failures: string[], methods: Map<unknown, string>): Transport {
  const wrapped: Transport = {
    start: () => inner.start(),
    close: () => inner.close(),
    send: (message, options) => {
      const m = message as Json;
      if (typeof m.method === 'string' && m.id !== undefined) methods.set(m.id, m.method);
      return inner.send(message, options);
    },
  };
  inner.onclose = () => wrapped.onclose?.();
  inner.onerror = (error) => wrapped.onerror?.(error);
  inner.onmessage = (message, extra) => {
    const m = message as Json;
    try {
      assertServerMessage(m, 'result' in m || 'error' in m ? methods.get(m.id) : undefined, '2025-11-25');
    } catch (error) {
      failures.push(error instanceof Error ? error.message : String(error));
    }
    wrapped.onmessage?.(message, extra);
  };
  return wrapped;
}

describe('SDK v1 client over stdio (the desktop recipe): approval by elicitation', () => {
  for (const [decision, answer] of [
    ['approves: the arm moves', { action: 'accept', content: { approve: true } }],
    ['declines: nothing moves', { action: 'decline' }],
  ] as const) {
    it(`the user ${decision}`, async () => {
      const audit = join(mkdtempSync(join(tmpdir(), 'legacy-v1-stdio-')), 'audit.jsonl');
      const failures: string[] = [];
      const asked: string[] = [];
      const client = sdkClient(() => answer, asked);
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: ['--import', TSX_LOADER, repoPath('packages/robot-arm/main.ts'), '--stdio', '--audit-log', audit, '--audit-key', `${dirname(audit)}-key/audit.key`, '--audit-head', `${dirname(audit)}-key/audit.head`, '--time-scale', '1000', '--rate', '100'],
        stderr: 'pipe',
      });
      await client.connect(validating(transport, failures, new Map()));
      try {
        const status = (await client.callTool({ name: 'get_device_status', arguments: {} })) as CallOutcome;
        const jointsBefore = JSON.stringify(status.structuredContent?.joints_deg ?? status.structuredContent);
        const result = (await client.callTool({ name: 'move_arm_to_pose', arguments: TARGET }, undefined, { timeout: 60_000 })) as CallOutcome;
        assert.equal(asked.length, 1);
        const after = (await client.callTool({ name: 'get_device_status', arguments: {} })) as CallOutcome;
        const jointsAfter = JSON.stringify(after.structuredContent?.joints_deg ?? after.structuredContent);
        if (answer.action === 'accept') {
          assert.equal(result.structuredContent?.status, 'completed', JSON.stringify(result));
          assert.notEqual(jointsAfter, jointsBefore);
        } else {
          assert.equal(result.isError, true, JSON.stringify(result));
          assert.equal(jointsAfter, jointsBefore);
        }
      } finally {
        await client.close();
      }
      assert.deepEqual(failures, []);
    });
  }
});
