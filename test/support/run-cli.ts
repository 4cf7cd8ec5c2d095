/**
 * Runs the real `toolwright` command (src/cli/main.ts under tsx) as a child process to its end and
 * collects its exit code and output: the CLI tests' whole-command run, on the one child-process
 * harness (child-process.ts).
 */
import { runChild } from './child-process.js';
import { repoPath, REPO_ROOT } from './repo-paths.js';

/** How one command run ended. */
export interface CliRun { code: number | null; stdout: string; stderr: string }

/** Options of {@link runCli}. */
export interface RunCliOptions {
  /** Working directory (default: the repository). */
  cwd?: string;
  /** What `--import` loads to run TypeScript (default `tsx`). */
  loader?: string;
  /** Written to the child's stdin, which is then closed. */
  input?: string;
  /** Added to the environment (`undefined` removes a variable). */
  env?: Record<string, string | undefined>;
}

/** Runs `toolwright ...args`; a child still running after 60 s is killed and the run rejected (a guard, not a measurement). */
export async function runCli(args: readonly string[], options: RunCliOptions = {}): Promise<CliRun> {
  const name = `toolwright ${args.join(' ')}`;
  const run = await runChild({
    args: ['--import', options.loader ?? 'tsx', repoPath('src/cli/main.ts'), ...args],
    cwd: options.cwd ?? REPO_ROOT,
    input: options.input ?? '',
    ...(options.env !== undefined ? { env: options.env } : {}),
    timeoutMs: 60_000,
    name,
  });
  if (run.spawnError !== undefined) throw run.spawnError;
  if (run.timedOut) throw new Error(`${name} did not exit within 60 s; stderr so far: ${run.stderr}`);
  return { code: run.code, stdout: run.stdout, stderr: run.stderr };
}
