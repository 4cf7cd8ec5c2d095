/**
 * Child processes for the interop suite: every server and every client program runs as a real
 * process on loopback. Each is started in its own process group (`detached`), so a timeout or the
 * end of a row kills it together with whatever it spawned (a stdio client's server, say) by the
 * PID we were given, and nothing else.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';

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

function killGroup(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // The group is already gone.
  }
}

function capture(stream: NodeJS.ReadableStream | null, into: { text: string }): void {
  stream?.setEncoding('utf8');
  stream?.on('data', (chunk: string) => {
    if (into.text.length < MAX_CAPTURE) into.text += chunk.slice(0, MAX_CAPTURE - into.text.length);
  });
}

/** Runs a program to completion, killing its process group after `timeoutMs`. */
export function runToEnd(cmd: Command, timeoutMs: number): Promise<RunOutput> {
  return new Promise((resolve) => {
    const child = spawn(cmd.command, cmd.args, {
      cwd: cmd.cwd,
      env: { ...process.env, ...cmd.env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const stdout = { text: '' };
    const stderr = { text: '' };
    capture(child.stdout, stdout);
    capture(child.stderr, stderr);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child);
    }, timeoutMs);
    const finish = (code: number | null, signal: NodeJS.Signals | null) => {
      clearTimeout(timer);
      // A client that exited may leave its own children (a stdio server it spawned) behind.
      killGroup(child);
      resolve({ code, signal, stdout: stdout.text, stderr: stderr.text, timedOut });
    };
    child.once('error', (error) => {
      stderr.text += `spawn failed: ${error.message}`;
      finish(null, null);
    });
    child.once('close', finish);
  });
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
export function startServer(cmd: Command, ready: RegExp, toUrl: (match: string) => string, timeoutMs: number): Promise<RunningServer> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd.command, cmd.args, {
      cwd: cmd.cwd,
      env: { ...process.env, ...cmd.env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const log = { text: '' };
    capture(child.stdout, log);
    capture(child.stderr, log);
    const exited = new Promise<void>((done) => child.once('close', () => done()));
    const stop = async () => {
      killGroup(child);
      await exited;
    };
    let settled = false;
    const fail = (why: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void stop().then(() => reject(new Error(`${why}; output: ${log.text.trim().slice(-2000) || '(none)'}`)));
    };
    const check = () => {
      const match = ready.exec(log.text);
      if (match === null || settled || child.pid === undefined) return;
      settled = true;
      clearTimeout(timer);
      resolve({ url: toUrl(match[1] as string), pid: child.pid, output: () => log.text, stop });
    };
    // Registered after capture(), so each chunk is in the log when the pattern runs over all of it.
    child.stdout?.on('data', check);
    child.stderr?.on('data', check);
    const timer = setTimeout(() => fail(`no ready line matching ${String(ready)} within ${timeoutMs} ms`), timeoutMs);
    child.once('error', (error) => fail(`spawn failed: ${error.message}`));
    child.once('close', (code, signal) => fail(`exited before it was ready (code ${String(code)}, signal ${String(signal)})`));
  });
}
