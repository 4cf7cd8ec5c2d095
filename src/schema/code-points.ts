/**
 * Counting a string's Unicode code points the way JSON Schema's length keywords count characters:
 * a surrogate pair is one, a lone surrogate is one. One counter for the engines' `pattern` bound
 * (pattern-check.ts) and the error messages' string lengths (describe-value.ts).
 */

/** The code points of `text`; with `stopAbove`, counting stops once the count passes it (then `stopAbove + 1`). */
export function countCodePoints(text: string, stopAbove = Number.POSITIVE_INFINITY): number {
  let count = 0;
  for (let i = 0; i < text.length && count <= stopAbove; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    count++;
  }
  return count;
}

/** Whether `text` has more than `max` code points; stops counting once it knows. */
export function exceedsCodePoints(text: string, max: number): boolean {
  if (text.length <= max) return false;
  if (text.length > 2 * max) return true;
  return countCodePoints(text, max) > max;
}
