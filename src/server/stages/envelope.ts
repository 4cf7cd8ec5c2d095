import { isJsonObject, isJsonRpcId } from '../../protocol/json-rpc.js';
import type { JsonObject } from '../../protocol/json-rpc.js';
import { rpcError } from '../outcomes.js';
import { describeType, fail, grown } from './stage.js';
import type { Decoded, Enveloped, Stage } from './stage.js';

const NO_PARAMS: JsonObject = Object.freeze({}) as JsonObject;

/** One JSON-RPC 2.0 request; a notification is accepted here and goes no further. */
export const envelope: Stage<'envelope', Decoded, Enveloped> = {
  name: 'envelope',
  run(s) {
    const m = s.parsed;
    if (Array.isArray(m)) return fail(rpcError('invalidRequest', 'Invalid request: batch arrays are not supported; send one message at a time'));
    if (!isJsonObject(m)) return fail(rpcError('invalidRequest', `Invalid request: expected a JSON-RPC object, got ${describeType(m)}`));
    const id = m.id;
    if ('id' in m && !isJsonRpcId(id)) return fail(rpcError('invalidRequest', `Invalid request: id must be a string or an integer, got ${describeType(id)}`));
    // The error replies below can name the id once it is known to be one.
    const out: Enveloped = grown(s);
    if (isJsonRpcId(id)) out.id = id;
    if (m.jsonrpc !== '2.0') return fail(rpcError('invalidRequest', 'Invalid request: jsonrpc must be "2.0"'));
    if (typeof m.method !== 'string') {
      const isResponse = 'result' in m || 'error' in m;
      return fail(rpcError('invalidRequest', isResponse ? 'Invalid request: the server does not accept JSON-RPC responses' : 'Invalid request: method must be a string'));
    }
    let params = NO_PARAMS;
    if (m.params !== undefined) {
      if (!isJsonObject(m.params)) return fail(rpcError('invalidRequest', `Invalid request: params must be an object, got ${describeType(m.params)}`));
      params = m.params;
    }
    if (!isJsonRpcId(id)) return { kind: 'accepted' };
    out.method = m.method;
    out.params = params;
    return out;
  },
};
