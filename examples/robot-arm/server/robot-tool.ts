/**
 * How every robot tool is built: `robotTool` is `defineTool` plus the tool's safety steps, run by one
 * runner as the tool's own Toolwright middleware (at `validated`, so after the schema check). The
 * runner walks the steps in the order of SAFETY_STAGES, records each stage in the call's trail, and
 * answers a refusal itself: the tool's `run` never starts. Around the whole call it writes the
 * durable audit record (stage `audit`) from the outcome, whatever produced it.
 */
import {
  defineTool,
  type CallOutcome,
  type InferArguments,
  type JsonObject,
  type Middleware,
  type SchemaInput,
  type Tool,
  type ToolContext,
  type ToolDefinitionInit,
  type ToolRunResult,
} from 'toolwright';
import type { MotionPlan } from './motion-plan.js';
import type { RobotDeps } from './robot-deps.js';
import { GATING_STAGES, type GatingStage, type Refusal } from './safety-stages.js';
import { stepKit, type StepKit } from './motion-steps.js';
import { CallRecord, refusalText } from './tool-call-record.js';

/** One call as the safety steps and the tool body see it. */
export interface SafetyCall<A> {
  /** The arguments, already validated against the tool's inputSchema (typed from it). */
  readonly args: A;
  readonly ctx: ToolContext;
  /** What the audit record collects (stage trail, approval, motion, summary). */
  readonly record: CallRecord;
  /** The checked plan, set by the planning step (stage `ik_and_joint_limits`). */
  plan: MotionPlan | undefined;
}

/** One check of one stage: a refusal, or nothing (a string is the stage's pass detail). */
export interface SafetyStep<A> {
  readonly stage: GatingStage;
  check(call: SafetyCall<A>): Refusal | string | undefined;
}

/** `defineTool`'s definition, with safety steps and a body that gets the checked call. */
export interface RobotToolInit<I extends SchemaInput> extends Omit<ToolDefinitionInit<I>, 'run' | 'use' | 'check' | 'approval'> {
  /** The checks that apply to this tool, in SAFETY_STAGES order (several may share a stage), from the kit. */
  steps(kit: StepKit<InferArguments<I>>): readonly SafetyStep<InferArguments<I>>[];
  /** When set, every gating stage without a step is recorded as skipped with this reason. */
  readonly skipReason?: string;
  /** The tool body: runs only when every step passed (stages `approval` and `execute` live here). */
  run(call: SafetyCall<InferArguments<I>>): Promise<ToolRunResult> | ToolRunResult;
}

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

/** Runs the steps in stage order; the first refusal wins. */
export function runSafetySteps<A>(steps: readonly SafetyStep<A>[], call: SafetyCall<A>, skipReason: string | undefined): Refusal | undefined {
  let i = 0;
  for (const stage of GATING_STAGES) {
    let detail: string | undefined;
    let ran = false;
    for (; i < steps.length && steps[i]!.stage === stage; i++) {
      ran = true;
      const verdict = steps[i]!.check(call);
      if (typeof verdict === 'object') return call.record.trail.refuse(verdict);
      if (verdict !== undefined) detail = verdict;
    }
    if (ran) call.record.trail.pass(stage, detail);
    else if (skipReason !== undefined) call.record.trail.skip(stage, skipReason);
  }
  if (call.plan !== undefined) call.record.planHash = call.plan.hash;
  return undefined;
}

function auditOutcome(call: SafetyCall<unknown>, outcome: CallOutcome): { outcome: string; error?: string } {
  if (call.record.error !== undefined) return { outcome: 'failed', error: call.record.error };
  if (outcome.kind === 'cancelled' || call.ctx.signal.aborted) return { outcome: 'cancelled' };
  if (outcome.kind === 'error') return { outcome: 'failed', error: outcome.error.message };
  if (outcome.result.resultType === 'input_required') return { outcome: 'input_required' };
  return { outcome: outcome.result.isError === true ? 'error' : 'ok' };
}

function writeAudit(deps: RobotDeps, toolName: string, call: SafetyCall<unknown>, outcome: CallOutcome): void {
  const ended = auditOutcome(call, outcome);
  const record = call.record;
  record.trail.pass('audit');
  deps.audit.append({
    type: 'tool_call',
    tool: toolName,
    request_id: call.ctx.requestId,
    transport: call.ctx.transport,
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
  let last = -1;
  for (const step of steps) {
    const at = GATING_STAGES.indexOf(step.stage);
    if (at < last) throw new TypeError(`robot tool ${init.name}: step of stage ${step.stage} is out of order (stages run in SAFETY_STAGES order)`);
    last = at;
  }
  // The call the runner checked, handed to run: the same ToolContext object reaches both.
  const checked = new WeakMap<ToolContext, SafetyCall<A>>();
  const runner: Middleware = {
    name: `${ROBOT_MIDDLEWARE_PREFIX}safety`,
    at: 'validated',
    async handle(toolCall, next) {
      const ctx = toolCall.ctx;
      if (ctx === undefined) throw new Error(`robot tool ${init.name}: the safety runner ran before the schema check`);
      // At `validated` the arguments have passed this tool's inputSchema, which is what A is inferred from.
      const call: SafetyCall<A> = { args: toolCall.arguments as A, ctx, record: new CallRecord(), plan: undefined };
      const refusal = runSafetySteps(steps, call, skipReason);
      let outcome: CallOutcome;
      if (refusal !== undefined) outcome = refusalOutcome(refusal);
      else {
        checked.set(ctx, call);
        try {
          outcome = await next();
        } finally {
          checked.delete(ctx);
        }
      }
      writeAudit(deps, init.name, call, outcome);
      return outcome;
    },
  };
  const tool: ToolDefinitionInit<I> = {
    ...definition,
    use: [runner],
    run: async (_args, ctx) => {
      const call = checked.get(ctx);
      if (call === undefined) throw new Error(`robot tool ${init.name} ran without its safety steps`);
      try {
        return await run(call);
      } catch (error) {
        call.record.error = error instanceof Error ? error.message : String(error);
        throw error;
      }
    },
  };
  return defineTool(tool);
}
