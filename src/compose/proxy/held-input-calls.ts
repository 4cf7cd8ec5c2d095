/**
 * Input requests through the proxy (issue 32: "input requests cross eras"). An upstream that asks
 * for input during a call (a 2026-07-28 upstream's `input_required`, a 2025 upstream's mid-call
 * `elicitation/create` or `sampling/createMessage`; `toolwright/client` hands both to the call's
 * `onInputRequired`) has its requests put to the front's caller as the front's own input round
 * (`ctx.inputs.require`). The front's era router shows that round to a modern caller as
 * `input_required` + a sealed `requestState`, and to a 2025 caller as requests during its call, so
 * every pairing of eras works the same way.
 *
 * The upstream call waits meanwhile, held in this process, until the caller's retry brings the
 * answers: the requests are keyed `upstream.<held id>.<upstream key>`, the held id is sealed in the
 * front's `requestState` (bound to the call, its arguments and the caller), and the retry resumes
 * the held call. A held call lives at most as long as the upstream call may (its `timeoutMs`, input
 * waits included); a retry that finds no held call (another instance, a restart, a timeout) gets
 * an `upstream_input_lost` error result, never a second upstream call.
 */
import { randomBytes } from 'node:crypto';
import type { InputRequest } from '../../protocol/index.js';
import type { InputRequiredInit, ToolContext, ToolResultInit } from '../../server/index.js';
import type { Upstream } from './upstream.js';

/** What a held call does next: answer the front's caller, or put a new input round to it. */
type Step =
  | { kind: 'done'; result: ToolResultInit }
  | { kind: 'input'; requests: Record<string, InputRequest>; answer: (responses: Record<string, unknown>) => void; refuse: (reason: Error) => void };

interface HeldCall {
  /** Made at the first input round: a call that asks nothing (nearly all) costs no random id. */
  id: string;
  /** The current round's requests, keyed for the front. */
  requests: Record<string, InputRequest>;
  /** The round the upstream waits on. */
  waiting: Extract<Step, { kind: 'input' }> | undefined;
  /** The round the front is served by: its progress goes to this caller's request. */
  progress: ToolContext['progress'] | undefined;
  /** True while a front round waits on the upstream (false between rounds). */
  serving: boolean;
  readonly controller: AbortController;
  next(): Promise<Step>;
}

const KEY = /^upstream\.([A-Za-z0-9_-]{22})\./;

function lost(label: string, name: string, why: string): ToolResultInit {
  return { content: [{ type: 'text', text: `upstream_input_lost: the call to upstream ${label} (${name}) that asked for this input ${why}; call the tool again.` }], isError: true };
}

/** The held calls of one upstream, and the `run` of its proxied tools. */
export class HeldInputCalls {
  readonly #upstream: Upstream;
  readonly #held = new Map<string, HeldCall>();

  constructor(upstream: Upstream) {
    this.#upstream = upstream;
  }

  /** Calls held now, waiting for their caller's answers. */
  get size(): number {
    return this.#held.size;
  }

  /** A proxied tool's `run`: a new upstream call, or the held one the caller's answers belong to. */
  async run(name: string, args: Record<string, unknown>, ctx: ToolContext): Promise<ToolResultInit | InputRequiredInit> {
    // A first call carries no input responses: nothing to look for.
    const heldId = ctx.inputResponses === undefined ? undefined : Object.keys(ctx.inputResponses).map((key) => KEY.exec(key)?.[1]).find((id) => id !== undefined);
    if (heldId === undefined) return this.#advance(this.#start(name, args, ctx), ctx);
    const held = this.#held.get(heldId);
    if (held === undefined) return lost(this.#upstream.label, name, 'is no longer held here (it ended, timed out, or was held by another instance)');
    // Answers count only under a requestState this server sealed for this call, this caller and this held call.
    const got = ctx.inputs.require(held.requests, { requireState: true, data: heldId });
    if (!got.ready) return got.result;
    if (got.data !== heldId) return lost(this.#upstream.label, name, 'belongs to another held call');
    const waiting = held.waiting;
    if (waiting === undefined) return lost(this.#upstream.label, name, 'was already answered');
    held.waiting = undefined;
    const prefix = `upstream.${heldId}.`;
    waiting.answer(Object.fromEntries(Object.entries(got.responses as Record<string, unknown>).map(([key, value]) => [key.slice(prefix.length), value])));
    return this.#advance(held, ctx);
  }

  /** Starts the upstream call; its input rounds and its end become steps. */
  #start(name: string, args: Record<string, unknown>, ctx: ToolContext): HeldCall {
    const steps: Step[] = [];
    let wake: (() => void) | undefined;
    const push = (step: Step): void => {
      steps.push(step);
      wake?.();
      wake = undefined;
    };
    const controller = new AbortController();
    const held: HeldCall = {
      id: '',
      requests: {},
      waiting: undefined,
      progress: ctx.progress.bind(ctx),
      serving: false,
      controller,
      next: async () => {
        while (steps.length === 0) await new Promise<void>((resolve) => { wake = resolve; });
        return steps.shift()!;
      },
    };
    const onInputRequired = (requests: Record<string, InputRequest>): Promise<Record<string, unknown>> =>
      new Promise((answer, refuse) => push({ kind: 'input', requests, answer, refuse }));
    const upstreamCtx = { signal: controller.signal, requestMeta: ctx.requestMeta, progress: (progress: number, total?: number, message?: string) => held.progress?.(progress, total, message) };
    void this.#upstream.call(name, args, upstreamCtx, onInputRequired).then((result) => {
      push({ kind: 'done', result });
      // Ended between rounds (timed out waiting for the caller's answers): no longer held.
      if (!held.serving) this.#held.delete(held.id);
    });
    return held;
  }

  /** Serves one front round: waits for the upstream's result or its next input round. */
  async #advance(held: HeldCall, ctx: ToolContext): Promise<ToolResultInit | InputRequiredInit> {
    held.progress = ctx.progress.bind(ctx);
    held.serving = true;
    const cancel = (): void => held.controller.abort(ctx.signal.reason);
    if (ctx.signal.aborted) cancel();
    ctx.signal.addEventListener('abort', cancel, { once: true });
    try {
      for (;;) {
        const step = await held.next();
        if (step.kind === 'done') {
          this.#held.delete(held.id);
          return step.result;
        }
        if (held.id === '') held.id = randomBytes(16).toString('base64url');
        const prefix = `upstream.${held.id}.`;
        held.requests = Object.fromEntries(Object.entries(step.requests).map(([key, request]) => [`${prefix}${key}`, request]));
        let got: ReturnType<ToolContext['inputs']['require']>;
        try {
          got = ctx.inputs.require(held.requests, { requireState: true, data: held.id });
        } catch (error) {
          // The caller cannot answer (e.g. it declared no elicitation): the upstream is told so and decides.
          step.refuse(new Error(`the proxy's caller cannot answer ${Object.values(step.requests).map((r) => r.method).join(', ')}: ${error instanceof Error ? error.message : String(error)}`));
          continue;
        }
        if (got.ready) {
          step.answer(Object.fromEntries(Object.entries(got.responses as Record<string, unknown>).map(([key, value]) => [key.slice(prefix.length), value])));
          continue;
        }
        held.waiting = step;
        this.#held.set(held.id, held);
        held.progress = undefined;
        return got.result;
      }
    } finally {
      held.serving = false;
      ctx.signal.removeEventListener('abort', cancel);
    }
  }
}

