/**
 * What a message says about its era (digest §1.4), read without running anything: a 2026-07-28
 * claim is the protocol version in the request's `_meta`; a 2025 client opens with `initialize`
 * and no such claim.
 */
import { META } from '../../protocol/constants.js';
import { isJsonObject } from '../../protocol/json-rpc.js';
import { parseMessageJson } from '../../protocol/message-json.js';
import type { JsonObject } from '../../protocol/json-rpc.js';
import type { InboundMessage } from '../../transport/message-dispatcher.js';

const decoder = new TextDecoder();

/** The message body as JSON, or undefined when it is not JSON or nests too deep (the pipeline then answers -32700 or -32600). */
export function parseBody(message: InboundMessage): { value: unknown } | undefined {
  try {
    return { value: parseMessageJson(typeof message.body === 'string' ? message.body : decoder.decode(message.body)) };
  } catch {
    return undefined;
  }
}

/** True when the request's `_meta` names a protocol version (a 2026-07-28 claim). */
export function hasModernMeta(m: JsonObject | undefined): boolean {
  const meta = m !== undefined && isJsonObject(m.params) ? m.params._meta : undefined;
  return isJsonObject(meta) && typeof meta[META.protocolVersion] === 'string';
}

/** True when an `initialize` request makes no 2026-07-28 claim: a 2025 client opening a session. */
export function isLegacyInitialize(m: JsonObject | undefined): boolean {
  return m?.method === 'initialize' && !hasModernMeta(m);
}
