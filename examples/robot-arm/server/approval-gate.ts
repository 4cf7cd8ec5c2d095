import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { inputRequired } from '../../../src/server/results.js';
import type { InputRequiredInit, ToolContext } from '../../../src/server/tool-types.js';
import type { MotionPlan } from './motion-plan.js';
import type { Refusal } from './safety-stages.js';

/**
 * - `always`: every motion needs a human's approval (default);
 * - `large-moves`: only moves over 300 mm of TCP travel or 90° on any joint;
 * - `off`: no approval (pure simulation only; the operator must choose it explicitly).
 */
export type ApprovalMode = 'always' | 'large-moves' | 'off';

export const APPROVAL_MODES: readonly ApprovalMode[] = ['always', 'large-moves', 'off'];
export const LARGE_MOVE_MM = 300;
export const LARGE_MOVE_DEG = 90;

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

interface ApprovalClaims {
  readonly tool: string;
  readonly plan: string;
  readonly epoch: number;
  readonly nonce: string;
  readonly exp: number;
}

const PREFIX = 'rbt1.';

/**
 * Human approval bound to the exact plan. The question goes out as an MRTR `input_required` result with a
 * form elicitation that shows the plan and its hash; the signed `requestState` carries the hash, a
 * single-use nonce, an expiry and the stop epoch. On the retried call the plan is recomputed: if its
 * hash differs (the arm or the scene changed), if the nonce was used, if a stop happened in between, or
 * if the answer is anything but an explicit approval, the motion does not run. No tool argument can
 * approve anything.
 */
export class ApprovalGate {
  private readonly key: Buffer;
  private readonly usedNonces = new Map<string, number>();

  constructor(
    readonly mode: ApprovalMode,
    readonly ttlMs = 2 * 60_000,
    secret?: Uint8Array,
    private readonly now: () => number = Date.now,
  ) {
    if (!APPROVAL_MODES.includes(mode)) throw new RangeError(`approval mode must be one of ${APPROVAL_MODES.join(', ')}, got ${String(mode)}`);
    this.key = secret === undefined ? randomBytes(32) : Buffer.from(secret);
  }

  /** Whether this plan needs a human at all under the configured mode. */
  requiresApproval(plan: MotionPlan): boolean {
    if (this.mode === 'off') return false;
    if (this.mode === 'large-moves') return plan.maxDisplacementMm > LARGE_MOVE_MM || plan.maxJointTravelDeg > LARGE_MOVE_DEG;
    return true;
  }

  /** Stage `approval` for one call. `epoch` is the controller's stop counter: any stop cancels pending approvals. */
  decide(ctx: ToolContext, plan: MotionPlan, epoch: number, describe: () => string): ApprovalVerdict {
    const planHash = plan.hash;
    if (!this.requiresApproval(plan)) {
      const reason = this.mode === 'off' ? 'approval turned off by the operator (simulation only)' : `small move (${plan.maxDisplacementMm.toFixed(0)} mm, ${plan.maxJointTravelDeg.toFixed(0)}°)`;
      return { kind: 'proceed', decision: { decision: 'not_required', planHash, reason } };
    }
    const answer = ctx.inputResponses?.approval;
    if (ctx.requestState !== undefined || answer !== undefined) return this.verify(ctx, plan, epoch, answer);

    const elicitation = ctx.clientCapabilities.elicitation as Record<string, unknown> | undefined;
    const formSupported = typeof elicitation === 'object' && elicitation !== null && (Object.keys(elicitation).length === 0 || elicitation.form !== undefined);
    if (!formSupported) {
      const reason = 'the client cannot ask a human (no form elicitation capability) and approval is required';
      return {
        kind: 'refuse',
        refusal: { stage: 'approval', code: 'approval_unavailable', message: `${reason}; the motion was not executed. Use a client that supports elicitation, or an operator may start the server with --approval off for pure simulation.` },
        decision: { decision: 'refused', planHash, reason },
      };
    }
    const claims: ApprovalClaims = { tool: ctx.toolName, plan: planHash, epoch, nonce: randomBytes(12).toString('base64url'), exp: this.now() + this.ttlMs };
    const result = inputRequired({
      inputRequests: {
        approval: {
          method: 'elicitation/create',
          params: {
            mode: 'form',
            message: describe(),
            requestedSchema: {
              type: 'object',
              properties: { approve: { type: 'boolean', title: 'Approve this motion', description: `Run plan ${plan.id} (hash ${planHash.slice(0, 16)}) on the arm` } },
              required: ['approve'],
            },
          },
        },
      },
      requestState: this.sign(claims),
    });
    return { kind: 'ask', result, decision: { decision: 'asked', planHash, reason: 'approval requested from the user' } };
  }

  private verify(ctx: ToolContext, plan: MotionPlan, epoch: number, answer: unknown): ApprovalVerdict {
    const planHash = plan.hash;
    const refuse = (code: string, message: string, decision: ApprovalDecision['decision'] = 'refused'): ApprovalVerdict => ({
      kind: 'refuse',
      refusal: { stage: 'approval', code, message: `${message}; the motion was not executed` },
      decision: { decision, planHash, reason: message },
    });
    const token = ctx.requestState;
    if (token === undefined) return refuse('approval_state_missing', 'an approval answer arrived without the requestState it answers');
    const claims = this.open(token);
    if (typeof claims === 'string') return refuse('approval_state_invalid', claims);
    if (claims.exp < this.now()) return refuse('approval_expired', `the approval request expired (approvals are valid for ${Math.round(this.ttlMs / 1000)} s)`);
    if (claims.tool !== ctx.toolName) return refuse('approval_state_invalid', `the approval was for ${claims.tool}, not ${ctx.toolName}`);
    if (claims.epoch !== epoch) return refuse('approval_cancelled', 'a stop_arm since the approval was requested cancelled it');
    if (claims.plan !== planHash) return refuse('plan_changed', `the plan changed since it was shown for approval (approved hash ${claims.plan.slice(0, 16)}, now ${planHash.slice(0, 16)}): the arm or the scene moved; ask again`);
    this.pruneNonces();
    if (this.usedNonces.has(claims.nonce)) return refuse('approval_reused', 'this approval was already used; every approval runs one motion once');
    this.usedNonces.set(claims.nonce, claims.exp);
    const response = typeof answer === 'object' && answer !== null ? (answer as { action?: unknown; content?: unknown }) : undefined;
    const action = response?.action;
    const content = typeof response?.content === 'object' && response.content !== null ? (response.content as { approve?: unknown }) : undefined;
    if (action === 'accept' && content?.approve === true) {
      return { kind: 'proceed', decision: { decision: 'approved', planHash, reason: 'approved by the user through elicitation' } };
    }
    const how = action === 'accept' ? 'did not tick approve' : action === 'decline' ? 'declined' : action === 'cancel' ? 'cancelled' : 'gave no valid answer to';
    return refuse('approval_declined', `the user ${how} the approval`, 'declined');
  }

  private sign(claims: ApprovalClaims): string {
    const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
    return `${PREFIX}${payload}.${this.mac(payload)}`;
  }

  private open(token: string): ApprovalClaims | string {
    if (!token.startsWith(PREFIX)) return 'the requestState was not issued by this robot server';
    const rest = token.slice(PREFIX.length);
    const dot = rest.indexOf('.');
    if (dot < 0) return 'the requestState is malformed';
    const payload = rest.slice(0, dot);
    const mac = Buffer.from(rest.slice(dot + 1));
    const expected = Buffer.from(this.mac(payload));
    if (mac.length !== expected.length || !timingSafeEqual(mac, expected)) return 'the requestState failed verification (forged or from another server run)';
    try {
      return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as ApprovalClaims;
    } catch {
      return 'the requestState is malformed';
    }
  }

  private mac(payload: string): string {
    return createHmac('sha256', this.key).update(payload).digest('base64url');
  }

  private pruneNonces(): void {
    const t = this.now();
    for (const [nonce, exp] of this.usedNonces) if (exp < t) this.usedNonces.delete(nonce);
  }
}
