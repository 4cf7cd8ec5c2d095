/**
 * The request pipeline: the stages of stages/stage-list.ts run in order until one stops the request
 * (every stop is a row of OUTCOMES, outcomes.ts). This file is the runner, in the manner of Hono's
 * compose: it runs stages synchronously while they answer synchronously, reports one stage event per
 * stage, and turns the final stop into the reply.
 */
import type { JsonObject, JsonRpcId } from '../protocol/json-rpc.js';
import type { InboundMessage, Reply } from '../transport/message-dispatcher.js';
import { OUTCOMES, rpcError } from './outcomes.js';
import type { StageEvent, StageName, StageOutcome } from './stage-events.js';
import { resolveEnv } from './stages/pipeline-env.js';
import type { PipelineConfig, PipelineEnv } from './stages/pipeline-env.js';
import { STAGE_LIST } from './stages/stage-list.js';
import { errorMessage, fail, receive } from './stages/stage.js';
import type { AnyState, Stop } from './stages/stage.js';

export type { Authorizer, AuthorizeRequest, MethodRoute, PipelineConfig, ServerLogger } from './stages/pipeline-env.js';
export type { RequestState, Stop } from './stages/stage.js';
export { missingCapabilities } from './stages/client-capabilities.js';

function firstText(result: JsonObject): string | undefined {
  const content = result.content;
  if (!Array.isArray(content)) return undefined;
  const block = content[0] as { type?: unknown; text?: unknown } | undefined;
  return block?.type === 'text' && typeof block.text === 'string' ? block.text : undefined;
}

function emit(env: PipelineEnv, s: AnyState, stage: StageName, stop: Stop | undefined, durationMs: number): void {
  let outcome: StageOutcome = 'pass';
  let code: number | undefined;
  let detail: string | undefined;
  if (stop !== undefined) {
    if (stop.kind === 'result') {
      outcome = stop.outcome;
      if (stop.outcome === 'tool-error') detail = firstText(stop.result);
    } else if (stop.kind === 'error') {
      outcome = 'error';
      code = stop.error.code;
      detail = stop.error.message;
    } else outcome = stop.kind;
  }
  const event: StageEvent = { stage, outcome, durationMs, requestId: s.id, method: s.method, tool: s.tool?.name, transport: s.message.transport };
  if (code !== undefined) event.code = code;
  if (detail !== undefined) event.detail = detail;
  try {
    env.onStageEvent!(event);
  } catch (error) {
    env.logger.error('onStageEvent threw', { error: errorMessage(error) });
  }
}

function crashed(env: PipelineEnv, s: AnyState, name: string, error: unknown): Stop {
  env.logger.error(`stage ${name} failed`, { error: errorMessage(error), stack: error instanceof Error ? error.stack : undefined, tool: s.tool?.name });
  return fail(rpcError('internalFault', 'Internal error'));
}

/**
 * Runs stages from `index` synchronously for as long as they answer synchronously, so a call with
 * no asynchronous work allocates no promises here; the first pending stage continues the loop from
 * its settlement. A stage goes on by returning the state itself; anything else is its stop.
 */
function runFrom(env: PipelineEnv, s: AnyState, index: number): Stop | Promise<Stop> {
  for (let i = index; i < STAGE_LIST.length; i++) {
    const stage = STAGE_LIST[i]!;
    const started = env.onStageEvent === undefined ? 0 : performance.now();
    let value: AnyState | Stop | Promise<AnyState | Stop>;
    try {
      value = stage.run(s, env);
    } catch (error) {
      value = crashed(env, s, stage.name, error);
    }
    if (value instanceof Promise) {
      return value.then(
        (settled) => settle(env, s, i, settled, started),
        (error: unknown) => settle(env, s, i, crashed(env, s, stage.name, error), started),
      );
    }
    const stop = value === s ? undefined : (value as Stop);
    if (env.onStageEvent !== undefined) emit(env, s, stage.name as StageName, stop, performance.now() - started);
    if (stop !== undefined) return stop;
  }
  return fail(rpcError('internalFault', 'Internal error'));
}

function settle(env: PipelineEnv, s: AnyState, i: number, value: AnyState | Stop, started: number): Stop | Promise<Stop> {
  const stop = value === s ? undefined : (value as Stop);
  if (env.onStageEvent !== undefined) emit(env, s, STAGE_LIST[i]!.name as StageName, stop, performance.now() - started);
  return stop !== undefined ? stop : runFrom(env, s, i + 1);
}

function serializeResult(id: JsonRpcId, result: JsonObject, resultMeta: JsonObject, json: string | undefined): string {
  if (json === undefined) {
    // Results reaching here are objects the pipeline built itself, so adding _meta in place is safe.
    if (result._meta === undefined) result._meta = resultMeta;
    json = JSON.stringify(result);
  }
  return `{"jsonrpc":"2.0","id":${typeof id === 'number' ? id : JSON.stringify(id)},"result":${json}}`;
}

function toReply(s: AnyState, stop: Stop, resultMeta: JsonObject): Reply {
  s.finished = true;
  switch (stop.kind) {
    case 'result':
      // A result stop only comes from a stage after `envelope`, so the id is known.
      return { status: 200, body: serializeResult(s.id as JsonRpcId, stop.result, resultMeta, stop.json) };
    case 'error': {
      const reply: Reply = { status: stop.error.httpStatus, body: JSON.stringify(stop.error.toResponse(s.id)) };
      if (stop.error.headers !== undefined) reply.headers = stop.error.headers;
      return reply;
    }
    case 'accepted':
      return { status: OUTCOMES.notification.httpStatus, body: undefined };
    case 'cancelled':
      return { status: OUTCOMES.cancelled.httpStatus, body: undefined };
  }
}

/** Builds the pipeline function for one server. */
export function createPipeline(config: PipelineConfig): (message: InboundMessage) => Promise<Reply> {
  const env = resolveEnv(config);
  return function handleMessage(message: InboundMessage): Promise<Reply> {
    try {
      const s: AnyState = receive(message);
      const stop = runFrom(env, s, 0);
      return stop instanceof Promise ? stop.then((settled) => toReply(s, settled, env.resultMeta)) : Promise.resolve(toReply(s, stop, env.resultMeta));
    } catch (error) {
      return Promise.reject(error);
    }
  };
}
