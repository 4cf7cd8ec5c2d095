/**
 * The request pipeline: the stages of stages/stage-list.ts run in order until one stops the request
 * (every stop is a row of OUTCOMES, outcomes.ts). This file is the runner, in the manner of Hono's
 * compose: it runs stages synchronously while they answer synchronously, reports one stage event per
 * stage, and turns the final stop into the reply.
 */
import { isJsonObject } from '../../protocol/json-rpc.js';
import type { JsonObject, JsonRpcId } from '../../protocol/json-rpc.js';
import { ProtocolError } from '../../protocol/protocol-error.js';
import { CallView } from '../middleware/call-view.js';
import type { CallOutcome, Middleware } from '../middleware/middleware.js';
import type { InboundMessage, Reply } from '../../transport/message-dispatcher.js';
import { OUTCOMES, rpcError } from '../outcomes.js';
import type { StageEvent, StageName, StageOutcome } from '../stage-events.js';
import { resolveEnv } from '../stages/pipeline-env.js';
import type { PipelineConfig, PipelineEnv } from '../stages/pipeline-env.js';
import { STAGE_LIST } from '../stages/stage-list.js';
import { errorMessage, fail, receive } from '../stages/stage.js';
import type { AnyState, Stop, ToolFound } from '../stages/stage.js';
import { StoreUnavailableError } from '../store/store.js';

const CANCELLED_OUTCOME: CallOutcome = { kind: 'cancelled' };

export type { Authorizer, AuthorizeRequest, MethodRoute, PipelineConfig, ServerLogger } from '../stages/pipeline-env.js';
export type { RequestState, Stop } from '../stages/stage.js';
export { missingCapabilities } from '../stages/client-capabilities.js';

function firstText(result: JsonObject): string | undefined {
  const content = result.content;
  if (!Array.isArray(content)) return undefined;
  const block = content[0] as { type?: unknown; text?: unknown } | undefined;
  return block?.type === 'text' && typeof block.text === 'string' ? block.text : undefined;
}

function emitMiddleware(env: PipelineEnv, s: AnyState, stage: `middleware:${string}`, stop: Stop | undefined, durationMs: number, reports: string[] | undefined): void {
  emit(env, s, stage, stop, durationMs, reports === undefined ? undefined : reports.join('; '));
}

function emit(env: PipelineEnv, s: AnyState, stage: StageEvent['stage'], stop: Stop | undefined, durationMs: number, report?: string): void {
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
  if (report !== undefined) detail = detail === undefined ? report : `${report}; ${detail}`;
  if (detail !== undefined) event.detail = detail;
  try {
    env.onStageEvent!(event);
  } catch (error) {
    env.logger.error('onStageEvent threw', { error: errorMessage(error) });
  }
}

function crashed(env: PipelineEnv, s: AnyState, name: string, error: unknown): Stop {
  // A shared store that is down is not a bug of this server: say so (503), and nothing ran.
  if (error instanceof StoreUnavailableError) {
    env.logger.error(`stage ${name} refused: ${error.message}`, { tool: s.tool?.name });
    return fail(rpcError('storeUnavailable', 'Service unavailable: the shared store cannot be reached; nothing was done; retry shortly'));
  }
  env.logger.error(`stage ${name} failed`, { error: errorMessage(error), stack: error instanceof Error ? error.stack : undefined, tool: s.tool?.name });
  return fail(rpcError('internalFault', 'Internal error'));
}

/**
 * Runs stages from `index` synchronously for as long as they answer synchronously, so a call with
 * no asynchronous work allocates no promises here; the first pending stage continues the loop from
 * its settlement. A stage goes on by returning the state itself; anything else is its stop.
 */
function runFrom(env: PipelineEnv, s: AnyState, index: number, entered = -1): Stop | Promise<Stop> {
  for (let i = index; i < STAGE_LIST.length; i++) {
    // Middleware wrapping the stages from i on (none: one property read per stage, nothing more).
    if (i > entered && s.tool?.layers !== undefined) {
      const chain = s.tool.layers[i];
      if (chain !== undefined && isWrappable(s)) return runLayer(env, s, i, chain);
    }
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
        (settled) => settle(env, s, i, settled, started, entered),
        (error: unknown) => settle(env, s, i, crashed(env, s, stage.name, error), started, entered),
      );
    }
    const stop = value === s ? undefined : (value as Stop);
    if (env.onStageEvent !== undefined) emit(env, s, stage.name as StageName, stop, performance.now() - started);
    if (stop !== undefined) return stop;
  }
  return fail(rpcError('internalFault', 'Internal error'));
}

function settle(env: PipelineEnv, s: AnyState, i: number, value: AnyState | Stop, started: number, entered: number): Stop | Promise<Stop> {
  const stop = value === s ? undefined : (value as Stop);
  if (env.onStageEvent !== undefined) emit(env, s, STAGE_LIST[i]!.name as StageName, stop, performance.now() - started);
  return stop !== undefined ? stop : runFrom(env, s, i + 1, entered);
}

function isWrappable(s: AnyState): s is AnyState & ToolFound {
  return s.tool !== undefined && s.args !== undefined && s.id !== undefined && s.meta !== undefined;
}

function isOutcome(value: unknown): value is CallOutcome {
  if (typeof value !== 'object' || value === null) return false;
  const kind = (value as { kind?: unknown }).kind;
  if (kind === 'error') return (value as { error?: unknown }).error instanceof ProtocolError;
  if (kind === 'result') return isJsonObject((value as { result?: unknown }).result);
  return kind === 'cancelled';
}

/**
 * Runs the onion `chain` around the stages from `index`: each middleware's `next()` runs the next
 * one, the innermost runs the stages. Every middleware reports one stage event when it settles.
 * Promises are made only where the API promises one (`next()`) or a middleware returns one: with
 * synchronous stages inside, a layer costs its `next()` promise and its own settlement, no more.
 */
function runLayer(env: PipelineEnv, s: AnyState & ToolFound, index: number, chain: readonly Middleware[]): Stop | Promise<Stop> {
  return runMiddleware(env, s, (s.view ??= new CallView(s, env.store)), index, chain, 0, keepStop);
}

function keepStop(stop: Stop): Stop {
  return stop;
}

/**
 * Layer `k`; `after` maps its final stop to what the caller wants (the stop itself for the
 * outermost layer, the enclosing layer's view of it as a call outcome otherwise), applied in the
 * same settlement so that a layer adds one promise, not two.
 */
function runMiddleware<T>(env: PipelineEnv, s: AnyState & ToolFound, view: CallView, index: number, chain: readonly Middleware[], k: number, after: (stop: Stop) => T): T | Promise<T> {
  const middleware = chain[k]!;
  const name = `middleware:${middleware.name}` as const;
  let called = false;
  let innerStop: Stop | undefined;
  const toOutcome = (stop: Stop): CallOutcome => {
    innerStop = stop;
    view.current = middleware.name;
    return stop.kind === 'accepted' ? CANCELLED_OUTCOME : stop;
  };
  const next = (): Promise<CallOutcome> => {
    if (called) return Promise.reject(new Error(`middleware ${middleware.name} called next() twice`));
    called = true;
    try {
      if (k + 1 < chain.length) {
        const inner = runMiddleware(env, s, view, index, chain, k + 1, toOutcome);
        return inner instanceof Promise ? inner : Promise.resolve(inner);
      }
      const inner = runFrom(env, s, index, index);
      return inner instanceof Promise ? inner.then(toOutcome) : Promise.resolve(toOutcome(inner));
    } catch (error) {
      return Promise.reject(error);
    }
  };
  const started = env.onStageEvent === undefined ? 0 : performance.now();
  const ended = (value: unknown): T => {
    let stop: Stop;
    if (isOutcome(value)) stop = value;
    else {
      env.logger.error(`middleware ${middleware.name} returned something that is not a call outcome`, { tool: s.tool.name });
      stop = fail(rpcError('internalFault', 'Internal error'));
    }
    if (env.onStageEvent !== undefined) emitMiddleware(env, s, name, stop === innerStop ? undefined : stop, performance.now() - started, view.reports?.get(middleware.name));
    return after(stop);
  };
  view.current = middleware.name;
  let handled: CallOutcome | Promise<CallOutcome>;
  try {
    handled = middleware.handle(view, next);
  } catch (error) {
    return ended(crashed(env, s, name, error));
  }
  // A thenable that is not a native promise (another realm, a library's) is adopted like one.
  if (handled instanceof Promise || typeof (handled as { then?: unknown }).then === 'function') {
    return Promise.resolve(handled).then(ended, (error: unknown) => ended(crashed(env, s, name, error)));
  }
  return ended(handled);
}

function serializeResult(id: JsonRpcId, result: JsonObject, env: PipelineEnv, json: string | undefined): string {
  if (json === undefined) {
    // Results reaching here are objects the pipeline built, so adding _meta in place is safe.
    if (!Object.hasOwn(result, '_meta')) {
      // The server's _meta goes last, as its JSON made once: the same text as serialising it with
      // the result (a result whose JSON is not a plain object text is serialised whole instead).
      const members = JSON.stringify(result);
      result._meta = env.resultMeta;
      if (members === '{}') json = `{"_meta":${env.resultMetaJson}}`;
      else if (members.startsWith('{') && members.endsWith('}')) json = `${members.slice(0, -1)},"_meta":${env.resultMetaJson}}`;
      else json = JSON.stringify(result);
    } else {
      if (result._meta === undefined) result._meta = env.resultMeta;
      json = JSON.stringify(result);
    }
  }
  return `{"jsonrpc":"2.0","id":${typeof id === 'number' ? id : JSON.stringify(id)},"result":${json}}`;
}

function toReply(s: AnyState, stop: Stop, env: PipelineEnv): Reply {
  const resultMeta = env.resultMeta;
  s.finished = true;
  switch (stop.kind) {
    case 'result':
      // Middleware notes (repairs, truncation) join the result's _meta.
      if (s.view?.notes !== undefined) {
        stop.result._meta = { ...(isJsonObject(stop.result._meta) ? stop.result._meta : {}), ...s.view.notes, ...resultMeta };
        delete stop.json;
      }
      // A result stop only comes from a stage after `envelope`, so the id is known. Without
      // pre-serialized JSON the object is exactly what the body holds, so it travels along.
      if (stop.json !== undefined) return { status: 200, body: serializeResult(s.id as JsonRpcId, stop.result, env, stop.json) };
      return { status: 200, body: serializeResult(s.id as JsonRpcId, stop.result, env, undefined), result: stop.result };
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
      return stop instanceof Promise ? stop.then((settled) => toReply(s, settled, env)) : Promise.resolve(toReply(s, stop, env));
    } catch (error) {
      return Promise.reject(error);
    }
  };
}
