// Runs one load job in the separate autocannon worker process and returns its measurements.
import type { LoadJob, LoadResult } from '../load/autocannon-worker.js';
import { runBounded } from './processes.js';

export type { LoadJob, LoadResult };

export async function runLoad(workerScript: string, job: LoadJob, nodeFlags: readonly string[] = []): Promise<LoadResult> {
  // The job travels on stdin: a 1,000-tool list body is far over the argv size limit.
  const outcome = await runBounded(process.execPath, [...nodeFlags, workerScript], job.durationSec * 1000 + 30000, {}, JSON.stringify(job));
  if (outcome.timedOut) throw new Error(`load worker overran its time bound (${job.durationSec}s + 30s) against ${job.url}`);
  if (outcome.code !== 0) throw new Error(`load worker failed (exit ${outcome.code}): ${outcome.stderr.trim()}`);
  const line = outcome.stdout.trim().split('\n').pop() ?? '';
  return JSON.parse(line) as LoadResult;
}

/** A run counts only if every answer was a 2xx equal to the verified body. */
export function loadProblems(result: LoadResult): string[] {
  const problems: string[] = [];
  if (result.requests === 0) problems.push('no requests completed');
  if (result.non2xx > 0) problems.push(`${result.non2xx} non-2xx answers`);
  if (result.errors > 0) problems.push(`${result.errors} errors (${result.timeouts} timeouts)`);
  if (result.mismatches > 0) problems.push(`${result.mismatches} answers differed from the verified body`);
  return problems;
}
