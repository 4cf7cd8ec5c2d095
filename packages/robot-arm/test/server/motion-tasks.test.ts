/**
 * Robot motions as tasks (`io.modelcontextprotocol/tasks`) over real loopback HTTP, driven by
 * Toolwright's own client (`callTool(..., { task: true })`): progress with the live TCP pose, a
 * completed motion at its target, tasks/cancel as a controlled stop whose statusMessage names the
 * stop pose, stop_arm and the e-stop during a task, the approval round kept synchronous, another
 * subject kept out, and clients without the extension getting today's synchronous call.
 * Simulated time is frozen at a chosen point of the path (observed-pacer.ts), never slept on.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { connect, McpClientError, type McpClient, type ProgressUpdate, type ToolTask, type ToolTaskSnapshot } from 'toolwright/client';
import { readAuditLog } from '../../server/audit-log.js';
import type { SimulatedRobotServerOptions } from '../../wiring/simulated-robot-server.js';
import { observedPacer, type ObservedPacer } from '../support/observed-pacer.js';
import { startHarness, type Harness } from '../support/robot-harness.js';
import { repoPath } from '../../../../test/support/repo-paths.js';
import { thirdPartyFile } from '../../../../test/support/test-deps.js';

const TASKS = 'io.modelcontextprotocol/tasks';
const TARGET = { x_mm: -400, y_mm: -300, z_mm: 150 };
const FAR = { target_position: TARGET, speed: 0.1 };

type TaskHarness = Harness & { pacer: ObservedPacer };

async function start(options: SimulatedRobotServerOptions = {}): Promise<TaskHarness> {
  const pacer = observedPacer(20);
  return Object.assign(await startHarness({ approval: 'off', pacer, ...options }), { pacer });
}

/** Fraction of the running motion's planned duration that has elapsed (0 when none runs). */
function fractionOf(h: TaskHarness): number {
  const motion = h.robot.driver.sim.status().motion;
  return motion === null || motion.durationS === 0 ? 0 : motion.elapsedS / motion.durationS;
}

/** A tool result's structuredContent as an object (these tools declare no outputSchema). */
function structured(result: { structuredContent?: unknown }): Record<string, unknown> {
  return (result.structuredContent ?? {}) as Record<string, unknown>;
}

function distanceToTarget(h: TaskHarness): number {
  const tcp = h.robot.driver.sim.tcp;
  return Math.hypot(tcp.x - TARGET.x_mm, tcp.y - TARGET.y_mm, tcp.z - TARGET.z_mm);
}

/** The TCP as the server's messages print it. */
function tcpText(h: TaskHarness): string {
  const tcp = h.robot.driver.sim.tcp;
  return `(${tcp.x.toFixed(1)}, ${tcp.y.toFixed(1)}, ${tcp.z.toFixed(1)}) mm (base frame)`;
}

/** Reads the task (tasks/get) until `done` holds, at most 200 times, 10 ms apart. */
async function untilTask(task: ToolTask, done: (snapshot: ToolTaskSnapshot) => boolean): Promise<ToolTaskSnapshot> {
  for (let i = 0; i < 200; i++) {
    const snapshot = await task.refresh();
    if (done(snapshot)) return snapshot;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`task ${task.taskId} never reached the awaited state; last: ${JSON.stringify(task.latest.raw)}`);
}

function taskRecord(h: TaskHarness, taskId: string | undefined): Record<string, unknown> | undefined {
  return readAuditLog(h.auditPath).records.find((r) => r.type === 'tool_call' && r.task_id === taskId);
}

interface TaskReply {
  status: number;
  body: { result?: { status?: string; statusMessage?: string; result?: { structuredContent?: Record<string, unknown> } }; error?: { code: number; message: string } };
}

/**
 * A raw tasks/get or tasks/cancel (declaring the extension, with its Mcp-Name header). The official
 * 2026-07-28 schema has no tasks methods (they belong to the extension), so unlike the harness's
 * `rpc` the reply is not checked against it.
 */
async function taskRpc(h: TaskHarness, method: string, taskId: string, headers: Record<string, string> = {}): Promise<TaskReply> {
  const response = await fetch(h.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': method, 'mcp-name': taskId, ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { taskId, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': { extensions: { [TASKS]: {} } } } } }),
    signal: AbortSignal.timeout(30_000),
  });
  return { status: response.status, body: (await response.json()) as TaskReply['body'] };
}

async function withClient(h: TaskHarness, body: (client: McpClient) => Promise<void>, options: Parameters<typeof connect>[1] = {}, headers?: Record<string, string>): Promise<void> {
  const client = connect(headers === undefined ? h.url : { url: h.url, headers }, { onWarning: () => {}, ...options });
  try {
    await body(client);
  } finally {
    await client.close();
    await h.close();
  }
}

describe('robot motions as tasks, with Toolwright\'s client over HTTP', () => {
  it('move_arm_to_pose runs as a task: progress is the fraction of the path and the live TCP pose, then completed at the target', async () => {
    const h = await start();
    await withClient(h, async (client) => {
      let resume = false;
      const frozen = h.pacer.freeze(() => fractionOf(h) >= 0.4, () => resume);
      const task = await client.callTool('move_arm_to_pose', FAR, { task: true });
      assert.equal(typeof task.taskId, 'string');
      assert.equal(task.status, 'working');
      const progress: ProgressUpdate[] = [];
      task.on('progress', (p) => progress.push(p));
      await frozen;
      const snapshot = await task.refresh();
      const fraction = Math.round(fractionOf(h) * 1000) / 1000;
      const message = `motion ${Math.round(fractionOf(h) * 100)}%, TCP at ${tcpText(h)}`;
      assert.equal(snapshot.status, 'working');
      assert.deepEqual(snapshot.progress, { progress: fraction, total: 1, message });
      assert.equal(snapshot.statusMessage, message);
      assert.deepEqual(progress, [{ progress: fraction, total: 1, message }]);
      resume = true;
      const result = await task.result();
      assert.equal(task.status, 'completed');
      assert.equal(result.isError, undefined);
      assert.equal(structured(result).status, 'completed');
      assert.ok(distanceToTarget(h) < 1, `the TCP is ${distanceToTarget(h).toFixed(2)} mm from the target`);
      assert.deepEqual(h.robot.controller.monitor.violations, []);
      const record = taskRecord(h, task.taskId);
      assert.equal(record?.tool, 'move_arm_to_pose');
      assert.equal(record?.outcome, 'ok');
      assert.equal((record?.motion as { status: string }).status, 'completed');
    });
  });

  it('tasks/cancel is a controlled stop: the arm decelerates short of the target and the statusMessage says where it stopped', async () => {
    const h = await start();
    await withClient(h, async (client) => {
      const sim = h.robot.driver.sim;
      // Frozen mid-path until the cancel reached the arm (it is then decelerating).
      const frozen = h.pacer.freeze(() => fractionOf(h) >= 0.3, () => sim.state !== 'moving');
      const task = await client.callTool('move_arm_to_pose', FAR, { task: true });
      await frozen;
      const cancelledAt = sim.tcp;
      await task.cancel();
      const snapshot = await untilTask(task, (s) => s.statusMessage?.includes('the tool reported') === true);
      assert.equal(snapshot.status, 'cancelled');
      assert.equal(sim.state, 'idle');
      assert.equal(h.robot.controller.activeMotionId, null);
      const record = taskRecord(h, task.taskId);
      const motionId = (record?.motion as { motionId: string }).motionId;
      assert.equal(snapshot.statusMessage, `Cancelled by the client; the tool reported: Motion ${motionId} did not complete: cancelled. TCP stopped at ${tcpText(h)}.`);
      assert.ok(distanceToTarget(h) > 50, `the arm stopped ${distanceToTarget(h).toFixed(1)} mm from the target`);
      const braking = Math.hypot(sim.tcp.x - cancelledAt.x, sim.tcp.y - cancelledAt.y, sim.tcp.z - cancelledAt.z);
      assert.ok(braking > 0, 'a controlled stop decelerates along the path (it does not freeze)');
      assert.deepEqual(h.robot.controller.monitor.violations, [], 'the deceleration stayed within the limits');
      assert.equal(record?.outcome, 'cancelled');
      assert.equal((record?.motion as { status: string }).status, 'cancelled');
      await assert.rejects(task.result(), (error: unknown) => error instanceof McpClientError && error.kind === 'task_cancelled');
    });
  });

  for (const [mode, state, status] of [['controlled', 'stopping', 'stopped'], ['emergency', 'estop', 'emergency_stopped']] as const) {
    it(`stop_arm (${mode}) during a task: the task completes with status ${status} in its result`, async () => {
      const h = await start();
      await withClient(h, async (client) => {
        const sim = h.robot.driver.sim;
        const frozen = h.pacer.freeze(() => fractionOf(h) >= 0.3, () => sim.state === state);
        const task = await client.callTool('move_arm_to_pose', FAR, { task: true });
        await frozen;
        const stop = await h.call('stop_arm', { mode });
        assert.equal(stop.body.result?.structuredContent?.was_moving, true);
        const result = await task.result();
        assert.equal(task.status, 'completed');
        assert.equal(result.isError, true);
        assert.equal(structured(result).status, status);
        assert.equal(structured(result).motion_id, stop.body.result?.structuredContent?.stopped_motion_id);
        assert.ok(distanceToTarget(h) > 50, 'the arm stopped short of the target');
        assert.equal(taskRecord(h, task.taskId)?.outcome, 'error');
      });
    });
  }

  it('a second subject cannot read or cancel the task: the same error as for an unknown task id', async () => {
    const subjects: Record<string, string> = { 'alice-token': 'alice', 'bob-token': 'bob' };
    const h = await start({ authorize: (request) => (request.bearerToken !== undefined && subjects[request.bearerToken] !== undefined ? { scopes: [], subject: subjects[request.bearerToken] } : null) });
    const asBob = (method: string, taskId: string) => taskRpc(h, method, taskId, { authorization: 'Bearer bob-token' });
    await withClient(h, async (alice) => {
      let resume = false;
      const frozen = h.pacer.freeze(() => fractionOf(h) >= 0.3, () => resume);
      const task = await alice.callTool('move_arm_to_pose', FAR, { task: true });
      const taskId = task.taskId!;
      await frozen;
      for (const method of ['tasks/get', 'tasks/cancel']) {
        const theirs = await asBob(method, taskId);
        const unknown = await asBob(method, 'no-such-task');
        assert.equal(theirs.body.error?.code, -32602, method);
        assert.equal(theirs.body.error?.message, `Unknown task: ${taskId}`, method);
        assert.deepEqual({ status: theirs.status, code: theirs.body.error?.code, message: theirs.body.error?.message.replace(taskId, 'ID') }, { status: unknown.status, code: unknown.body.error?.code, message: unknown.body.error?.message.replace('no-such-task', 'ID') }, method);
      }
      assert.equal(h.robot.driver.sim.state, 'moving', 'bob\'s tasks/cancel stopped nothing');
      resume = true;
      const result = await task.result();
      assert.equal(structured(result).status, 'completed');
    }, {}, { authorization: 'Bearer alice-token' });
  });
});

describe('execute_trajectory and grasp_object_force_control as tasks', () => {
  it('a stored plan runs as a task, then the grasp: both complete with their results', async () => {
    const h = await start();
    await withClient(h, async (client) => {
      const sim = h.robot.driver.sim;
      const tcp = sim.tcp;
      const planned = await client.callTool('plan_trajectory', { waypoints: [{ x_mm: tcp.x, y_mm: tcp.y, z_mm: tcp.z - 50 }, { x_mm: tcp.x + 40, y_mm: tcp.y, z_mm: tcp.z - 50 }] });
      const planId = structured(planned).plan_id as string;
      const run = await client.callTool('execute_trajectory', { plan_id: planId }, { task: true });
      assert.equal(typeof run.taskId, 'string');
      const ran = await run.result();
      assert.equal(structured(ran).status, 'completed');
      assert.equal(structured(ran).plan_id, planId);
      assert.equal(taskRecord(h, run.taskId)?.tool, 'execute_trajectory');

      const block = sim.objects().find((o) => o.id === 'block-1')!;
      const above = await client.callTool('move_arm_to_pose', { target_position: { x_mm: block.position.x, y_mm: block.position.y, z_mm: block.position.z + 100 }, path: 'joint' }, { task: true });
      assert.equal(structured(await above.result()).status, 'completed');
      const grasp = await client.callTool('grasp_object_force_control', { target_position: { x_mm: block.position.x, y_mm: block.position.y, z_mm: block.position.z }, force_n: 15 }, { task: true });
      assert.equal(typeof grasp.taskId, 'string');
      const grasped = await grasp.result();
      assert.equal(structured(grasped).grasped, true, JSON.stringify(grasped));
      assert.equal(sim.heldObjectId, 'block-1');
      assert.equal(taskRecord(h, grasp.taskId)?.outcome, 'ok');
    });
  });
});

describe('MCP Inspector 2.12 CLI', () => {
  it('declares the extension on tools/call, so a motion becomes a task; it prints the CreateTaskResult and the motion runs to its end', async () => {
    const h = await start();
    try {
      const launcher = thirdPartyFile('@modelcontextprotocol/inspector', 'clients/launcher/build/index.js');
      // A catalog of its own, so the test never writes the user's ~/.mcp-inspector.
      const env = { ...process.env, MCP_CATALOG_PATH: join(mkdtempSync(join(tmpdir(), 'robot-inspector-')), 'catalog.json') };
      const { stdout } = await promisify(execFile)(process.execPath, [launcher, '--cli', '--format', 'json', '--method', 'tools/call', '--tool-name', 'move_arm_to_pose', '--tool-args-json', JSON.stringify(FAR), h.url], { env, cwd: repoPath(), timeout: 60_000 });
      const line = stdout.split('\n').find((l) => l.startsWith('{"result"'));
      assert.ok(line !== undefined, stdout);
      const created = (JSON.parse(line) as { result: { taskId?: string; status?: string } }).result;
      assert.equal(created.status, 'working');
      assert.equal(typeof created.taskId, 'string');
      let got: TaskReply['body']['result'] = {};
      for (let i = 0; i < 500 && got?.status !== 'completed'; i++) {
        if (i > 0) await new Promise((resolve) => setTimeout(resolve, 10));
        got = (await taskRpc(h, 'tasks/get', created.taskId!)).body.result;
      }
      assert.equal(got?.status, 'completed');
      assert.equal(got?.result?.structuredContent?.status, 'completed');
      assert.ok(distanceToTarget(h) < 1);
    } finally {
      await h.close();
    }
  });
});

describe('approval happens before a motion task starts', () => {
  it('the approval question is answered synchronously; the task starts with it given and never waits on one', async () => {
    const h = await start({ approval: 'always' });
    await withClient(h, async (client) => {
      const asked: string[] = [];
      const task = await client.callTool('move_arm_to_pose', FAR, {
        task: true,
        onInputRequired: (requests) => {
          asked.push(...Object.keys(requests));
          // No task exists yet and nothing moves while the human decides.
          assert.equal(h.robot.controller.activeMotionId, null);
          assert.equal(h.robot.driver.sim.state, 'idle');
          return { approval: { action: 'accept', content: { approve: true } } };
        },
      });
      assert.deepEqual(asked, ['approval']);
      assert.equal(typeof task.taskId, 'string');
      const statuses: string[] = [task.status];
      task.on('status', (s) => statuses.push(s.status));
      const result = await task.result();
      assert.equal(structured(result).status, 'completed');
      assert.ok(!statuses.includes('input_required'), statuses.join(', '));
      const record = taskRecord(h, task.taskId);
      assert.equal((record?.approval as { decision: string }).decision, 'approved');
    }, { capabilities: { elicitation: { form: {} } } });
  });

  it('on the wire: the first call answers input_required (no task, nothing moved); the approved retry becomes the task', async () => {
    const h = await start({ approval: 'always' });
    try {
      const capabilities = { elicitation: { form: {} }, extensions: { [TASKS]: {} } };
      const first = await h.call('move_arm_to_pose', FAR, { capabilities });
      assert.equal(first.body.result?.resultType, 'input_required');
      assert.equal(h.robot.controller.activeMotionId, null);
      const retry = await h.call('move_arm_to_pose', FAR, { capabilities, requestState: first.body.result!.requestState!, inputResponses: { approval: { action: 'decline' } } });
      // A declined approval is an answer: the task ends at once with the refusal, and nothing moved.
      assert.equal(retry.body.result?.resultType, 'task');
      const taskId = (retry.body.result as { taskId?: string }).taskId!;
      let got: TaskReply['body']['result'] = {};
      for (let i = 0; i < 200 && got?.status !== 'completed'; i++) {
        if (i > 0) await new Promise((resolve) => setTimeout(resolve, 10));
        got = (await taskRpc(h, 'tasks/get', taskId)).body.result;
      }
      assert.equal(got?.status, 'completed');
      assert.equal((got?.result?.structuredContent?.refused as { code: string } | undefined)?.code, 'approval_declined');
      assert.equal(distanceToTarget(h) > 300, true, 'the arm did not move');
    } finally {
      await h.close();
    }
  });

  it('a client that cannot approve (no elicitation) gets the refusal at once: no task is created', async () => {
    const h = await start({ approval: 'always' });
    await withClient(h, async (client) => {
      const task = await client.callTool('move_arm_to_pose', FAR, { task: true });
      assert.equal(task.taskId, undefined);
      const result = await task.result();
      assert.equal((structured(result).refused as { code: string }).code, 'approval_unavailable');
      assert.equal(h.robot.driver.sim.state, 'idle');
    });
  });
});

describe('clients without tasks keep today\'s behaviour', () => {
  it('a call without the extension answers synchronously, with progress notifications for its progress token', async () => {
    const h = await start();
    await withClient(h, async (client) => {
      const progress: ProgressUpdate[] = [];
      const result = await client.callTool('move_arm_to_pose', FAR, { onProgress: (p) => progress.push(p) });
      assert.equal(result.resultType, 'complete');
      assert.equal(structured(result).status, 'completed');
      assert.ok(progress.length > 5, `${progress.length} progress notifications`);
      for (let i = 1; i < progress.length; i++) assert.ok(progress[i]!.progress > progress[i - 1]!.progress, 'progress only increases');
      for (const p of progress) assert.match(p.message ?? '', /^motion \d+%, TCP at \(-?\d+\.\d, -?\d+\.\d, -?\d+\.\d\) mm \(base frame\)$/);
      assert.equal(progress.at(-1)!.message, `motion 100%, TCP at ${tcpText(h)}`);
    });
  });

  it('a dry run of a client with the extension is answered at once (no task): nothing moves', async () => {
    const h = await start();
    await withClient(h, async (client) => {
      const task = await client.callTool('move_arm_to_pose', { ...FAR, dry_run: true }, { task: true });
      assert.equal(task.taskId, undefined);
      assert.equal(structured(await task.result()).dry_run, true);
      assert.ok(distanceToTarget(h) > 300);
    });
  });
});
