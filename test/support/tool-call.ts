/**
 * What a middleware's unit test needs: the ToolCall the runner would hand it (the real CallView over
 * a call state built by the stage fixture, so notes, reports and the argument rules are the
 * server's own), and a `next` that resolves to a chosen outcome and counts how often it was called.
 * A test calls `middleware.handle(call, next)` itself and checks the exact outcome.
 */
import { CallView } from '../../src/server/middleware/call-view.js';
import type { CallOutcome, Middleware } from '../../src/server/middleware/middleware.js';
import type { PipelineEnv } from '../../src/server/stages/pipeline-env.js';
import { redeemed, shaped } from './stage-fixture.js';
import type { CallInit } from './stage-fixture.js';

export interface ToolCallInit extends CallInit {
  /** The middleware under test: its reports are filed under its name, as the runner does. */
  middleware?: Pick<Middleware, 'name'>;
  /** `validated`: the call as a middleware at `validated` sees it (ctx set, arguments fixed). Default `arguments`. */
  at?: 'arguments' | 'validated';
}

/** The call of `init.tool` (default: the env's first tool) with `init.args`, as middleware sees it. */
export function toolCall(env: PipelineEnv, init: ToolCallInit = {}): CallView {
  const state = init.at === 'validated' ? shaped(env, init) : redeemed(env, init);
  const view = new CallView(state, env.store);
  view.current = init.middleware?.name ?? '';
  return view;
}

/** The lines a middleware reported for its stage event (empty when none). */
export function reportsOf(call: CallView, middleware: Pick<Middleware, 'name'>): readonly string[] {
  return call.reports?.get(middleware.name) ?? [];
}

export interface StubNext {
  /** Pass this as `next`. */
  readonly next: () => Promise<CallOutcome>;
  /** How many times `next` was called (0: the middleware stopped the call; nothing inner ran). */
  readonly calls: number;
  /** The arguments of the call at each `next()`, as the inner pipeline would read them. */
  readonly argumentsSeen: readonly Record<string, unknown>[];
}

/**
 * A `next` resolving to `outcome` (or to what `outcome(call)` returns, or rejecting with what it
 * throws), recording each call and the arguments it saw.
 */
export function nextReturning(call: CallView, outcome: CallOutcome | (() => CallOutcome)): StubNext {
  const argumentsSeen: Record<string, unknown>[] = [];
  const stub = {
    calls: 0,
    argumentsSeen,
    next: async (): Promise<CallOutcome> => {
      stub.calls++;
      argumentsSeen.push(call.arguments);
      return typeof outcome === 'function' ? outcome() : outcome;
    },
  };
  return stub;
}

/** A complete result with one text block, as the `output` stage answers a successful call. */
export function textResult(text: string): CallOutcome & { kind: 'result' } {
  return { kind: 'result', outcome: 'respond', result: { resultType: 'complete', content: [{ type: 'text', text }] } };
}
