import { shouldRunAsTask } from '../tasks/task-policy.js';
import { declaresTasks } from '../tasks/task-wire.js';
import type { Shaped, Stage } from './stage.js';

/**
 * Whether this call becomes a task (SEP-2663: the server decides per request). It runs after
 * `approval`, so a task never waits on an approval: the approval round is synchronous and the task
 * starts with it given. A task is answered here with CreateTaskResult (early, through the pipeline);
 * the run then goes on to `execute` and `output` in the background, inside the same middleware, and
 * its final stop becomes the task's outcome (pipeline/task-engine.ts).
 */
export const task: Stage<'task', Shaped> = {
  name: 'task',
  run(s, env) {
    const policy = s.tool.tool.task;
    if (policy === undefined || env.tasks === undefined || !declaresTasks(s.capabilities)) return s;
    if (!shouldRunAsTask(policy, s.args, s.ctx)) return s;
    return env.tasks.start(s, env, policy);
  },
};
