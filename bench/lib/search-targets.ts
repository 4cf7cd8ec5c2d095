// Target rows of the search surface (issue 32 item 5), read from bench/search.bench.ts's figures.
import type { ScriptBenchResult } from './suites/schema-bench.js';
import type { TargetCheck } from './report.js';

/** The figures bench/search.bench.ts prints as its last JSON line. */
export interface SearchFigures {
  sha256: string; requests: number; tools: number; loadBefore: number; loadAfter: number;
  top1: number; top5: number;
  latency: { samples: number; p50: number; p99: number; max: number; cpuP50: number; cpuP99: number };
  surface: { fullListTokens: number; surfaceListTokens: number; typicalAnswerTokens: number; ratio: number; inAnswer: number };
}

const pct = (value: number): string => `${(value * 100).toFixed(1)}%`;

/** Quality (top-5 >= 90%, top-1 reported), latency p99 < 2 ms, tokens < 2% of the full list. */
export function searchTargets(result: ScriptBenchResult | undefined): TargetCheck[] {
  const quality = 'search_tools on GitHub\'s catalog, labelled requests (set committed before tuning): the right tool in the top 5 for ≥ 90%';
  const latency = 'search latency (rank + pack within the default budget), in process: p99 < 2 ms';
  const tokens = 'search surface tools/list + one typical search_tools answer at the default budget: < 2% of the full tools/list tokens';
  const f = result?.figures as SearchFigures | undefined;
  if (f === undefined) {
    const measured = result === undefined ? 'not run (suite not selected)' : result.note;
    return [quality, latency, tokens].map((target) => ({ target, measured, verdict: 'not measured' as const }));
  }
  const load = `load average ${f.loadBefore.toFixed(2)} → ${f.loadAfter.toFixed(2)}`;
  return [
    { target: quality, measured: `top-5 ${pct(f.top5)}, top-1 ${pct(f.top1)} of ${f.requests} requests (set sha256 ${f.sha256.slice(0, 16)}…); label in the real answer ${pct(f.surface.inAnswer)}`, verdict: f.top5 >= 0.9 ? 'met' : 'MISSED' },
    { target: latency, measured: `wall p99 ${f.latency.p99.toFixed(2)} ms (p50 ${f.latency.p50.toFixed(2)} ms; CPU time p99 ${f.latency.cpuP99.toFixed(2)} ms, p50 ${f.latency.cpuP50.toFixed(2)} ms; ${f.latency.samples} samples, ${f.tools} tools); ${load}${f.loadBefore > 1.5 ? ' (a busy machine: wall time includes waiting for a core; repeat on a quiet one)' : ''}`, verdict: f.latency.p99 < 2 ? 'met' : 'MISSED' },
    { target: tokens, measured: `${f.surface.surfaceListTokens} + ${f.surface.typicalAnswerTokens} of ${f.surface.fullListTokens} tokens = ${pct(f.surface.ratio)}`, verdict: f.surface.ratio < 0.02 ? 'met' : 'MISSED' },
  ];
}
