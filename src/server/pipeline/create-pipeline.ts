/**
 * The pipeline function of one server: a message in, its reply out. Most requests are answered by
 * their final stop. A call that becomes a task is answered early, by the `task` stage
 * (CreateTaskResult), and its run goes on in the background through the same runner; its final
 * stop, as the middleware left it, is the task's outcome (pipeline/task-engine.ts).
 */
import type { InboundMessage, Reply } from '../../transport/message-dispatcher.js';
import { resolveEnv } from '../stages/pipeline-env.js';
import type { PipelineConfig } from '../stages/pipeline-env.js';
import { errorMessage, receive } from '../stages/stage.js';
import type { AnyState, Stop } from '../stages/stage.js';
import { runFrom } from './compose.js';
import { addNotes, toReply } from './reply.js';

export type { Authorizer, AuthorizeRequest, MethodRoute, PipelineConfig, ServerLogger } from '../stages/pipeline-env.js';
export type { RequestState, Stop } from '../stages/stage.js';

/** Builds the pipeline function for one server. */
export function createPipeline(config: PipelineConfig): (message: InboundMessage) => Promise<Reply> {
  const env = resolveEnv(config);
  return function handleMessage(message: InboundMessage): Promise<Reply> {
    let s: AnyState;
    let stop: Stop | Promise<Stop>;
    try {
      s = receive(message);
      stop = runFrom(env, s, 0);
    } catch (error) {
      return Promise.reject(error);
    }
    if (!(stop instanceof Promise)) return Promise.resolve(toReply(s, stop, env));
    // Without the tasks extension nothing answers early: one settlement, as before tasks ran in the runner.
    if (env.tasks === undefined) return stop.then((final) => toReply(s, final, env));
    const pending = stop;
    return new Promise<Reply>((resolve, reject) => {
      // Set before any stage settles: the `task` stage answers through it once the task exists.
      s.replyEarly = (early) => resolve(toReply(s, early, env));
      pending.then((final) => {
        if (s.task === undefined) resolve(toReply(s, final, env));
        else {
          if (final.kind === 'result') addNotes(s, final, env);
          env.tasks!.settle(s, final);
        }
      }).catch((error: unknown) => {
        if (s.task === undefined) reject(error);
        else env.logger.error('task run failed', { tool: s.tool?.name, error: errorMessage(error) });
      });
    });
  };
}
