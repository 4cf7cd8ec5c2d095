/**
 * Reading one message's JSON within a nesting bound. JSON.parse is linear, but slow on deep
 * nesting: the 174,000 levels that fit in a 1 MiB body take it 70-120 ms on a 2-core machine, and
 * nothing else (not `stop_arm`) is answered meanwhile. So a message long enough to nest past the
 * bound is scanned first (one pass of charCodeAt), and one that does is refused
 * without being parsed: only a shallow copy, the too-deep parts replaced by `null`, is read, for
 * the id the answer names. Shorter messages, every ordinary request among them, cost nothing more.
 */
import { WireError } from '../errors/toolwright-error.js';
import { isJsonObject, isJsonRpcId } from './json-rpc.js';
import type { JsonRpcId } from './json-rpc.js';

/**
 * The most levels of objects and arrays a message may nest. Tool arguments may nest 1,000 levels
 * (the schema engine's instance budget); the envelope (`params`, `arguments`, a 2025 batch's array)
 * adds at most three, and the rest is margin.
 */
export const MAX_MESSAGE_DEPTH = 1_100;

/** A message that nests deeper than {@link MAX_MESSAGE_DEPTH}; `id` is its id when the shallow copy names a valid one. */
export class MessageTooDeepError extends WireError {
  readonly errorCode = 'message-too-deep' as const;
  readonly id: JsonRpcId | undefined;
  constructor(id: JsonRpcId | undefined) {
    super(`the message nests objects and arrays deeper than ${MAX_MESSAGE_DEPTH} levels; nothing of it was read or run`);
    this.name = 'MessageTooDeepError';
    this.id = id;
  }
}

/**
 * JSON.parse for one message. Throws JSON.parse's SyntaxError for text that is not JSON, and
 * {@link MessageTooDeepError} for JSON nesting deeper than {@link MAX_MESSAGE_DEPTH}.
 */
export function parseMessageJson(text: string): unknown {
  // n characters cannot open more than n containers, nor can fewer than n openings nest n deep.
  if (text.length > MAX_MESSAGE_DEPTH && opensMoreThanBound(text)) {
    const at = tooDeepAt(text);
    if (at !== -1) throw new MessageTooDeepError(idBefore(text, at) ?? shallowId(text));
  }
  return JSON.parse(text) as unknown;
}

/** Whether the text holds more than MAX_MESSAGE_DEPTH `{` and `[` (in strings too): indexOf is native, a 1 MiB string is passed in microseconds. */
function opensMoreThanBound(text: string): boolean {
  let count = 0;
  for (let i = text.indexOf('{'); i !== -1; i = text.indexOf('{', i + 1)) if (++count > MAX_MESSAGE_DEPTH) return true;
  for (let i = text.indexOf('['); i !== -1; i = text.indexOf('[', i + 1)) if (++count > MAX_MESSAGE_DEPTH) return true;
  return false;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const OPEN_ARRAY = 0x5b;
const CLOSE_OBJECT = 0x7d;
const CLOSE_ARRAY = 0x5d;

/**
 * Where the first container opening past MAX_MESSAGE_DEPTH levels begins; -1 when none does (or
 * the text ends inside a string: JSON.parse then reports it). On a prefix JSON.parse accepts, this
 * depth is the parser's, so text that is not JSON cannot take JSON.parse deeper than the bound.
 */
function tooDeepAt(text: string): number {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = stringEnd(text, i);
      if (i === -1) return -1;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (++depth > MAX_MESSAGE_DEPTH) return i;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      depth--;
    }
  }
  return -1;
}

/** The index of the quote closing the string that opens at `start`, or -1 when it never closes. */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) return i;
    if (c === BACKSLASH) i++;
  }
  return -1;
}

/** Past the container opening at `open`: the index after its matching close (or the text's end). */
function containerEnd(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = stringEnd(text, i);
      if (i === -1) return text.length;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      depth++;
    } else if ((c === CLOSE_OBJECT || c === CLOSE_ARRAY) && --depth === 0) {
      return i + 1;
    }
  }
  return text.length;
}

/**
 * The id of a too-deep message when it comes before the too-deep part (clients write `id` before
 * `params`): the text up to that part, the part as `null`, the containers still open closed. This
 * reads only the text before `at`, so a deep body costs about what its first 1,100 levels do.
 */
function idBefore(text: string, at: number): JsonRpcId | undefined {
  const closers: string[] = [];
  for (let i = 0; i < at; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) i = stringEnd(text, i);
    else if (c === OPEN_OBJECT) closers.push('}');
    else if (c === OPEN_ARRAY) closers.push(']');
    else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) closers.pop();
  }
  return idOf(`${text.slice(0, at)}null${closers.reverse().join('')}`);
}

/** The id of a message's JSON text, or undefined when it is not JSON or names no valid id. */
function idOf(json: string): JsonRpcId | undefined {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return undefined;
  }
  return isJsonObject(value) && isJsonRpcId(value.id) ? value.id : undefined;
}

/**
 * The id of a too-deep message wherever it is, read from a copy whose containers past the bound
 * are `null` (so JSON.parse meets at most MAX_MESSAGE_DEPTH levels); undefined when that copy is
 * not a request with a valid id. One pass over the whole text: only when {@link idBefore} found none.
 */
function shallowId(text: string): JsonRpcId | undefined {
  const parts: string[] = [];
  let kept = 0;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = stringEnd(text, i);
      if (i === -1) return undefined;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (depth === MAX_MESSAGE_DEPTH) {
        parts.push(text.slice(kept, i), 'null');
        kept = containerEnd(text, i);
        i = kept - 1;
      } else {
        depth++;
      }
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      depth--;
    }
  }
  parts.push(text.slice(kept));
  return idOf(parts.join(''));
}
