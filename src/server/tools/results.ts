import type { ContentBlock, InputRequest, TextContent } from '../../protocol/wire-types.js';
import type { InputRequiredInit, ToolErrorResultInit } from '../contract/tool-types.js';
import type { JsonObject } from '../../protocol/json-rpc.js';

/** A text content block. */
export function text(value: string): TextContent {
  return { type: 'text', text: value };
}

/** A tool result the model should read as a failure it may correct (`isError: true`). */
export function errorResult(message: string, extra: { content?: ContentBlock[]; _meta?: JsonObject } = {}): ToolErrorResultInit {
  return { content: [text(message), ...(extra.content ?? [])], isError: true, ...(extra._meta ? { _meta: extra._meta } : {}) };
}

/**
 * An MRTR `input_required` result: the client gathers the inputs and retries the call with
 * `inputResponses` (same keys) and the echoed `requestState`. Integrity-protect `requestState` if
 * it influences anything beyond failing the request (digest R-61).
 */
export function inputRequired(init: { inputRequests?: Record<string, InputRequest>; requestState?: string; _meta?: JsonObject }): InputRequiredInit {
  if (init.inputRequests === undefined && init.requestState === undefined) {
    throw new TypeError('inputRequired() needs inputRequests, requestState, or both');
  }
  return { resultType: 'input_required', ...init };
}
