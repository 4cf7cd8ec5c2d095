/**
 * `tasks/get`, `tasks/update` and `tasks/cancel` (SEP-2663). Each is refused with -32021 unless this
 * very request declares the extension; each names the task by `taskId`, and a task that does not
 * exist, has expired or belongs to another subject is the same -32602 "Unknown task". Acks carry
 * nothing of the task: its state is read with the next `tasks/get`.
 */
import { isJsonObject } from '../../protocol/json-rpc.js';
import type { MethodRoute, RequestState, Stop } from '../pipeline/create-pipeline.js';
import { isValidInputResponse } from '../input-flow.js';
import { rpcError } from '../outcomes.js';
import { describeType, fail, respond } from '../stages/stage.js';
import type { TaskEngine } from './task-engine.js';
import { declaresTasks, getTaskResult, TASKS_EXTENSION } from './task-wire.js';

/** The -32021 of a request that uses tasks without declaring the extension. */
export function tasksNotDeclared(what: string): Stop {
  return fail(rpcError('missingClientCapability', `Missing required client capability: extensions["${TASKS_EXTENSION}"] (${what})`, {
    data: { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
  }));
}

function taskIdOf(s: RequestState): string | Stop {
  const taskId = s.params.taskId;
  if (typeof taskId !== 'string' || taskId === '') return fail(rpcError('taskInvalidParams', `Invalid params: ${s.method} needs a string "taskId", got ${describeType(taskId)}`));
  return taskId;
}

const ACK = (): Stop => respond({ resultType: 'complete' });

/** The three routes, by method. */
export function taskRoutes(engine: TaskEngine): Map<string, MethodRoute> {
  const gate = (s: RequestState): string | Stop => {
    if (!declaresTasks(s.capabilities)) return tasksNotDeclared(`${s.method} needs the tasks extension declared on the request`);
    return taskIdOf(s);
  };
  const owner = (s: RequestState): string => s.auth?.subject ?? '';
  return new Map<string, MethodRoute>([
    ['tasks/get', async (s) => {
      const taskId = gate(s);
      if (typeof taskId !== 'string') return taskId;
      const record = await engine.records.read(taskId, owner(s));
      return record === undefined ? fail(rpcError('taskUnknown', `Unknown task: ${taskId}`)) : respond(getTaskResult(record));
    }],
    ['tasks/update', async (s) => {
      const taskId = gate(s);
      if (typeof taskId !== 'string') return taskId;
      const responses = s.params.inputResponses;
      if (!isJsonObject(responses)) return fail(rpcError('taskInvalidParams', `Invalid params: tasks/update needs an "inputResponses" object, got ${describeType(responses)}`));
      return (await engine.answer(taskId, owner(s), responses, isValidInputResponse)) ?? ACK();
    }],
    ['tasks/cancel', async (s) => {
      const taskId = gate(s);
      if (typeof taskId !== 'string') return taskId;
      return (await engine.cancel(taskId, owner(s))) ?? ACK();
    }],
  ]);
}
