import type { JsonObject } from '../json/json-object.js';
/** A JSON-RPC request id: string or integer, never null (digest R-02). */
export type JsonRpcId = string | number;

/** Any JSON value. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** A plain JSON object (defined with {@link isJsonObject} in json/json-object.ts, below the schema engine). */
export type { JsonObject } from '../json/json-object.js';

/** A JSON-RPC 2.0 request (has an id). */
export interface JsonRpcRequest {
  /** Always `"2.0"`. */
  jsonrpc: '2.0';
  /** Correlates the response with this request. */
  id: JsonRpcId;
  /** The method to invoke, e.g. `tools/call`. */
  method: string;
  /** Named parameters; MCP 2026-07-28 requests carry their `_meta` here. */
  params?: JsonObject;
}

/** A JSON-RPC 2.0 notification (no id, never answered). */
export interface JsonRpcNotification {
  /** Always `"2.0"`. */
  jsonrpc: '2.0';
  /** The notification, e.g. `notifications/progress`. */
  method: string;
  /** Named parameters. */
  params?: JsonObject;
}

/** The error member of a JSON-RPC error response. */
export interface JsonRpcErrorObject {
  /** Error code (see `ErrorCode`). */
  code: number;
  /** One-line description of what went wrong. */
  message: string;
  /** Structured detail, e.g. the supported versions of -32022. */
  data?: unknown;
}

/** A JSON-RPC 2.0 success response. */
export interface JsonRpcResultResponse {
  /** Always `"2.0"`. */
  jsonrpc: '2.0';
  /** The id of the request answered. */
  id: JsonRpcId;
  /** The method's result. */
  result: JsonObject;
}

/** A JSON-RPC 2.0 error response; `id` is absent only when the request id was unreadable. */
export interface JsonRpcErrorResponse {
  /** Always `"2.0"`. */
  jsonrpc: '2.0';
  /** The id of the request answered; absent when it could not be read. */
  id?: JsonRpcId;
  /** What went wrong. */
  error: JsonRpcErrorObject;
}

/** Either kind of JSON-RPC response: a result or an error. */
export type JsonRpcResponse = JsonRpcResultResponse | JsonRpcErrorResponse;

export { isJsonObject } from '../json/json-object.js';

/** True for a valid JSON-RPC id (string or integer). */
export function isJsonRpcId(value: unknown): value is JsonRpcId {
  return typeof value === 'string' || (typeof value === 'number' && Number.isInteger(value));
}

/**
 * The exact source text of a message's top-level numeric `id` when JSON.parse cannot keep it (an
 * integer beyond 2^53 is rounded: 9007199254740993 reads as 9007199254740992), so the answer can
 * echo the id the client sent. Undefined when the id is absent, not a number, or exactly
 * representable. One linear scan of the top level (nested values are skipped, never parsed);
 * the last `id` member wins, as in JSON.parse. Only for text JSON.parse accepted.
 */
export function exactIdText(text: string, parsedId: unknown): string | undefined {
  if (typeof parsedId !== 'number' || Number.isSafeInteger(parsedId)) return undefined;
  return exactNumberText(text, ['id']);
}

/**
 * The source text of the number at member `path` of a message (`['id']`, or
 * `['params', 'requestId']` for the id a cancellation names), digit for digit, or undefined when
 * that member is absent or not a number. One scan per level, nested values skipped, the last
 * member of a name winning as in JSON.parse. Only for text JSON.parse accepted.
 */
export function exactNumberText(text: string, path: readonly string[]): string | undefined {
  let at = text.indexOf('{');
  for (const key of path) {
    if (at === -1 || text[at] !== '{') return undefined;
    const value = memberValueStart(text, at + 1, key);
    if (value === undefined) return undefined;
    at = value;
  }
  return /^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(at, at + 400))?.[0];
}

/** Where the value of the last member `key` begins (past whitespace), in the object whose members start at `i`. */
function memberValueStart(text: string, i: number, key: string): number | undefined {
  let found: number | undefined;
  let depth = 0;
  let member: string | undefined;
  let expectKey = true;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === '"') {
      let end = i + 1;
      while (end < text.length && text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      if (depth === 0 && expectKey) member = JSON.parse(text.slice(i, end + 1)) as string;
      i = end + 1;
      continue;
    }
    if (ch === '{' || ch === '[') depth++;
    else if (ch === '}' || ch === ']') { if (depth === 0) break; depth--; }
    else if (depth === 0 && ch === ':') {
      expectKey = false;
      if (member === key) {
        found = i + 1;
        while (/\s/.test(text[found] ?? '')) found++;
      }
    } else if (depth === 0 && ch === ',') expectKey = true;
    i++;
  }
  return found;
}

/** The JSON text of a response id: the exact text the client sent when {@link exactIdText} found one. */
export function idJson(id: JsonRpcId | undefined, exactText?: string): string {
  if (exactText !== undefined) return exactText;
  return id === undefined ? 'null' : JSON.stringify(id);
}

// Every response this project serialises starts with this prefix (call-pipeline, ProtocolError.toResponse, the legacy wire).
const REPLY_ID_PREFIX = '{"jsonrpc":"2.0","id":';
const utf8Text = new TextDecoder('utf-8');

/**
 * The reply `json` with its id written exactly as the request sent it, when the request's numeric id
 * lost precision in JSON.parse (an integer beyond 2^53): `{"id":9007199254740993}` is answered with
 * 9007199254740993, not 9007199254740992. Every other reply is returned unchanged after a check of
 * its first few characters, so the common path costs no decoding of `request` and no allocation.
 * `request` is the raw message (HTTP body bytes or a stdio line) the reply answers.
 */
export function echoExactId(request: string | Uint8Array, json: string): string {
  if (!json.startsWith(REPLY_ID_PREFIX)) return json;
  const start = REPLY_ID_PREFIX.length;
  const first = json.charCodeAt(start);
  // A string id (") or a short number is always exact; only a long number or an exponent can be rounded.
  if (first === 0x22) return json;
  let end = start;
  let exponent = false;
  while (end < json.length && end - start < 400) {
    const c = json.charCodeAt(end);
    if (c === 0x2c || c === 0x7d) break;
    if (c === 0x45 || c === 0x65) exponent = true;
    end++;
  }
  // Read in place: the usual short id costs no string (this runs for every answer).
  if (end - start < 16 && !exponent) return json;
  const token = json.slice(start, end);
  const rounded = Number(token);
  if (!Number.isFinite(rounded) || Number.isSafeInteger(rounded)) return json;
  const text = typeof request === 'string' ? request : utf8Text.decode(request);
  const exact = exactIdText(text, rounded);
  if (exact === undefined || Number(exact) !== rounded) return json;
  return `${REPLY_ID_PREFIX}${exact}${json.slice(end)}`;
}
