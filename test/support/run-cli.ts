/**
 * Runs the real `toolwright` command (src/cli/main.ts under tsx) as a child process to its end and
 * collects its exit code and output: the one harness the CLI tests share for a whole command run.
 */
import { spawn } from 'node:child_process';
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
}

/** Runs `toolwright ...args`; a child still running after 60 s is killed and the run rejected (a guard, not a measurement). */
export function runCli(args: readonly string[], options: RunCliOptions = {}): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', options.loader ?? 'tsx', repoPath('src/cli/main.ts'), ...args], { cwd: options.cwd ?? REPO_ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    let killed = false;
    const timer = setTimeout(() => { killed = true; child.kill(); }, 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      if (killed) reject(new Error(`toolwright ${args.join(' ')} did not exit within 60 s; stderr so far: ${stderr}`));
      else resolve({ code, stdout, stderr });
    });
    child.stdin.end(options.input ?? '');
  });
}
