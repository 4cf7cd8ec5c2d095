/**
 * THE child-process harness of the tests: a real process, started with a bounded life (killed when
 * `timeoutMs` passes), its stdout and stderr collected whole and as lines, a wait for a line that
 * fails with what the child printed (or that it exited first), and a stop by the pid we were given
 * (its process group with `group`). Every child still running when the test process exits is
 * killed, so no test leaves one behind, whatever failed. `runChild` runs one to its end.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';

/** How a child is started. */
export interface ChildOptions {
  /** Default: this Node binary. */
  command?: string;
  args: readonly string[];
  cwd?: string;
  /** Added to this process's environment; `undefined` removes a variable. */
  env?: Record<string, string | undefined>;
  /** `pipe` to write to the child (`write`, `endInput`); default `ignore`, or `pipe` when `input` is given. */
  stdin?: 'pipe' | 'ignore';
  /** Written to stdin, which is then closed. */
  input?: string;
  /** The child is killed (SIGKILL) when still running after this long (default 60 s): a guard, not a measurement. */
  timeoutMs?: number;
  /** Start it in its own process group and stop the whole group (a client that starts its own server). */
  group?: boolean;
  /** Output kept per stream, at most (default 4 MiB): enough for any message, bounded against a chatty child. */
  maxCaptureChars?: number;
  /** What to call it in failure messages (default: the command line). */
  name?: string;
}

/** How a child ended. */
export interface ChildExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Killed for outliving `timeoutMs`. */
  timedOut: boolean;
  /** Set when the process could not be started at all. */
  spawnError?: Error;
}

export type StreamName = 'stdout' | 'stderr';

/** A started child. */
export interface Child {
  readonly process: ChildProcess;
  /** Undefined only when spawning failed (see `exited`). */
  readonly pid: number | undefined;
  readonly name: string;
  /** Everything printed on stdout so far. */
  stdout(): string;
  stderr(): string;
  /** Both streams, in arrival order. */
  output(): string;
  /** The complete lines printed so far on one stream. */
  lines(stream: StreamName): readonly string[];
  /** Called with each complete line from now on. */
  onLine(listener: (line: string, stream: StreamName) => void): void;
  /**
   * The first line (seen so far or to come) of `stream` (default either) matching `pattern`; rejects
   * with the child's output when it exits first or `timeoutMs` (default 30 s) passes.
   */
  waitForLine(pattern: RegExp, options?: { stream?: StreamName; timeoutMs?: number }): Promise<RegExpExecArray>;
  /** Writes to stdin (started with `stdin: 'pipe'`). */
  write(text: string): void;
  endInput(): void;
  /** Resolves once the child has exited and its streams closed. */
  readonly exited: Promise<ChildExit>;
  /** Whether it is still running. */
  running(): boolean;
  /** Sends `signal` (default SIGTERM) to the pid (or its group) if still running, and waits for the exit. */
  stop(signal?: NodeJS.Signals): Promise<ChildExit>;
}

const live = new Set<Child & { readonly group: boolean }>();
let cleanupInstalled = false;

function installCleanup(): void {
  if (cleanupInstalled) return;
  cleanupInstalled = true;
  // Synchronous, so it runs on any exit of the test process: what a failed test left running dies with it.
  process.once('exit', () => {
    for (const child of live) signalChild(child, 'SIGKILL');
  });
}

function signalChild(child: { readonly pid: number | undefined; readonly group: boolean; running(): boolean }, signal: NodeJS.Signals): void {
  if (child.pid === undefined || !child.running()) return;
  try {
    process.kill(child.group ? -child.pid : child.pid, signal);
  } catch {
    // Already gone.
  }
}

/** Starts a child (see {@link ChildOptions}). */
export function startChild(options: ChildOptions): Child {
  installCleanup();
  const name = options.name ?? [options.command ?? 'node', ...options.args].join(' ');
  const max = options.maxCaptureChars ?? 4 * 1024 * 1024;
  const group = options.group === true;
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const [key, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  const stdinMode = options.stdin ?? (options.input !== undefined ? 'pipe' : 'ignore');
  const proc = spawn(options.command ?? process.execPath, [...options.args], { cwd: options.cwd, env, stdio: [stdinMode, 'pipe', 'pipe'], detached: group });
  const text = { stdout: '', stderr: '', both: '' };
  const partial = { stdout: '', stderr: '' };
  const complete: Record<StreamName, string[]> = { stdout: [], stderr: [] };
  const listeners: ((line: string, stream: StreamName) => void)[] = [];
  let timedOut = false;
  let spawnError: Error | undefined;
  let exitedYet = false;

  const take = (stream: StreamName) => (chunk: string) => {
    if (text[stream].length < max) text[stream] += chunk.slice(0, max - text[stream].length);
    if (text.both.length < 2 * max) text.both += chunk.slice(0, 2 * max - text.both.length);
    partial[stream] += chunk;
    let cut: number;
    while ((cut = partial[stream].indexOf('\n')) >= 0) {
      const line = partial[stream].slice(0, cut).replace(/\r$/, '');
      partial[stream] = partial[stream].slice(cut + 1);
      complete[stream].push(line);
      for (const listener of [...listeners]) listener(line, stream);
    }
  };
  proc.stdout?.setEncoding('utf8');
  proc.stderr?.setEncoding('utf8');
  proc.stdout?.on('data', take('stdout'));
  proc.stderr?.on('data', take('stderr'));

  const exited = new Promise<ChildExit>((resolve) => {
    const finish = (code: number | null, signal: NodeJS.Signals | null): void => {
      if (exitedYet) return;
      exitedYet = true;
      clearTimeout(timer);
      live.delete(child);
      // A child that exited may leave its own children behind (a stdio server a client started).
      if (group && proc.pid !== undefined) {
        try {
          process.kill(-proc.pid, 'SIGKILL');
        } catch {
          // The group is already gone.
        }
      }
      // A last line without a newline is still a line.
      for (const stream of ['stdout', 'stderr'] as const) {
        if (partial[stream] === '') continue;
        const line = partial[stream];
        partial[stream] = '';
        complete[stream].push(line);
        for (const listener of [...listeners]) listener(line, stream);
      }
      resolve({ code, signal, timedOut, ...(spawnError !== undefined ? { spawnError } : {}) });
    };
    proc.once('error', (error) => {
      spawnError = error;
      if (proc.pid === undefined) finish(null, null);
    });
    proc.once('close', finish);
  });

  const child: Child & { group: boolean } = {
    process: proc,
    pid: proc.pid,
    name,
    group,
    stdout: () => text.stdout,
    stderr: () => text.stderr,
    output: () => text.both,
    lines: (stream) => complete[stream],
    onLine: (listener) => void listeners.push(listener),
    waitForLine(pattern, waitOptions = {}) {
      const streams: StreamName[] = waitOptions.stream === undefined ? ['stdout', 'stderr'] : [waitOptions.stream];
      const limit = waitOptions.timeoutMs ?? 30_000;
      for (const stream of streams) {
        for (const line of complete[stream]) {
          const match = pattern.exec(line);
          if (match !== null) return Promise.resolve(match);
        }
      }
      return new Promise((resolve, reject) => {
        const fail = (why: string): void => {
          done();
          reject(new Error(`${name}: ${why}, waiting for a line matching ${String(pattern)}; output: ${text.both.trim().slice(-2000) || '(none)'}`));
        };
        const listener = (line: string, stream: StreamName): void => {
          if (!streams.includes(stream)) return;
          const match = pattern.exec(line);
          if (match === null) return;
          done();
          resolve(match);
        };
        const wait = setTimeout(() => fail(`no such line within ${limit} ms`), limit);
        const done = (): void => {
          clearTimeout(wait);
          const at = listeners.indexOf(listener);
          if (at >= 0) listeners.splice(at, 1);
        };
        listeners.push(listener);
        void exited.then((exit) => fail(exit.spawnError !== undefined ? `could not start (${exit.spawnError.message})` : `exited (code ${String(exit.code)}, signal ${String(exit.signal)})`));
      });
    },
    write: (chunk) => void proc.stdin?.write(chunk),
    endInput: () => void proc.stdin?.end(),
    exited,
    running: () => !exitedYet && proc.exitCode === null && proc.signalCode === null,
    async stop(signal = 'SIGTERM') {
      signalChild(child, signal);
      return exited;
    },
  };
  const timer = setTimeout(() => {
    if (!child.running()) return;
    timedOut = true;
    signalChild(child, 'SIGKILL');
  }, options.timeoutMs ?? 60_000);
  if (proc.pid !== undefined) live.add(child);
  if (options.input !== undefined) proc.stdin?.end(options.input);
  return child;
}

/** How a child run to its end went, with all it printed. */
export interface ChildRun extends ChildExit {
  stdout: string;
  stderr: string;
}

/** Runs a child to its end (killed after `timeoutMs`, default 60 s; `timedOut` then says so). */
export async function runChild(options: ChildOptions): Promise<ChildRun> {
  const child = startChild(options);
  const exit = await child.exited;
  return { ...exit, stdout: child.stdout(), stderr: child.stderr() };
}

