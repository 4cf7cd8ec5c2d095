/**
 * What `tasks/get`, `tasks/update` and `tasks/cancel` (SEP-2663) share: each is refused with
 * -32021 unless this very request declares the extension, and names the task by `taskId`; a task
 * that does not exist, has expired or belongs to another subject is the same -32602 "Unknown task".
 */
import { rpcError } from '../outcomes.js';
import { describeType, fail, respond } from '../stages/stage.js';
import type { RequestState, Stop } from '../stages/stage.js';
import { tasksNotDeclared } from '../stages/tasks-not-declared.js';
import { declaresTasks } from '../tasks/task-wire.js';

/** The request's task id, or the refusal. */
export function taskIdOf(s: RequestState): string | Stop {
  if (!declaresTasks(s.capabilities)) return tasksNotDeclared(`${s.method} needs the tasks extension declared on the request`);
  const taskId = s.params.taskId;
  if (typeof taskId !== 'string' || taskId === '') return fail(rpcError('taskInvalidParams', `Invalid params: ${s.method} needs a string "taskId", got ${describeType(taskId)}`));
  return taskId;
}

/** Whose task: the authenticated subject ('' when anonymous). */
export function taskOwner(s: RequestState): string {
  return s.auth?.subject ?? '';
}

/** Acks carry nothing of the task: its state is read with the next `tasks/get`. */
export const ack = (): Stop => respond({ resultType: 'complete' });
