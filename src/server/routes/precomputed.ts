import type { JsonObject } from '../../protocol/json-rpc.js';
import type { Stop } from '../stages/stage.js';

/** A result that is the same for every request, serialized once (the reply appends `_meta` to this JSON). */
export function precomputed(result: JsonObject): Stop {
  return { kind: 'result', outcome: 'respond', result, json: JSON.stringify(result) };
}
