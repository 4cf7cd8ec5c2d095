/** The search surface's target rows (bench/lib/search-targets.ts): verdicts read from the figures, no timing measured here. */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { searchTargets } from '../lib/search-targets.js';
import type { SearchFigures } from '../lib/search-targets.js';

const figures: SearchFigures = {
  sha256: '08ae4081aa6f0cad74eee99253cea4ebe61635622e679b764fcaef8340969b8e', requests: 149, tools: 1223, loadBefore: 0.5, loadAfter: 0.6,
  top1: 0.66, top5: 0.92,
  latency: { samples: 2980, p50: 0.4, p99: 1.5, max: 3, cpuP50: 0.4, cpuP99: 1.2 },
  surface: { fullListTokens: 1_741_037, surfaceListTokens: 367, typicalAnswerTokens: 2837, ratio: 0.0018, inAnswer: 0.81 },
};
const result = (f: SearchFigures) => ({ ran: true, note: 'completed', exitCode: 0, output: '', figures: f as unknown as Record<string, unknown> });

it('met when top-5 >= 90%, p99 < 2 ms and the tokens < 2% of the full list', () => {
  const rows = searchTargets(result(figures));
  assert.deepEqual(rows.map((r) => r.verdict), ['met', 'met', 'met']);
  assert.match(rows[0]!.measured, /top-5 92\.0%, top-1 66\.0% of 149 requests \(set sha256 08ae4081aa6f0cad…\)/);
  assert.match(rows[2]!.measured, /367 \+ 2837 of 1741037 tokens = 0\.2%/);
});

it('MISSED for each figure past its target, and a busy machine is said so', () => {
  const rows = searchTargets(result({ ...figures, top5: 0.89, loadBefore: 9, latency: { ...figures.latency, p99: 2 }, surface: { ...figures.surface, ratio: 0.02 } }));
  assert.deepEqual(rows.map((r) => r.verdict), ['MISSED', 'MISSED', 'MISSED']);
  assert.match(rows[1]!.measured, /busy machine/);
});

it('not measured without figures', () => {
  assert.deepEqual(searchTargets(undefined).map((r) => [r.verdict, r.measured]), Array(3).fill(['not measured', 'not run (suite not selected)']));
  assert.deepEqual(searchTargets({ ran: true, note: 'exited with code 1', exitCode: 1, output: '' }).map((r) => r.measured), Array(3).fill('exited with code 1'));
});
