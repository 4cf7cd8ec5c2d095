import { compilePattern } from './safe-regex.js';

/** Whether `text` has more than `max` code points; stops counting once it knows. */
export function exceedsCodePoints(text: string, max: number): boolean {
  if (text.length <= max) return false;
  if (text.length > 2 * max) return true;
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    if (++count > max) return true;
  }
  return false;
}

/**
 * The `pattern` test both engines run: true (no pattern error) for a string over the schema's own
 * `maxLength`, whose maxLength error already rejects it, so the pattern never runs on it.
 */
export function patternCheck(pattern: string, maxLength: number | undefined): (text: string) => boolean {
  const matcher = compilePattern(pattern);
  if (maxLength === undefined) return (text) => matcher.test(text);
  return (text) => exceedsCodePoints(text, maxLength) || matcher.test(text);
}
