/**
 * How the client refuses a request the server sends it (roots, elicitation, sampling, ping): the
 * client's counterpart of the server's outcome table (server/outcomes.ts), which the client may not
 * import. Every error the client answers a server with is built from a row here.
 */
import { ErrorCode } from '../protocol/error-codes.js';
import type { JsonRpcErrorResponse, JsonRpcId } from '../protocol/json-rpc.js';
import { ProtocolError } from '../protocol/protocol-error.js';

/** One situation in which the client answers a server request with an error. */
export interface RefusalRule {
  readonly situation: string;
  readonly code: number;
}

/** THE table of the client's refusals. */
export const REFUSALS = {
  notAnswered: { situation: 'the server asked for a method the client does not answer, or has no handler for', code: ErrorCode.MethodNotFound },
  tooManyRequests: { situation: 'the client already answers its limit of server requests at once', code: ErrorCode.InternalError },
  handlerFailed: { situation: "the client's handler threw, returned no result object, gave no answer, or a call ran out of input rounds", code: ErrorCode.InternalError },
} as const satisfies Record<string, RefusalRule>;

/** The name of one row of {@link REFUSALS}. */
export type RefusalName = keyof typeof REFUSALS;

/** The error a row prescribes, to throw from a handler (its `code` and `message` become the answer). */
export function refusal(name: RefusalName, message: string): ProtocolError {
  return new ProtocolError(REFUSALS[name].code, message);
}

/** The complete error response a row prescribes, for a request the client answers at once. */
export function refusalResponse(id: JsonRpcId, name: RefusalName, message: string): JsonRpcErrorResponse {
  return refusal(name, message).toResponse(id);
}
