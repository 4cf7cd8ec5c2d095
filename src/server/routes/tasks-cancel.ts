/** `tasks/cancel`: stops a task's run. */
import type { TaskEngine } from '../pipeline/task-engine.js';
import type { Route } from './route.js';
import { ack, taskIdOf, taskOwner } from './task-gate.js';

export function tasksCancel(engine: TaskEngine): Route {
  return {
    method: 'tasks/cancel',
    async handle(s) {
      const taskId = taskIdOf(s);
      if (typeof taskId !== 'string') return taskId;
      return (await engine.cancel(taskId, taskOwner(s))) ?? ack();
    },
  };
}
