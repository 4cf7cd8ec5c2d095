/** An `input_required` value a prompt or resource handler returned, checked before it is answered. */
import { isJsonObject } from '../../protocol/json-rpc.js';
import type { JsonObject } from '../../protocol/json-rpc.js';
import type { InputRequest } from '../../protocol/wire-types.js';
import { capabilityFor } from '../approvals/input-flow.js';
import { rpcError } from '../outcomes.js';
import { fail, respond } from '../stages/stage.js';
import type { RequestState, Stop } from '../stages/stage.js';

/** The answer to an input_required handler value (R-60: only capabilities the request declared). */
export function inputRequiredStop(s: RequestState, what: string, value: JsonObject): Stop {
  const requests = value.inputRequests;
  const missing: Record<string, unknown> = {};
  if (requests !== undefined) {
    if (!isJsonObject(requests)) return fail(rpcError('featureHandlerFailed', `Internal error: ${what} returned malformed inputRequests`));
    for (const request of Object.values(requests) as InputRequest[]) {
      const capability = capabilityFor(request);
      if (capability === undefined) return fail(rpcError('featureHandlerFailed', `Internal error: ${what} returned an input request with an unknown method`));
      if (s.capabilities[capability] === undefined) missing[capability] = {};
    }
  }
  if (Object.keys(missing).length > 0) {
    return fail(rpcError('missingClientCapability', `Missing required client capability: ${Object.keys(missing).join(', ')} (${what} needs it)`, { data: { requiredCapabilities: missing } }));
  }
  if (requests === undefined && typeof value.requestState !== 'string') return fail(rpcError('featureHandlerFailed', `Internal error: ${what} returned input_required without inputRequests or requestState`));
  const result: JsonObject = { resultType: 'input_required' };
  if (requests !== undefined) result.inputRequests = requests;
  if (typeof value.requestState === 'string') result.requestState = value.requestState;
  return respond(result);
}
