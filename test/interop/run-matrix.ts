/**
 * Runs the interop tables one after another. A table's HTTP servers start first, one process per
 * row shared by all its clients, and are stopped by PID when the table is done; a stdio row gives
 * each client its own command to spawn. Columns run two at a time (a 2-core CI machine), each
 * over its rows in order.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from './child-process.js';
import type { Command, RunningServer } from './child-process.js';
import { ourClients, theirClients } from './clients.js';
import type { CellInput, CellResult, ClientColumn } from './clients.js';
import type { DriverTarget } from './drivers/driver-io.js';
import { ourServers, theirServers } from './matrix.js';
import type { ServerRow } from './matrix.js';

/** How long an HTTP server may take to print its URL. */
const SERVER_START_TIMEOUT_MS = 30_000;
/** Cells of one row run at once. */
const CONCURRENCY = 2;

/** One table as run. */
export interface TableRun {
  id: 'clients' | 'servers';
  title: string;
  rows: ServerRow[];
  columns: ClientColumn[];
  /** Keyed by {@link cellKey}. */
  cells: Map<string, CellResult>;
}

export interface MatrixRun {
  tables: TableRun[];
  startedAt: Date;
  durationMs: number;
  /** The scratch directory the run used (removed by now); error texts are cleaned of it. */
  scratch: string;
}

export function cellKey(row: ServerRow, column: ClientColumn): string {
  return `${row.id} × ${column.id}`;
}

function targetOf(command: Command): DriverTarget {
  return { command: command.command, args: [...command.args], ...(command.env === undefined ? {} : { env: command.env }), ...(command.cwd === undefined ? {} : { cwd: command.cwd }) };
}

async function inPool<T>(items: readonly T[], width: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.min(width, items.length) }, async () => {
    while (next < items.length) await work(items[next++] as T);
  });
  await Promise.all(lanes);
}

/** Starts a table's HTTP servers (one process per row, shared by every client of the row). */
async function startRows(rows: readonly ServerRow[]): Promise<Map<string, RunningServer | Error>> {
  const started = new Map<string, RunningServer | Error>();
  await Promise.all(rows.map(async (row) => {
    if (row.http === undefined) return;
    const { command, ready, toUrl } = row.http;
    try {
      started.set(row.id, await startServer(command, ready, toUrl, SERVER_START_TIMEOUT_MS));
    } catch (error) {
      started.set(row.id, error instanceof Error ? error : new Error(String(error)));
    }
  }));
  return started;
}

async function runColumn(column: ClientColumn, rows: readonly ServerRow[], servers: Map<string, RunningServer | Error>, scratch: string, cells: Map<string, CellResult>): Promise<void> {
  const inputs: CellInput[] = [];
  for (const row of rows) {
    const server = servers.get(row.id);
    if (server instanceof Error) {
      cells.set(cellKey(row, column), { status: 'fails', detail: `server did not start: ${server.message}` });
    } else if (server !== undefined) {
      // Headers are read once the server has started (the robot writes its token file at start).
      const headers = row.http?.headers?.();
      inputs.push({ row, target: { url: server.url, ...(headers === undefined ? {} : { headers }) } });
    } else if (row.stdio !== undefined) {
      inputs.push({ row, target: targetOf(row.stdio(column.id)) });
    } else {
      throw new Error(`row ${row.id} has neither http nor stdio`);
    }
  }
  if (inputs.length === 0) return;
  let results: CellResult[];
  try {
    results = await column.run(inputs, scratch);
  } catch (error) {
    const detail = `runner error: ${error instanceof Error ? error.message : String(error)}`;
    results = inputs.map(() => ({ status: 'fails', detail }));
  }
  inputs.forEach(({ row }, index) => cells.set(cellKey(row, column), results[index] ?? { status: 'fails', detail: 'no result' }));
}

async function runTable(table: Omit<TableRun, 'cells'>, scratch: string, only?: (key: string) => boolean): Promise<TableRun> {
  const cells = new Map<string, CellResult>();
  const wanted = (row: ServerRow) => table.columns.some((column) => only === undefined || only(cellKey(row, column)));
  const servers = await startRows(table.rows.filter(wanted));
  try {
    await inPool(table.columns, CONCURRENCY, (column) => runColumn(column, table.rows.filter((row) => only === undefined || only(cellKey(row, column))), servers, scratch, cells));
  } finally {
    await Promise.all([...servers.values()].map((server) => (server instanceof Error ? undefined : server.stop())));
  }
  return { ...table, cells };
}

/** Options for {@link runMatrix}. */
export interface RunMatrixOptions {
  /** Run only the cells whose key passes (for a quick look at one row); the rest are left out. */
  only?: (key: string) => boolean;
}

/** Runs both tables in a fresh scratch directory, removed afterwards. */
export async function runMatrix(options: RunMatrixOptions = {}): Promise<MatrixRun> {
  const startedAt = new Date();
  const scratch = mkdtempSync(join(tmpdir(), 'toolwright-interop-'));
  try {
    mkdirSync(join(scratch, 'files'));
    mkdirSync(join(scratch, 'roots'));
    const matrixOptions = { scratch };
    const tables = [
      await runTable({ id: 'clients', title: 'Third-party clients → Toolwright servers', rows: ourServers(matrixOptions), columns: theirClients() }, scratch, options.only),
      await runTable({ id: 'servers', title: 'Toolwright client and CLI → third-party servers', rows: theirServers(matrixOptions), columns: ourClients() }, scratch, options.only),
    ];
    return { tables, startedAt, durationMs: Date.now() - startedAt.getTime(), scratch };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
    // The robot's audit key and heads (matrix.ts keeps them beside the scratch folder, not in it).
    rmSync(`${scratch}-audit-keys`, { recursive: true, force: true });
  }
}
