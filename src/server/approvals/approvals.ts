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
import type { JsonValue } from '../../protocol/json-rpc.js';
import type { ProtocolError } from '../../protocol/protocol-error.js';
import { rpcError } from '../outcomes.js';
import { digestArguments } from './request-state-seal.js';
import type { RequestStateSigner, SealedClaims } from './request-state-seal.js';
import { StoreEpochError, StoreFullError } from '../store/store.js';
import type { Store } from '../store/store.js';
import type { ApprovalRecord, ClientUserApprover } from '../contract/approval.js';

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
