/**
 * The interop suite: every cell of docs/interop.md, run for real (third-party clients against
 * Toolwright's servers, Toolwright's client and CLI against third-party servers), then the doc is
 * rewritten from the results if any changed. Each cell is its own test and must "work"; a cell
 * that fails fails its test with the client's exact error. The whole run is bounded: each client
 * run has CELL_TIMEOUT_MS, each server start 30 s, and every process is killed by its PID.
 * Part of `npm test`; `npm run test:interop` runs it alone.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { ourClients, theirClients } from './clients.js';
import { stable, writeInteropDoc } from './interop-table.js';
import { ourServers, theirServers } from './matrix.js';
import { cellKey, runMatrix } from './run-matrix.js';
import type { MatrixRun } from './run-matrix.js';

// Rows and columns are known before anything runs, so every cell is a named test even if the run
// itself throws (then each cell fails with that error).
const layout = [
  { title: 'third-party clients → Toolwright servers', rows: ourServers({ scratch: '<scratch>' }), columns: theirClients(), table: 'clients' },
  { title: 'Toolwright client and CLI → third-party servers', rows: theirServers({ scratch: '<scratch>' }), columns: ourClients(), table: 'servers' },
] as const;

let run: MatrixRun | undefined;
let runError: unknown;

describe('interop matrix', () => {
  // The run takes about a minute on an idle 2-core machine and several on a loaded one; every part
  // of it is bounded (cells, server starts), so this only overrides the runner's 120 s default.
  before(async () => {
    try {
      run = await runMatrix();
      writeInteropDoc(run);
    } catch (error) {
      runError = error;
    }
  }, { timeout: 900_000 });

  for (const part of layout) {
    describe(part.title, () => {
      for (const row of part.rows) {
        for (const column of part.columns) {
          it(`${row.label} × ${column.label}`, () => {
            if (run === undefined) throw new Error(`the interop run did not complete: ${runError instanceof Error ? runError.stack : String(runError)}`);
            const table = run.tables.find((t) => t.id === part.table);
            const result = table?.cells.get(cellKey(row, column));
            assert.ok(result !== undefined, `cell ${cellKey(row, column)} was not run`);
            if (result.status !== 'works') assert.fail(`${cellKey(row, column)} fails: ${stable(result.detail, run.scratch)}`);
          });
        }
      }
    });
  }
});
