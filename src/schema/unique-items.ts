import { canonicalJson } from '../protocol/canonical-json.js';

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

/** For the fast engine: the first duplicate pair, or undefined when all items are distinct. */
export function firstDuplicate(items: readonly unknown[]): [first: number, duplicate: number] | undefined {
  return duplicateItems(items, true)[0];
}
