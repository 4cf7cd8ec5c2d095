import { redeemRequestState } from '../approvals.js';
import type { Redemption } from '../approvals.js';
import { extend, fail } from './stage.js';
import type { Redeemed, Stage, Stop, ToolFound } from './stage.js';

function decided(s: ToolFound, redemption: Redemption): Redeemed | Stop {
  return redemption.ok ? extend(s, { redeemed: redemption.record }) : fail(redemption.error);
}

/**
 * A single-use `requestState` (an approval) is claimed in the store here, before any handler sees
 * the call: a replay, a state of another call or subject is refused and nothing runs. Calls without
 * a state stay synchronous.
 */
export const requestState: Stage<'request-state', ToolFound, Redeemed> = {
  name: 'request-state',
  run(s, env) {
    if (s.requestState === undefined) return extend(s, { redeemed: undefined });
    const redemption = redeemRequestState(env.signer, env.store, { call: `tools/call ${s.tool.name}`, args: s.args, sub: s.auth?.subject ?? '' }, s.requestState);
    return redemption instanceof Promise ? redemption.then((r) => decided(s, r)) : decided(s, redemption);
  },
};
