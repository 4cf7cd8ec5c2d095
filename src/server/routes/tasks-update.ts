/** `tasks/update`: the answers to a task's input requests. */
import { isJsonObject } from '../../protocol/json-rpc.js';
import { isValidInputResponse } from '../approvals/input-flow.js';
import { rpcError } from '../outcomes.js';
import { describeType, fail } from '../stages/stage.js';
import type { TaskEngine } from '../pipeline/task-engine.js';
import type { Route } from './route.js';
import { ack, taskIdOf, taskOwner } from './task-gate.js';

export function tasksUpdate(engine: TaskEngine): Route {
  return {
    method: 'tasks/update',
    async handle(s) {
      const taskId = taskIdOf(s);
      if (typeof taskId !== 'string') return taskId;
      const responses = s.params.inputResponses;
      if (!isJsonObject(responses)) return fail(rpcError('taskInvalidParams', `Invalid params: tasks/update needs an "inputResponses" object, got ${describeType(responses)}`));
      return (await engine.answer(taskId, taskOwner(s), responses, isValidInputResponse)) ?? ack();
    },
  };
}
