/**
 * The message a task's rounds run with, in place of the creating request's (answered already by
 * CreateTaskResult): its signal aborts on tasks/cancel, and progress the handler reports through
 * `ctx.progress` goes to the task record instead of a response stream.
 */
import type { JsonObject, JsonRpcNotification } from '../../protocol/json-rpc.js';
import type { InboundMessage } from '../../transport/message-dispatcher.js';
import type { TaskProgress } from './task-wire.js';

export function taskMessage(original: InboundMessage, signal: AbortSignal, onProgress: (progress: TaskProgress) => void): InboundMessage {
  return {
    body: '',
    transport: original.transport,
    ...(original.operator !== undefined ? { operator: original.operator } : {}),
    header: undefined,
    signal,
    // Not "aborted" for the stages: a cancelled handler still finishes its controlled stop, and what it
    // returns becomes the cancelled task's statusMessage (the engine decides the status from the signal).
    isAborted: () => false,
    notify(notification: JsonRpcNotification) {
      // Logs have no stream to go to once the creating request has been answered; progress goes to the task.
      if (notification.method !== 'notifications/progress') return;
      const params = notification.params as JsonObject;
      const progress: TaskProgress = { progress: params.progress as number };
      if (typeof params.total === 'number') progress.total = params.total;
      if (typeof params.message === 'string') progress.message = params.message;
      onProgress(progress);
    },
  };
}
