/**
 * An upper bound on the UTF-8 size of `JSON.stringify(value)`, found by walking the value without
 * building the text. A budget check on every call uses it to pass the (usual) small result without
 * serialising it: the pipeline serialises the result once anyway, when it answers.
 */

/** Most bytes one UTF-16 unit of a string can take in JSON: `\u001f` is 6, a BMP character 3 bytes. */
const PER_UNIT = 6;
/**
 * Longest JSON text of a finite number: 25, e.g. `-0.0000016183802177948392` (sign, `0.`, five
 * zeros, 17 significant digits; numbers from 1e-6 up print without an exponent), one more than
 * `-1.7976931348623157e+308`.
 */
const NUMBER_BYTES = 25;
/** Deeper values are not walked: the caller measures them exactly. */
const MAX_DEPTH = 64;

/**
 * An upper bound on `Buffer.byteLength(JSON.stringify(value))`, or `Infinity` as soon as the bound
 * passes `limit` or the value is one the walk does not follow (a `toJSON` method, deep nesting).
 */
export function jsonBytesBound(value: unknown, limit: number): number {
  return bound(value, limit, 0);
}

function bound(value: unknown, limit: number, depth: number): number {
  switch (typeof value) {
    case 'string':
      return 2 + PER_UNIT * value.length;
    case 'number':
      return NUMBER_BYTES;
    case 'boolean':
      return 5;
    case 'undefined':
      // Left out of objects, `null` in arrays: 4 covers both.
      return 4;
    case 'object':
      break;
    default:
      return Number.POSITIVE_INFINITY;
  }
  if (value === null) return 4;
  if (depth >= MAX_DEPTH || typeof (value as { toJSON?: unknown }).toJSON === 'function') return Number.POSITIVE_INFINITY;
  let total = 2;
  if (Array.isArray(value)) {
    for (const item of value) {
      total += 1 + bound(item, limit, depth + 1);
      if (total > limit) return Number.POSITIVE_INFINITY;
    }
    return total;
  }
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    total += 4 + PER_UNIT * key.length + bound((value as Record<string, unknown>)[key], limit, depth + 1);
    if (total > limit) return Number.POSITIVE_INFINITY;
  }
  return total;
}
