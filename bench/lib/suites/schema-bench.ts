// The schema engine against Ajv (bench/schema.bench.ts) and the lint speed bench
// (bench/lint.bench.ts) run as their own processes, bounded in time; each prints its figures as
// JSON on its last line, which the target table reads (bench/lib/component-targets.ts).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { runBounded } from '../processes.js';
import { REPO_ROOT } from '../servers.js';

export interface ScriptBenchResult {
  readonly ran: boolean;
  readonly note: string;
  readonly exitCode: number | null;
  /** Human-readable output (the JSON line removed). */
  readonly output: string;
  /** The script's JSON figures, when it completed. */
  readonly figures?: Record<string, unknown>;
}
export type SchemaBenchResult = ScriptBenchResult;

async function runScript(script: string, args: readonly string[], timeoutMs: number): Promise<ScriptBenchResult> {
  if (!existsSync(join(REPO_ROOT, 'bench', script))) return { ran: false, note: `bench/${script} does not exist`, exitCode: null, output: '' };
  const tsx = join(REPO_ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs');
  const outcome = await runBounded(process.execPath, [tsx, join(REPO_ROOT, 'bench', script), '--json', ...args], timeoutMs, { cwd: REPO_ROOT });
  const note = outcome.timedOut ? `stopped after ${timeoutMs / 1000} s` : outcome.code === 0 ? 'completed' : `exited with code ${outcome.code}`;
  const lines = outcome.stdout.trim().split('\n');
  let figures: Record<string, unknown> | undefined;
  if (outcome.code === 0 && lines.at(-1)?.startsWith('{')) figures = JSON.parse(lines.pop()!) as Record<string, unknown>;
  return { ran: true, note, exitCode: outcome.code, output: (lines.join('\n') + (outcome.code === 0 ? '' : `\n${outcome.stderr}`)).trim(), ...(figures === undefined ? {} : { figures }) };
}

/** Ours vs Ajv, interleaved rounds, with CPU profiles written to bench/results/profile-schema.md. */
export function runSchemaBench(timeoutMs: number, quick = false): Promise<ScriptBenchResult> {
  return runScript('schema.bench.ts', quick ? ['--rounds', '5', '--ms', '100'] : ['--profile'], timeoutMs);
}

/** The search surface on GitHub's catalog (bench/search.bench.ts): quality, latency, tokens (a quick run leaves bench/results/search.md as it is). */
export function runSearchBench(timeoutMs: number, quick = false): Promise<ScriptBenchResult> {
  return runScript('search.bench.ts', quick ? ['--rounds', '3', '--no-write'] : [], timeoutMs);
}

/** lintTools() cold and warm, the token counter alone, and the compiled CLI on 1,000 tools. */
export function runLintBench(timeoutMs: number): Promise<ScriptBenchResult> {
  return runScript('lint.bench.ts', ['--profile'], timeoutMs);
}

/** Each middleware's own cost per call in µs, in process (bench/middleware-cost.bench.ts). */
export function runMiddlewareCostBench(timeoutMs: number, quick = false): Promise<ScriptBenchResult> {
  return runScript('middleware-cost.bench.ts', quick ? ['--rounds', '3', '--calls', '5000', '--fsync-calls', '200'] : [], timeoutMs);
}

/** Proxy overhead (bench/proxy.bench.ts): a proxied tools/call vs the upstream called directly, c=32. */
export function runProxyBench(timeoutMs: number, quick = false): Promise<ScriptBenchResult> {
  return runScript('proxy.bench.ts', quick ? ['--seconds', '1', '--rounds', '1'] : [], timeoutMs);
}
