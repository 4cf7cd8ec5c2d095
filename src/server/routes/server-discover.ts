/** `server/discover`: the server's versions, capabilities and instructions, serialized once. */
import type { JsonObject } from '../../protocol/json-rpc.js';
import type { Route } from './route.js';
import { precomputed } from './precomputed.js';

export function serverDiscover(discover: JsonObject): Route {
  const stop = precomputed(discover);
  return { method: 'server/discover', handle: () => stop };
}
