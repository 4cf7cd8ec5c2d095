import { canonicalJson } from '../json/canonical-json.js';

/**
 * `uniqueItems` in expected linear time, for both engines: every item is keyed by its canonical
 * JSON (keys sorted, so `{"a":1,"b":2}` equals `{"b":2,"a":1}`; 1 and 1.0 are one number) in a
 * Map, never compared pairwise (O(n²)) and never looked up in a plain object (where a
 * "__proto__" item would find Object.prototype and two of them would pass as unique).
 */
export function duplicateItems(items: readonly unknown[], firstOnly: boolean): Array<[first: number, duplicate: number]> {
  const seen = new Map<string, number>();
  const found: Array<[number, number]> = [];
  for (let i = 0; i < items.length; i++) {
    const key = canonicalJson(items[i]);
    const first = seen.get(key);
    if (first === undefined) { seen.set(key, i); continue; }
    found.push([first, i]);
    if (firstOnly) break;
  }
  return found;
}

/** Arrays up to this length whose items are all scalars are compared pairwise (no keys, no Map). */
const PAIRWISE_LIMIT = 16;

/**
 * For the fast engines: the first duplicate pair, or undefined when all items are distinct. A short
 * array of scalars (the usual `tags: string[]`) is compared pairwise with ===, which for scalars is
 * the canonical-JSON equality (1 and 1.0 are one number, -0 is 0) and finds the same first pair:
 * the smallest duplicate index, with the first item equal to it.
 */
export function firstDuplicate(items: readonly unknown[]): [first: number, duplicate: number] | undefined {
  if (items.length <= PAIRWISE_LIMIT && allScalars(items)) {
    for (let i = 1; i < items.length; i++) {
      for (let j = 0; j < i; j++) if (items[j] === items[i]) return [j, i];
    }
    return undefined;
  }
  return duplicateItems(items, true)[0];
}

/** Strings, finite numbers, booleans and null only (NaN is not === itself; objects need keys). */
function allScalars(items: readonly unknown[]): boolean {
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    if (item === null || typeof item === 'string' || typeof item === 'boolean') continue;
    if (typeof item === 'number' && item - item === 0) continue;
    return false;
  }
  return true;
}
