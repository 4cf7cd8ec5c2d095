import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkTargets, pairedRatio, renderMarkdown, type RunInfo } from '../lib/report.js';
import type { HttpServerOutcome, HttpSuiteResult, RoundSample } from '../lib/suites/http-calls.js';

const run: RunInfo = {
  startedAt: 't0', finishedAt: 't1', mode: 'quick', node: 'v20', cpu: 'cpu', cores: 2, loadAverageBefore: [0.5, 0, 0], loadAverageAfter: [0.5, 0, 0], gitCommit: 'abc', build: 'ok', settings: {},
};

function round(rps: number, p99Ms: number): RoundSample {
  return { requests: rps, elapsedSec: 1, rps, p50Ms: 1, p99Ms, meanMs: 1, maxMs: p99Ms, non2xx: 0, errors: 0, timeouts: 0, mismatches: 0, bytesPerResponse: 200, serverCpuMs: rps / 20, cpuUsPerRequest: 50 };
}

function server(id: HttpServerOutcome['id'], rps: number, p99Ms: number, rssKb: number): HttpServerOutcome {
  return { id, peakRssKb: rssKb, byConcurrency: { '32': { rounds: [round(rps, p99Ms)], rps, p50Ms: 1, p99Ms, cpuUsPerRequest: 50 } } };
}

function suite(servers: HttpServerOutcome[]): HttpSuiteResult {
  return { name: 'http', workload: 'tools/call', catalogSize: 1, concurrencies: [32], rounds: 1, durationSec: 1, servers };
}

test('pairedRatio is the median of per-round ratios, NaN when rounds do not pair up', () => {
  assert.equal(pairedRatio([1, 8, 3], [2, 10, 4]), 0.75);
  assert.ok(Number.isNaN(pairedRatio([1, 2], [1])));
  assert.ok(Number.isNaN(pairedRatio([], [])));
});

test('targets: met and MISSED follow the issue thresholds against the same-run bare reference', () => {
  const met = checkTargets({ run, httpCall: suite([server('bare', 1000, 10, 60000), server('toolwright', 850, 15, 90000)]) });
  assert.deepEqual(met.slice(0, 3).map((c) => c.verdict), ['met', 'met', 'met']);
  const missed = checkTargets({ run, httpCall: suite([server('bare', 1000, 10, 60000), server('toolwright', 849, 15.1, 90001)]) });
  assert.deepEqual(missed.slice(0, 3).map((c) => c.verdict), ['MISSED', 'MISSED', 'MISSED']);
  assert.match(missed[0]!.measured, /^0\.85× \(849 vs 1000 req\/s/);
});

test('targets: a server that failed verification is "not measured", never a number', () => {
  const failed: HttpServerOutcome = { id: 'toolwright', error: 'exited before READY', byConcurrency: {} };
  const checks = checkTargets({ run, httpCall: suite([server('bare', 1000, 10, 60000), failed]) });
  assert.equal(checks[0]!.verdict, 'not measured');
  assert.equal(checks[0]!.measured, 'exited before READY');
  assert.deepEqual(checks.map((c) => c.verdict), Array(9).fill('not measured'));
});

test('middleware targets: the chain >= 0.75x bare, and an empty chain >= 0.95x no chain (per-round ratios)', () => {
  const targets = (plain: number, empty: number, chain: number) =>
    checkTargets({ run, middleware: suite([server('bare', 1000, 10, 60000), server('toolwright', plain, 20, 90000), server('toolwright-empty-chain', empty, 20, 90000), server('toolwright-middleware', chain, 20, 90000)]) })
      .filter((c) => c.target.includes('middleware') || c.target.includes('rate limit'))
      .map((c) => [c.target, c.verdict]);
  assert.deepEqual(targets(800, 760, 750), [
    ['HTTP tools/call, c=32, rate limit + audit (no fsync, batched: flushWithinMs 10) + result budget: req/s ≥ 0.75× bare (issue 31; was 0.60×)', 'met'],
    ['HTTP tools/call, c=32, empty middleware chain (use: []) vs none: req/s ≥ 0.95× (no measurable cost)', 'met'],
  ]);
  assert.deepEqual(targets(800, 759, 749).map(([, verdict]) => verdict), ['MISSED', 'MISSED']);
});

test('legacy targets: HTTP >= 0.75x and stdio >= 0.80x bare, from the same run', () => {
  const legacy = { sessions: 2, callsPerSession: 1000, rounds: 1, servers: [
    { id: 'bare' as const, httpCallsPerSec: [1000], stdioCallsPerSec: [2000], stdioColdCallsPerSec: [1000], medianHttp: 1000, medianStdio: 2000, medianStdioCold: 1000 },
    { id: 'toolwright' as const, httpCallsPerSec: [760], stdioCallsPerSec: [1500], stdioColdCallsPerSec: [400], medianHttp: 760, medianStdio: 1500, medianStdioCold: 400 },
  ] };
  const checks = checkTargets({ run, legacy }).filter((c) => c.target.startsWith('legacy'));
  assert.deepEqual(checks.map((c) => [c.measured, c.verdict]), [['0.76× (760 vs 1000 calls/s)', 'met'], ['0.75× (1500 vs 2000 calls/s)', 'MISSED']]);
});

test('first-calls targets: the first 1,000 calls of a fresh process >= 0.60x bare, modern stdio, HTTP and 2025 stdio', () => {
  const firstCalls = (stdio: number, http: number) => ({ calls: 1000, rounds: 1, servers: [
    { id: 'bare' as const, stdioCallsPerSec: [1000], httpCallsPerSec: [500], medianStdio: 1000, medianHttp: 500 },
    { id: 'toolwright' as const, stdioCallsPerSec: [stdio], httpCallsPerSec: [http], medianStdio: stdio, medianHttp: http },
  ] });
  const legacy = (cold: number) => ({ sessions: 2, callsPerSession: 1000, rounds: 1, servers: [
    { id: 'bare' as const, httpCallsPerSec: [1000], stdioCallsPerSec: [2000], stdioColdCallsPerSec: [1000], medianHttp: 1000, medianStdio: 2000, medianStdioCold: 1000 },
    { id: 'toolwright' as const, httpCallsPerSec: [760], stdioCallsPerSec: [1500], stdioColdCallsPerSec: [cold], medianHttp: 760, medianStdio: 1500, medianStdioCold: cold },
  ] });
  const rows = (report: Parameters<typeof checkTargets>[0]) => checkTargets(report).filter((c) => c.target.startsWith('first 1,000 calls')).map((c) => [c.target, c.measured, c.verdict]);
  assert.deepEqual(rows({ run, firstCalls: firstCalls(600, 300), legacy: legacy(600) }), [
    ['first 1,000 calls of a fresh process, 2026-07-28 over stdio: ≥ 0.60× bare (issue 31)', '0.60× (600 vs 1000 calls/s)', 'met'],
    ['first 1,000 calls of a fresh process, 2026-07-28 over HTTP (one keep-alive connection): ≥ 0.60× bare (issue 31)', '0.60× (300 vs 500 calls/s)', 'met'],
    ['first 1,000 calls of a fresh process, 2025 over stdio (after initialize): ≥ 0.60× bare (issue 31)', '0.60× (600 vs 1000 calls/s)', 'met'],
  ]);
  assert.deepEqual(rows({ run, firstCalls: firstCalls(599, 299), legacy: legacy(599) }).map(([, , verdict]) => verdict), ['MISSED', 'MISSED', 'MISSED']);
  const failed = { calls: 1000, rounds: 1, servers: [{ id: 'bare' as const, stdioCallsPerSec: [1000], httpCallsPerSec: [500], medianStdio: 1000, medianHttp: 500 }, { id: 'toolwright' as const, error: 'exited before READY', stdioCallsPerSec: [], httpCallsPerSec: [] }] };
  assert.deepEqual(rows({ run, firstCalls: failed }).map(([, measured, verdict]) => [measured, verdict]), [['exited before READY', 'not measured'], ['exited before READY', 'not measured']]);
  assert.deepEqual(rows({ run }), []);
});

test('the markdown names the failure instead of a row of numbers, and flags a busy machine', () => {
  const failed: HttpServerOutcome = { id: 'sdk', error: 'tools/call answered HTTP 500: boom', byConcurrency: {} };
  const report = { run: { ...run, loadAverageAfter: [7.5, 0, 0] }, httpCall: suite([server('bare', 1000, 10, 60000), failed]) };
  const markdown = renderMarkdown({ ...report, targets: checkTargets(report) });
  assert.match(markdown, /\| official SDK v2 2\.4\.0 \| — \| not measured: tools\/call answered HTTP 500: boom \|/);
  assert.match(markdown, /Shared machine was busy\*\* \(1-minute load average up to 7\.50 on 2 cores\)/);
});
