/**
 * What `toolwright install` shows before it writes: a unified diff of the one region that changed.
 * The configuration editors change one contiguous span (an entry inserted or replaced), so the lines
 * the two texts share at the start and at the end are kept as they are and the rest is the hunk, with
 * three lines of context: exact for such an edit, with no general diff algorithm needed.
 */

const CONTEXT = 3;

/** A unified diff of `before` and `after` (one hunk), labelled with `path`; '' when they are equal. */
export function lineDiff(path: string, before: string, after: string): string {
  if (before === after) return '';
  const a = before === '' ? [] : before.replace(/\r?\n$/, '').split(/\r?\n/);
  const b = after.replace(/\r?\n$/, '').split(/\r?\n/);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const from = Math.max(0, head - CONTEXT);
  const aEnd = Math.min(a.length, a.length - tail + CONTEXT);
  const bEnd = Math.min(b.length, b.length - tail + CONTEXT);
  const lines = [`--- ${path}`, `+++ ${path}`, `@@ -${a.length === 0 ? 0 : from + 1},${aEnd - from} +${from + 1},${bEnd - from} @@`];
  for (let i = from; i < head; i++) lines.push(` ${a[i]!}`);
  for (let i = head; i < a.length - tail; i++) lines.push(`-${a[i]!}`);
  for (let i = head; i < b.length - tail; i++) lines.push(`+${b[i]!}`);
  for (let i = a.length - tail; i < aEnd; i++) lines.push(` ${a[i]!}`);
  return `${lines.join('\n')}\n`;
}
