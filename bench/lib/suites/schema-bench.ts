// The schema engine against Ajv is measured by the schema issue's own script; this only runs it
// (bounded) and keeps its output for the summary.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { runBounded } from '../processes.js';
import { REPO_ROOT } from '../servers.js';

export interface SchemaBenchResult {
  readonly ran: boolean;
  readonly note: string;
  readonly exitCode: number | null;
  readonly output: string;
}

export async function runSchemaBench(timeoutMs: number): Promise<SchemaBenchResult> {
  if (!existsSync(join(REPO_ROOT, 'bench', 'schema.bench.ts'))) {
    return { ran: false, note: 'bench/schema.bench.ts does not exist yet (schema issue)', exitCode: null, output: '' };
  }
  const tsx = join(REPO_ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs');
  const outcome = await runBounded(process.execPath, [tsx, join(REPO_ROOT, 'bench', 'schema.bench.ts')], timeoutMs, { cwd: REPO_ROOT });
  const note = outcome.timedOut ? `stopped after ${timeoutMs / 1000} s` : outcome.code === 0 ? 'completed' : `exited with code ${outcome.code}`;
  return { ran: true, note, exitCode: outcome.code, output: (outcome.stdout + (outcome.code === 0 ? '' : `\n${outcome.stderr}`)).trim() };
}
