// Target rows for the benches that run as scripts (schema engine vs Ajv, lint speed; issue 31
// items 1 and 2). A new component adds a function here and one line in checkTargets.
import type { ScriptBenchResult } from './suites/schema-bench.js';
import type { TargetCheck } from './report.js';

const notMeasured = (target: string, result: ScriptBenchResult | undefined): TargetCheck =>
  ({ target, measured: result === undefined ? 'not run (suite not selected)' : result.note, verdict: 'not measured' });

interface SchemaRow { case: string; ratio: number; lowestRoundRatio: number; oursOps: number; ajvOps: number }
interface SchemaFigures { rows: SchemaRow[]; rounds: number; loadBefore: number; loadAfter: number; busy: boolean; firstCompileMs: number; profiled: boolean }

/** Item 1: every fixture >= 1.0x Ajv and none below 0.8x, median of per-round ratios, load printed. */
export function schemaTargets(result: ScriptBenchResult | undefined): TargetCheck[] {
  const atLeast = 'compileSchema().validate, every bound on, vs Ajv 2020 (allErrors), 4 fixtures: median of per-round ratios ≥ 1.00× each';
  const floor = 'same, no fixture below 0.80×';
  const f = result?.figures as SchemaFigures | undefined;
  if (f === undefined) return [notMeasured(atLeast, result), notMeasured(floor, result)];
  const list = f.rows.map((r) => `${r.case} ${r.ratio.toFixed(2)}×`).join(', ');
  const context = `${f.rounds} interleaved rounds, load average ${f.loadBefore.toFixed(2)} → ${f.loadAfter.toFixed(2)}${f.busy ? ' (ABOVE 1.5: repeat on a quieter machine)' : ''}${f.profiled ? '; CPU profiles: bench/results/profile-schema.md' : ''}`;
  return [
    { target: atLeast, measured: `${list}; ${context}`, verdict: f.rows.every((r) => r.ratio >= 1) ? 'met' : 'MISSED' },
    { target: floor, measured: `lowest fixture ${Math.min(...f.rows.map((r) => r.ratio)).toFixed(2)}×`, verdict: f.rows.every((r) => r.ratio >= 0.8) ? 'met' : 'MISSED' },
  ];
}

interface LintFigures {
  coldDefault: { cpuMedian: number }; coldProviderAll: { cpuMedian: number }; tokenizer: { cpuMedian: number }; warmCpuMedian: number;
  cli: { wallMedian: number; cpuMedian: number }; cliProviderAll: { wallMedian: number }; cliEmpty: { wallMedian: number }; loadAverage: number[];
}

/** Item 2: lintTools() of 1,000 tools cold < 0.5 s CPU; the CLI process < 1.0 s wall. */
export function lintTargets(result: ScriptBenchResult | undefined): TargetCheck[] {
  const cpu = 'lintTools() of 1,000 tools, fresh process, cold first run, default rules: < 500 ms CPU';
  const cli = '`toolwright lint` CLI process on the same 1,000 tools: < 1,000 ms wall';
  const f = result?.figures as LintFigures | undefined;
  if (f === undefined) return [notMeasured(cpu, result), notMeasured(cli, result)];
  const load = `load average ${Math.min(...f.loadAverage).toFixed(2)}-${Math.max(...f.loadAverage).toFixed(2)}`;
  return [
    { target: cpu, measured: `${f.coldDefault.cpuMedian.toFixed(0)} ms (--provider all ${f.coldProviderAll.cpuMedian.toFixed(0)} ms; token counter load alone ${f.tokenizer.cpuMedian.toFixed(0)} ms; warm ${f.warmCpuMedian.toFixed(0)} ms); ${load}; bench/results/lint.md, CPU profile bench/results/profile-lint.md`, verdict: f.coldDefault.cpuMedian < 500 ? 'met' : 'MISSED' },
    { target: cli, measured: `${f.cli.wallMedian.toFixed(0)} ms (CPU ${f.cli.cpuMedian.toFixed(0)} ms; --provider all ${f.cliProviderAll.wallMedian.toFixed(0)} ms; empty catalog ${f.cliEmpty.wallMedian.toFixed(0)} ms); ${load}`, verdict: f.cli.wallMedian < 1000 ? 'met' : 'MISSED' },
  ];
}
