import { claimApproval } from '../approvals/approvals.js';
import type { Redemption } from '../approvals/approvals.js';
import { callerMayApprove } from '../approvals/approver-trust.js';
import { fail } from './stage.js';
import type { Shaped, Stage, Stop } from './stage.js';

function claimed(s: Shaped, redemption: Redemption): Shaped | Stop {
  if (!redemption.ok) return fail(redemption.error);
  s.redeemed = redemption.record;
  return s;
}

/**
 * THE approval claim (approvals.ts): the request's single-use `requestState`, verified by
 * `request-state`, is claimed in the store atomically here, immediately before `execute` and after
 * every refusal that can come first (shape, check, authorize, middleware such as rate limits and a
 * tool's own gates, the approval hook, task creation). Of two concurrent retries with one approval
 * exactly one gets past; the other is -32602 and its `run` never starts.
 *
 * It sits after `task`: a call that becomes a task claims as the first step of the task's run, so
 * a failure to create the task (capacity, store full) burns nothing; a replay that became a task
 * ends `failed` with the same -32602 and nothing ran. A caller that may not approve (approver
 * scope) claims nothing: its handler cannot complete the approval (`ctx.inputs` refuses it), so the
 * state stays usable by the caller it was issued to.
 */
export const claim: Stage<'claim', Shaped> = {
  name: 'claim',
  run(s, env) {
    const state = s.approvalState;
    if (state === undefined || s.redeemed !== undefined) return s;
    if (!callerMayApprove(env.approverTrust, s.message.transport, s.auth)) return s;
    return claimApproval(env.store, state).then((redemption) => claimed(s, redemption));
  },
};
