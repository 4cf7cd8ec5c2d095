/**
 * THE approval mechanism. An approval authorises exactly one execution of what was approved, for
 * one subject, before its expiry. What is approved is a digest the tool supplies (default: the tool
 * name and canonical arguments; the robot supplies its plan hash). Both the `approval` hook and
 * `ctx.inputs.require(..., { singleUse: true })` seal a single-use `requestState`
 * (request-state.ts); the pipeline's `request-state` stage redeems it here, claiming its nonce in the
 * store before any handler runs, so a replay (even two at once) is refused with nothing executed.
 * The third entry point, an operator deciding a held-open call out of band, claims in the same
 * store under `approval:operator:<id>` (operator-approvals.ts).
 */
import type { JsonValue } from '../protocol/json-rpc.js';
import type { ProtocolError } from '../protocol/protocol-error.js';
import { rpcError } from './outcomes.js';
import { digestArguments } from './request-state.js';
import type { RequestStateSigner } from './request-state.js';
import { StoreFullError } from './store/store.js';
import type { Store } from './store/store.js';

/** The client's user approved, through a form elicitation. */
export interface ClientUserApprover {
  readonly kind: 'client-user';
  /** The authenticated subject of the request that carried the answer ('' when anonymous). */
  readonly subject: string;
  readonly via: 'elicitation';
}

/** An out-of-band operator approved (or declined) a held-open call through `server.approvals` (operator-approvals.ts). */
export interface OperatorApprover {
  readonly kind: 'operator';
  /** Who decided, as the console named them. */
  readonly operator: string;
  readonly via: 'console';
}

/** Who approved. */
export type Approver = ClientUserApprover | OperatorApprover;

/** What the store keeps about one redeemed approval (and `ctx.inputs` hands back once ready). */
export interface ApprovalRecord {
  /** The call, e.g. `tools/call move_arm`. */
  readonly call: string;
  /** The digest of what was approved. */
  readonly approves: string;
  readonly approvedBy: Approver;
  /** When the approval was redeemed (ms since epoch). */
  readonly redeemedAt: number;
}

/** What a call is, for binding states to it. */
export interface CallBinding {
  /** e.g. `tools/call move_arm`; never a bare tool name. */
  readonly call: string;
  readonly args: unknown;
  /** Authenticated subject, '' when anonymous. */
  readonly sub: string;
}

/** The default digest of what an approval covers: the call (tool name) and its canonical arguments. */
export function defaultApprovalDigest(call: string, args: unknown): string {
  return digestArguments({ call, arguments: args });
}

/** The one error of this mechanism (OUTCOMES.invalidRequestState), naming the field. */
export function stateError(message: string): ProtocolError {
  return rpcError('invalidRequestState', `Invalid params: ${message}`, { data: { field: 'requestState' } });
}

export const DIFFERENT_CALL = 'requestState belongs to a different call (tool, arguments or caller differ)';
export const ALREADY_USED = 'requestState was already used; start the call again without it';

/** Outcome of {@link redeemRequestState}. */
export type Redemption =
  | { readonly ok: true; /** Set when a single-use state was claimed for this request. */ readonly record: ApprovalRecord | undefined }
  | { readonly ok: false; readonly error: ProtocolError };

const NOT_SINGLE_USE: Redemption = { ok: true, record: undefined };

/**
 * Claims a single-use state for this request. States that are not ours, not authentic, expired or
 * bound to another call are left for whoever reads them (they fail there, precisely, when read);
 * an authentic single-use state bound to another call, or already claimed, is refused here.
 */
export function redeemRequestState(signer: RequestStateSigner, store: Store, binding: CallBinding, token: string | undefined): Redemption | Promise<Redemption> {
  if (token === undefined) return NOT_SINGLE_USE;
  const verdict = signer.verify(token);
  if (!verdict.ok || !verdict.claims.once) return NOT_SINGLE_USE;
  const claims = verdict.claims;
  if (claims.call !== binding.call || claims.sub !== binding.sub || claims.args !== digestArguments(binding.args)) {
    return { ok: false, error: stateError(DIFFERENT_CALL) };
  }
  const approvedBy: ClientUserApprover = { kind: 'client-user', subject: binding.sub, via: 'elicitation' };
  const value: JsonValue = { call: claims.call, approves: claims.approves ?? '', approvedBy: { kind: approvedBy.kind, subject: approvedBy.subject, via: approvedBy.via } };
  return store.claimOnce(`approval:${claims.nonce}`, { expiresAt: claims.exp, value }).then(
    (claim): Redemption => claim.claimed
      ? { ok: true, record: { call: claims.call, approves: claims.approves ?? '', approvedBy, redeemedAt: claim.record.claimedAt } }
      : { ok: false, error: stateError(ALREADY_USED) },
    (error: unknown): Redemption => {
      if (error instanceof StoreFullError) return { ok: false, error: rpcError('internalFault', 'Internal error: the approval store is full; try again later') };
      throw error;
    },
  );
}
