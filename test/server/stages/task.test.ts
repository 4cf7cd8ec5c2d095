/**
 * The `task` stage: whether this call becomes a task. A task is answered early with CreateTaskResult
 * and the same state goes on (to `execute`) as the task's run; everything else passes untouched.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defineTool } from '../../../src/index.js';
import { task } from '../../../src/server/stages/task.js';
import type { Stop } from '../../../src/server/stages/stage.js';
import { TaskEngine } from '../../../src/server/pipeline/task-engine.js';
import { TASKS_EXTENSION } from '../../../src/server/tasks/task-wire.js';
import type { TestEnv } from '../../support/stage-fixture.js';
import { assertPassed, assertRefused, settle, shaped, stageEnv } from '../../support/stage-fixture.js';
import { sampleTool } from '../../support/sample-tool.js';

const TASKS = { extensions: { [TASKS_EXTENSION]: {} } };
const slow = defineTool({
  name: 'slow',
  inputSchema: { type: 'object', properties: { ms: { type: 'integer' } } },
  task: { expectedDurationMs: (args) => (args.ms as number | undefined) ?? 0, thresholdMs: 100 },
  run: () => 'done',
});

/** An env with a real task engine on the env's memory store. */
function withTasks(maxActiveTasks = 10): { env: TestEnv; engine: TaskEngine } {
  const base = stageEnv();
  const engine = new TaskEngine({ maxActiveTasks }, { store: base.store, clock: { now: () => Date.now() }, logger: base.logger, onChange: () => undefined });
  return { env: stageEnv({ tools: [slow, sampleTool()], store: base.store, tasks: engine }), engine };
}

describe('task stage', () => {
  it('passes when the tool has no task policy, the server no tasks, or the request no tasks extension', async () => {
    const { env, engine } = withTasks();
    try {
      const plain = shaped(env, { tool: 'echo', args: { text: 'x' }, capabilities: TASKS });
      assertPassed(task.run(plain, env), plain);
      const undeclared = shaped(env, { tool: 'slow', args: { ms: 500 } });
      assertPassed(task.run(undeclared, env), undeclared);
      const noEngine = stageEnv({ tools: [slow] });
      const serverless = shaped(noEngine, { tool: 'slow', args: { ms: 500 }, capabilities: TASKS });
      assertPassed(task.run(serverless, noEngine), serverless);
      assert.equal(undeclared.task, undefined);
    } finally {
      await engine.close();
    }
  });

  it('answers a short call synchronously (below the threshold)', async () => {
    const { env, engine } = withTasks();
    try {
      const s = shaped(env, { tool: 'slow', args: { ms: 99 }, capabilities: TASKS });
      assertPassed(task.run(s, env), s);
      assert.equal(s.task, undefined);
    } finally {
      await engine.close();
    }
  });

  it('makes a long call a task: answered early with CreateTaskResult, the state goes on as the task', async () => {
    const { env, engine } = withTasks();
    try {
      const s = shaped(env, { tool: 'slow', args: { ms: 100 }, capabilities: TASKS });
      const early: Stop[] = [];
      s.replyEarly = (stop) => early.push(stop);
      const requestCtx = s.ctx;
      assertPassed(await settle(task.run(s, env)), s);
      const taskId = s.task!.taskId;
      assert.deepEqual(s.task, { taskId, rounds: 1 });
      assert.equal(early.length, 1);
      const result = (early[0] as { result: Record<string, unknown> }).result;
      assert.deepEqual(early[0], { kind: 'result', outcome: 'respond', result: { ...result, resultType: 'task', taskId, status: 'working' } });
      assert.notEqual(s.ctx, requestCtx, 'the task runs with its own context');
      assert.equal(s.meta.progressToken, taskId);
      const stored = await engine.records.read(taskId, '');
      assert.deepEqual([stored?.tool, stored?.status, stored?.owner], ['slow', 'working', '']);
    } finally {
      await engine.close();
    }
  });

  it('refuses a new task when maxActiveTasks run, and nothing is created', async () => {
    const { env, engine } = withTasks(1);
    try {
      const first = shaped(env, { tool: 'slow', args: { ms: 100 }, capabilities: TASKS });
      first.replyEarly = () => undefined;
      assertPassed(await settle(task.run(first, env)), first);
      const second = shaped(env, { tool: 'slow', args: { ms: 100 }, capabilities: TASKS });
      second.replyEarly = () => assert.fail('a refused call must not be answered early');
      assertRefused(await settle(task.run(second, env)), 'taskCapacity', 'Server busy: 1 tasks are active; try again later');
      assert.equal(second.task, undefined);
    } finally {
      await engine.close();
    }
  });
});
