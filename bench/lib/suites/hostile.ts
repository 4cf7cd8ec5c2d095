// The hostile-input suites of `npm run bench` (`--only hostile,soak`): runs bench/hostile.bench.ts
// in its own process (it loads the robot arm's server in-process with its client), bounded in
// time, and keeps its JSON figures: stop_arm latency under the hostile corpus, and an RSS soak.
import { join } from 'node:path';
import type { HostileBenchOutput, SoakFigures, StopLatencyRow } from '../../hostile.bench.js';
import { runBounded } from '../processes.js';
import { REPO_ROOT } from '../servers.js';

export type { SoakFigures, StopLatencyRow };

export interface HostileSuiteResult {
  readonly phase: 'stop' | 'soak';
  /** Why there are no figures (the run failed or timed out), else undefined. */
  readonly error?: string;
  readonly stop?: StopLatencyRow[];
  readonly soak?: SoakFigures;
}

/** Runs one phase of the hostile bench; never throws, a failure is reported in `error`. */
export async function runHostileSuite(phase: 'stop' | 'soak', options: { quick: boolean; log: (line: string) => void }): Promise<HostileSuiteResult> {
  const tsx = join(REPO_ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs');
  // Full: 5 cases x 20 rounds, or a 60 s soak; quick: 5 rounds, 10 s. Generous bounds over both.
  const timeoutMs = (options.quick ? 120 : 600) * 1000;
  const args = [tsx, join(REPO_ROOT, 'bench', 'hostile.bench.ts'), '--json', '--only', phase, ...(options.quick ? ['--quick'] : [])];
  const outcome = await runBounded(process.execPath, args, timeoutMs, { cwd: REPO_ROOT });
  const last = outcome.stdout.trim().split('\n').at(-1) ?? '';
  if (outcome.timedOut) return { phase, error: `stopped after ${timeoutMs / 1000} s` };
  if (outcome.code !== 0) return { phase, error: `exited with code ${outcome.code}: ${outcome.stderr.trim().split('\n').slice(-3).join(' ')}` };
  let parsed: HostileBenchOutput;
  try {
    parsed = JSON.parse(last) as HostileBenchOutput;
  } catch {
    return { phase, error: `no JSON figures on the last stdout line: ${last.slice(0, 200)}` };
  }
  if (phase === 'stop') {
    for (const row of parsed.stop ?? []) options.log(`  ${row.label}: stop_arm p50 ${row.p50Ms.toFixed(1)} ms, p95 ${row.p95Ms.toFixed(1)} ms, max ${row.maxMs.toFixed(1)} ms`);
    return { phase, stop: parsed.stop ?? [] };
  }
  const soak = parsed.soak;
  if (soak !== undefined) options.log(`  ${soak.calls} hostile calls in ${soak.seconds} s; RSS growth ${soak.growthMb.toFixed(1)} MB (${soak.flat ? 'flat' : 'NOT flat'} within ${soak.toleranceMb} MB)`);
  return soak === undefined ? { phase, error: 'no soak figures' } : { phase, soak };
}
