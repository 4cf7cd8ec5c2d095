// Target rows of the proxy (issue 32 "Measured"), read from bench/proxy.bench.ts's figures.
import type { ScriptBenchResult } from './suites/schema-bench.js';
import type { TargetCheck } from './report.js';

interface Side { rps: number; p50: number; p99: number; errors: number }

/** The figures bench/proxy.bench.ts prints as its JSON line. */
export interface ProxyFigures {
  concurrency: number;
  seconds: number;
  rounds?: number;
  direct: Side;
  proxied: Side;
  /** Medians of per-round ratios (proxied ÷ direct). */
  throughputRatio: number;
  p99Ratio: number;
  /** The floor: a bare node:http forwarder (no MCP logic) in front of the same upstream, same run. */
  bareForwarder?: Side;
  bareForwarderRatio?: number;
  bareForwarderP99Ratio?: number;
  /** CPU µs per call of each process (median over rounds). */
  cpuUsPerCall?: { upstreamDirect: number; upstreamProxied: number; front: number; upstreamBehindBareForwarder: number; bareForwarder: number };
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
  const over = f.rounds === undefined ? ` over ${f.seconds} s` : `, median of ${f.rounds} interleaved rounds of ${f.seconds} s`;
  const cpu = f.cpuUsPerCall === undefined ? '' : `; CPU per call: front ${f.cpuUsPerCall.front} µs, upstream ${f.cpuUsPerCall.upstreamProxied} µs behind it vs ${f.cpuUsPerCall.upstreamDirect} µs called directly`;
  const floor = f.bareForwarder === undefined || f.bareForwarderRatio === undefined ? ''
    : `; a bare node:http forwarder (no MCP logic) in front of the same upstream: ${times(f.bareForwarderRatio)} (${f.bareForwarder.rps} req/s${f.cpuUsPerCall === undefined ? '' : `, ${f.cpuUsPerCall.bareForwarder} µs CPU per call`})`;
  const floorTail = f.bareForwarder === undefined || f.bareForwarderP99Ratio === undefined ? '' : `; bare forwarder ${times(f.bareForwarderP99Ratio)} (p99 ${f.bareForwarder.p99} ms)`;
  return [
    { target: throughput, measured: `${times(f.throughputRatio)} (${f.proxied.rps} vs ${f.direct.rps} req/s${over}${failed}${cpu}${floor})`, verdict: errors === 0 && f.throughputRatio >= 0.5 ? 'met' : 'MISSED' },
    { target: tail, measured: `${times(f.p99Ratio)} (p99 ${f.proxied.p99} vs ${f.direct.p99} ms; p50 ${f.proxied.p50} vs ${f.direct.p50} ms${failed}${floorTail})`, verdict: errors === 0 && f.p99Ratio <= 2 ? 'met' : 'MISSED' },
  ];
}
