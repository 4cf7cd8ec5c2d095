import { randomBytes } from 'node:crypto';
import { escapePointerToken } from '../schema/index.js';

/** Parsed JSON in which integers beyond ±(2^53−1) are kept, digit for digit, as strings. */
export interface ParsedArguments {
  value: unknown;
  /** JSON pointers of the integers that were kept as strings. */
  unsafeIntegers: string[];
}

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;

/**
 * JSON.parse, except that an integer literal too large for a JS number (which JSON.parse would
 * silently round, turning one ID into another) comes back as its exact digits in a string.
 * Throws SyntaxError for text that is not JSON.
 */
export function parseArgumentsText(text: string): ParsedArguments {
  // Big integer literals are rewritten into tagged strings before JSON.parse; the tag holds a
  // random nonce so a model-written string can never be mistaken for one.
  const nonce = randomBytes(6).toString('hex');
  const tag = `\u0000int:${nonce}:`;
  const escapedTag = `\\u0000int:${nonce}:`;
  let out = '';
  let last = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') { inString = true; continue; }
    if (ch === '-' || (ch !== undefined && ch >= '0' && ch <= '9')) {
      NUMBER.lastIndex = i;
      const match = NUMBER.exec(text);
      if (!match) continue;
      const token = match[0];
      if (!/[.eE]/.test(token) && !Number.isSafeInteger(Number(token))) {
        out += `${text.slice(last, i)}"${escapedTag}${token}"`;
        last = i + token.length;
      }
      i += token.length - 1;
    }
  }
  const value: unknown = JSON.parse(last === 0 ? text : out + text.slice(last));
  const unsafeIntegers: string[] = [];
  if (last === 0) return { value, unsafeIntegers };
  const untag = (node: unknown, pointer: string): unknown => {
    if (typeof node === 'string' && node.startsWith(tag)) {
      unsafeIntegers.push(pointer);
      return node.slice(tag.length);
    }
    if (Array.isArray(node)) return node.map((item, i) => untag(item, `${pointer}/${i}`));
    if (node !== null && typeof node === 'object') {
      const copy: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(node)) {
        // defineProperty, so a "__proto__" key stays a plain own property as JSON.parse made it.
        Object.defineProperty(copy, k, { value: untag(v, `${pointer}/${escapePointerToken(k)}`), enumerable: true, writable: true, configurable: true });
      }
      return copy;
    }
    return node;
  };
  return { value: untag(value, ''), unsafeIntegers };
}
