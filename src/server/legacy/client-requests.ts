/**
 * Server-to-client requests of a legacy (2025) session: an input request of a call (elicitation,
 * sampling, roots) sent to the client as a JSON-RPC request, on the call's own stream when it
 * accepts one (2025: requests related to a client request go there), else on the session's
 * channel, and the client's answer awaited, bounded by the session's input timeout.
 */
import { isJsonObject } from '../../protocol/json-rpc.js';
import type { JsonObject, JsonRpcNotification } from '../../protocol/json-rpc.js';
import type { InboundMessage } from '../../transport/message-dispatcher.js';
import type { LiveSession } from './session.js';
import { legacyRequestParams } from './translate.js';
import { rpcError } from '../outcomes.js';


/** Whether a request's reply may be an event stream carrying server messages (stdio always; HTTP when Accept says so). */
export function canStream(message: InboundMessage): boolean {
  if (message.header === undefined) return true;
  return /text\/event-stream/i.test(message.header('accept') ?? '');
}

/**
 * Sends `request` (an input request of the call `message`) to the client and resolves with its
 * answer; rejects with the row legacyInputTimeout's error after `timeoutMs`, or when `signal` aborts or nothing
 * can carry the request.
 */
export function askClient(session: LiveSession, request: JsonObject, message: InboundMessage, signal: AbortSignal, timeoutMs: number): Promise<JsonObject> {
  const method = String(request.method);
  const requestId = `${session.requestIdPrefix}${session.nextRequestId++}`;
  const params = legacyRequestParams(method, isJsonObject(request.params) ? request.params : {}, session.record.protocolVersion);
  const outbound = { jsonrpc: '2.0' as const, id: requestId, method, params };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => finish(rpcError('legacyInputTimeout', `No answer to ${method} within ${timeoutMs} ms; the request was not run`)), timeoutMs);
    const onAbort = (): void => finish(new Error('cancelled'));
    const finish = (outcome: JsonObject | Error): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      session.pending.delete(requestId);
      if (outcome instanceof Error) reject(outcome);
      else resolve(outcome);
    };
    session.pending.set(requestId, finish);
    signal.addEventListener('abort', onAbort, { once: true });
    // (InboundMessage.notify writes any JSON-RPC message; a request is one with an id.)
    if (canStream(message)) message.notify(outbound as JsonRpcNotification);
    else if (!session.send(JSON.stringify(outbound))) finish(new Error(`cannot send ${method}: the request does not accept an event stream and the session has no open GET stream`));
  });
}
