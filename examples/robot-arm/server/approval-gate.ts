import { elicitInput, type InputRequiredInit, type ToolContext } from 'toolwright';
import type { MotionPlan } from './motion-plan.js';
import type { Refusal } from './safety-stages.js';

/**
 * - `always`: every motion, grasp and release needs a human's approval (default);
 * - `large-moves`: moves whose TCP goes more than 300 mm from its start, or any joint more than 90° from
 *   its start, anywhere on the path; every grasp and every release (they touch objects, so they are
 *   never a "small move");
 * - `off`: no approval (pure simulation only; the operator must choose it explicitly).
 */
export type ApprovalMode = 'always' | 'large-moves' | 'off';

export const APPROVAL_MODES: readonly ApprovalMode[] = ['always', 'large-moves', 'off'];
export const LARGE_MOVE_MM = 300;
export const LARGE_MOVE_DEG = 90;

/**
 * What a human approves: a motion plan, or a release (the object's fall, computed before it happens).
 * `MotionPlan` is one; the release tool builds another.
 */
export interface ApprovalSubject {
  readonly id: string;
  readonly hash: string;
  readonly kind: MotionPlan['kind'] | 'release';
  /** Largest TCP distance from the start anywhere on the path, mm (0 for a release). */
  readonly maxDisplacementMm: number;
  /** Largest excursion of any joint from its start anywhere on the path, degrees (0 for a release). */
  readonly maxJointTravelDeg: number;
}

/** Subjects that touch an object: they need a human in every mode except `off`. */
const ALWAYS_ASKED: ReadonlySet<ApprovalSubject['kind']> = new Set(['grasp_approach', 'release']);

/** What the audit log records about approval. */
export interface ApprovalDecision {
  readonly decision: 'approved' | 'declined' | 'not_required' | 'asked' | 'refused';
  readonly planHash: string;
  readonly reason: string;
}

export type ApprovalVerdict =
  | { readonly kind: 'proceed'; readonly decision: ApprovalDecision }
  | { readonly kind: 'ask'; readonly result: InputRequiredInit; readonly decision: ApprovalDecision }
  | { readonly kind: 'refuse'; readonly refusal: Refusal; readonly decision: ApprovalDecision };

/** What the sealed `requestState` carries besides the answer: the plan the human saw and the stop epoch. */
interface SealedApproval {
  readonly plan_hash: string;
  readonly stop_epoch: number;
}

const REQUESTED_SCHEMA = {
  type: 'object',
  properties: { approve: { type: 'boolean', title: 'Approve this motion', description: 'Tick to run exactly the plan shown above on the arm' } },
  required: ['approve'],
};

/**
 * Human approval bound to the exact plan, on Toolwright's MRTR input flow (`ctx.inputs`): the question
 * goes out as an `input_required` result with a form elicitation showing the plan and its hash. The
 * server seals the plan hash and the stop epoch into the `requestState` (HMAC, bound to this tool,
 * these arguments and this caller, expiring, single use). On the retried call the plan is recomputed:
 * a different hash (the arm or the scene changed), a stop in between, or anything but an explicit
 * approval refuses the motion; a forged, expired, replayed or transplanted state is a -32602 error from
 * the input flow. No tool argument can approve anything.
 */
export class ApprovalGate {
  constructor(readonly mode: ApprovalMode) {
    if (!APPROVAL_MODES.includes(mode)) throw new RangeError(`approval mode must be one of ${APPROVAL_MODES.join(', ')}, got ${String(mode)}`);
  }

  /** Whether this plan (or release) needs a human at all under the configured mode. */
  requiresApproval(plan: ApprovalSubject): boolean {
    if (this.mode === 'off') return false;
    if (this.mode === 'large-moves') return ALWAYS_ASKED.has(plan.kind) || plan.maxDisplacementMm > LARGE_MOVE_MM || plan.maxJointTravelDeg > LARGE_MOVE_DEG;
    return true;
  }

  /** Stage `approval` for one call. `epoch` is the controller's stop counter: any stop voids pending approvals. */
  decide(ctx: ToolContext, plan: ApprovalSubject, epoch: number, describe: () => string): ApprovalVerdict {
    const planHash = plan.hash;
    if (!this.requiresApproval(plan)) {
      const reason = this.mode === 'off'
        ? 'approval turned off by the operator (simulation only)'
        : `large-moves mode, below both thresholds: anywhere on the path the TCP stays within ${plan.maxDisplacementMm.toFixed(0)} mm of its start (threshold ${LARGE_MOVE_MM} mm) and no joint moves more than ${plan.maxJointTravelDeg.toFixed(0)}° from its start (threshold ${LARGE_MOVE_DEG}°)`;
      return { kind: 'proceed', decision: { decision: 'not_required', planHash, reason } };
    }
    const elicitation = ctx.clientCapabilities.elicitation as Record<string, unknown> | undefined;
    const formSupported = typeof elicitation === 'object' && elicitation !== null && (Object.keys(elicitation).length === 0 || elicitation.form !== undefined);
    if (!formSupported) {
      const reason = 'the client cannot ask a human (no form elicitation capability) and approval is required';
      return {
        kind: 'refuse',
        refusal: { stage: 'approval', code: 'approval_unavailable', message: `${reason}; the motion was not executed. Use a client that supports elicitation, or an operator may start the server with --approval off for pure simulation` },
        decision: { decision: 'refused', planHash, reason },
      };
    }
    const sealed: SealedApproval = { plan_hash: planHash, stop_epoch: epoch };
    const got = ctx.inputs.require(
      { approval: elicitInput({ mode: 'form', message: describe(), requestedSchema: REQUESTED_SCHEMA }) },
      { data: { ...sealed }, singleUse: true },
    );
    if (!got.ready) return { kind: 'ask', result: got.result, decision: { decision: 'asked', planHash, reason: 'approval requested from the user' } };

    const refuse = (code: string, message: string, decision: ApprovalDecision['decision'] = 'refused'): ApprovalVerdict => ({
      kind: 'refuse',
      refusal: { stage: 'approval', code, message: `${message}; the motion was not executed` },
      decision: { decision, planHash, reason: message },
    });
    const approved = got.data as Partial<SealedApproval> | undefined;
    if (approved?.stop_epoch !== epoch) return refuse('approval_cancelled', 'a stop_arm since the approval was requested cancelled it');
    if (approved.plan_hash !== planHash) {
      return refuse('plan_changed', `the plan changed since it was shown for approval (approved hash ${String(approved.plan_hash).slice(0, 16)}, now ${planHash.slice(0, 16)}): the arm or the scene moved; ask again`);
    }
    const answer = got.responses.approval;
    if (answer.action === 'accept' && (answer.content as { approve?: unknown } | undefined)?.approve === true) {
      return { kind: 'proceed', decision: { decision: 'approved', planHash, reason: 'approved by the user through elicitation' } };
    }
    const how = answer.action === 'accept' ? 'did not tick approve' : answer.action === 'decline' ? 'declined' : 'cancelled';
    return refuse('approval_declined', `the user ${how} the approval`, 'declined');
  }
}
