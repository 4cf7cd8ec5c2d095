// Proxy overhead (issue 32 "Measured"): a proxied tools/call against the same upstream called
// directly, at c=32 over keep-alive connections on loopback, everything as users run it: the
// compiled CLI (`dist/cli/main.js`), `toolwright serve examples/demo/server.ts --http` upstream and
// `toolwright proxy` in front of it. Beside them, in the same run, a bare node:http forwarder
// (bench/servers/bare-proxy.ts: parse, rename, forward, parse, answer; no MCP logic) in front of
// the same upstream: the floor of what two HTTP hops cost on this machine, where the load
// generator, the front and the upstream share the cores.
// Load comes from the autocannon worker every HTTP suite uses; every answer must equal the body
// verified before timing. Rounds are interleaved (direct, proxied, bare forwarder, in a rotating
// order) and the ratios are medians of per-round ratios. Each process's CPU per call is read
// from /proc. Prints one JSON line last.
// Run: npm run bench -- --only proxy (compiles the bench programs), or after that
//      npx tsx bench/proxy.bench.ts [--seconds 4] [--rounds 3] [--concurrency 32]
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { checkSumAnswer, parseRpcBody } from './lib/answers.js';
import { postRpc } from './lib/http-client.js';
import { loadProblems, runLoad, type LoadResult } from './lib/http-load.js';
import { cpuTimeMs, killAllTracked, spawnTracked, startHttpServer, stopProcess } from './lib/processes.js';
import { COMPILED_DIR, LOAD_WORKER, REPO_ROOT } from './lib/servers.js';
import { median } from './lib/stats.js';
import { callSumRequest, httpHeadersFor, type JsonRpcRequest } from './shared/mcp.js';

const arg = (name: string, fallback: number): number => {
  const index = process.argv.indexOf(`--${name}`);
  const value = index >= 0 ? Number(process.argv[index + 1]) : fallback;
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} must be a positive number, got ${process.argv[index + 1]}`);
  return value;
};
const SECONDS = arg('seconds', 4);
const ROUNDS = arg('rounds', 3);
const CONCURRENCY = arg('concurrency', 32);
const WARMUP_SECONDS = Math.min(2, SECONDS);

const CLI = join(REPO_ROOT, 'dist', 'cli', 'main.js');
const BARE_PROXY = join(COMPILED_DIR, 'servers', 'bare-proxy.js');
for (const [path, how] of [[CLI, 'npm run build'], [LOAD_WORKER, 'npm run bench -- --only proxy'], [BARE_PROXY, 'npm run bench -- --only proxy']] as const) {
  if (!existsSync(path)) throw new Error(`${path} does not exist: run \`${how}\` first`);
}

interface Process { child: ChildProcess; pid: number; port: number }

/** Starts the compiled CLI and waits (bounded) for the "at http://127.0.0.1:<port>/mcp" line it prints on stderr. */
function startCli(args: string[]): Promise<Process> {
  const child = spawnTracked(process.execPath, [CLI, ...args], { cwd: REPO_ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stopProcess(child);
      reject(new Error(`toolwright ${args[0]} not listening within 60 s: ${stderr}`));
    }, 60_000);
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-8000);
      const match = /at http:\/\/127\.0\.0\.1:(\d+)\/mcp\n/.exec(stderr);
      if (match !== null && child.pid !== undefined) {
        clearTimeout(timer);
        resolve({ child, pid: child.pid, port: Number(match[1]) });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`toolwright ${args[0]} exited ${code}: ${stderr}`));
    });
  });
}

type RowId = 'direct' | 'proxied' | 'bareForwarder';

interface Row {
  readonly id: RowId;
  readonly port: number;
  readonly tool: string;
  /** The processes a call of this row runs in (the upstream always; the front for proxied rows). */
  readonly processes: Record<string, number>;
  body: string;
  readonly rounds: { rps: number; p50: number; p99: number; errors: number; cpuUsPerCall: Record<string, number> }[];
}

/** The row's answer, checked (the sum is right, two identical requests give identical bodies): every answer under load must equal it. */
/** The bench's calculate_sum call, addressed to `tool` (its name upstream, or prefixed at a front). */
function callOf(tool: string): JsonRpcRequest {
  const base = callSumRequest(1);
  return { ...base, params: { ...base.params, name: tool } };
}

async function verify(row: Row): Promise<void> {
  const message = callOf(row.tool);
  const first = await postRpc(row.port, message, 30_000, false);
  if (first.status !== 200) throw new Error(`${row.id}: HTTP ${first.status}: ${first.body.slice(0, 300)}`);
  checkSumAnswer(parseRpcBody(first.contentType, first.body), 1);
  const again = await postRpc(row.port, message, 30_000, false);
  if (again.body !== first.body) throw new Error(`${row.id}: two identical requests gave different bodies`);
  row.body = first.body;
}

async function measure(row: Row, seconds: number): Promise<LoadResult & { cpuUsPerCall: Record<string, number> }> {
  const message = callOf(row.tool);
  const before = Object.fromEntries(Object.entries(row.processes).map(([name, pid]) => [name, cpuTimeMs(pid)]));
  const result = await runLoad(LOAD_WORKER, {
    url: `http://127.0.0.1:${row.port}/mcp`, connections: CONCURRENCY, durationSec: seconds,
    body: JSON.stringify(message), headers: httpHeadersFor(message), expectBody: row.body, timeoutSec: 10,
  });
  const cpuUsPerCall = Object.fromEntries(Object.entries(row.processes).map(([name, pid]) => [name, Math.round(((cpuTimeMs(pid) - before[name]!) * 1000) / Math.max(1, result.requests))]));
  return { ...result, cpuUsPerCall };
}

const summary = (row: Row) => ({
  rps: Math.round(median(row.rounds.map((r) => r.rps))),
  p50: Number(median(row.rounds.map((r) => r.p50)).toFixed(2)),
  p99: Number(median(row.rounds.map((r) => r.p99)).toFixed(2)),
  errors: row.rounds.reduce((sum, r) => sum + r.errors, 0),
});
const ratio = (rows: Map<RowId, Row>, over: RowId, field: 'rps' | 'p99'): number =>
  Number(median(rows.get(over)!.rounds.map((r, i) => r[field] / rows.get('direct')!.rounds[i]![field])).toFixed(2));
const cpu = (row: Row, name: string): number => Math.round(median(row.rounds.map((r) => r.cpuUsPerCall[name]!)));

const loadBefore = loadavg()[0]!;
const dir = mkdtempSync(join(tmpdir(), 'tw-proxy-bench-'));
const started: ChildProcess[] = [];
try {
  const upstream = await startCli(['serve', 'examples/demo/server.ts', '--http', '0']);
  started.push(upstream.child);
  const config = join(dir, 'proxy.json');
  writeFileSync(config, JSON.stringify({ upstreams: [{ prefix: 'up', http: { url: `http://127.0.0.1:${upstream.port}/mcp` }, maxConcurrent: CONCURRENCY }] }));
  const front = await startCli(['proxy', '--config', config, '--http', '0']);
  started.push(front.child);
  const bare = await startHttpServer(BARE_PROXY, ['--upstream', String(upstream.port), '--prefix', 'up']);
  started.push(bare.child);

  const rows = new Map<RowId, Row>([
    ['direct', { id: 'direct', port: upstream.port, tool: 'calculate_sum', processes: { upstream: upstream.pid }, body: '', rounds: [] }],
    ['proxied', { id: 'proxied', port: front.port, tool: 'up__calculate_sum', processes: { upstream: upstream.pid, front: front.pid }, body: '', rounds: [] }],
    ['bareForwarder', { id: 'bareForwarder', port: bare.port, tool: 'up__calculate_sum', processes: { upstream: upstream.pid, front: bare.pid }, body: '', rounds: [] }],
  ]);
  for (const row of rows.values()) {
    await verify(row);
    await measure(row, WARMUP_SECONDS);
  }
  const order = [...rows.values()];
  for (let round = 0; round < ROUNDS; round++) {
    for (let k = 0; k < order.length; k++) {
      const row = order[(round + k) % order.length]!;
      const result = await measure(row, SECONDS);
      const problems = loadProblems(result);
      row.rounds.push({ rps: result.rps, p50: result.p50Ms, p99: result.p99Ms, errors: problems.length === 0 ? 0 : result.non2xx + result.errors + result.mismatches + (result.requests === 0 ? 1 : 0), cpuUsPerCall: result.cpuUsPerCall });
      console.log(`  proxy: round ${round + 1}/${ROUNDS} ${row.id}: ${Math.round(result.rps)} req/s, p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms, CPU µs per call ${JSON.stringify(result.cpuUsPerCall)}${problems.length > 0 ? `; ${problems.join('; ')}` : ''}`);
    }
  }
  const direct = rows.get('direct')!;
  const proxied = rows.get('proxied')!;
  const bareRow = rows.get('bareForwarder')!;
  console.log(JSON.stringify({
    concurrency: CONCURRENCY, seconds: SECONDS, rounds: ROUNDS, loadAverage: [Number(loadBefore.toFixed(2)), Number(loadavg()[0]!.toFixed(2))],
    direct: summary(direct), proxied: summary(proxied), bareForwarder: summary(bareRow),
    throughputRatio: ratio(rows, 'proxied', 'rps'), p99Ratio: ratio(rows, 'proxied', 'p99'),
    bareForwarderRatio: ratio(rows, 'bareForwarder', 'rps'), bareForwarderP99Ratio: ratio(rows, 'bareForwarder', 'p99'),
    cpuUsPerCall: {
      upstreamDirect: cpu(direct, 'upstream'), upstreamProxied: cpu(proxied, 'upstream'), front: cpu(proxied, 'front'),
      upstreamBehindBareForwarder: cpu(bareRow, 'upstream'), bareForwarder: cpu(bareRow, 'front'),
    },
  }));
} finally {
  await Promise.all(started.map((child) => stopProcess(child)));
  killAllTracked();
  rmSync(dir, { recursive: true, force: true });
}
