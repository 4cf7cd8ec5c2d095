/**
 * `ctx.inputs`: multi-round input (MRTR) as a tool sees it, the requests it can ask and what it
 * gets back. Declared here because the tool context names it (contract/tool-types.ts); the flow
 * itself is approvals/input-flow.ts.
 */
import type { JsonObject, JsonValue } from '../../protocol/json-rpc.js';
import type { InputRequest } from '../../protocol/wire-types.js';
import type { CreateMessageResult, ElicitResult, ListRootsResult } from '../../protocol/feature-wire-types.js';
import type { ApprovalRecord } from './approval.js';
import type { InputRequiredInit } from './tool-types.js';

/** An `elicitation/create` input request. */
export type ElicitationInputRequest = { method: 'elicitation/create'; params: JsonObject };

/** A `sampling/createMessage` input request. */
export type SamplingInputRequest = { method: 'sampling/createMessage'; params: JsonObject };

/** A `roots/list` input request. */
export type RootsInputRequest = { method: 'roots/list'; params?: JsonObject };

/** The answer type of one input request. */
export type InputResponseFor<R> = R extends { method: 'elicitation/create' }
  ? ElicitResult
  : R extends { method: 'sampling/createMessage' }
    ? CreateMessageResult
    : R extends { method: 'roots/list' }
      ? ListRootsResult
      : never;

/** The answers, key by key, to a set of input requests. */
export type InputResponses<T extends Record<string, InputRequest>> = { [K in keyof T]: InputResponseFor<T[K]> };

/** Outcome of {@link InputFlow.require}. */
export type InputGathering<T extends Record<string, InputRequest>> =
  | {
      ready: true;
      /** Every requested answer (with `onlyDeclared`, answers to dropped requests are absent). */
      responses: InputResponses<T>;
      /** Data sealed into `requestState` by an earlier round (`options.data`), verified; else undefined. */
      data: JsonValue | undefined;
      /**
       * With `singleUse`: the claimed approval (what was approved, by whom, when). Undefined before the
       * claim (in `check`, `approval` or middleware: the pipeline claims right before `execute`) and without `singleUse`.
       */
      approval: ApprovalRecord | undefined;
    }
  | {
      ready: false;
      /** Return this from the handler: the client answers it and retries. */
      result: InputRequiredInit;
    };

/** Options of {@link InputFlow.require}. */
export interface RequireInputsOptions {
  /** Application data sealed into `requestState` and handed back as `data` once the answers are in. */
  data?: JsonValue;
  /**
   * Leave out requests whose client capability was not declared instead of failing with -32021
   * (digest R-60). If no request at all can be sent, it still fails with -32021.
   */
  onlyDeclared?: boolean;
  /**
   * Accept answers only together with a `requestState` this server issued for this very call
   * (use for approvals: an answer the server never asked for is ignored and asked again).
   */
  requireState?: boolean;
  /**
   * An approval: complete at most once per issued `requestState` (implies `requireState`). The
   * pipeline claims the state in the server's store immediately before `execute` (a refusal before
   * that leaves it usable), so a replay (even two at once) is -32602 and `run` does not run. Only a
   * caller the server trusts to approve may answer (the approver scope, approver-trust.ts); any
   * other caller gets 403 `insufficient_scope`. Several instances need a shared store and secret.
   */
  singleUse?: boolean;
  /**
   * With `singleUse`: the digest of what is being approved (e.g. a plan hash). Sealed when asking;
   * on the answer it must be the same again, else -32602. Default: tool name + canonical arguments.
   */
  approves?: string;
  /**
   * With `singleUse` and `approves`: what happens when the answer comes back under a state sealed
   * for another digest (e.g. the plan was recomputed and differs because the arm moved). `error`
   * (default): -32602. `complete`: the answers are handed back with `approval.approves` naming the
   * digest that WAS approved, so the caller refuses with its own reason; the state is redeemed
   * either way, so it cannot be tried again.
   */
  onOtherDigest?: 'error' | 'complete';
}

/** MRTR for one request; available as `ctx.inputs` in tools and prompts. */
export interface InputFlow {
  /**
   * Asks for `requests` unless their answers already arrived (in `inputResponses` or sealed in
   * `requestState`). Missing or malformed answers are asked again; unrelated keys are ignored.
   * @throws ProtocolError -32602 when `requestState` is forged, expired or belongs to another call;
   *   -32021 when a request needs a capability the client did not declare.
   * @example
   * ```ts
   * import { defineTool, elicitInput } from 'toolwright';
   *
   * const requestedSchema = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] };
   * const greet = defineTool({
   *   name: 'greet',
   *   inputSchema: { type: 'object' },
   *   run: (_args, ctx) => {
   *     const got = ctx.inputs.require({ user_name: elicitInput({ message: 'Your name?', requestedSchema }) });
   *     if (!got.ready) return got.result;
   *     return `Hello, ${String(got.responses.user_name.content?.['name'])}!`;
   *   },
   * });
   * ```
   */
  require<T extends Record<string, InputRequest>>(requests: T, options?: RequireInputsOptions): InputGathering<T>;
  /** True when the client declared the capability `method` needs on this request. */
  supports(method: InputRequest['method']): boolean;
}
