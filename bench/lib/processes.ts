// Every process the benchmark starts goes through here, so each one is tracked by PID, bounded in
// time, and stopped by PID (never by name) even when the harness itself fails half-way.
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { readFileSync } from 'node:fs';

const live = new Set<ChildProcess>();

/** Spawn and track a child; it is killed by PID if the harness exits before stopping it. */
export function spawnTracked(command: string, args: readonly string[], options: SpawnOptions): ChildProcess {
  const child = spawn(command, args, options);
  live.add(child);
  child.once('exit', () => live.delete(child));
  return child;
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves once the process has exited. */
export function stopProcess(child: ChildProcess, graceMs = 3000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return Promise.resolve();
  const pid = child.pid;
  return new Promise((resolve) => {
    const killTimer = setTimeout(() => { try { process.kill(pid, 'SIGKILL'); } catch { /* already gone */ } }, graceMs);
    child.once('exit', () => { clearTimeout(killTimer); resolve(); });
    try { process.kill(pid, 'SIGTERM'); } catch { clearTimeout(killTimer); resolve(); }
  });
}

export function killAllTracked(): void {
  for (const child of live) {
    if (child.pid !== undefined) { try { process.kill(child.pid, 'SIGKILL'); } catch { /* already gone */ } }
  }
  live.clear();
}

process.once('exit', killAllTracked);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => { killAllTracked(); process.exit(130); });
}

/** Peak resident set size (VmHWM) of a live process in KiB, from /proc. */
export function peakRssKb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = /^VmHWM:\s+(\d+)\s+kB/m.exec(status);
  if (match === null) throw new Error(`no VmHWM in /proc/${pid}/status`);
  return Number(match[1]);
}

/**
 * CPU time (user + system) a live process has used so far, in ms, from /proc/<pid>/stat.
 * Resolution is one clock tick (usually 10 ms). Unlike wall time it barely moves when other
 * processes compete for the cores, so it is the steadier cold-start figure on a shared machine.
 */
export function cpuTimeMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the parenthesised command name; utime and stime are fields 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1000) / CLOCK_TICKS_PER_SECOND;
}

/** Linux's USER_HZ; 100 on every mainstream kernel configuration. */
const CLOCK_TICKS_PER_SECOND = 100;

export interface RunningHttpServer {
  readonly child: ChildProcess;
  readonly pid: number;
  readonly port: number;
  readonly stderr: () => string;
}

/** Start a benchmark HTTP server program and wait (bounded) for its `READY <port>` line. */
export function startHttpServer(script: string, args: readonly string[], nodeFlags: readonly string[] = [], timeoutMs = 15000): Promise<RunningHttpServer> {
  const child = spawnTracked(process.execPath, [...nodeFlags, script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => { stderr = (stderr + chunk).slice(-8000); });
  return new Promise((resolve, reject) => {
    let stdout = '';
    const timer = setTimeout(() => {
      void stopProcess(child);
      reject(new Error(`${script} did not report READY within ${timeoutMs} ms; stderr: ${stderr.trim()}`));
    }, timeoutMs);
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', (chunk: string) => {
      stdout += chunk;
      const match = /READY (\d+)/.exec(stdout);
      if (match !== null && child.pid !== undefined) {
        clearTimeout(timer);
        resolve({ child, pid: child.pid, port: Number(match[1]), stderr: () => stderr });
      }
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${script} exited before READY (code ${code}, signal ${signal}); stderr: ${stderr.trim()}`));
    });
  });
}

/** Run a command to completion with a time bound; resolves with its exit code and output. */
export function runBounded(command: string, args: readonly string[], timeoutMs: number, options: SpawnOptions = {}, input?: string): Promise<{ code: number | null; stdout: string; stderr: string; timedOut: boolean }> {
  const child = spawnTracked(command, args, { ...options, stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
  if (input !== undefined) child.stdin?.end(input);
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8');
  child.stderr?.setEncoding('utf8');
  child.stdout?.on('data', (chunk: string) => { stdout += chunk; });
  child.stderr?.on('data', (chunk: string) => { stderr += chunk; });
  return new Promise((resolve) => {
    let timedOut = false;
    const timer = setTimeout(() => { timedOut = true; void stopProcess(child, 1000); }, timeoutMs);
    child.once('exit', (code) => { clearTimeout(timer); resolve({ code, stdout, stderr, timedOut }); });
  });
}
