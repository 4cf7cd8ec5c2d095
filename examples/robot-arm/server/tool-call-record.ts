import { text, type ToolContext, type ToolResultInit, type ToolRunResult } from 'toolwright';
import type { ApprovalDecision } from './approval-gate.js';
import type { MotionReport } from './robot-controller.js';
import type { RobotDeps } from './robot-deps.js';
import { StageTrail, type Refusal } from './safety-stages.js';

/** What one tool call collects for its audit record while it runs. */
export class CallRecord {
  readonly trail = new StageTrail();
  approval: ApprovalDecision | undefined;
  motion: MotionReport | undefined;
  planHash: string | undefined;
  /** Short machine-readable summary of the result, for the log. */
  summary: Record<string, unknown> | undefined;
}

/** An `isError` result for a refusal: stage, code and message, never executed. */
export function refusalResult(refusal: Refusal): ToolResultInit {
  return {
    content: [text(`Refused at stage ${refusal.stage} (${refusal.code}): ${refusal.message}. Nothing was executed.`)],
    structuredContent: { refused: { stage: refusal.stage, code: refusal.code, message: refusal.message } },
    isError: true,
  };
}

type Body<A> = (args: A, ctx: ToolContext, record: CallRecord) => Promise<ToolRunResult> | ToolRunResult;

function outcomeOf(result: ToolRunResult, ctx: ToolContext): string {
  if (ctx.signal.aborted) return 'cancelled';
  if (typeof result === 'string') return 'ok';
  if ('resultType' in result && result.resultType === 'input_required') return 'input_required';
  return (result as ToolResultInit).isError === true ? 'error' : 'ok';
}

/**
 * Wraps a tool body so that every call ends with a durable audit record (stage `audit`): the arguments,
 * each stage outcome, the approval decision and the motion report. The record is fsync'd before the
 * result is returned, so a call that was answered is on disk.
 */
export function audited<A>(deps: RobotDeps, toolName: string, body: Body<A>): (args: A, ctx: ToolContext) => Promise<ToolRunResult> {
  return async (args, ctx) => {
    const record = new CallRecord();
    let result: ToolRunResult;
    try {
      result = await body(args, ctx, record);
    } catch (error) {
      deps.audit.append({
        type: 'tool_call',
        tool: toolName,
        request_id: ctx.requestId,
        transport: ctx.transport,
        arguments: args,
        stages: [...record.trail.records, { stage: 'audit', outcome: 'pass' }],
        approval: record.approval ?? null,
        motion: record.motion ?? null,
        outcome: 'failed',
        error: error instanceof Error ? error.message : String(error),
      });
      throw error;
    }
    record.trail.pass('audit');
    deps.audit.append({
      type: 'tool_call',
      tool: toolName,
      request_id: ctx.requestId,
      transport: ctx.transport,
      arguments: args,
      stages: record.trail.records,
      approval: record.approval ?? null,
      plan_hash: record.planHash ?? record.approval?.planHash ?? null,
      motion: record.motion ?? null,
      outcome: outcomeOf(result, ctx),
      result: record.summary ?? null,
    });
    return result;
  };
}
