import { text, type ToolResultInit } from 'toolwright';
import { isArmFaultError } from '../driver/arm-driver.js';
import type { ApprovalDecision } from './approval-gate.js';
import type { MotionReport } from './robot-controller.js';
import { StageTrail, type Refusal } from './safety-stages.js';

/** What one tool call collects for its audit record while it runs. */
export class CallRecord {
  readonly trail = new StageTrail();
  approval: ApprovalDecision | undefined;
  motion: MotionReport | undefined;
  planHash: string | undefined;
  /** Short machine-readable summary of the result, for the log. */
  summary: Record<string, unknown> | undefined;
  /** Set when the tool body threw (the audit outcome is then `failed`). */
  error: string | undefined;
}

/** The text a refusal shows the model. The one place that says nothing ran: refusal messages do not repeat it. */
export function refusalText(refusal: Refusal): string {
  return `Refused at stage ${refusal.stage} (${refusal.code}): ${refusal.message}. Nothing was executed.`;
}

/** An `isError` result for a refusal: stage, code and message, never executed. */
export function refusalResult(refusal: Refusal): ToolResultInit {
  return {
    content: [text(refusalText(refusal))],
    structuredContent: { refused: { stage: refusal.stage, code: refusal.code, message: refusal.message } },
    isError: true,
  };
}

/**
 * A driver command that failed with its typed fault, as a refusal of stage `execute` (code
 * `driver_<kind>`, or the controller's own code for a rejection). Anything else is a bug and rethrown.
 */
export function driverFaultRefusal(error: unknown, what: string): Refusal {
  if (!isArmFaultError(error)) throw error;
  const fault = error.fault;
  const code = fault.kind === 'rejected' && fault.code !== undefined ? fault.code : `driver_${fault.kind}`;
  return { stage: 'execute', code, message: `the arm controller could not ${what} (${fault.kind}: ${fault.message})` };
}
