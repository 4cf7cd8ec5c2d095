/**
 * Short renderings of instance and schema values for error messages. Every rendering reads only a
 * bounded prefix of the value (never JSON.stringify of the whole of it): an error about one key of
 * a 10,000-key object costs the same as one about a 1-key object, so describing N errors is O(N),
 * not O(N × value size). A cut rendering ends in "..." and says how big the whole value is.
 */
import { countCodePoints } from './code-points.js';

const MAX_ECHO = 60;

/** Appends JSON text until it is longer than `limit`; the text is a prefix of JSON.stringify's. */
class PrefixWriter {
  text = '';
  constructor(private readonly limit: number) {}
  get full(): boolean { return this.text.length > this.limit; }
  write(value: unknown): void {
    if (this.full) return;
    switch (typeof value) {
      case 'string': this.text += JSON.stringify(value.length > this.limit ? value.slice(0, this.limit) : value); return;
      case 'number': this.text += Number.isFinite(value) ? String(value) : 'null'; return;
      case 'boolean': this.text += String(value); return;
      case 'object': break;
      default: this.text += 'null'; return;
    }
    if (value === null) { this.text += 'null'; return; }
    if (Array.isArray(value)) {
      this.text += '[';
      for (let i = 0; i < value.length && !this.full; i++) {
        if (i > 0) this.text += ',';
        this.write(value[i]);
      }
      if (!this.full) this.text += ']';
      return;
    }
    this.text += '{';
    let first = true;
    for (const key in value) {
      if (this.full) return;
      if (!Object.prototype.hasOwnProperty.call(value, key)) continue;
      const member = (value as Record<string, unknown>)[key];
      if (member === undefined || typeof member === 'function' || typeof member === 'symbol') continue;
      this.text += `${first ? '' : ','}${JSON.stringify(key.length > this.limit ? key.slice(0, this.limit) : key)}:`;
      first = false;
      this.write(member);
    }
    if (!this.full) this.text += '}';
  }
}

/** JSON text of `value`, cut to `max` characters (ending in "...") when longer; reads O(max) of the value. */
function jsonPrefix(value: unknown, max: number): { text: string; cut: boolean } {
  const writer = new PrefixWriter(max);
  writer.write(value);
  return writer.text.length > max ? { text: `${writer.text.slice(0, max - 3)}...`, cut: true } : { text: writer.text, cut: false };
}

function ownKeyCount(value: object): number {
  let count = 0;
  for (const key in value) if (Object.prototype.hasOwnProperty.call(value, key)) count++;
  return count;
}

/** " (N characters)", " (N properties)", " (N items)" for a cut rendering. */
function sizeOf(value: unknown): string {
  if (typeof value === 'string') { const n = countCodePoints(value); return ` (${n} character${n === 1 ? '' : 's'})`; }
  if (Array.isArray(value)) return ` (${value.length} item${value.length === 1 ? '' : 's'})`;
  if (typeof value === 'object' && value !== null) { const n = ownKeyCount(value); return ` (${n} propert${n === 1 ? 'y' : 'ies'})`; }
  return '';
}

/** JSON type name of a value as a schema would name it ("integer" is reported as "number"). */
export function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/**
 * Short rendering of a value with its type, e.g. `string "0.42"`, `number 5`, `array (3 items)`,
 * `object {"a":1}`; a long string or object is cut: `string "xxx..." (200 characters)`.
 */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `array (${value.length} item${value.length === 1 ? '' : 's'})`;
  switch (typeof value) {
    case 'string': case 'object': {
      const { text, cut } = jsonPrefix(value, MAX_ECHO);
      return `${typeof value} ${text}${cut ? sizeOf(value) : ''}`;
    }
    case 'number': return `number ${String(value)}`;
    case 'boolean': return `boolean ${String(value)}`;
    default: return typeof value;
  }
}

/**
 * describeValue with a memo for objects and arrays, for describing many errors of one validation:
 * a cut rendering counts the value's size once however many errors name the same value.
 * Only for values that do not change while it is in use.
 */
export function createDescriber(): (value: unknown) => string {
  let memo: WeakMap<object, string> | undefined; // made at the first object: most errors name scalars
  return (value) => {
    if (typeof value !== 'object' || value === null) return describeValue(value);
    memo ??= new WeakMap();
    let text = memo.get(value);
    if (text === undefined) memo.set(value, (text = describeValue(value)));
    return text;
  };
}

/**
 * Request text (a method, a tool name, a version) for an error message: unchanged up to 60
 * characters, else its first characters, "..." and its length, so a 1 MB method name is not echoed
 * back. Use {@link renderJson} where the message quotes the value.
 */
export function echoText(text: string): string {
  if (text.length <= MAX_ECHO) return text;
  return `${text.slice(0, MAX_ECHO - 3)}...${sizeOf(text)}`;
}

/** A schema value (enum member, const) rendered as short JSON, cut with its size when long. */
export function renderJson(value: unknown): string {
  if (value === undefined) return 'undefined';
  const { text, cut } = jsonPrefix(value, MAX_ECHO);
  return cut ? `${text}${sizeOf(value)}` : text;
}

/** Human path of an instance location: "/" for the root, else the JSON pointer. */
export function displayPath(instancePath: string): string {
  return instancePath === '' ? '/' : instancePath;
}

/** "1 character", "3 characters". */
export function plural(count: unknown, noun: string): string {
  return `${String(count)} ${noun}${count === 1 ? '' : 's'}`;
}
