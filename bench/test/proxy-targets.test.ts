/** The proxy's target rows (bench/lib/proxy-targets.ts): verdicts read from the figures, no timing measured here. */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { proxyTargets } from '../lib/proxy-targets.js';
import type { ProxyFigures } from '../lib/proxy-targets.js';

const figures: ProxyFigures = {
  concurrency: 32, seconds: 5,
  direct: { rps: 4000, p50: 4, p99: 20, errors: 0 },
  proxied: { rps: 2400, p50: 8, p99: 36, errors: 0 },
  throughputRatio: 0.6, p99Ratio: 1.8,
};
const result = (f: ProxyFigures) => ({ ran: true, note: 'completed', exitCode: 0, output: '', figures: f as unknown as Record<string, unknown> });

it('met at ≥ 0.5× the direct rate and p99 within 2×', () => {
  const rows = proxyTargets(result(figures));
  assert.deepEqual(rows.map((r) => r.verdict), ['met', 'met']);
  assert.equal(rows[0]!.measured, '0.60× (2400 vs 4000 req/s over 5 s)');
  assert.equal(rows[1]!.measured, '1.80× (p99 36 vs 20 ms; p50 8 vs 4 ms)');
});

it('MISSED past either target, and MISSED when any answer was wrong', () => {
  assert.deepEqual(proxyTargets(result({ ...figures, throughputRatio: 0.12, p99Ratio: 5.2 })).map((r) => r.verdict), ['MISSED', 'MISSED']);
  const wrong = proxyTargets(result({ ...figures, proxied: { ...figures.proxied, errors: 3 } }));
  assert.deepEqual(wrong.map((r) => r.verdict), ['MISSED', 'MISSED']);
  assert.match(wrong[0]!.measured, /; 3 wrong answers\)$/);
});

it('names the rounds, each process\'s CPU per call and the bare forwarder beside the proxy, when the figures carry them', () => {
  const rows = proxyTargets(result({
    ...figures, rounds: 3, throughputRatio: 0.19, p99Ratio: 2.81,
    bareForwarder: { rps: 9873, p50: 2.68, p99: 10.26, errors: 0 }, bareForwarderRatio: 0.49, bareForwarderP99Ratio: 1.47,
    cpuUsPerCall: { upstreamDirect: 52, upstreamProxied: 86, front: 256, upstreamBehindBareForwarder: 56, bareForwarder: 88 },
  }));
  assert.deepEqual(rows.map((r) => r.verdict), ['MISSED', 'MISSED']);
  assert.equal(rows[0]!.measured, '0.19× (2400 vs 4000 req/s, median of 3 interleaved rounds of 5 s; CPU per call: front 256 µs, upstream 86 µs behind it vs 52 µs called directly; a bare node:http forwarder (no MCP logic) in front of the same upstream: 0.49× (9873 req/s, 88 µs CPU per call))');
  assert.equal(rows[1]!.measured, '2.81× (p99 36 vs 20 ms; p50 8 vs 4 ms; bare forwarder 1.47× (p99 10.26 ms))');
});

it('not measured without figures', () => {
  assert.deepEqual(proxyTargets(undefined).map((r) => [r.verdict, r.measured]), Array(2).fill(['not measured', 'not run (suite not selected)']));
  assert.deepEqual(proxyTargets({ ran: true, note: 'stopped after 300 s', exitCode: null, output: '' }).map((r) => r.measured), Array(2).fill('stopped after 300 s'));
});
