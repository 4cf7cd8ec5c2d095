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

it('not measured without figures', () => {
  assert.deepEqual(proxyTargets(undefined).map((r) => [r.verdict, r.measured]), Array(2).fill(['not measured', 'not run (suite not selected)']));
  assert.deepEqual(proxyTargets({ ran: true, note: 'stopped after 300 s', exitCode: null, output: '' }).map((r) => r.measured), Array(2).fill('stopped after 300 s'));
});
