// Target rows of the proxy (issue 32 "Measured"), read from bench/proxy.bench.ts's figures.
import type { ScriptBenchResult } from './suites/schema-bench.js';
import type { TargetCheck } from './report.js';

interface Side { rps: number; p50: number; p99: number; errors: number }

/** The figures bench/proxy.bench.ts prints as its JSON line. */
export interface ProxyFigures {
  concurrency: number;
  seconds: number;
  direct: Side;
  proxied: Side;
  throughputRatio: number;
  p99Ratio: number;
}

const times = (value: number): string => `${value.toFixed(2)}×`;

/** Proxied tools/call (HTTP front, HTTP upstream) at c=32: ≥ 0.5× the direct rate, p99 within 2× direct, no errors. */
export function proxyTargets(result: ScriptBenchResult | undefined): TargetCheck[] {
  const throughput = 'proxied tools/call (toolwright proxy over HTTP in front of toolwright serve over HTTP), c=32: req/s ≥ 0.5× the upstream called directly';
  const tail = 'proxied tools/call, c=32: p99 within 2× the direct p99';
  const f = result?.figures as ProxyFigures | undefined;
  if (f === undefined) {
    const measured = result === undefined ? 'not run (suite not selected)' : result.note;
    return [throughput, tail].map((target) => ({ target, measured, verdict: 'not measured' as const }));
  }
  const errors = f.direct.errors + f.proxied.errors;
  const failed = errors > 0 ? `; ${errors} wrong answers` : '';
  return [
    { target: throughput, measured: `${times(f.throughputRatio)} (${f.proxied.rps} vs ${f.direct.rps} req/s over ${f.seconds} s${failed})`, verdict: errors === 0 && f.throughputRatio >= 0.5 ? 'met' : 'MISSED' },
    { target: tail, measured: `${times(f.p99Ratio)} (p99 ${f.proxied.p99} vs ${f.direct.p99} ms; p50 ${f.proxied.p50} vs ${f.direct.p50} ms${failed})`, verdict: errors === 0 && f.p99Ratio <= 2 ? 'met' : 'MISSED' },
  ];
}
