/**
 * A route answers one method other than `tools/call` (which runs the call stages). Each file in this
 * folder is one method: a factory that takes what the server resolved once and returns
 * `{ method, handle }`, or nothing when the server does not serve that method. `route-list.ts` is
 * the one list, in the order `createServer` builds them.
 */
import { rpcError } from '../outcomes.js';
import type { MethodRoute } from '../stages/pipeline-env.js';
import { fail } from '../stages/stage.js';
import type { Stop } from '../stages/stage.js';

/** One method and its handler. */
export interface Route {
  readonly method: string;
  readonly handle: MethodRoute;
}

/** A refusal of bad params of a feature method (-32602). */
export function badParams(message: string): Stop {
  return fail(rpcError('invalidFeatureParams', message));
}

/** The routes by method, as the `route` stage looks them up; a method listed twice is a bug here. */
export function routeTable(routes: readonly Route[]): ReadonlyMap<string, MethodRoute> {
  const table = new Map<string, MethodRoute>();
  for (const route of routes) {
    if (table.has(route.method)) throw new Error(`route ${route.method} is listed twice`);
    table.set(route.method, route.handle);
  }
  return table;
}
