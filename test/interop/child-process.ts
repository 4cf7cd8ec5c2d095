/**
 * Child processes for the interop suite, on the tests' one harness (test/support/child-process.ts):
 * every server and every client program runs as a real process on loopback, each in its own process
 * group, so a timeout or the end of a row kills it together with whatever it spawned (a stdio
 * client's server, say) by the PID we were given, and nothing else.
 */
import { runChild, startChild } from '../support/child-process.js';

/** How a program is started. `env` is added to this process's environment. */
export interface Command {
  command: string;
  args: readonly string[];
  env?: Record<string, string>;
  cwd?: string;
}

/** What a finished (or killed) run printed. */
export interface RunOutput {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** Set when the run was killed for overrunning its time limit. */
  timedOut: boolean;
}

/** Output kept from one stream: enough for any error message, bounded against a chatty program. */
const MAX_CAPTURE = 256 * 1024;
/** A server outliving this is killed: longer than any matrix run, short of forever. */
const SERVER_LIFE_MS = 30 * 60_000;

function started(cmd: Command, timeoutMs: number) {
  return { command: cmd.command, args: cmd.args, ...(cmd.env !== undefined ? { env: cmd.env } : {}), ...(cmd.cwd !== undefined ? { cwd: cmd.cwd } : {}), group: true, timeoutMs, maxCaptureChars: MAX_CAPTURE };
}

/** Runs a program to completion, killing its process group after `timeoutMs`. */
export async function runToEnd(cmd: Command, timeoutMs: number): Promise<RunOutput> {
  const run = await runChild(started(cmd, timeoutMs));
  const stderr = run.spawnError !== undefined ? `${run.stderr}spawn failed: ${run.spawnError.message}` : run.stderr;
  return { code: run.code, signal: run.signal, stdout: run.stdout, stderr, timedOut: run.timedOut };
}

/** A long-running server process and the URL it announced. */
export interface RunningServer {
  url: string;
  pid: number;
  /** Everything the server printed so far (both streams), for error messages. */
  output(): string;
  stop(): Promise<void>;
}

/**
 * Starts a server and waits until a line of its output matches `ready` (group 1 = the URL or the
 * port). Rejects with the server's own output if it exits or stays silent past `timeoutMs`.
 */
export async function startServer(cmd: Command, ready: RegExp, toUrl: (match: string) => string, timeoutMs: number): Promise<RunningServer> {
  const child = startChild(started(cmd, SERVER_LIFE_MS));
  const stop = async (): Promise<void> => {
    await child.stop('SIGKILL');
  };
  try {
    const match = await child.waitForLine(ready, { timeoutMs });
    return { url: toUrl(match[1] as string), pid: child.pid as number, output: () => child.output(), stop };
  } catch {
    const exit = child.running() ? undefined : await child.exited;
    await stop();
    const why = exit === undefined
      ? `no ready line matching ${String(ready)} within ${timeoutMs} ms`
      : exit.spawnError !== undefined ? `spawn failed: ${exit.spawnError.message}` : `exited before it was ready (code ${String(exit.code)}, signal ${String(exit.signal)})`;
    throw new Error(`${why}; output: ${child.output().trim().slice(-2000) || '(none)'}`);
  }
}
