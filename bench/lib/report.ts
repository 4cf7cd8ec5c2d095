// The benchmark's output: one JSON document with every sample, and the markdown summary derived
// from it (ratios against the bare reference of the same run, and the issue's targets).
import type { ColdStartResult } from './suites/cold-start.js';
import type { HttpServerOutcome, HttpSuiteResult } from './suites/http-calls.js';
import type { ScriptBenchResult } from './suites/schema-bench.js';
import { lintTargets, schemaTargets } from './component-targets.js';
import { searchTargets } from './search-targets.js';
import { proxyTargets } from './proxy-targets.js';
import { authTargets, viewsSection } from './auth-report.js';
import type { AuthSuiteResult } from './suites/auth.js';
import type { StdioSuiteResult } from './suites/stdio-roundtrips.js';
import { STDIO_WARMUP_CALLS } from './suites/legacy-sessions.js';
import type { LegacySuiteResult } from './suites/legacy-sessions.js';
import type { FirstCallsResult } from './suites/first-calls.js';
import type { HostileSuiteResult, StopLatencyRow } from './suites/hostile.js';
import type { ScaleoutSuiteResult } from './suites/scaleout.js';
import type { ServerId } from './servers.js';
import { median, ratio } from './stats.js';

export interface RunInfo {
  readonly startedAt: string;
  readonly finishedAt: string;
  readonly mode: 'full' | 'quick';
  readonly node: string;
  readonly cpu: string;
  readonly cores: number;
  readonly loadAverageBefore: readonly number[];
  readonly loadAverageAfter: readonly number[];
  readonly gitCommit: string;
  readonly build: string;
  readonly settings: Record<string, unknown>;
}

export interface BenchReport {
  readonly run: RunInfo;
  readonly httpCall?: HttpSuiteResult;
  readonly httpCatalog?: HttpSuiteResult;
  /** tools/call with and without the middleware chain (rate limit + audit without fsync + result budget). */
  readonly middleware?: HttpSuiteResult;
  /** Each middleware's own cost per call, in µs, in process (bench/middleware-cost.bench.ts; issue 31 item 3). */
  readonly middlewareCost?: ScriptBenchResult;
  readonly toolsList?: HttpSuiteResult;
  readonly stdio?: StdioSuiteResult;
  readonly legacy?: LegacySuiteResult;
  /** The first 1,000 calls of a fresh process, stdio and HTTP (issue 31 item 4). */
  readonly firstCalls?: FirstCallsResult;
  readonly coldStart?: ColdStartResult;
  /** Schema engine vs Ajv (bench/schema.bench.ts, issue 31 item 1). */
  readonly schema?: ScriptBenchResult;
  /** Lint speed on 1,000 tools (bench/lint.bench.ts, issue 31 item 2). */
  readonly lint?: ScriptBenchResult;
  /** The search surface on GitHub's catalog (bench/search.bench.ts, issue 32 item 5). */
  readonly search?: ScriptBenchResult;
  /** Proxy overhead (bench/proxy.bench.ts, issue 32 item 2). */
  readonly proxy?: ScriptBenchResult;
  /** stop_arm latency under the hostile corpus (issue 13). */
  readonly hostile?: HostileSuiteResult;
  /** RSS soak under hostile calls (issue 13). */
  readonly soak?: HostileSuiteResult;
  /** Bearer-token tools/call and per-caller views of tools/list (bench/lib/suites/auth.ts, issue 29). */
  readonly auth?: AuthSuiteResult;
  /** Scale-out figures (bench/lib/suites/scaleout.ts): nginx hop, Redis claim, 1 vs 3 instances. */
  readonly scaleout?: ScaleoutSuiteResult;
  readonly targets: TargetCheck[];
}

export interface TargetCheck {
  readonly target: string;
  readonly measured: string;
  readonly verdict: 'met' | 'MISSED' | 'not measured';
}

const LABEL: Record<ServerId, string> = { bare: 'bare reference', sdk: 'official SDK v2 2.4.0', toolwright: 'Toolwright', 'toolwright-middleware': 'Toolwright + rate limit, audit, budget', 'toolwright-empty-chain': 'Toolwright, empty chain (use: [])',
  'toolwright-auth-static': 'Toolwright + staticTokenAuthorizer', 'toolwright-auth-jwt': 'Toolwright + jwtAuthorizer (local JWKS)',
  'toolwright-views': 'Toolwright, 100 callers, 100 views', 'toolwright-one-view': 'Toolwright, 1 caller, no visibleTo' };

const fmt = (value: number | undefined, digits = 0): string => (value === undefined || !Number.isFinite(value) ? '—' : value.toFixed(digits));
const times = (value: number): string => (Number.isFinite(value) ? `${value.toFixed(2)}×` : '—');
const mib = (kb: number | undefined): string => (kb === undefined ? '—' : (kb / 1024).toFixed(1));

function find(suite: HttpSuiteResult | undefined, id: ServerId): HttpServerOutcome | undefined {
  return suite?.servers.find((server) => server.id === id);
}

/**
 * Median over rounds of the per-round ratio: within one round the two servers were measured
 * seconds apart, so drift in the machine's load cancels out better than in a ratio of medians.
 */
export function pairedRatio(values: readonly number[], references: readonly number[]): number {
  if (values.length === 0 || values.length !== references.length) return Number.NaN;
  return median(values.map((value, i) => ratio(value, references[i]!)));
}

/** Evaluate the issue's targets against this run (same-run ratios only). */
export function checkTargets(report: Omit<BenchReport, 'targets'>): TargetCheck[] {
  const checks: TargetCheck[] = [];
  const bare = find(report.httpCall, 'bare');
  const tw = find(report.httpCall, 'toolwright');
  const bare32 = bare?.byConcurrency['32'];
  const tw32 = tw?.byConcurrency['32'];
  const httpOk = bare32 !== undefined && tw32 !== undefined && tw?.error === undefined && bare?.error === undefined;
  const rpsRatio = httpOk ? ratio(tw32.rps, bare32.rps) : Number.NaN;
  const cpuRatio = httpOk ? ratio(bare32.cpuUsPerRequest, tw32.cpuUsPerRequest) : Number.NaN;
  const pairedRps = httpOk ? pairedRatio(tw32.rounds.map((r) => r.rps), bare32.rounds.map((r) => r.rps)) : Number.NaN;
  checks.push({ target: 'HTTP tools/call, c=32: req/s ≥ 0.85× bare (issue 31; was 0.70×)', measured: httpOk ? `${times(rpsRatio)} (${fmt(tw32.rps)} vs ${fmt(bare32.rps)} req/s; median of per-round ratios ${times(pairedRps)}); CPU per request: bare ÷ Toolwright = ${times(cpuRatio)} (${fmt(bare32.cpuUsPerRequest)} vs ${fmt(tw32.cpuUsPerRequest)} µs)` : tw?.error ?? 'Toolwright not measured', verdict: !httpOk ? 'not measured' : rpsRatio >= 0.85 ? 'met' : 'MISSED' });
  const p99Ratio = httpOk ? ratio(tw32.p99Ms, bare32.p99Ms) : Number.NaN;
  checks.push({ target: 'HTTP tools/call, c=32: p99 ≤ 1.5× bare (issue 31; was 2×)', measured: httpOk ? `${times(p99Ratio)} (${fmt(tw32.p99Ms, 2)} vs ${fmt(bare32.p99Ms, 2)} ms)` : 'Toolwright not measured', verdict: !httpOk ? 'not measured' : p99Ratio <= 1.5 ? 'met' : 'MISSED' });
  const twRss = httpOk ? tw?.peakRssKb : undefined;
  const bareRss = httpOk ? bare?.peakRssKb : undefined;
  const rssOk = twRss !== undefined && bareRss !== undefined;
  const rssRatio = rssOk ? ratio(twRss, bareRss) : Number.NaN;
  const perProcess = (outcome: HttpServerOutcome | undefined): string => (outcome?.peakRssKbByProcess ?? []).map((kb) => mib(kb)).join(', ');
  checks.push({ target: 'Peak RSS under HTTP load ≤ 1.5× bare', measured: rssOk ? `${times(rssRatio)} (${mib(twRss)} vs ${mib(bareRss)} MiB, the highest process of each; per process in round order: Toolwright ${perProcess(tw)}, bare ${perProcess(bare)} MiB)` : 'Toolwright not measured', verdict: !rssOk ? 'not measured' : rssRatio <= 1.5 ? 'met' : 'MISSED' });
  const stdioBare = report.stdio?.servers.find((s) => s.id === 'bare');
  const stdioTw = report.stdio?.servers.find((s) => s.id === 'toolwright');
  const stdioOk = stdioBare?.median !== undefined && stdioTw?.median !== undefined && stdioTw.error === undefined;
  const stdioRatio = stdioOk ? ratio(stdioTw.median!, stdioBare.median!) : Number.NaN;
  const stdioPaired = stdioOk ? pairedRatio(stdioTw.blockRates, stdioBare.blockRates) : Number.NaN;
  const stdioCpu = stdioOk && stdioTw.medianCpuUsPerCall !== undefined && stdioBare.medianCpuUsPerCall !== undefined ? ratio(stdioBare.medianCpuUsPerCall, stdioTw.medianCpuUsPerCall) : Number.NaN;
  checks.push({ target: 'stdio round trips ≥ 0.80× bare stdio', measured: stdioOk ? `${times(stdioRatio)} (${fmt(stdioTw.median)} vs ${fmt(stdioBare.median)} /s; median of per-block ratios ${times(stdioPaired)}); CPU per call: bare ÷ Toolwright = ${times(stdioCpu)}` : stdioTw?.error ?? 'Toolwright not measured', verdict: !stdioOk ? 'not measured' : stdioRatio >= 0.8 ? 'met' : 'MISSED' });
  const legacyBare = report.legacy?.servers.find((s) => s.id === 'bare');
  const legacyTw = report.legacy?.servers.find((s) => s.id === 'toolwright');
  // Issue 31 raised the HTTP session row from 0.60× to 0.75×.
  for (const [transport, key, floor] of [['HTTP', 'medianHttp', 0.75], ['stdio', 'medianStdio', 0.8]] as const) {
    const ok = legacyBare?.[key] !== undefined && legacyTw?.[key] !== undefined && legacyTw.error === undefined;
    const value = ok ? ratio(legacyTw[key]!, legacyBare[key]!) : Number.NaN;
    checks.push({ target: `legacy 2025 session over ${transport} (initialize + 1,000 calls${transport === 'stdio' ? ', warm' : ''}) ≥ ${floor.toFixed(2)}× bare`, measured: ok ? `${times(value)} (${fmt(legacyTw[key])} vs ${fmt(legacyBare[key])} calls/s)` : legacyTw?.error ?? 'Toolwright not measured', verdict: !ok ? 'not measured' : value >= floor ? 'met' : 'MISSED' });
  }
  checks.push(...firstCallsTargets(report));
  const cold = report.coldStart?.servers.find((s) => s.id === 'toolwright');
  const coldOk = cold?.overNodeMs !== undefined && cold.error === undefined;
  const coldBareCpu = report.coldStart?.servers.find((s) => s.id === 'bare')?.medianCpuMs;
  checks.push({ target: 'Cold start to first server/discover ≤ 150 ms over `node -e 0`', measured: coldOk ? `${fmt(cold.overNodeMs, 1)} ms (${fmt(cold.medianMs, 1)} ms total, node -e 0 ${fmt(report.coldStart?.nodeBaselineMs, 1)} ms); CPU ${fmt(cold.medianCpuMs)} ms vs ${fmt(coldBareCpu)} ms for the bare stdio server` : cold?.error ?? 'Toolwright not measured', verdict: !coldOk ? 'not measured' : cold.overNodeMs! <= 150 ? 'met' : 'MISSED' });
  const mwBare = find(report.middleware, 'bare')?.byConcurrency['32'];
  const mwPlain = find(report.middleware, 'toolwright')?.byConcurrency['32'];
  const mwOn = find(report.middleware, 'toolwright-middleware')?.byConcurrency['32'];
  const mwOk = mwBare !== undefined && mwOn !== undefined;
  const mwRatio = mwOk ? ratio(mwOn.rps, mwBare.rps) : Number.NaN;
  checks.push({
    target: 'HTTP tools/call, c=32, rate limit + audit (no fsync, batched: flushWithinMs 10) + result budget: req/s ≥ 0.75× bare (issue 31; was 0.60×)',
    measured: mwOk ? `${times(mwRatio)} (${fmt(mwOn.rps)} vs ${fmt(mwBare.rps)} req/s; without middleware ${mwPlain === undefined ? '—' : `${fmt(mwPlain.rps)} req/s, ${times(ratio(mwPlain.rps, mwBare.rps))}`})` : 'not measured',
    verdict: !mwOk ? 'not measured' : mwRatio >= 0.75 ? 'met' : 'MISSED',
  });
  // "Costs nothing measurable": the empty chain within run-to-run noise of no chain, judged on the
  // per-round ratios (the servers take turns each round) so drift of the machine cancels out.
  const mwEmpty = find(report.middleware, 'toolwright-empty-chain')?.byConcurrency['32'];
  const emptyOk = mwEmpty !== undefined && mwPlain !== undefined;
  const emptyRatio = emptyOk ? ratio(mwEmpty.rps, mwPlain.rps) : Number.NaN;
  const emptyPaired = emptyOk ? pairedRatio(mwEmpty.rounds.map((r) => r.rps), mwPlain.rounds.map((r) => r.rps)) : Number.NaN;
  checks.push({
    target: 'HTTP tools/call, c=32, empty middleware chain (use: []) vs none: req/s ≥ 0.95× (no measurable cost)',
    measured: emptyOk ? `${times(emptyRatio)} (${fmt(mwEmpty.rps)} vs ${fmt(mwPlain.rps)} req/s; median of per-round ratios ${times(emptyPaired)}); the two servers run the same code (use: [] registers no middleware layer: test/server/middleware/empty-chain.test.ts), so the distance from 1.00× is this run's noise` : 'not measured',
    verdict: !emptyOk ? 'not measured' : (Number.isNaN(emptyPaired) ? emptyRatio : emptyPaired) >= 0.95 ? 'met' : 'MISSED',
  });
  if (report.auth !== undefined) checks.push(...authTargets(report.auth));
  checks.push(...hostileTargets(report));
  if (report.schema !== undefined) checks.push(...schemaTargets(report.schema));
  if (report.lint !== undefined) checks.push(...lintTargets(report.lint));
  if (report.search !== undefined) checks.push(...searchTargets(report.search));
  if (report.proxy !== undefined) checks.push(...proxyTargets(report.proxy));
  return checks;
}

/** Issue 31 item 4: the first 1,000 calls of a fresh process ≥ 0.60× bare, modern stdio, HTTP and legacy stdio. */
function firstCallsTargets(report: Omit<BenchReport, 'targets'>): TargetCheck[] {
  const checks: TargetCheck[] = [];
  const floor = 0.6;
  const rows: Array<[string, number | undefined, number | undefined, string | undefined]> = [];
  const firstBare = report.firstCalls?.servers.find((s) => s.id === 'bare');
  const firstTw = report.firstCalls?.servers.find((s) => s.id === 'toolwright');
  if (report.firstCalls !== undefined) {
    rows.push(['2026-07-28 over stdio', firstTw?.medianStdio, firstBare?.medianStdio, firstTw?.error ?? firstBare?.error]);
    rows.push(['2026-07-28 over HTTP (one keep-alive connection)', firstTw?.medianHttp, firstBare?.medianHttp, firstTw?.error ?? firstBare?.error]);
  }
  const legacyBare = report.legacy?.servers.find((s) => s.id === 'bare');
  const legacyTw = report.legacy?.servers.find((s) => s.id === 'toolwright');
  if (report.legacy !== undefined) rows.push(['2025 over stdio (after initialize)', legacyTw?.medianStdioCold, legacyBare?.medianStdioCold, legacyTw?.error ?? legacyBare?.error]);
  for (const [what, tw, bare, error] of rows) {
    const ok = tw !== undefined && bare !== undefined && error === undefined;
    const value = ok ? ratio(tw, bare) : Number.NaN;
    checks.push({ target: `first 1,000 calls of a fresh process, ${what}: ≥ ${floor.toFixed(2)}× bare (issue 31)`, measured: ok ? `${times(value)} (${fmt(tw)} vs ${fmt(bare)} calls/s)` : error ?? 'not measured', verdict: !ok ? 'not measured' : value >= floor ? 'met' : 'MISSED' });
  }
  return checks;
}

/** Issue 13's design targets: stop_arm answers at event-loop scale under hostile load; the soak stays flat. */
function hostileTargets(report: Omit<BenchReport, 'targets'>): TargetCheck[] {
  const checks: TargetCheck[] = [];
  const rows = report.hostile?.stop?.filter((row) => !row.label.startsWith('none')) ?? [];
  if (report.hostile !== undefined) {
    const worst = rows.reduce<StopLatencyRow | undefined>((w, row) => (w === undefined || row.p95Ms > w.p95Ms ? row : w), undefined);
    const failed = rows.reduce((n, row) => n + row.stopErrors, 0);
    checks.push({
      target: 'stop_arm under the hostile corpus (a hostile call in flight): p95 < 100 ms (issue 13 design target)',
      measured: worst === undefined ? report.hostile.error ?? 'not measured' : `worst p95 ${fmt(worst.p95Ms, 1)} ms (${worst.label}), worst max ${fmt(Math.max(...rows.map((r) => r.maxMs)), 1)} ms; ${failed} stop_arm answer(s) not a success`,
      verdict: worst === undefined ? 'not measured' : worst.p95Ms < 100 && failed === 0 ? 'met' : 'MISSED',
    });
  }
  if (report.soak !== undefined) {
    const soak = report.soak.soak;
    checks.push({
      target: 'soak under hostile calls: RSS flat (last sample within the stated tolerance of the first after warm-up), every answer the documented one (HTTP 200 with the refusal; the nesting case HTTP 400 -32600)',
      measured: soak === undefined ? report.soak.error ?? 'not measured' : `${fmt(soak.growthMb, 1)} MB growth over ${soak.seconds} s (tolerance ${soak.toleranceMb} MB), ${soak.calls} hostile calls, ${soak.unexpectedAnswers} answer(s) not the documented one`,
      verdict: soak === undefined ? 'not measured' : soak.flat && soak.unexpectedAnswers === 0 ? 'met' : 'MISSED',
    });
  }
  return checks;
}

function hostileSections(report: BenchReport): string[] {
  const out: string[] = [];
  if (report.hostile !== undefined) {
    out.push('## stop_arm under hostile input (issue 13)', '', 'The robot arm (approval off, stepped simulator) on loopback HTTP. Each round starts a motion, sends one hostile `move_arm_to_pose` call, then `stop_arm`, and times stop_arm\'s answer while the hostile call is in flight. The first row has no hostile call.', '');
    if (report.hostile.error !== undefined) out.push(`Not measured: ${report.hostile.error}`, '');
    else {
      out.push('| hostile call in flight | rounds | stop_arm p50 ms | p95 ms | max ms | largest hostile answer bytes | stop errors |', '|---|---:|---:|---:|---:|---:|---:|');
      for (const row of report.hostile.stop ?? []) out.push(`| ${row.label} | ${row.rounds} | ${fmt(row.p50Ms, 1)} | ${fmt(row.p95Ms, 1)} | ${fmt(row.maxMs, 1)} | ${row.hostileAnswerBytes} | ${row.stopErrors} |`);
      out.push('');
    }
  }
  if (report.soak !== undefined) {
    out.push('## Soak under hostile calls (issue 13)', '');
    const soak = report.soak.soak;
    if (soak === undefined) out.push(`Not measured: ${report.soak.error ?? 'no figures'}`, '');
    else {
      out.push(`The four hostile cases back to back for ${soak.seconds} s, a \`stop_arm\` after every fourth; RSS of the process (robot server plus its fetch client) sampled each second. Flat means the last sample is within ${soak.toleranceMb} MB of the first after a 2 s warm-up.`, '');
      out.push(`${soak.calls} hostile calls, ${soak.stopCalls} stop_arm, ${soak.unexpectedAnswers} answer(s) not the documented one. RSS MB: ${soak.rssMb.map((m) => m.toFixed(0)).join(' ')}. Growth after warm-up: ${fmt(soak.growthMb, 1)} MB (${soak.flat ? 'flat' : 'NOT flat'}).`, '');
    }
  }
  return out;
}

function httpTable(suite: HttpSuiteResult, extra?: (outcome: HttpServerOutcome, connections: number) => string, extraHeader?: string): string[] {
  const bare = find(suite, 'bare');
  const head = `| server | conc. | req/s (median) | × bare | p50 ms | p99 ms | p99 × bare | server CPU µs/req | bare CPU ÷ this | peak RSS MiB | RSS × bare |${extraHeader === undefined ? '' : ` ${extraHeader} |`}`;
  const rule = `|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|${extraHeader === undefined ? '' : '---:|'}`;
  const lines = [head, rule];
  for (const outcome of suite.servers) {
    if (outcome.error !== undefined) {
      lines.push(`| ${LABEL[outcome.id]} | — | not measured: ${outcome.error.replace(/\|/g, '\\|').replace(/\n/g, ' ').slice(0, 240)} |`);
      continue;
    }
    for (const connections of suite.concurrencies) {
      const cell = outcome.byConcurrency[String(connections)];
      const ref = bare?.error === undefined ? bare?.byConcurrency[String(connections)] : undefined;
      if (cell === undefined) continue;
      const rssRatio = outcome.peakRssKb !== undefined && bare?.peakRssKb !== undefined ? ratio(outcome.peakRssKb, bare.peakRssKb) : Number.NaN;
      lines.push(`| ${LABEL[outcome.id]} | ${connections} | ${fmt(cell.rps)} | ${ref === undefined ? '—' : times(ratio(cell.rps, ref.rps))} | ${fmt(cell.p50Ms, 2)} | ${fmt(cell.p99Ms, 2)} | ${ref === undefined ? '—' : times(ratio(cell.p99Ms, ref.p99Ms))} | ${fmt(cell.cpuUsPerRequest)} | ${ref === undefined ? '—' : times(ratio(ref.cpuUsPerRequest, cell.cpuUsPerRequest))} | ${mib(outcome.peakRssKb)} | ${times(rssRatio)} |${extra === undefined ? '' : ` ${extra(outcome, connections)} |`}`);
    }
  }
  return lines;
}

export function renderMarkdown(report: BenchReport): string {
  const run = report.run;
  const out: string[] = [];
  out.push('# Toolwright benchmarks', '');
  out.push(`Run ${run.startedAt} → ${run.finishedAt} (${run.mode} mode), Node ${run.node}, ${run.cpu} × ${run.cores} cores, load average before ${run.loadAverageBefore.map((n) => n.toFixed(2)).join(' / ')}, after ${run.loadAverageAfter.map((n) => n.toFixed(2)).join(' / ')}. Commit \`${run.gitCommit}\`. Build: ${run.build}.`, '');
  out.push('Every server runs from compiled JavaScript in its own process, a fresh one each round of the HTTP suites (started, verified, warmed up); load comes from a separate autocannon process; every answer is checked before measuring and every answer under load must equal the verified body. Ratios compare with the bare reference measured in this same run. Medians over interleaved rounds; latency percentiles from full-resolution per-request timings; peak RSS is the highest of a server\'s processes.', '');
  out.push(`Settings: \`${JSON.stringify(run.settings)}\``, '');
  const busiest = Math.max(run.loadAverageBefore[0] ?? 0, run.loadAverageAfter[0] ?? 0);
  if (busiest > run.cores) out.push(`> **Shared machine was busy** (1-minute load average up to ${busiest.toFixed(2)} on ${run.cores} cores): absolute figures are depressed and noisy; same-run ratios are the meaningful numbers, and even they carry noise.`, '');

  out.push('## Targets (issues 5, 13 and 31)', '', '| target | measured | verdict |', '|---|---|---|');
  for (const check of report.targets) out.push(`| ${check.target} | ${check.measured.replace(/\|/g, '\\|').slice(0, 300)} | ${check.verdict} |`);
  out.push('');

  if (report.httpCall !== undefined) {
    out.push(`## HTTP \`tools/call\` (calculate_sum, catalog of ${report.httpCall.catalogSize})`, '', `${report.httpCall.rounds} rounds × ${report.httpCall.durationSec} s per cell.`, '');
    out.push(...httpTable(report.httpCall), '');
  }
  if (report.middleware !== undefined) {
    out.push('## HTTP `tools/call` with the middleware chain', '', 'Same call with rate limit (token bucket on the in-memory store), audit (hash-chained JSONL, no fsync) and a result budget on every call, next to Toolwright without middleware and with an empty chain (`use: []`).', '');
    out.push(...httpTable(report.middleware), '');
  }
  if (report.middlewareCost !== undefined) {
    out.push("## Each middleware's cost per call (`npm run bench:middleware`)", '', `Status: ${report.middlewareCost.note}. In process, around a tool that answers at once; no target (issue 31 asks for the figures).`, '');
    if (report.middlewareCost.output !== '') out.push(report.middlewareCost.output, '');
  }
  if (report.auth !== undefined) {
    out.push('## HTTP `tools/call` with a bearer token', '', `Every server receives \`Authorization: Bearer\` (the bare reference and Toolwright without \`authorize\` ignore it); the static token and the ES256 JWT have the same length, so the request bytes are equal. Toolwright + \`staticTokenAuthorizer\` and + \`jwtAuthorizer\` (local JWK Set, no network; it caches a verified token until its expiry, at most 60 s) each refused a wrong token with 401 before timing. ${report.auth.call.rounds} round(s) × ${report.auth.call.durationSec} s.`, '');
    out.push(...httpTable(report.auth.call), '');
    out.push(...viewsSection(report.auth));
  }
  if (report.httpCatalog !== undefined) {
    const single = report.httpCall;
    out.push(`## HTTP \`tools/call\` inside a catalog of ${report.httpCatalog.catalogSize} tools`, '', 'Same call; the server also registers filler tools. A stateless server should not pay per request for its catalog: "vs 1 tool" is req/s here divided by req/s with the 1-tool catalog, same concurrency, same run.', '');
    out.push(...httpTable(report.httpCatalog, (outcome, connections) => {
      const one = single?.servers.find((s) => s.id === outcome.id)?.byConcurrency[String(connections)];
      const here = outcome.byConcurrency[String(connections)];
      return one === undefined || here === undefined ? '—' : times(ratio(here.rps, one.rps));
    }, 'vs 1 tool'), '');
  }
  if (report.toolsList !== undefined) {
    const list = report.toolsList;
    out.push(`## \`tools/list\` on ${list.catalogSize} tools`, '', `First page under load: concurrency ${list.concurrencies.join('/')}, ${list.rounds} rounds × ${list.durationSec} s. Whole list: sequential walks over every page (following \`nextCursor\`) on one keep-alive connection.`, '');
    out.push('| server | first page bytes | first page req/s | first page p50 ms | first page p99 ms | pages | whole list bytes | whole list median ms | whole list p99 ms | peak RSS MiB |', '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const outcome of list.servers) {
      if (outcome.error !== undefined) { out.push(`| ${LABEL[outcome.id]} | not measured: ${outcome.error.replace(/\|/g, '\\|').slice(0, 240)} |`); continue; }
      const cell = outcome.byConcurrency[String(list.concurrencies[0])];
      const whole = outcome.fullList;
      out.push(`| ${LABEL[outcome.id]} | ${outcome.answerBytes ?? '—'} | ${fmt(cell?.rps)} | ${fmt(cell?.p50Ms, 2)} | ${fmt(cell?.p99Ms, 2)} | ${whole?.pages ?? '—'} | ${whole?.bytes ?? '—'} | ${fmt(whole?.medianMs, 2)} | ${fmt(whole?.p99Ms, 2)} | ${mib(outcome.peakRssKb)} |`);
    }
    out.push('');
  }
  if (report.legacy !== undefined) {
    const legacy = report.legacy;
    const bare = legacy.servers.find((s) => s.id === 'bare');
    out.push(`## legacy 2025 clients: initialize + ${legacy.callsPerSession} \`tools/call\` per session`, '', `HTTP: ${legacy.sessions} sessions side by side (keep-alive, Mcp-Session-Id when minted; SDK v2 serves 2025 statelessly). stdio: one session per server process; "first calls" are the ${legacy.callsPerSession} right after the initialize answer (they include the process's JIT and validator warm-up), "warm" the same number after ${STDIO_WARMUP_CALLS} untimed warm-up calls on the same session (the target's figure, as the stdio suite warms up too). ${legacy.rounds} round(s), every answer checked.`, '');
    out.push('| server | HTTP calls/s | × bare | stdio warm calls/s | × bare | stdio first calls/s | × bare |', '|---|---:|---:|---:|---:|---:|---:|');
    for (const outcome of legacy.servers) {
      if (outcome.error !== undefined) { out.push(`| ${LABEL[outcome.id]} | not measured: ${outcome.error.replace(/\|/g, '\\|').slice(0, 240)} |`); continue; }
      out.push(`| ${LABEL[outcome.id]} | ${fmt(outcome.medianHttp)} | ${bare?.medianHttp === undefined ? '—' : times(ratio(outcome.medianHttp!, bare.medianHttp))} | ${fmt(outcome.medianStdio)} | ${bare?.medianStdio === undefined ? '—' : times(ratio(outcome.medianStdio!, bare.medianStdio))} | ${fmt(outcome.medianStdioCold)} | ${bare?.medianStdioCold === undefined ? '—' : times(ratio(outcome.medianStdioCold!, bare.medianStdioCold))} |`);
    }
    out.push('');
  }
  if (report.firstCalls !== undefined) {
    const first = report.firstCalls;
    const bare = first.servers.find((s) => s.id === 'bare');
    out.push(`## first ${first.calls} \`tools/call\` of a fresh process (2026-07-28)`, '', `Each sample is a new server process: one answered \`server/discover\` (start-up is the cold-start figure), then ${first.calls} sequential calls timed, every answer checked; stdio, and HTTP on one keep-alive connection. ${first.rounds} fresh process(es) per server and transport; medians.`, '');
    out.push('| server | stdio calls/s | × bare | samples | HTTP calls/s | × bare | samples |', '|---|---:|---:|---|---:|---:|---|');
    for (const outcome of first.servers) {
      if (outcome.error !== undefined) { out.push(`| ${LABEL[outcome.id]} | not measured: ${outcome.error.replace(/\|/g, '\\|').slice(0, 240)} |`); continue; }
      out.push(`| ${LABEL[outcome.id]} | ${fmt(outcome.medianStdio)} | ${bare?.medianStdio === undefined ? '—' : times(ratio(outcome.medianStdio!, bare.medianStdio))} | ${outcome.stdioCallsPerSec.map((r) => r.toFixed(0)).join(', ')} | ${fmt(outcome.medianHttp)} | ${bare?.medianHttp === undefined ? '—' : times(ratio(outcome.medianHttp!, bare.medianHttp))} | ${outcome.httpCallsPerSec.map((r) => r.toFixed(0)).join(', ')} |`);
    }
    out.push('');
  }
  if (report.stdio !== undefined) {
    const stdio = report.stdio;
    const bare = stdio.servers.find((s) => s.id === 'bare');
    out.push(`## stdio: ${stdio.calls} sequential \`tools/call\` round trips`, '', `${stdio.rounds} rounds per server; within a round the servers take turns in blocks of ${stdio.blockCalls} calls so load drift hits all alike. One client, each answer parsed and checked.`, '');
    out.push('| server | round trips/s (median) | × bare stdio | rounds | server CPU µs/call | bare CPU ÷ this | peak RSS MiB |', '|---|---:|---:|---|---:|---:|---:|');
    for (const outcome of stdio.servers) {
      if (outcome.error !== undefined) { out.push(`| ${LABEL[outcome.id]} | not measured: ${outcome.error.replace(/\|/g, '\\|').slice(0, 240)} |`); continue; }
      const cpuRatio = bare?.medianCpuUsPerCall !== undefined && outcome.medianCpuUsPerCall !== undefined ? ratio(bare.medianCpuUsPerCall, outcome.medianCpuUsPerCall) : Number.NaN;
      out.push(`| ${LABEL[outcome.id]} | ${fmt(outcome.median)} | ${bare?.median === undefined ? '—' : times(ratio(outcome.median ?? Number.NaN, bare.median))} | ${outcome.roundTripsPerSec.map((r) => r.toFixed(0)).join(', ')} | ${fmt(outcome.medianCpuUsPerCall)} | ${times(cpuRatio)} | ${mib(outcome.peakRssKb)} |`);
    }
    out.push('');
  }
  if (report.coldStart !== undefined) {
    const cold = report.coldStart;
    out.push('## Cold start (spawn → first answered `server/discover` over stdio)', '', `${cold.repetitions} repetitions; \`node -e 0\` (spawn to exit) median ${fmt(cold.nodeBaselineMs, 1)} ms in the same run.`, '');
    const bareCpu = cold.servers.find((s) => s.id === 'bare')?.medianCpuMs;
    out.push('CPU ms is user + system time the server process had used when its answer arrived (/proc, 10 ms ticks); it is steadier than wall time when other work competes for the cores. The bare stdio server is the CPU baseline: Node start-up plus answering one line.', '');
    out.push('| server | median ms | over `node -e 0` ms | CPU ms (median) | CPU over bare ms | wall samples ms |', '|---|---:|---:|---:|---:|---|');
    for (const outcome of cold.servers) {
      if (outcome.error !== undefined) { out.push(`| ${LABEL[outcome.id]} | not measured: ${outcome.error.replace(/\|/g, '\\|').slice(0, 240)} |`); continue; }
      const cpuOver = outcome.medianCpuMs !== undefined && bareCpu !== undefined ? outcome.medianCpuMs - bareCpu : Number.NaN;
      out.push(`| ${LABEL[outcome.id]} | ${fmt(outcome.medianMs, 1)} | ${fmt(outcome.overNodeMs, 1)} | ${fmt(outcome.medianCpuMs)} | ${fmt(cpuOver)} | ${outcome.samplesMs.map((s) => s.toFixed(0)).join(', ')} |`);
    }
    out.push('');
  }
  const rejections = report.httpCall?.servers.filter((s) => s.rejections !== undefined) ?? [];
  if (rejections.length > 0 || report.stdio !== undefined) {
    out.push('## Validation is on (checked before timing)', '', 'Schema-violating `calculate_sum` arguments sent to each validating server; none may execute the tool.', '');
    out.push('| server | input | answer |', '|---|---|---|');
    for (const outcome of rejections) for (const [input, answer] of Object.entries(outcome.rejections ?? {})) out.push(`| ${LABEL[outcome.id]} (HTTP) | ${input} | ${answer} |`);
    for (const outcome of report.stdio?.servers ?? []) if (outcome.rejection !== undefined) out.push(`| ${LABEL[outcome.id]} (stdio) | a is a string | ${outcome.rejection} |`);
    out.push('');
  }
  out.push(...hostileSections(report));
  if (report.schema !== undefined) {
    out.push('## Schema engine vs Ajv (`npm run bench:schema`)', '', `Status: ${report.schema.note}.`, '');
    if (report.schema.output !== '') out.push('```text', report.schema.output.slice(0, 20000), '```', '');
  }
  if (report.search !== undefined) {
    out.push('## Search surface, GitHub\'s catalog (`npm run bench:search`)', '', `Status: ${report.search.note}.`, '');
    if (report.search.output !== '') out.push('```text', report.search.output.slice(0, 20000), '```', '');
  }
  if (report.proxy !== undefined) {
    const f = report.proxy.figures;
    out.push('## Proxy overhead (`npm run bench:proxy`)', '', `Status: ${report.proxy.note}.`, '');
    if (f !== undefined) out.push('```json', JSON.stringify(f, null, 2), '```', '');
    else if (report.proxy.output !== '') out.push('```text', report.proxy.output.slice(0, 20000), '```', '');
  }
  if (report.lint !== undefined) {
    out.push('## Lint speed, 1,000 tools (`npm run bench:lint`)', '', `Status: ${report.lint.note}.`, '');
    if (report.lint.output !== '') out.push('```text', report.lint.output.slice(0, 20000), '```', '');
  }
  if (report.scaleout !== undefined) {
    const so = report.scaleout;
    out.push('## Scale-out: nginx + Redis + instances (docs/scale-out.md)', '');
    if (so.skipped !== undefined) out.push(`Skipped: ${so.skipped}.`, '');
    else {
      out.push('Instances run under tsx (compare these figures with each other). c=1 latencies of `read_state`, one Redis claim (`SET NX PXAT GET`) per approval.', '');
      out.push('| path | n | p50 ms | p99 ms |', '|---|---|---|---|');
      for (const [label, f] of [['direct to an instance', so.direct], ['through nginx (3 instances)', so.throughNginx], ['Redis claimOnce', so.claimRedis], ['memory claimOnce', so.claimMemory], ['legacy 2025 call on i1, session opened on i2 (record in Redis)', so.legacyElsewhere]] as const) {
        if (f !== undefined) out.push(`| ${label} | ${f.n} | ${f.p50Ms.toFixed(3)} | ${f.p99Ms.toFixed(3)} |`);
      }
      out.push('', `nginx hop (p50 difference): ${fmt(so.nginxHopP50Ms, 3)} ms.`, '');
      out.push('| instances behind nginx | connections | req/s | p50 ms | p99 ms | non-2xx | errors |', '|---|---|---|---|---|---|---|');
      for (const t of so.throughput ?? []) out.push(`| ${t.instances} | ${t.connections} | ${fmt(t.rps)} | ${t.p50Ms} | ${t.p99Ms} | ${t.non2xx} | ${t.errors} |`);
      out.push('', 'nginx, Redis, autocannon and every instance share this machine\'s cores (and its load average, above): a difference between 1 and 3 instances here is not a scaling figure; docs/scale-out.md says how it should scale.', '');
    }
  }
  return out.join('\n');
}
