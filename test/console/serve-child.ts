/** Starts `toolwright serve ... --console` (or any script printing the banner) as a child and reads its addresses. */
import type { ChildProcess } from 'node:child_process';
import { startChild } from '../support/child-process.js';
import { repoPath, TSX_LOADER } from '../support/repo-paths.js';

/** A running child with its MCP and console addresses. */
export interface ServedChild {
  child: ChildProcess;
  mcpUrl: string;
  consoleUrl: string;
  stderr(): string;
  stop(): Promise<void>;
}

/** A served console outliving this is killed (a browser test's whole run is shorter). */
const LIFE_MS = 15 * 60_000;

/** Spawns `node --import tsx <script> ...args` and waits (bounded) for the `console:` banner line and the MCP address. */
export async function startWithConsole(script: string, args: readonly string[], env: Record<string, string> = {}): Promise<ServedChild> {
  const served = startChild({ args: ['--import', TSX_LOADER, repoPath(script), ...args], env, timeoutMs: LIFE_MS, name: script });
  const stop = async (): Promise<void> => {
    await served.stop('SIGTERM');
  };
  try {
    const consoleUrl = (await served.waitForLine(/^console: (\S+)$/, { stream: 'stderr', timeoutMs: 60_000 }))[1]!;
    const mcpUrl = (await served.waitForLine(/(http:\/\/\S+\/mcp)\b/, { stream: 'stderr', timeoutMs: 60_000 }))[1]!;
    return { child: served.process, mcpUrl, consoleUrl, stderr: () => served.stderr(), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
