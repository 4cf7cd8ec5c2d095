/**
 * `subscriptions/listen`: holds the request open as the caller's notification stream (list
 * changes, resource updates, task status), filtered by what it asked for and what this server
 * announces.
 */
import { META } from '../../protocol/constants.js';
import { respond } from '../stages/stage.js';
import type { RequestState } from '../stages/stage.js';
import { acceptFilter } from '../catalog/subscriptions.js';
import type { SubscriptionHub, SubscriptionSupport } from '../catalog/subscriptions.js';
import { badParams } from './route.js';
import type { Route } from './route.js';

/** `announced`: what the server announces, so a listener cannot ask for more. */
export function subscriptionsListen(hub: SubscriptionHub, announced: SubscriptionSupport): Route {
  return {
    method: 'subscriptions/listen',
    async handle(s) {
      const accepted = acceptFilter(s.params.notifications, announced);
      if ('problem' in accepted) return badParams(accepted.problem);
      const id = s.id as NonNullable<RequestState['id']>;
      const how = await hub.hold(id, accepted.filter, (n) => s.message.notify(n), s.message.signal, s.auth?.subject ?? '', s.auth);
      if (how === 'cancelled') return { kind: 'cancelled' };
      return respond({ resultType: 'complete', _meta: { [META.subscriptionId]: id } });
    },
  };
}
