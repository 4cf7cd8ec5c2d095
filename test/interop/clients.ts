/**
 * The client columns of the interop tables. A column is given all its cells (a row and how to
 * reach its server) and, for each, lists the tools and calls the row's probe tool, judged to a
 * {@link CellResult}: "works", or "fails" with the client's exact error. A library column runs
 * as one driver process for all its cells (start-up is most of the cost on a small machine);
 * the command-line clients (Inspector, `toolwright`) run once per cell, as a user runs them.
 */
import { join } from 'node:path';
import { runToEnd } from './child-process.js';
import type { Command, RunOutput } from './child-process.js';
import { ERROR_PREFIX, RESULT_PREFIX, textOf } from './drivers/driver-io.js';
import type { DriverReport, DriverSpec, DriverTarget } from './drivers/driver-io.js';
import { installedVersion, judge, ROOT } from './matrix.js';
import type { Probe, ServerRow } from './matrix.js';
import { thirdPartyFile } from '../support/test-deps.js';

/** One cell of a table. */
export interface CellResult {
  status: 'works' | 'fails';
  /** For "fails": the exact error. For "works": what was seen (tool count, answer). */
  detail: string;
}

/** Bound for one client run, start to exit (a stdio server's start-up included). */
export const CELL_TIMEOUT_MS = 30_000;

/** One cell as given to a column. */
export interface CellInput {
  row: ServerRow;
  target: DriverTarget;
}

/** A client column. `run` resolves to one result per input, in order. */
export interface ClientColumn {
  id: string;
  label: string;
  software: string;
  run(cells: readonly CellInput[], scratch: string): Promise<CellResult[]>;
}

/** A column whose client runs once per cell. */
function perCell(id: string, label: string, software: string, one: (row: ServerRow, target: DriverTarget, scratch: string) => Promise<CellResult>): ClientColumn {
  return {
    id, label, software,
    async run(cells, scratch) {
      const results: CellResult[] = [];
      for (const { row, target } of cells) results.push(await one(row, target, scratch));
      return results;
    },
  };
}

function fails(detail: string): CellResult {
  return { status: 'fails', detail };
}

function tail(text: string, max = 600): string {
  const trimmed = text.trim().replace(/\s*\n\s*/g, ' | ');
  return trimmed.length > max ? `...${trimmed.slice(-max)}` : trimmed;
}

function exitSummary(out: RunOutput): string {
  if (out.timedOut) return `no answer within ${CELL_TIMEOUT_MS} ms (killed)`;
  return `exit ${out.code ?? out.signal}`;
}

function judged(probe: Probe, report: DriverReport): CellResult {
  const problem = judge(probe, report);
  if (problem !== undefined) return fails(problem);
  return { status: 'works', detail: `${report.tools.length} tools; ${probe.tool} answered ${JSON.stringify(report.text.slice(0, 80))}` };
}

/** Reads a driver's line for cell `index`. */
function driverResult(row: ServerRow, index: number, out: RunOutput): CellResult {
  const ok = `${RESULT_PREFIX}${index} `;
  const error = `${ERROR_PREFIX}${index} `;
  const line = out.stdout.split('\n').find((l) => l.startsWith(ok) || l.startsWith(error));
  if (line === undefined) return fails(`driver ${exitSummary(out)} before this cell's result; stderr: ${tail(out.stderr) || '(empty)'}`);
  if (line.startsWith(error)) return fails(line.slice(error.length));
  return judged(row.probe, JSON.parse(line.slice(ok.length)) as DriverReport);
}

function driverColumn(id: string, label: string, software: string, file: string): ClientColumn {
  return {
    id, label, software,
    async run(cells) {
      const specs: DriverSpec[] = cells.map(({ row, target }) => ({
        target, tool: row.probe.tool, arguments: row.probe.arguments, timeoutMs: CELL_TIMEOUT_MS,
        ...(row.roots === undefined ? {} : { roots: { dirs: row.roots.dirs, appliedLog: row.roots.appliedLog } }),
      }));
      // The driver bounds each cell itself; this outer bound only catches a driver that hangs outright.
      const out = await runToEnd({ command: process.execPath, args: ['--import', 'tsx', join(ROOT, 'test/interop/drivers', file), JSON.stringify(specs)], cwd: ROOT }, CELL_TIMEOUT_MS * (cells.length + 1));
      return cells.map(({ row }, index) => driverResult(row, index, out));
    },
  };
}

/** `--header 'Name: value'` per header of an HTTP target (the Inspector CLI and `toolwright` take the same form). */
function headerArgs(target: Extract<DriverTarget, { url: string }>): string[] {
  return Object.entries(target.headers ?? {}).flatMap(([name, value]) => ['--header', `${name}: ${value}`]);
}

/** Where the Inspector is pointed: a URL, or `-e` for the server's environment and a command after `--`. */
function inspectorTarget(target: DriverTarget): string[] {
  if ('url' in target) return [target.url, ...headerArgs(target)];
  return [...Object.entries(target.env ?? {}).flatMap(([key, value]) => ['-e', `${key}=${value}`]), '--', target.command, ...target.args];
}

/**
 * The Inspector CLI prints `{"result": ...}` on stdout or `{"error": ...}` on stderr with
 * `--format json`; a stdio server's own stderr lines may come before the error line.
 */
function inspectorPayload(out: RunOutput): { result?: unknown; error?: unknown } | string {
  for (const text of [out.stdout, out.stderr]) {
    const line = text.split('\n').find((l) => l.startsWith('{"result"') || l.startsWith('{"error"'));
    if (line === undefined) continue;
    try {
      return JSON.parse(line) as { result?: unknown; error?: unknown };
    } catch {
      return `${exitSummary(out)} with unparsable output: ${tail(line)}`;
    }
  }
  return `${exitSummary(out)} without a JSON result; stdout: ${tail(out.stdout) || '(empty)'}; stderr: ${tail(out.stderr) || '(empty)'}`;
}

function inspectorColumn(): ClientColumn {
  const launcher = thirdPartyFile('@modelcontextprotocol/inspector', 'clients/launcher/build/index.js');
  const pkg = '@modelcontextprotocol/inspector';
  return perCell('inspector', 'MCP Inspector CLI', `${pkg} ${installedVersion(pkg)} (\`--cli\`)`, async (row, target, scratch) => {
    // A catalog of its own, so the suite never writes the user's ~/.mcp-inspector.
    const env = { MCP_CATALOG_PATH: join(scratch, 'inspector-catalog.json') };
    const run = async (method: string[]) => {
      const cmd: Command = { command: process.execPath, args: [launcher, '--cli', '--format', 'json', ...method, ...inspectorTarget(target)], env, cwd: ROOT };
      return inspectorPayload(await runToEnd(cmd, CELL_TIMEOUT_MS));
    };
    const list = await run(['--method', 'tools/list']);
    if (typeof list === 'string') return fails(`tools/list: ${list}`);
    if (list.error !== undefined) return fails(`tools/list: ${JSON.stringify(list.error)}`);
    const call = await run(['--method', 'tools/call', '--tool-name', row.probe.tool, '--tool-args-json', JSON.stringify(row.probe.arguments)]);
    if (typeof call === 'string') return fails(`tools/call: ${call}`);
    if (call.error !== undefined) return fails(`tools/call: ${JSON.stringify(call.error)}`);
    const tools = ((list.result as { tools?: { name: string }[] }).tools ?? []).map((t) => t.name);
    const result = call.result as { isError?: boolean; structuredContent?: unknown };
    return judged(row.probe, { tools, isError: result.isError === true, text: textOf(result), structured: result.structuredContent });
  });
}

/** A shell command line for `--stdio "<command>"`, each word single-quoted. */
function shellLine(target: Extract<DriverTarget, { command: string }>): string {
  const quote = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;
  const env = Object.entries(target.env ?? {}).map(([k, v]) => `${k}=${quote(v)}`);
  return [...env, quote(target.command), ...target.args.map(quote)].join(' ');
}

function cliTarget(target: DriverTarget): string[] {
  return 'url' in target ? [target.url, ...headerArgs(target)] : ['--stdio', shellLine(target)];
}

async function toolwright(args: string[]): Promise<RunOutput> {
  return runToEnd({ command: process.execPath, args: ['--import', 'tsx', join(ROOT, 'src/cli/main.ts'), ...args], cwd: ROOT }, CELL_TIMEOUT_MS);
}

function parseJson(out: RunOutput): unknown {
  try {
    return JSON.parse(out.stdout);
  } catch {
    return undefined;
  }
}

const callColumn = perCell('cli-call', '`toolwright call --root`', 'src/cli', async (row, target) => {
  const probe = row.roots?.probeWithoutWaiting ?? row.probe;
  const [first, ...rest] = cliTarget(target);
  const args = first === '--stdio' ? ['call', '--stdio', rest[0] as string] : ['call', first as string, ...rest];
  const roots = (row.roots?.dirs ?? []).flatMap((dir) => ['--root', dir]);
  const out = await toolwright([...args, probe.tool, JSON.stringify(probe.arguments), ...roots, '--json']);
  const report = parseJson(out) as { result?: { isError?: boolean; structuredContent?: unknown }; stages?: { stage: string; status: string; detail: string }[] } | undefined;
  if (report?.result === undefined) {
    const failed = report?.stages?.find((s) => s.status === 'failed');
    return fails(`${exitSummary(out)}: ${failed !== undefined ? `${failed.stage}: ${failed.detail}` : tail(out.stderr || out.stdout) || '(no output)'}`);
  }
  // `call` lists only to repair arguments; the listing itself is checked by lint and preview.
  const text = textOf(report.result);
  const problem = probe.judge({ tools: [probe.tool], isError: report.result.isError === true, text, structured: report.result.structuredContent });
  return problem === undefined ? { status: 'works', detail: `${probe.tool} answered ${JSON.stringify(text.slice(0, 80))}` } : fails(problem);
});

const lintColumn = perCell('cli-lint', '`toolwright lint`', 'src/cli', async (row, target) => {
  const out = await toolwright(['lint', ...cliTarget(target), '--format', 'json']);
  const report = parseJson(out) as { summary?: { tools: number; errors: number; warnings: number } } | undefined;
  // Exit 1 means findings: the catalog was read and judged, which is what interop asks.
  if ((out.code !== 0 && out.code !== 1) || report?.summary === undefined) return fails(`${exitSummary(out)}: ${tail(out.stderr || out.stdout) || '(no output)'}`);
  if (report.summary.tools === 0) return fails('linted 0 tools');
  return { status: 'works', detail: `${report.summary.tools} tools linted (${report.summary.errors} errors, ${report.summary.warnings} warnings)` };
});

const previewColumn = perCell('cli-preview', '`toolwright preview --provider anthropic`', 'src/cli', async (row, target) => {
  const out = await toolwright(['preview', ...cliTarget(target), '--provider', 'anthropic', '--json']);
  const report = parseJson(out) as { tools?: unknown[]; failures?: unknown[] } | undefined;
  if ((out.code !== 0 && out.code !== 1) || report?.tools === undefined) return fails(`${exitSummary(out)}: ${tail(out.stderr || out.stdout) || '(no output)'}`);
  if (!JSON.stringify(report.tools).includes(JSON.stringify(row.probe.tool)) && !JSON.stringify(report.failures ?? []).includes(JSON.stringify(row.probe.tool))) return fails(`preview does not show ${row.probe.tool}`);
  return { status: 'works', detail: `${report.tools.length} tools mapped, ${(report.failures ?? []).length} not mappable` };
});

/** Table "clients": the third-party clients, default options. */
export function theirClients(): ClientColumn[] {
  return [
    inspectorColumn(),
    driverColumn('sdk-v1', 'SDK v1 client', `@modelcontextprotocol/sdk ${installedVersion('@modelcontextprotocol/sdk')}`, 'sdk-v1-client.ts'),
    driverColumn('sdk-v2', 'SDK v2 client', `@modelcontextprotocol/client ${installedVersion('@modelcontextprotocol/client')}`, 'sdk-v2-client.ts'),
    driverColumn('ai-sdk', 'AI SDK MCP client', `@ai-sdk/mcp ${installedVersion('@ai-sdk/mcp')}`, 'ai-sdk-client.ts'),
    driverColumn('mastra', 'Mastra MCP client', `@mastra/mcp ${installedVersion('@mastra/mcp')} (@mastra/core ${installedVersion('@mastra/core')})`, 'mastra-client.ts'),
  ];
}

/** Table "servers": Toolwright's client library and CLI commands. */
export function ourClients(): ClientColumn[] {
  return [driverColumn('toolwright-client', 'Toolwright client (`connect`)', 'src/client', 'toolwright-client.ts'), callColumn, lintColumn, previewColumn];
}
