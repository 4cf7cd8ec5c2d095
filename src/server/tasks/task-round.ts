/**
 * One round of a task's handler: the pipeline's own `execute` and `output` stages, run on a copy of
 * the call state whose message is the task's (its signal aborts on tasks/cancel; progress the
 * handler reports through `ctx.progress` goes to the task instead of a response stream). Reusing
 * the stages means a task's result is normalised and checked against the output schema exactly
 * like a synchronous call's.
 */
import { META } from '../../protocol/constants.js';
import type { JsonObject, JsonRpcNotification } from '../../protocol/json-rpc.js';
import type { InboundMessage } from '../../transport/message-dispatcher.js';
import { CallContext } from '../call-context.js';
import { execute } from '../stages/execute.js';
import { output } from '../stages/output.js';
import type { PipelineEnv } from '../stages/pipeline-env.js';
import { CANCELLED, errorMessage, fail } from '../stages/stage.js';
import type { Executed, Shaped, Stop } from '../stages/stage.js';
import { rpcError } from '../outcomes.js';
import type { ApprovalRecord } from '../approvals.js';
import type { TaskProgress } from './task-wire.js';

/** What a round needs beyond the original call state. */
export interface RoundInput {
  taskId: string;
  signal: AbortSignal;
  inputResponses: Record<string, unknown> | undefined;
  requestState: string | undefined;
  redeemed: ApprovalRecord | undefined;
  onProgress(progress: TaskProgress): void;
}

function taskMessage(original: InboundMessage, input: RoundInput): InboundMessage {
  return {
    body: '',
    transport: original.transport,
    ...(original.operator !== undefined ? { operator: original.operator } : {}),
    header: undefined,
    signal: input.signal,
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
      input.onProgress(progress);
    },
  };
}

/** Runs the handler once more for the task and returns how it stopped (never rejects). */
export async function runRound(original: Shaped, env: PipelineEnv, input: RoundInput): Promise<Stop> {
  const round: Shaped = {
    ...original,
    message: taskMessage(original.message, input),
    finished: false,
    // The task id is the progress token: ctx.progress always reports, whatever the request carried.
    meta: { ...original.meta, [META.progressToken]: input.taskId },
    inputResponses: input.inputResponses,
    requestState: input.requestState,
    redeemed: input.redeemed,
  };
  round.ctx = new CallContext(round, env);
  if (input.signal.aborted) return CANCELLED;
  try {
    const executed = await execute.run(round, env);
    if (executed !== round) return executed as Stop;
    return (await output.run(executed as Executed, env)) as Stop;
  } catch (error) {
    env.logger.error('task round failed', { tool: original.tool.name, task: input.taskId, error: errorMessage(error) });
    return fail(rpcError('internalFault', 'Internal error'));
  }
}
