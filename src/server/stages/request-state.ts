import { verifyApprovalState } from '../approvals/approvals.js';
import { fail, grown } from './stage.js';
import type { Redeemed, Stage, Stop, ToolFound } from './stage.js';

/**
 * A single-use `requestState` (an approval) is verified here, before any handler sees the call: a
 * state of another call, subject or client is refused and nothing runs. It is not claimed here:
 * `claim` does that immediately before `execute`, so a refusal in between (shape, check,
 * authorize, rate limits, a tool's own gates) leaves the approval usable. Synchronous (no store).
 */
export const requestState: Stage<'request-state', ToolFound, Redeemed> = {
  name: 'request-state',
  run(s, env): Redeemed | Stop {
    if (s.requestState === undefined) return redeemable(s, undefined);
    const state = verifyApprovalState(env.signer, { call: `tools/call ${s.tool.name}`, args: s.args, sub: s.auth?.subject ?? '', client: s.auth?.clientId ?? '' }, s.requestState);
    if (state.kind === 'refused') return fail(state.error);
    return redeemable(s, state.kind === 'approval' ? state.claims : undefined);
  },
};

function redeemable(s: ToolFound, approvalState: Redeemed['approvalState']): Redeemed {
  const out: Redeemed = grown(s);
  out.approvalState = approvalState;
  out.redeemed = undefined;
  return out;
}
