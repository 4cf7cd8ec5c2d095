// A node:test reporter that prints nothing while tests run and, at the end, names every failed
// test with its file and error. The main reporter's output is thousands of lines; a CI log is often
// read from its tail, where a failure in the middle would otherwise be invisible.
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

const MAX_ERROR_LINES = 12;

function describeError(error) {
  if (!error) return '(no error reported)';
  const cause = error.cause ?? error;
  const text = cause instanceof Error ? (cause.stack ?? `${cause.name}: ${cause.message}`) : String(cause);
  // Node's own frames say nothing about which test broke.
  const lines = text.split('\n').filter((l) => !/\(node:|at node:|\(<anonymous>\)/.test(l));
  return lines.length > MAX_ERROR_LINES ? [...lines.slice(0, MAX_ERROR_LINES), '    …'].join('\n') : lines.join('\n');
}

export default async function* failureSummary(source) {
  const failures = [];
  const openByFile = new Map(); // file -> names of the tests started at each nesting level
  for await (const event of source) {
    if (event.type === 'test:start') {
      const open = openByFile.get(event.data.file) ?? [];
      open.length = event.data.nesting;
      open.push(event.data.name);
      openByFile.set(event.data.file, open);
      continue;
    }
    if (event.type !== 'test:fail') continue;
    const { name, file, nesting, details, todo } = event.data;
    const parents = (openByFile.get(file) ?? []).slice(0, nesting);
    // A failing todo does not fail the run; a suite fails because a subtest failed, and tests
    // cancelled by a failed hook go with it: those are listed already.
    if (todo !== undefined && todo !== false) continue;
    if (['subtestsFailed', 'cancelledByParent'].includes(details?.error?.failureType)) continue;
    const where = file ? relative(repoRoot, file.startsWith('file:') ? fileURLToPath(file) : file) : '(unknown file)';
    // A file that failed as a whole (it threw while loading, or exited) has no better message here.
    const whole = nesting === 0 && String(details?.error?.cause ?? details?.error?.message) === 'test failed' ? '\n    (the file failed as a whole: its own output, above, says why)' : '';
    failures.push(`✖ ${[...parents, name].join(' › ')}\n  in ${where}\n${describeError(details?.error).replace(/^/gm, '    ')}${whole}`);
  }
  if (failures.length === 0) return;
  yield `\n# ${failures.length} failed test${failures.length === 1 ? '' : 's'}:\n${failures.join('\n\n')}\n`;
}
