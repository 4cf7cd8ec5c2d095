import { jsonString } from './json-text.js';

/**
 * Deterministic JSON text for hashing: the text `JSON.stringify` would give, with the keys of every
 * object sorted by UTF-16 code units. For JSON data (what a wire message parses into) this is the
 * RFC 8785 (JCS) canonical form, so equal values always hash alike whatever their key order.
 *
 * Like `JSON.stringify`: object members whose value is `undefined`, a function or a symbol are left
 * out; in arrays those become `null`; non-finite numbers become `null`; `toJSON()` is honoured
 * (a `Date` becomes its ISO string). Unlike it, a top-level `undefined` gives `"null"` (always a
 * string to hash). Throws a `TypeError` for a `bigint` or a circular structure.
 *
 * Used for approval digests (`requestState`), lint lockfiles (`--pin`) and plan hashes.
 *
 * @example
 * ```ts
 * import { canonicalJson } from 'toolwright';
 *
 * canonicalJson({ b: 1, a: [true, undefined] }); // '{"a":[true,null],"b":1}'
 * ```
 */
export function canonicalJson(value: unknown): string {
  // Wire data (what JSON.parse made, keys as the client sent them) is usually in canonical order
  // already: its canonical text is then exactly JSON.stringify's, which V8 writes in one native pass.
  if (isInCanonicalOrder(value, 0)) return JSON.stringify(value) ?? 'null';
  return write(value, '', []) ?? 'null';
}

// Deeper data (or a cycle, which never ends) takes the general writer, which detects cycles.
const FAST_PATH_MAX_DEPTH = 64;

/**
 * True when JSON.stringify(value) is the canonical text: plain objects and arrays only (no
 * toJSON, no boxed primitives, no class instances), every object's own keys already sorted, no
 * bigint. Walks without allocating; anything unusual answers false and goes the general way.
 */
function isInCanonicalOrder(value: unknown, depth: number): boolean {
  if (typeof value !== 'object' || value === null) return typeof value !== 'bigint';
  if (depth > FAST_PATH_MAX_DEPTH || typeof (value as { toJSON?: unknown }).toJSON === 'function') return false;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) if (!isInCanonicalOrder(value[index], depth + 1)) return false;
    return true;
  }
  const prototype = Object.getPrototypeOf(value) as unknown;
  if (prototype !== Object.prototype && prototype !== null) return false;
  let previous: string | undefined;
  for (const key in value) {
    // An enumerable key inherited from a polluted Object.prototype is no member: the general writer decides.
    if (!Object.hasOwn(value, key) || (previous !== undefined && previous > key)) return false;
    previous = key;
    if (!isInCanonicalOrder((value as Record<string, unknown>)[key], depth + 1)) return false;
  }
  return true;
}

// Returns undefined for values JSON leaves out (undefined, functions, symbols), so callers can drop or null them.
// Written with string concatenation and an index-tracked ancestor stack: this runs on every
// audited call (args_sha256) and every approval digest, so it avoids per-object arrays and joins.
function write(value: unknown, key: string, ancestors: object[]): string | undefined {
  if (typeof value === 'object' && value !== null && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    value = (value as { toJSON: (key: string) => unknown }).toJSON(key);
  }
  switch (typeof value) {
    case 'string':
      return jsonString(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      // String() and JSON.stringify() print a finite number alike (both are Number::toString).
      return Number.isFinite(value) ? String(value) : 'null';
    case 'bigint':
      throw new TypeError(`canonicalJson: a bigint (${String(value)}n) has no JSON form`);
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined;
  }
  if (value === null) return 'null';
  const object = value as object;
  if (ancestors.includes(object)) throw new TypeError('canonicalJson: circular structure');
  ancestors.push(object);
  let text: string;
  if (Array.isArray(object)) {
    text = '[';
    for (let index = 0; index < object.length; index++) {
      if (index > 0) text += ',';
      text += write(object[index], String(index), ancestors) ?? 'null';
    }
    text += ']';
  } else if (object instanceof Number || object instanceof String || object instanceof Boolean) {
    // Boxed primitives serialise as their primitive, as JSON.stringify does.
    text = write(object.valueOf(), key, ancestors) ?? 'null';
  } else {
    const names = Object.keys(object);
    // Objects parsed from wire JSON usually have their keys in order already; sort only when not.
    for (let i = 1; i < names.length; i++) {
      if (names[i - 1]! > names[i]!) {
        names.sort();
        break;
      }
    }
    text = '{';
    for (const name of names) {
      const member = write((object as Record<string, unknown>)[name], name, ancestors);
      if (member === undefined) continue;
      if (text.length > 1) text += ',';
      text += jsonString(name) + ':' + member;
    }
    text += '}';
  }
  ancestors.pop();
  return text;
}
