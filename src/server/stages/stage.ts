/**
 * What a pipeline stage is: `{ name, run }`, where `run` takes the call state as the stages before it
 * left it and returns either that same state (extended with what this stage established: go on) or a
 * {@link Stop}. The state types below grow stage by stage, so a field exists in a stage's input type
 * exactly when an earlier stage has set it.
 */
import type { JsonObject, JsonRpcId } from '../../protocol/json-rpc.js';
import type { ProtocolError } from '../../protocol/protocol-error.js';
import type { CallToolResult, ClientCapabilities } from '../../protocol/wire-types.js';
import type { InboundMessage } from '../../transport/message-dispatcher.js';
import type { PipelineEnv } from './pipeline-env.js';
import type { ApprovalRecord } from '../approvals/approvals.js';
import type { SealedClaims } from '../approvals/request-state-seal.js';
import type { CallView } from '../middleware/call-view.js';
import type { RegisteredTool } from '../tools/tool-registry.js';
import type { AuthInfo, ToolContext } from '../contract/tool-types.js';

/** How a stage stops a request. */
export type Stop =
  | { kind: 'result'; outcome: 'respond' | 'tool-error'; result: JsonObject; json?: string }
  | { kind: 'error'; error: ProtocolError }
  | { kind: 'accepted' }
  | { kind: 'cancelled' };

/** A call that became a task (the `task` stage): answered already; its run goes on in the background. */
export interface TaskBinding {
  readonly taskId: string;
  /** Handler rounds run so far (each `input_required` answered is one more). */
  rounds: number;
}

/** A message as it arrives; `authenticate` records the caller (undefined without an authorizer). */
export interface Received {
  /** The message; a task's rounds see the task's own (its signal, its progress), not the creating request's. */
  message: InboundMessage;
  /** Set once the response is decided; request-scoped notifications stop then. */
  finished: boolean;
  auth: AuthInfo | undefined;
  /** What middleware sees of this call; created by the runner when the first middleware wraps it. */
  view: CallView | undefined;
  /** Set once the call became a task: its final stop is the task's outcome, not a reply. */
  task: TaskBinding | undefined;
  /** Answers the request before the run ends (set by the pipeline while a stage is pending; the `task` stage uses it). */
  replyEarly: ((stop: Stop) => void) | undefined;
}

/** After `decode`: the JSON value of the message. */
export interface Decoded extends Received {
  parsed: unknown;
}

/** After `envelope`: a JSON-RPC request (notifications stop there). */
export interface Enveloped extends Decoded {
  id: JsonRpcId;
  method: string;
  params: JsonObject;
}

/** After `version`: the request's protocol version, capabilities and log level. */
export interface Versioned extends Enveloped {
  meta: JsonObject;
  version: string;
  capabilities: ClientCapabilities;
  /** Index into LOG_LEVELS of the requested level; -1 = the client asked for no logs. */
  logLevel: number;
}

/** What a method route sees (every stage up to `headers` has run). */
export type RequestState = Versioned;

/** After `find-tool`: the tool and the call's parameters, checked for type (not yet for shape). */
export interface ToolFound extends Versioned {
  tool: RegisteredTool;
  args: Record<string, unknown>;
  inputResponses: Record<string, unknown> | undefined;
  requestState: string | undefined;
}

/**
 * After `request-state`: the request's single-use `requestState` (an approval), verified as this
 * call's but not claimed yet (`approvalState`); `claim` claims it right before `execute` and sets
 * `redeemed`. Both undefined for a call without one.
 */
export interface Redeemed extends ToolFound {
  approvalState: SealedClaims | undefined;
  redeemed: ApprovalRecord | undefined;
}

/** After `shape` and `context`: the arguments fit the input schema and the handler context exists. */
export interface Shaped extends Redeemed {
  ctx: ToolContext;
}

/** After `execute`: the normalised result of `run`. */
export interface Executed extends Shaped {
  result: CallToolResult;
}

/** Any state, as observers (stage events, the reply) read it: what is not set yet reads undefined. */
export type AnyState = Received & { [K in Exclude<keyof Executed, keyof Received>]?: Executed[K] | undefined };

/** One stage: its name and what it does. */
export interface Stage<N extends string, In, Out extends In = In> {
  readonly name: N;
  /** A property, not a method, so that its parameter is checked strictly: the stage list then refuses a stage placed before the state it reads exists (test/server/stage-list.test.ts). */
  run: (state: In, env: PipelineEnv) => Out | Stop | Promise<Out | Stop>;
}

/**
 * The state as the next stage's wider type, for a stage to set what it established in place:
 * `const out: Decoded = grown(s); out.parsed = value; return out;`. Every field exists from
 * {@link receive} on, so plain stores keep the object's one shape; an `Object.assign` of a fresh
 * literal per stage (this function's former body) cost ~0.4 µs a call in process, and showed as
 * `SetDataProperties` at ~1.2 µs a request under HTTP load (perf).
 */
export function grown<S extends object, T extends S>(state: S): T {
  return state as T;
}

/** A fresh state; every field exists from the start so the object keeps one shape. */
export function receive(message: InboundMessage): Received {
  const state: AnyState = {
    message, finished: false, auth: undefined, view: undefined, task: undefined, replyEarly: undefined, parsed: undefined, id: undefined, method: undefined, params: undefined, meta: undefined,
    version: undefined, capabilities: undefined, logLevel: undefined, tool: undefined, args: undefined, inputResponses: undefined,
    requestState: undefined, approvalState: undefined, redeemed: undefined, ctx: undefined, result: undefined,
  };
  return state;
}

export function fail(error: ProtocolError): Stop {
  return { kind: 'error', error };
}

export function respond(result: JsonObject): Stop {
  return { kind: 'result', outcome: 'respond', result };
}

/** A finished tool result as a stop (`tool-error` when `isError`). */
export function toolStop(result: CallToolResult): Stop {
  return { kind: 'result', outcome: result.isError === true ? 'tool-error' : 'respond', result: result };
}

export const CANCELLED: Stop = { kind: 'cancelled' };

export function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return typeof error === 'string' ? error : String(error);
}

/** A promise or any other thenable (another realm's, a library's): what a stage awaits rather than using as it is. */
export function isThenable<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}
