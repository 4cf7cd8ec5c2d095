/**
 * How every robot tool is built: `robotTool` is `defineTool` plus the tool's safety steps, run by one
 * runner as the tool's own Toolwright middleware (at `validated`, so after the schema check). The
 * runner walks the steps in the order of SAFETY_STAGES, records each stage in the call's trail, and
 * answers a refusal itself: the tool's `run` never starts. Around the whole call it writes the
 * durable audit record (stage `audit`) from the outcome, whatever produced it.
 *
 * A tool with `runsAsTask` runs its approved motions as tasks (`io.modelcontextprotocol/tasks`) for
 * clients that declare the extension. The steps and the approval question stay in the synchronous
 * call; only the motion runs in the background, with the task's context (its signal aborts on
 * tasks/cancel, its progress goes to the task). The audit record of such a call is written when the
 * motion ends, with the task id.
 */
import {
  defineTool,
  type AuthInfo,
  type CallOutcome,
  type DeclaredClient,
  type InferArguments,
  type JsonObject,
  type Middleware,
  type SchemaInput,
  type Store,
  type Tool,
  type ToolContext,
  type ToolDefinitionInit,
  type ToolRunResult,
} from 'toolwright';
import type { MotionPlan } from './motion-plan.js';
import type { RobotDeps } from './robot-deps.js';
import { GATING_STAGES, type GatingStage, type Refusal } from './safety-stages.js';
import { stepKit, type StepKit } from './motion-steps.js';
import { CallRecord, refusalResult, refusalText } from './tool-call-record.js';
import { approvalSettled } from './motion-flow.js';

/** One call as the safety steps and the tool body see it. */
export interface SafetyCall<A> {
  /** The arguments, already validated against the tool's inputSchema (typed from it). */
  readonly args: A;
  readonly ctx: ToolContext;
  /**
   * The server's store, as the toolkit hands it to the call's middleware: the rate limits' buckets
   * and the stored plans live there, so instances sharing a store share them.
   */
  readonly store: Store;
  /** What the audit record collects (stage trail, approval, motion, summary). */
  readonly record: CallRecord;
  /** The checked plan, set by the planning step (stage `ik_and_joint_limits`) or read from the store. */
  plan: MotionPlan | undefined;
  /** When `plan` came from the store (`execute_trajectory`): when its record lapses; the run takes it from there. */
  storedUntil?: number;
}

/** What a check says: a refusal, or nothing (a string is the stage's pass detail). */
export type StepVerdict = Refusal | string | undefined;

/** One check of one stage. A check that reads the store answers with a promise; the others answer at once. */
export interface SafetyStep<A> {
  readonly stage: GatingStage;
  check(call: SafetyCall<A>): StepVerdict | Promise<StepVerdict>;
}

/** `defineTool`'s definition, with safety steps and a body that gets the checked call. */
export interface RobotToolInit<I extends SchemaInput> extends Omit<ToolDefinitionInit<I>, 'run' | 'use' | 'check' | 'approval' | 'task'> {
  /** The checks that apply to this tool, in SAFETY_STAGES order (several may share a stage), from the kit. */
  steps(kit: StepKit<InferArguments<I>>): readonly SafetyStep<InferArguments<I>>[];
  /** When set, every gating stage without a step is recorded as skipped with this reason. */
  readonly skipReason?: string;
  /** The tool body: runs only when every step passed (stages `approval` and `execute` live here). */
  run(call: SafetyCall<InferArguments<I>>): Promise<ToolRunResult> | ToolRunResult;
  /**
   * Whether this checked call moves the arm (a dry run does not). When set, a call that moves the arm
   * runs as a task for a client that declared the tasks extension, once its approval is settled: no
   * human needed, or this call carries the answer. The approval question itself is always answered
   * synchronously, so a task never waits on an approval it was not given.
   */
  readonly runsAsTask?: (call: SafetyCall<InferArguments<I>>) => boolean;
}

/** How often clients are told to poll a motion task (progress is written at every control frame). */
const MOTION_TASK_POLL_MS = 250;

/** Middleware name prefix of the robot's own layers; their refusals are audited by the runner itself. */
export const ROBOT_MIDDLEWARE_PREFIX = 'robot-';

/** A refusal as the wire result the model reads: stage, code and message; nothing was executed. */
function refusalOutcome(refusal: Refusal): CallOutcome {
  const result: JsonObject = {
    resultType: 'complete',
    content: [{ type: 'text', text: refusalText(refusal) }],
    structuredContent: { refused: { stage: refusal.stage, code: refusal.code, message: refusal.message } },
    isError: true,
  };
  return { kind: 'result', outcome: 'tool-error', result };
}

/** Runs the steps in stage order; the first refusal wins. Only a step that answers with a promise is awaited. */
export async function runSafetySteps<A>(steps: readonly SafetyStep<A>[], call: SafetyCall<A>, skipReason: string | undefined): Promise<Refusal | undefined> {
  let i = 0;
  for (const stage of GATING_STAGES) {
    let detail: string | undefined;
    let ran = false;
    for (; i < steps.length && steps[i]!.stage === stage; i++) {
      ran = true;
      const answer = steps[i]!.check(call);
      const verdict = answer instanceof Promise ? await answer : answer;
      if (typeof verdict === 'object') return call.record.trail.refuse(verdict);
      if (verdict !== undefined) detail = verdict;
    }
    if (ran) call.record.trail.pass(stage, detail);
    else if (skipReason !== undefined) call.record.trail.skip(stage, skipReason);
  }
  if (call.plan !== undefined) call.record.planHash = call.plan.hash;
  return undefined;
}

/** How a call ended, for its audit record. */
interface CallEnd {
  readonly outcome: 'ok' | 'error' | 'failed' | 'cancelled' | 'input_required';
  readonly error?: string;
}

function auditOutcome(call: SafetyCall<unknown>, outcome: CallOutcome): CallEnd {
  if (call.record.error !== undefined) return { outcome: 'failed', error: call.record.error };
  if (outcome.kind === 'cancelled' || call.ctx.signal.aborted) return { outcome: 'cancelled' };
  if (outcome.kind === 'error') return { outcome: 'failed', error: outcome.error.message };
  if (outcome.result.resultType === 'input_required') return { outcome: 'input_required' };
  return { outcome: outcome.result.isError === true ? 'error' : 'ok' };
}

/**
 * The caller's identity for the record: subject and client id when the authorizer named them (never a
 * token), and the client's self-declared name and version (which host is behind a shared bridge token).
 */
function callerOf(auth: AuthInfo, client: DeclaredClient | undefined): Record<string, string | null | DeclaredClient> {
  return { subject: auth.subject ?? null, client_id: auth.clientId ?? null, ...(client !== undefined ? { client_info: { name: client.name, version: client.version } } : {}) };
}

function writeAudit(deps: RobotDeps, toolName: string, call: SafetyCall<unknown>, ended: CallEnd, taskId?: string): void {
  const record = call.record;
  record.trail.pass('audit');
  deps.audit.append({
    type: 'tool_call',
    tool: toolName,
    request_id: call.ctx.requestId,
    ...(taskId !== undefined ? { task_id: taskId } : {}),
    transport: call.ctx.transport,
    ...(call.ctx.operator !== undefined ? { operator: call.ctx.operator } : {}),
    // Who called, as the server's authorizer knows them (e.g. the desktop bridge's token: subject desktop-bridge).
    ...(call.ctx.auth !== undefined ? { caller: callerOf(call.ctx.auth, call.ctx.client) } : {}),
    arguments: call.args,
    stages: record.trail.records,
    approval: record.approval ?? null,
    plan_hash: record.planHash ?? record.approval?.planHash ?? null,
    motion: record.motion ?? null,
    outcome: ended.outcome,
    ...(ended.error !== undefined ? { error: ended.error } : { result: record.summary ?? null }),
  });
}

/**
 * Defines a robot tool. Its steps and its audit record are one middleware of the tool; `run` receives
 * the call the steps checked (with the plan they made), so no tool repeats a stage inline.
 */
export function robotTool<const I extends SchemaInput>(deps: RobotDeps, init: RobotToolInit<I>): Tool<InferArguments<I>> {
  type A = InferArguments<I>;
  const { steps: listSteps, skipReason, run, ...definition } = init;
  const steps = listSteps(stepKit<A>(deps));
  const gated = steps.some((step) => step.stage === 'state_gate');
  let last = -1;
  for (const step of steps) {
    const at = GATING_STAGES.indexOf(step.stage);
    if (at < last) throw new TypeError(`robot tool ${init.name}: step of stage ${step.stage} is out of order (stages run in SAFETY_STAGES order)`);
    last = at;
  }
  // The call the runner checked, handed to run. Keyed by the validated arguments object: the same one
  // reaches the runner, the task policy and `run`, also when `run` runs in a task with its own context.
  const checked = new WeakMap<object, Checked<A>>();
  const runner: Middleware = {
    name: `${ROBOT_MIDDLEWARE_PREFIX}safety`,
    at: 'validated',
    async handle(toolCall, next) {
      const ctx = toolCall.ctx;
      if (ctx === undefined) throw new Error(`robot tool ${init.name}: the safety runner ran before the schema check`);
      // At `validated` the arguments have passed this tool's inputSchema, which is what A is inferred from.
      const call: SafetyCall<A> = { args: toolCall.arguments as A, ctx, store: toolCall.store, record: new CallRecord(), plan: undefined };
      // A snapshot that aged only because this process was busy (its next report not yet read) is
      // waited for, within the age bound, before the state gate judges it; a silent arm is still refused.
      if (gated) await deps.controller.freshStatus();
      const refusal = await runSafetySteps(steps, call, skipReason);
      let outcome: CallOutcome | undefined;
      if (refusal !== undefined) outcome = refusalOutcome(refusal);
      else {
        checked.set(toolCall.arguments, { call, stopEpoch: deps.controller.stopEpoch });
        try {
          outcome = await next();
        } finally {
          checked.delete(toolCall.arguments);
        }
        // A motion that ran as a task ran inside next(): its outcome is the task's, judged by the task's context.
        const taskId = toolCall.taskId;
        if (taskId !== undefined) {
          writeAudit(deps, init.name, call, auditOutcome({ ...call, ctx: toolCall.ctx ?? ctx }, outcome), taskId);
          return outcome;
        }
      }
      writeAudit(deps, init.name, call, auditOutcome(call, outcome));
      return outcome;
    },
  };
  const runsAsTask = init.runsAsTask;
  const tool: ToolDefinitionInit<I> = {
    ...definition,
    use: [runner],
    ...(runsAsTask !== undefined
      ? {
          task: {
            pollIntervalMs: MOTION_TASK_POLL_MS,
            when: (args: A, ctx: ToolContext) => {
              const entry = checked.get(args as object);
              const plan = entry?.call.plan;
              return entry !== undefined && plan !== undefined && runsAsTask(entry.call) && approvalSettled(deps, ctx, plan);
            },
          },
        }
      : {}),
    run: async (args, ctx) => {
      const entry = checked.get(args as object);
      if (entry === undefined) throw new Error(`robot tool ${init.name} ran without its safety steps`);
      // In a task, run gets the task's context (signal, progress), not the creating request's.
      const inTask = ctx !== entry.call.ctx;
      if (!inTask) return runBody(run, entry.call);
      const call: SafetyCall<A> = { ...entry.call, ctx };
      // The task was created after an await: a stop in that gap voids this motion, as it voids a pending approval.
      if (deps.controller.stopEpoch !== entry.stopEpoch) {
        return refusalResult(call.record.trail.refuse({ stage: 'state_gate', code: 'stopped_before_start', message: 'the arm was stopped after this motion was checked and before it started' }));
      }
      // The audit record is the safety runner's, written when the task's run ends inside its next().
      return runBody(run, call);
    },
  };
  return defineTool(tool);
}

/** What the runner hands to `run`: the checked call and the stop epoch it was checked under. */
interface Checked<A> {
  readonly call: SafetyCall<A>;
  readonly stopEpoch: number;
}

async function runBody<A>(run: (call: SafetyCall<A>) => Promise<ToolRunResult> | ToolRunResult, call: SafetyCall<A>): Promise<ToolRunResult> {
  try {
    return await run(call);
  } catch (error) {
    call.record.error = error instanceof Error ? error.message : String(error);
    throw error;
  }
}
