/**
 * The final stop as the reply a transport sends: one serialized JSON-RPC response (or none for a
 * notification or a cancelled request), with the server's `_meta` and any middleware notes.
 */
import { isJsonObject } from '../../protocol/json-rpc.js';
import type { JsonObject, JsonRpcId } from '../../protocol/json-rpc.js';
import type { ProtocolError } from '../../protocol/protocol-error.js';
import type { Reply } from '../../transport/message-dispatcher.js';
import { OUTCOMES } from '../outcomes.js';
import type { PipelineEnv } from '../stages/pipeline-env.js';
import type { AnyState, Stop } from '../stages/stage.js';

function serializeResult(id: JsonRpcId, result: JsonObject, env: PipelineEnv, json: string | undefined): string {
  if (json === undefined) {
    // Results reaching here are objects the pipeline built, so adding _meta in place is safe.
    if (!Object.hasOwn(result, '_meta')) {
      // The server's _meta goes last, as its JSON made once: the same text as serialising it with
      // the result (a result whose JSON is not a plain object text is serialised whole instead).
      const members = JSON.stringify(result);
      result._meta = env.resultMeta;
      if (members === '{}') json = `{"_meta":${env.resultMetaJson}}`;
      else if (members.startsWith('{') && members.endsWith('}')) json = `${members.slice(0, -1)},"_meta":${env.resultMetaJson}}`;
      else json = JSON.stringify(result);
    } else {
      if (result._meta === undefined) result._meta = env.resultMeta;
      json = JSON.stringify(result);
    }
  }
  return `{"jsonrpc":"2.0","id":${typeof id === 'number' ? id : JSON.stringify(id)},"result":${json}}`;
}

/**
 * Middleware notes (repairs, truncation) join a result's `_meta`; true when there were any (the
 * result's pre-serialized JSON is then stale). Used for replies and for a task's stored result.
 */
export function addNotes(s: AnyState, stop: Stop & { kind: 'result' }, env: PipelineEnv): boolean {
  if (s.view?.notes === undefined) return false;
  stop.result._meta = { ...(isJsonObject(stop.result._meta) ? stop.result._meta : {}), ...s.view.notes, ...env.resultMeta };
  delete stop.json;
  return true;
}

/** The reply for the request's final stop; marks the request finished (request-scoped notifications stop, R-66). */
export function toReply(s: AnyState, stop: Stop, env: PipelineEnv): Reply {
  s.finished = true;
  switch (stop.kind) {
    case 'result':
      addNotes(s, stop, env);
      // A result stop only comes from a stage after `envelope`, so the id is known. Without
      // pre-serialized JSON the object is exactly what the body holds, so it travels along.
      if (stop.json !== undefined) return { status: 200, body: serializeResult(s.id as JsonRpcId, stop.result, env, stop.json) };
      if (s.message.resultOnly === true) {
        // The same object serializeResult would write, with the server's _meta, left unwritten.
        if (stop.result._meta === undefined) stop.result._meta = env.resultMeta;
        return { status: 200, body: '', result: stop.result };
      }
      return { status: 200, body: serializeResult(s.id as JsonRpcId, stop.result, env, undefined), result: stop.result };
    case 'error': {
      const reply: Reply = { status: stop.error.httpStatus, body: JSON.stringify(stop.error.toResponse(s.id)) };
      if (stop.error.headers !== undefined) reply.headers = stop.error.headers;
      return reply;
    }
    case 'accepted':
      return { status: OUTCOMES.notification.httpStatus, body: undefined };
    case 'cancelled':
      return { status: OUTCOMES.cancelled.httpStatus, body: undefined };
  }
}

/** A JSON-RPC error reply from a row of the outcome table, for answers made outside the runner (era router, 2025 wire). */
export function errorReply(error: ProtocolError, id: JsonRpcId | undefined, headers?: Record<string, string>): Reply {
  const all = error.headers === undefined ? headers : { ...error.headers, ...headers };
  return { status: error.httpStatus, body: JSON.stringify(error.toResponse(id)), headers: all };
}
