/** Starts `toolwright serve ... --console` (or any script printing the banner) as a child and reads its addresses. */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { repoPath, TSX_LOADER } from '../support/repo-paths.js';

/** A running child with its MCP and console addresses. */
export interface ServedChild {
  child: ChildProcess;
  mcpUrl: string;
  consoleUrl: string;
  stderr(): string;
  stop(): Promise<void>;
}

/** Spawns `node --import tsx <script> ...args` and waits (bounded) for the `console:` banner line. */
export function startWithConsole(script: string, args: readonly string[], env: Record<string, string> = {}): Promise<ServedChild> {
  const child = spawn(process.execPath, ['--import', TSX_LOADER, repoPath(script), ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let stderr = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`no console banner within 60 s; stderr: ${stderr}`));
    }, 60_000);
    child.stdout?.resume();
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const consoleUrl = /^console: (\S+)$/m.exec(stderr)?.[1];
      const mcpUrl = /(http:\/\/\S+\/mcp)\b/.exec(stderr)?.[1];
      if (consoleUrl !== undefined && mcpUrl !== undefined) {
        clearTimeout(timer);
        resolve({ child, mcpUrl, consoleUrl, stderr: () => stderr, stop });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before the console banner; stderr: ${stderr}`));
    });
  });
}
