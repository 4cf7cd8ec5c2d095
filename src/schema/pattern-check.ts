import { exceedsCodePoints } from './code-points.js';
import { compilePattern } from './safe-regex.js';

/**
 * The `pattern` test both engines run: true (no pattern error) for a string over the schema's own
 * `maxLength`, whose maxLength error already rejects it, so the pattern never runs on it.
 */
export function patternCheck(pattern: string, maxLength: number | undefined): (text: string) => boolean {
  const matcher = compilePattern(pattern);
  if (maxLength === undefined) return (text) => matcher.test(text);
  return (text) => exceedsCodePoints(text, maxLength) || matcher.test(text);
}
