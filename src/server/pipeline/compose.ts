/**
 * The runner, in the manner of Hono's compose: the stages of stages/stage-list.ts run in order until
 * one stops the request (every stop is a row of OUTCOMES, outcomes.ts), inside the middleware that
 * wraps them. It runs stages synchronously while they answer synchronously and reports one stage
 * event per stage and per middleware (events.ts). A task's later rounds resume it from `execute`
 * (task-engine.ts), so a task's handler runs inside the same middleware, with the same events,
 * as a call answered at once.
 */
import { isJsonObject } from '../../protocol/json-rpc.js';
import { ProtocolError } from '../../protocol/protocol-error.js';
import { CallView } from '../middleware/call-view.js';
import type { CallOutcome, Middleware } from '../middleware/middleware.js';
import { rpcError } from '../outcomes.js';
import type { StageName } from '../stages/stage-events.js';
import type { PipelineEnv } from '../stages/pipeline-env.js';
import { EXECUTE_STAGE, STAGE_LIST } from '../stages/stage-list.js';
import { errorMessage, fail, isThenable } from '../stages/stage.js';
import type { AnyState, Shaped, Stop, ToolFound } from '../stages/stage.js';
import { StoreUnavailableError } from '../store/store.js';
import type { MiddlewareLayers } from '../tools/tool-registry.js';
import { emitStageEvent } from './events.js';

const CANCELLED_OUTCOME: CallOutcome = { kind: 'cancelled' };

/**
 * Where each place a middleware can wrap (`Middleware.at`) starts in the stage list: `arguments` from
 * `request-state` on, `validated` from `approval` on. By stage index, for the runner's loop.
 */
const WRAPS_AT: readonly (keyof MiddlewareLayers | undefined)[] = STAGE_LIST.map((stage) =>
  stage.name === 'request-state' ? 'arguments' : stage.name === 'approval' ? 'validated' : undefined,
);
// A renamed stage must not leave middleware silently unwrapped.
if (!WRAPS_AT.includes('arguments') || !WRAPS_AT.includes('validated')) throw new Error('stage list: the request-state and approval stages, where middleware wraps, are missing');

/** What a stage (or middleware) that threw amounts to: 503 when the shared store is down, else -32603. */
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
 * `entered` is the last index whose middleware already wraps this run.
 */
export function runFrom(env: PipelineEnv, s: AnyState, index: number, entered = -1): Stop | Promise<Stop> {
  for (let i = index; i < STAGE_LIST.length; i++) {
    // Middleware wrapping the stages from i on (none: one property read per stage, nothing more).
    if (i > entered && s.tool?.layers !== undefined && WRAPS_AT[i] !== undefined) {
      const chain = s.tool.layers[WRAPS_AT[i]!];
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
    if (value instanceof Promise) return settleLater(env, s, i, value, started, entered);
    const stop = value === s ? undefined : (value as Stop);
    if (env.onStageEvent !== undefined) emitStageEvent(env, s, stage.name as StageName, stop, performance.now() - started);
    if (stop !== undefined) return s.task === undefined ? stop : nextRound(env, s, i, stop, entered);
  }
  return fail(rpcError('internalFault', 'Internal error'));
}

/**
 * A stage's promise, continued from its settlement. Its own function, not closures inside
 * runFrom's loop: closures capturing the loop's variables made V8 allocate a context for every
 * stage of every call, a pending stage or not (measured: ~1.9 KB per call with middleware).
 */
function settleLater(env: PipelineEnv, s: AnyState, i: number, value: Promise<AnyState | Stop>, started: number, entered: number): Promise<Stop> {
  return value.then(
    (settled) => settle(env, s, i, settled, started, entered),
    (error: unknown) => settle(env, s, i, crashed(env, s, STAGE_LIST[i]!.name, error), started, entered),
  );
}

function settle(env: PipelineEnv, s: AnyState, i: number, value: AnyState | Stop, started: number, entered: number): Stop | Promise<Stop> {
  const stop = value === s ? undefined : (value as Stop);
  if (env.onStageEvent !== undefined) emitStageEvent(env, s, STAGE_LIST[i]!.name as StageName, stop, performance.now() - started);
  if (stop === undefined) return runFrom(env, s, i + 1, entered);
  return s.task === undefined ? stop : nextRound(env, s, i, stop, entered);
}

/**
 * A task's handler asked for input (`input_required`): the task engine waits for the answers
 * (tasks/update) and the runner resumes from `execute` with them, inside the same middleware.
 */
function nextRound(env: PipelineEnv, s: AnyState, i: number, stop: Stop, entered: number): Stop | Promise<Stop> {
  if (i < EXECUTE_STAGE || stop.kind !== 'result' || stop.result.resultType !== 'input_required' || env.tasks === undefined) return stop;
  return env.tasks.nextRound(s as Shaped, stop, env).then(
    (next) => (next === s ? runFrom(env, s, EXECUTE_STAGE, entered) : (next as Stop)),
    (error: unknown) => crashed(env, s, 'task', error),
  );
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

/** A middleware's name in stage events and logs; made only when one is written, not on every call. */
function stageNameOf(middleware: Middleware): `middleware:${string}` {
  return `middleware:${middleware.name}`;
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
    if (env.onStageEvent !== undefined) {
      const reports = view.reports?.get(middleware.name);
      emitStageEvent(env, s, stageNameOf(middleware), stop === innerStop ? undefined : stop, performance.now() - started, reports === undefined ? undefined : reports.join('; '));
    }
    return after(stop);
  };
  view.current = middleware.name;
  let handled: CallOutcome | Promise<CallOutcome>;
  try {
    handled = middleware.handle(view, next);
  } catch (error) {
    return ended(crashed(env, s, stageNameOf(middleware), error));
  }
  // A thenable that is not a native promise (another realm, a library's) is adopted like one.
  if (isThenable(handled)) {
    return Promise.resolve(handled).then(ended, (error: unknown) => ended(crashed(env, s, stageNameOf(middleware), error)));
  }
  return ended(handled);
}
