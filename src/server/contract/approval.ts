/**
 * What a tool sees of approvals: who approved (`ApprovalRecord`), and `ctx.approvals`, the wait
 * for an out-of-band operator. Declared here because the tool context names them
 * (contract/tool-types.ts); the mechanism is approvals/approvals.ts and approvals/operator-approvals.ts.
 */
import type { JsonValue } from '../../protocol/json-rpc.js';
import type { ToolErrorResultInit } from './tool-types.js';

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

/** Why an operator approval did not happen. */
export type OperatorRefusalReason = 'declined' | 'timeout' | 'cancelled' | 'closed';

/** What {@link ToolApprovals.awaitOperator} resolves to. */
export type OperatorDecision =
  | { readonly approved: true; readonly record: ApprovalRecord }
  | {
      readonly approved: false;
      readonly reason: OperatorRefusalReason;
      /** Who declined (reason `declined` only). */
      readonly operator: string | undefined;
      /** One sentence naming the reason, e.g. for the tool's own result. */
      readonly message: string;
      /** The refusal as a tool error result (OUTCOMES `approvalDeclined` / `approvalTimedOut`): return it from `run`. */
      readonly result: ToolErrorResultInit;
    };

/** Options of {@link ToolApprovals.awaitOperator}. */
export interface AwaitOperatorOptions {
  /** What the operator is asked, in plain words. */
  summary: string;
  /** What is approved. Default: tool name + canonical arguments of this call. */
  digest?: string;
  /** Shown to the operator with the summary (e.g. a plan); must be JSON. */
  details?: JsonValue;
  /** How long to hold the call open (default 45000 ms, under common client timeouts; at most the server's `approvalTtlMs`). */
  timeoutMs?: number;
  /**
   * Ends the wait at once, refused with reason `cancelled`, when aborted: for what voids the approval
   * before anyone decides (the robot: a stop of the arm). The client's own cancel does this already.
   */
  signal?: AbortSignal;
}

/** `ctx.approvals`: approval of this very call by someone other than the client's user. */
export interface ToolApprovals {
  /**
   * Holds this call open until an operator approves or declines it through `server.approvals`, the
   * deadline passes, the client cancels or the server closes. While it waits, a request that sent a
   * `progressToken` gets `notifications/progress` (one at once, then every `progressIntervalMs`).
   * Resolves once; the approval it reports authorises this execution only.
   * @example
   * ```ts
   * import { defineTool } from 'toolwright';
   *
   * const move = defineTool({
   *   name: 'move_to',
   *   inputSchema: { type: 'object', properties: { x: { type: 'number' } }, required: ['x'] } as const,
   *   run: async ({ x }, ctx) => {
   *     const decision = await ctx.approvals.awaitOperator({ summary: `Move to ${x}?`, digest: `plan-for-${x}` });
   *     if (!decision.approved) return decision.result;
   *     return `moved to ${x}`;
   *   },
   * });
   * ```
   */
  awaitOperator(options: AwaitOperatorOptions): Promise<OperatorDecision>;
  /**
   * Whether this caller's own elicitation answer may approve (it holds the server's approver scope,
   * or is the stdio host when trusted; approver-trust.ts). When false, ask the operator instead:
   * `ctx.inputs.require(..., { singleUse: true })` refuses such a caller with 403 `insufficient_scope`.
   */
  readonly callerMayApprove: boolean;
  /** The scope that makes a caller an approver (`createServer({ approverScope })`), for messages. */
  readonly approverScope: string;
}
