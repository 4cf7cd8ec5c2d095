/**
 * `npm run interop`: runs the interop matrix (test/interop) and rewrites docs/interop.md when a
 * result changed. Prints one line per cell and `N passed, M failed`; exits 1 if any cell fails.
 * `--only <text>` runs just the cells whose key ("<row> × <column>") contains the text, prints
 * them, and leaves the doc alone (a partial run must not replace the full table).
 */
import { writeInteropDoc, stable } from '../test/interop/interop-table.js';
import { cellKey, runMatrix } from '../test/interop/run-matrix.js';

const args = process.argv.slice(2);
const onlyIndex = args.indexOf('--only');
const only = onlyIndex >= 0 ? args[onlyIndex + 1] : undefined;
if (onlyIndex >= 0 && only === undefined) {
  process.stderr.write('interop: --only needs a text to match cell keys, e.g. --only robot-http\n');
  process.exit(2);
}

const run = await runMatrix(only === undefined ? {} : { only: (key) => key.includes(only) });
let passed = 0;
let failed = 0;
for (const table of run.tables) {
  for (const row of table.rows) {
    for (const column of table.columns) {
      const result = table.cells.get(cellKey(row, column));
      if (result === undefined) continue;
      if (result.status === 'works') passed++;
      else failed++;
      process.stdout.write(`${result.status === 'works' ? 'works' : 'FAILS'}  ${cellKey(row, column)}: ${stable(result.detail, run.scratch)}\n`);
    }
  }
}
if (only === undefined) process.stdout.write(writeInteropDoc(run) ? 'docs/interop.md rewritten\n' : 'docs/interop.md unchanged\n');
process.stdout.write(`interop: ${passed} passed, ${failed} failed in ${(run.durationMs / 1000).toFixed(1)} s\n`);
process.exit(failed === 0 ? 0 : 1);
