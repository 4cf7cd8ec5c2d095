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
    const deep = firstTooDeep(text);
    if (deep !== undefined) throw new MessageTooDeepError(idBefore(text, deep) ?? shallowId(text));
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
 * The one scanning step every reader below takes: the index of the next `{`, `[`, `}` or `]` at or
 * after `from` that is not inside a string, or -1 when there is none (or a string never closes:
 * JSON.parse then reports it).
 */
function nextBracket(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = stringEnd(text, i);
      if (i === -1) return -1;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY || c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      return i;
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

const opens = (c: number): boolean => c === OPEN_OBJECT || c === OPEN_ARRAY;

/** The first container opening past the bound, and the closers of the containers open around it (innermost last). */
interface TooDeep {
  readonly at: number;
  readonly closers: string[];
}

/**
 * The first container opening past MAX_MESSAGE_DEPTH levels, or undefined when none does. On a
 * prefix JSON.parse accepts, this depth is the parser's, so text that is not JSON cannot take
 * JSON.parse deeper than the bound.
 */
function firstTooDeep(text: string): TooDeep | undefined {
  const closers: string[] = [];
  for (let i = nextBracket(text, 0); i !== -1; i = nextBracket(text, i + 1)) {
    const c = text.charCodeAt(i);
    // A close with nothing open is where JSON.parse stops with its SyntaxError.
    if (!opens(c)) {
      if (closers.pop() === undefined) return undefined;
    } else if (closers.length === MAX_MESSAGE_DEPTH) return { at: i, closers };
    else closers.push(c === OPEN_OBJECT ? '}' : ']');
  }
  return undefined;
}

/** Past the container opening at `open`: the index after its matching close (or the text's end). */
function containerEnd(text: string, open: number): number {
  let depth = 0;
  for (let i = nextBracket(text, open); i !== -1; i = nextBracket(text, i + 1)) {
    if (opens(text.charCodeAt(i))) depth++;
    else if (--depth === 0) return i + 1;
  }
  return text.length;
}

/**
 * The id of a too-deep message when it comes before the too-deep part (clients write `id` before
 * `params`): the text up to that part, the part as `null`, the containers still open closed. This
 * reads only the text before the part, so a deep body costs about what its first 1,100 levels do.
 */
function idBefore(text: string, deep: TooDeep): JsonRpcId | undefined {
  return idOf(`${text.slice(0, deep.at)}null${[...deep.closers].reverse().join('')}`);
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
  for (let i = nextBracket(text, 0); i !== -1; i = nextBracket(text, i + 1)) {
    if (!opens(text.charCodeAt(i))) depth--;
    else if (depth < MAX_MESSAGE_DEPTH) depth++;
    else {
      parts.push(text.slice(kept, i), 'null');
      kept = containerEnd(text, i);
      i = kept - 1;
    }
  }
  parts.push(text.slice(kept));
  return idOf(parts.join(''));
}
