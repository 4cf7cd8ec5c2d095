/**
 * THE approval mechanism. An approval authorises exactly one execution of what was approved, for
 * one subject and client, before its expiry. What is approved is a digest the tool supplies (default:
 * the tool name and canonical arguments; the robot supplies its plan hash). Both the `approval` hook
 * and `ctx.inputs.require(..., { singleUse: true })` seal a single-use `requestState`
 * (request-state.ts) under the store's epoch. The pipeline verifies it early (`request-state`: a
 * state of another call, subject or client is refused at once) and claims it here, atomically,
 * immediately before `execute` (`claim`): every refusal before that (shape, check, authorize, rate
 * limits, a tool's own gates, task creation) leaves the approval usable for the rest of its
 * lifetime, and of two concurrent retries exactly one executes. The claim binds the tool, the
 * arguments, the approved digest, the subject, the client, the approver kind (the key space
 * `approval:elicitation:`) and the store epoch (a store that lost its memory refuses it).
 * The other entry point, an operator deciding a held-open call out of band, claims in the same
 * store under `approval:operator:<id>` when the operator decides (operator-approvals.ts): that
 * approval lives inside the held request only, so it cannot be carried to another one.
 */
import { isJsonObject } from '../../protocol/json-rpc.js';
import type { JsonValue } from '../../protocol/json-rpc.js';
import type { ProtocolError } from '../../protocol/protocol-error.js';
import type { ElicitResult } from '../../protocol/feature-wire-types.js';
import type { ClientCapabilities } from '../../protocol/wire-types.js';
import { rpcError } from '../outcomes.js';
import { digestArguments } from './request-state-seal.js';
import type { RequestStateSigner, SealedClaims } from './request-state-seal.js';
import { StoreEpochError, StoreFullError } from '../store/store.js';
import type { Store } from '../store/store.js';
import type { ApprovalRecord, ClientUserApprover } from '../contract/approval.js';
import type { ApproverChoice } from '../contract/tool-types.js';
import type { ElicitationInputRequest } from './input-flow.js';

export type { ApprovalRecord, Approver, ClientUserApprover, OperatorApprover } from '../contract/approval.js';

/** What a call is, for binding states to it. */
export interface CallBinding {
  /** e.g. `tools/call move_arm`; never a bare tool name. */
  readonly call: string;
  readonly args: unknown;
  /** Authenticated subject, '' when anonymous. */
  readonly sub: string;
  /** The caller's OAuth client id (`AuthInfo.clientId`), '' when none. */
  readonly client: string;
}

/** The default digest of what an approval covers: the call (tool name) and its canonical arguments. */
export function defaultApprovalDigest(call: string, args: unknown): string {
  return digestArguments({ call, arguments: args });
}

/** The one error of this mechanism (OUTCOMES.invalidRequestState), naming the field. */
export function stateError(message: string): ProtocolError {
  return rpcError('invalidRequestState', `Invalid params: ${message}`, { data: { field: 'requestState' } });
}

export const DIFFERENT_CALL = 'requestState belongs to a different call (tool, arguments, caller or client differ)';
export const OTHER_EPOCH = 'requestState was issued before the approval store lost its memory (its epoch changed, e.g. a Redis restarted empty); start the call again without it';
export const ALREADY_USED = 'requestState was already used; start the call again without it';

/** Outcome of {@link redeemRequestState}. */
export type Redemption =
  | { readonly ok: true; /** Set when a single-use state was claimed for this request. */ readonly record: ApprovalRecord | undefined }
  | { readonly ok: false; readonly error: ProtocolError };

const NOT_SINGLE_USE: Redemption = { ok: true, record: undefined };

/** What {@link verifyApprovalState} found in a request's `requestState`. */
export type ApprovalState =
  /** No state, or one that is not an authentic single-use state: left for whoever reads it (it fails there, precisely). */
  | { readonly kind: 'none' }
  /** An authentic single-use state bound to another call, subject or client. */
  | { readonly kind: 'refused'; readonly error: ProtocolError }
  /** An authentic single-use state of this very call: to be claimed before execution. */
  | { readonly kind: 'approval'; readonly claims: SealedClaims };

const NONE: ApprovalState = { kind: 'none' };

/** Checks a request's `requestState` against the call without touching the store (synchronous). */
export function verifyApprovalState(signer: RequestStateSigner, binding: CallBinding, token: string | undefined): ApprovalState {
  if (token === undefined) return NONE;
  const verdict = signer.verify(token);
  if (!verdict.ok || !verdict.claims.once) return NONE;
  const claims = verdict.claims;
  if (claims.call !== binding.call || claims.sub !== binding.sub || claims.cid !== binding.client || claims.args !== digestArguments(binding.args)) {
    return { kind: 'refused', error: stateError(DIFFERENT_CALL) };
  }
  return { kind: 'approval', claims };
}

/**
 * Claims a verified single-use state for this request, in the store epoch it was sealed under.
 * Resolves to the approval record, or the refusal (already used, other epoch, store full); a store
 * that cannot be reached rejects (the pipeline answers 503 and nothing ran).
 */
export function claimApproval(store: Store, claims: SealedClaims): Promise<Redemption> {
  const approvedBy: ClientUserApprover = { kind: 'client-user', subject: claims.sub, via: 'elicitation' };
  const approves = claims.approves ?? '';
  const value: JsonValue = { call: claims.call, approves, client: claims.cid, approvedBy: { kind: approvedBy.kind, subject: approvedBy.subject, via: approvedBy.via } };
  // A state sealed without an epoch (none can be now) is claimed in an epoch no store has.
  return store.claimOnce(`approval:elicitation:${claims.nonce}`, { expiresAt: claims.exp, value, epoch: claims.epoch ?? '' }).then(
    (claim): Redemption => claim.claimed
      ? { ok: true, record: { call: claims.call, approves, approvedBy, redeemedAt: claim.record.claimedAt } }
      : { ok: false, error: stateError(ALREADY_USED) },
    (error: unknown): Redemption => {
      if (error instanceof StoreEpochError) return { ok: false, error: stateError(OTHER_EPOCH) };
      if (error instanceof StoreFullError) return { ok: false, error: rpcError('internalFault', 'Internal error: the approval store is full; try again later') };
      throw error;
    },
  );
}

/**
 * Verifies and claims at once: for requests whose handler runs right away (a task's next round,
 * prompts/get, resources/read). States that are not single use are left for whoever reads them.
 */
export function redeemRequestState(signer: RequestStateSigner, store: Store, binding: CallBinding, token: string | undefined): Redemption | Promise<Redemption> {
  const state = verifyApprovalState(signer, binding, token);
  if (state.kind === 'none') return NOT_SINGLE_USE;
  if (state.kind === 'refused') return { ok: false, error: state.error };
  return claimApproval(store, state.claims);
}

/**
 * Whether a client declared form elicitation: an `elicitation` capability that is empty (form, as
 * the spec reads it) or names `form`. A client that declared only URL mode cannot answer an
 * approval form.
 * @example
 * ```ts
 * import { canElicitForm } from 'toolwright';
 *
 * canElicitForm({ elicitation: {} }); // true
 * canElicitForm({ elicitation: { url: {} } }); // false
 * canElicitForm({}); // false
 * ```
 */
export function canElicitForm(capabilities: ClientCapabilities): boolean {
  const elicitation: unknown = capabilities.elicitation;
  return isJsonObject(elicitation) && (Object.keys(elicitation).length === 0 || elicitation.form !== undefined);
}

/** What {@link routeApproval} decides from. */
export interface ApprovalRouteInput {
  readonly approver: ApproverChoice;
  /** `ctx.approvals.callerMayApprove`: the caller's own answer may approve (approver scope, or the trusted stdio host). */
  readonly callerMayApprove: boolean;
  /** {@link canElicitForm} of the request's capabilities. */
  readonly formElicitation: boolean;
  /** The request carries a `requestState` (an elicitation round in progress): under `either` a trusted caller keeps it. Default false. */
  readonly answering?: boolean;
  /**
   * Whether an operator decides calls here now. Under `either`, a call goes to the operator only
   * then; otherwise it is routed as under `elicitation`, and refused when that cannot work, rather
   * than waiting for nobody until its deadline. Default true.
   */
  readonly operatorPresent?: boolean;
}

/** Where an approval goes, or why nobody can approve this call. */
export type ApprovalRoute =
  | { readonly to: 'elicitation' }
  | { readonly to: 'operator' }
  /** `approver-scope`: the caller's own answer cannot approve; `form-elicitation`: the client cannot show an approval form. */
  | { readonly to: 'refused'; readonly reason: 'approver-scope' | 'form-elicitation' };

/**
 * THE approval routing: who approves this call, given the approver chosen, the caller's trust and
 * capabilities and whether an operator is present. Only a caller trusted to ask a person approves by
 * its own answer; under `either` any other goes to the operator whatever it declares.
 * @example
 * ```ts
 * import { routeApproval } from 'toolwright';
 *
 * routeApproval({ approver: 'either', callerMayApprove: true, formElicitation: true }); // { to: 'elicitation' }
 * routeApproval({ approver: 'either', callerMayApprove: false, formElicitation: true }); // { to: 'operator' }
 * routeApproval({ approver: 'either', callerMayApprove: true, formElicitation: false, operatorPresent: false });
 * // { to: 'refused', reason: 'form-elicitation' }
 * ```
 */
export function routeApproval(input: ApprovalRouteInput): ApprovalRoute {
  const { approver, callerMayApprove, formElicitation } = input;
  if (approver !== 'elicitation' && approver !== 'operator' && approver !== 'either') {
    throw new TypeError(`approver must be "elicitation", "operator" or "either", got ${JSON.stringify(approver)}`);
  }
  if (approver === 'operator') return OPERATOR_ROUTE;
  const toOperator = approver === 'either' && (input.operatorPresent ?? true) && (!callerMayApprove || (!formElicitation && input.answering !== true));
  if (toOperator) return OPERATOR_ROUTE;
  if (!callerMayApprove) return { to: 'refused', reason: 'approver-scope' };
  if (!formElicitation) return { to: 'refused', reason: 'form-elicitation' };
  return ELICITATION_ROUTE;
}

const OPERATOR_ROUTE: ApprovalRoute = { to: 'operator' };
const ELICITATION_ROUTE: ApprovalRoute = { to: 'elicitation' };

/** The words of an approval form's one field. */
export interface ApprovalFormWording {
  /** Default `Approve`. */
  readonly title?: string;
  /** Default `Allow this call to run as described above`. */
  readonly description?: string;
}

/**
 * THE approval form: an `elicitation/create` input request whose schema is one required boolean,
 * `approve`, shown under `message` (what is approved, in plain words). Read the answer with
 * {@link approvalAnswer}; ask it with `ctx.inputs.require(..., { singleUse: true, approves })`.
 * @throws TypeError when `message` is empty.
 * @example
 * ```ts
 * import { approvalAnswer, approvalForm, defineTool } from 'toolwright';
 *
 * const wipe = defineTool({
 *   name: 'wipe_cache',
 *   inputSchema: { type: 'object' },
 *   run: (_args, ctx) => {
 *     const got = ctx.inputs.require({ approval: approvalForm('Wipe the cache?') }, { singleUse: true });
 *     if (!got.ready) return got.result;
 *     return approvalAnswer(got.responses.approval) === 'approved' ? 'wiped' : 'left as it was';
 *   },
 * });
 * ```
 */
export function approvalForm(message: string, wording: ApprovalFormWording = {}): ElicitationInputRequest {
  if (typeof message !== 'string' || message === '') throw new TypeError('approvalForm() needs a non-empty message');
  const approve = { type: 'boolean', title: wording.title ?? 'Approve', description: wording.description ?? 'Allow this call to run as described above' };
  return { method: 'elicitation/create', params: { mode: 'form', message, requestedSchema: { type: 'object', properties: { approve }, required: ['approve'] } } };
}

/**
 * What a person answered to an {@link approvalForm}: `approved` only for an accepted form with
 * `approve: true`; `not-approved` for an accepted form without it; else the elicitation's action.
 * @example
 * ```ts
 * import { approvalAnswer } from 'toolwright';
 *
 * approvalAnswer({ action: 'accept', content: { approve: true } }); // 'approved'
 * approvalAnswer({ action: 'accept', content: { approve: false } }); // 'not-approved'
 * approvalAnswer({ action: 'decline' }); // 'declined'
 * ```
 */
export function approvalAnswer(answer: ElicitResult): 'approved' | 'not-approved' | 'declined' | 'cancelled' {
  if (answer.action === 'accept') return isJsonObject(answer.content) && answer.content.approve === true ? 'approved' : 'not-approved';
  return answer.action === 'decline' ? 'declined' : 'cancelled';
}
