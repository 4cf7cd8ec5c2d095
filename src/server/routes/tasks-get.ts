/** `tasks/get`: a task's state (and its result once it has one). */
import { rpcError } from '../outcomes.js';
import { fail, respond } from '../stages/stage.js';
import type { TaskEngine } from '../pipeline/task-engine.js';
import { getTaskResult } from '../tasks/task-wire.js';
import type { Route } from './route.js';
import { taskIdOf, taskOwner } from './task-gate.js';

export function tasksGet(engine: TaskEngine): Route {
  return {
    method: 'tasks/get',
    async handle(s) {
      const taskId = taskIdOf(s);
      if (typeof taskId !== 'string') return taskId;
      const record = await engine.records.read(taskId, taskOwner(s));
      return record === undefined ? fail(rpcError('taskUnknown', `Unknown task: ${taskId}`)) : respond(getTaskResult(record));
    },
  };
}
