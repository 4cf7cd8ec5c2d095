import { randomBytes } from 'node:crypto';
import { anySignal } from './any-signal.js';
import { approvalAnswer, approvalForm, canElicitForm, routeApproval, type ApprovalRoute, type Approver, type ApproverChoice, type InputRequiredInit, type JsonValue, type ToolContext } from 'toolwright';
import type { MotionPlan } from './motion-plan.js';
import type { Refusal } from './safety-stages.js';
import { UserApprovalBoard } from './user-approval-board.js';
import { describeWorldChange, worldJson, type WorldState } from './world-binding.js';

/**
 * - `always`: every motion, grasp and release needs a human's approval (default);
 * - `large-moves`: moves whose TCP goes more than 300 mm from its start, or any joint more than 90° from
 *   its start, anywhere on the path; every grasp and every release (they touch objects, so they are
 *   never a "small move");
 * - `off`: no approval (pure simulation only; the operator must choose it explicitly).
 */
export type ApprovalMode = 'always' | 'large-moves' | 'off';

export const APPROVAL_MODES: readonly ApprovalMode[] = ['always', 'large-moves', 'off'];

/**
 * Who approves what the mode says needs approval (the server's {@link ApproverChoice}, with the
 * operator named where this application's operator sits, `console`; routed by the server's
 * `routeApproval`):
 * - `elicitation`: the client's user, through form elicitation (clients that cannot elicit, or that do
 *   not hold the server's approver scope, are refused);
 * - `console`: the operator at the console (`server.approvals`), for every client: the call is held open;
 * - `either` (default): elicitation for clients that can elicit and hold the approver scope
 *   (`toolwright:approve`, or the stdio host), the console operator for the others while a console is
 *   attached ({@link ApprovalGate.attachOperator}); with no console they are refused at once
 *   (`approval_unavailable`, or `approver_scope_missing`), as nobody could approve.
 *
 * A client's own answer is a person's approval only when the deployment trusts that client to show the
 * question to one (the approver scope, granted by the authorizer): any other client could answer its
 * own question. Such a client never approves a motion by elicitation, whatever it declares.
 */
export type ApproverMode = 'elicitation' | 'console' | 'either';

export const APPROVER_MODES: readonly ApproverMode[] = ['elicitation', 'console', 'either'];

/** The robot's approver words as the server's routing names them. */
const SERVER_APPROVER: Readonly<Record<ApproverMode, ApproverChoice>> = { elicitation: 'elicitation', console: 'operator', either: 'either' };

/** How long a call waits for the console operator by default (under common client timeouts), ms. */
export const DEFAULT_OPERATOR_WAIT_MS = 45_000;

/** Options of {@link ApprovalGate} besides the mode. */
export interface ApprovalGateOptions {
  /** Default `either`. */
  readonly approver?: ApproverMode;
  /** How long a call is held for the operator, ms (default 45 000). */
  readonly operatorTimeoutMs?: number;
  /** The controller's stop counter now: a stop while a call waits for the operator voids its approval. */
  readonly currentEpoch?: () => number;
  /** Aborted at the controller's next stop: a stop ends a call's wait for the operator at once. */
  readonly stopSignal?: () => AbortSignal;
  /** How long a question to the client's user stays answerable, ms (the server's approvalTtlMs; default 10 min). */
  readonly userAnswerTtlMs?: number;
}
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
  /** The world it was computed against; bound by the hash (issue 30 item 1). */
  readonly world: WorldState;
}

/** Subjects that touch an object: they need a human in every mode except `off`. */
const ALWAYS_ASKED: ReadonlySet<ApprovalSubject['kind']> = new Set(['grasp_approach', 'release']);

/** What the audit log records about approval. */
export interface ApprovalDecision {
  readonly decision: 'approved' | 'declined' | 'not_required' | 'asked' | 'refused';
  readonly planHash: string;
  readonly reason: string;
  /** Who approved, as the toolkit's approval mechanism redeemed it (approved decisions only). */
  readonly approvedBy?: Approver;
  /** The digest the redeemed approval record names (the plan hash; approved decisions only). */
  readonly approves?: string;
}

export type ApprovalVerdict =
  | { readonly kind: 'proceed'; readonly decision: ApprovalDecision }
  | { readonly kind: 'ask'; readonly result: InputRequiredInit; readonly decision: ApprovalDecision }
  | { readonly kind: 'refuse'; readonly refusal: Refusal; readonly decision: ApprovalDecision };

/** What the sealed `requestState` carries besides the answer: the plan the human saw and the stop epoch. */
interface SealedApproval {
  readonly plan_hash: string;
  readonly stop_epoch: number;
  /** The question's entry on the console's board of motions awaiting the client's user. */
  readonly ask_id: string;
  /** The plan as shown, in one line, and the world it was computed against: a refusal of a changed plan describes both plans. */
  readonly shown?: string;
  readonly world?: WorldState;
}

/** The `plan_changed` refusal's message: what was approved, what the plan is now, and what changed in the world. */
export function planChangedMessage(approved: { brief: string; world: WorldState | undefined }, now: { brief: string; world: WorldState }): string {
  const what = approved.world !== undefined ? describeWorldChange(approved.world, now.world) : 'the arm or the scene moved';
  return `the plan changed since it was shown for approval (${what}). Approved: ${approved.brief}. Now: ${now.brief}. Nothing was executed; ask again`;
}

/** The words of the server's approval form (approvalForm) for a motion. */
const FORM_WORDING = { title: 'Approve this motion', description: 'Tick to run exactly the plan shown above on the arm' } as const;

/**
 * Human approval bound to the exact plan, on Toolwright's MRTR input flow (`ctx.inputs`): the question
 * goes out as an `input_required` result with a form elicitation showing the plan and its hash. The
 * server seals the plan hash and the stop epoch into the `requestState` (HMAC, bound to this tool,
 * these arguments, this caller and client, expiring, single use). The toolkit claims it right before
 * the tool body runs, after the safety steps: a refusal that is not about the approval (the motion
 * rate limit, a busy arm, any state gate) leaves it usable. On the retried call the plan is recomputed:
 * a different hash (the arm or the scene changed), a stop in between, or anything but an explicit
 * approval refuses the motion; a forged, expired, replayed or transplanted state is a -32602 error from
 * the input flow. No tool argument can approve anything.
 */
export class ApprovalGate {
  readonly approver: ApproverMode;
  readonly operatorTimeoutMs: number;
  /** Motions asked of a client's user, as the console shows them (decline or e-stop only). */
  readonly awaitingUser: UserApprovalBoard;
  readonly #currentEpoch: (() => number) | undefined;
  readonly #stopSignal: (() => AbortSignal) | undefined;
  #operators = 0;

  constructor(readonly mode: ApprovalMode, options: ApprovalGateOptions = {}) {
    if (!APPROVAL_MODES.includes(mode)) throw new RangeError(`approval mode must be one of ${APPROVAL_MODES.join(', ')}, got ${String(mode)}`);
    this.approver = options.approver ?? 'either';
    if (!APPROVER_MODES.includes(this.approver)) throw new RangeError(`approver must be one of ${APPROVER_MODES.join(', ')}, got ${String(options.approver)}`);
    this.operatorTimeoutMs = options.operatorTimeoutMs ?? DEFAULT_OPERATOR_WAIT_MS;
    if (!Number.isInteger(this.operatorTimeoutMs) || this.operatorTimeoutMs < 1) throw new RangeError(`operator timeout must be a positive integer of ms, got ${String(options.operatorTimeoutMs)}`);
    this.#currentEpoch = options.currentEpoch;
    this.#stopSignal = options.stopSignal;
    this.awaitingUser = new UserApprovalBoard(options.userAnswerTtlMs ?? 10 * 60_000);
    // Every stop voids the questions (the epoch check refuses their answers): off the board with them.
    const watchStops = (): void => this.#stopSignal?.().addEventListener('abort', () => {
      this.awaitingUser.stopped();
      watchStops();
    }, { once: true });
    watchStops();
  }

  /**
   * Says an operator console decides `server.approvals` (the robot console's feed calls it); under
   * `either`, calls of clients that cannot elicit are then held for it. Returns the detach function.
   */
  attachOperator(): () => void {
    this.#operators++;
    let attached = true;
    return () => {
      if (attached) this.#operators--;
      attached = false;
    };
  }

  /** Whether a call of a client that cannot elicit is held for the operator. */
  get holdsForOperator(): boolean {
    return this.approver === 'console' || (this.approver === 'either' && this.#operators > 0);
  }

  /**
   * Who approves this call: the server's routing, with an operator present only while a console is
   * attached (under `either`, a client that cannot approve by itself is then refused at once rather
   * than held for nobody).
   */
  #route(ctx: ToolContext): ApprovalRoute {
    return routeApproval({
      approver: SERVER_APPROVER[this.approver],
      callerMayApprove: ctx.approvals.callerMayApprove,
      formElicitation: canElicitForm(ctx.clientCapabilities),
      operatorPresent: this.#operators > 0,
    });
  }

  /** Whether this plan (or release) needs a human at all under the configured mode. */
  requiresApproval(plan: ApprovalSubject): boolean {
    if (this.mode === 'off') return false;
    if (this.mode === 'large-moves') return ALWAYS_ASKED.has(plan.kind) || plan.maxDisplacementMm > LARGE_MOVE_MM || plan.maxJointTravelDeg > LARGE_MOVE_DEG;
    return true;
  }

  /**
   * Stage `approval` for one call. `epoch` is the controller's stop counter: any stop voids pending
   * approvals. `details` is what the console shows beside the description (e.g. the planned path).
   * Resolves at once except when the call is held for the console operator.
   */
  /** Whether {@link decide} holds this call for the console operator (then the caller holds the motion slot across the wait). */
  asksOperator(ctx: ToolContext, plan: ApprovalSubject): boolean {
    return this.requiresApproval(plan) && this.#route(ctx).to === 'operator';
  }

  /**
   * `brief` is the plan in one line (what a `plan_changed` refusal quotes as approved and as now).
   */
  async decide(ctx: ToolContext, plan: ApprovalSubject, epoch: number, describe: () => string, details?: JsonValue, brief = plan.id): Promise<ApprovalVerdict> {
    const planHash = plan.hash;
    if (!this.requiresApproval(plan)) {
      const reason = this.mode === 'off'
        ? 'approval turned off by the operator (simulation only)'
        : `large-moves mode, below both thresholds: anywhere on the path the TCP stays within ${plan.maxDisplacementMm.toFixed(0)} mm of its start (threshold ${LARGE_MOVE_MM} mm) and no joint moves more than ${plan.maxJointTravelDeg.toFixed(0)}° from its start (threshold ${LARGE_MOVE_DEG}°)`;
      return { kind: 'proceed', decision: { decision: 'not_required', planHash, reason } };
    }
    const route = this.#route(ctx);
    if (route.to === 'operator') return this.#askOperator(ctx, plan, epoch, describe, details);
    if (route.to === 'refused' && route.reason === 'approver-scope') {
      const scope = ctx.approvals.approverScope;
      const reason = `this client does not hold the approver scope "${scope}", so its own answer cannot approve a motion`;
      return {
        kind: 'refuse',
        refusal: { stage: 'approval', code: 'approver_scope_missing', message: `${reason}. Connect with a token granting "${scope}", or approve at the operator console (--approver either or console, with the console attached)` },
        decision: { decision: 'refused', planHash, reason },
      };
    }
    if (route.to === 'refused') {
      const reason = 'the client cannot ask a human (no form elicitation capability) and approval is required';
      return {
        kind: 'refuse',
        refusal: { stage: 'approval', code: 'approval_unavailable', message: `${reason}. Use a client that supports elicitation, or an operator console (packages/robot-arm/main.ts serves one), or --approval off for pure simulation` },
        decision: { decision: 'refused', planHash, reason },
      };
    }
    // The entry exists only once the question goes out; its id is sealed with the question.
    const entry = { tool: ctx.toolName, summary: describe(), planHash, details };
    const askId = randomBytes(12).toString('base64url');
    const sealed: SealedApproval = { plan_hash: planHash, stop_epoch: epoch, ask_id: askId, shown: brief, world: plan.world };
    const got = ctx.inputs.require(
      { approval: approvalForm(entry.summary, FORM_WORDING) },
      // The plan hash is what is approved: the redeemed record names it. A state sealed for another plan
      // comes back (not -32602) so the refusal can say the plan changed.
      { data: sealedJson(sealed), singleUse: true, approves: planHash, onOtherDigest: 'complete' },
    );
    if (!got.ready) {
      this.awaitingUser.add({ ...entry, id: askId });
      return { kind: 'ask', result: got.result, decision: { decision: 'asked', planHash, reason: 'approval requested from the user' } };
    }

    const refuse = (code: string, message: string, decision: ApprovalDecision['decision'] = 'refused'): ApprovalVerdict => ({
      kind: 'refuse',
      refusal: { stage: 'approval', code, message },
      decision: { decision, planHash, reason: message },
    });
    const approved = got.data as Partial<SealedApproval> | undefined;
    const declinedBy = typeof approved?.ask_id === 'string' ? this.awaitingUser.answered(approved.ask_id) : undefined;
    if (approved?.stop_epoch !== epoch) return refuse('approval_cancelled', 'a stop_arm since the approval was requested cancelled it');
    if (approved.plan_hash !== planHash || (got.approval !== undefined && got.approval.approves !== planHash)) {
      const shown = typeof approved.shown === 'string' ? approved.shown : `hash ${String(approved.plan_hash).slice(0, 16)}`;
      return refuse('plan_changed', planChangedMessage({ brief: shown, world: approved.world }, { brief, world: plan.world }));
    }
    if (declinedBy !== undefined) return refuse('approval_declined', `the motion was declined at the console by ${declinedBy} while it awaited the client's user`, 'declined');
    const answer = approvalAnswer(got.responses.approval);
    if (answer === 'approved') {
      return { kind: 'proceed', decision: { decision: 'approved', planHash, reason: 'approved by the user through elicitation', ...(got.approval !== undefined ? { approvedBy: got.approval.approvedBy, approves: got.approval.approves } : {}) } };
    }
    const how = answer === 'not-approved' ? 'did not tick approve' : answer;
    return refuse('approval_declined', `the user ${how} the approval`, 'declined');
  }

  /**
   * The console path: the call is held open (`ctx.approvals.awaitOperator`) until the operator
   * approves exactly this plan hash or declines, the wait ends, or the client cancels. A stop while
   * it waited voids the approval, as for elicitation.
   */
  async #askOperator(ctx: ToolContext, plan: ApprovalSubject, epoch: number, describe: () => string, details: JsonValue | undefined): Promise<ApprovalVerdict> {
    const planHash = plan.hash;
    const stopped = this.#stopSignal?.();
    // A client that left (a 2025 session's call would wait on for it to resume) takes its motion off
    // the operator's queue: the arm does not move for a client no longer watching (motion-flow.ts).
    const lost = ctx.connectionLost === ctx.signal ? undefined : ctx.connectionLost;
    const signal = anySignal(stopped, lost);
    const outcome = await ctx.approvals.awaitOperator({ summary: describe(), digest: planHash, ...(details !== undefined ? { details } : {}), timeoutMs: this.operatorTimeoutMs, ...(signal !== undefined ? { signal } : {}) });
    const refuse = (code: string, message: string, decision: ApprovalDecision['decision'] = 'refused'): ApprovalVerdict => ({
      kind: 'refuse',
      refusal: { stage: 'approval', code, message },
      decision: { decision, planHash, reason: message },
    });
    if (!outcome.approved) {
      // refusalText says once that nothing was executed; the queue's sentence says it too.
      const message = outcome.message.replace(/; it was not executed\.$/, '');
      if (outcome.reason === 'declined') return refuse('approval_declined', message, 'declined');
      if (stopped?.aborted === true) return refuse('approval_cancelled', 'a stop of the arm while the call waited for the operator cancelled it');
      if (lost?.aborted === true) return refuse('client_lost', 'the client\'s connection closed while the call waited for the operator');
      return refuse(outcome.reason === 'timeout' ? 'approval_timeout' : 'approval_cancelled', message);
    }
    if ((this.#currentEpoch?.() ?? epoch) !== epoch) return refuse('approval_cancelled', 'a stop since the approval was requested cancelled it');
    const by = outcome.record.approvedBy;
    const who = by.kind === 'operator' ? by.operator : 'the client user';
    return { kind: 'proceed', decision: { decision: 'approved', planHash, reason: `approved at the console by ${who}`, approvedBy: by, approves: outcome.record.approves } };
  }
}

/** The sealed approval as a JSON value (its world field for field; no cast). */
function sealedJson({ world, shown, ...rest }: SealedApproval): { [key: string]: JsonValue } {
  return { ...rest, ...(shown !== undefined ? { shown } : {}), ...(world !== undefined ? { world: worldJson(world) } : {}) };
}
