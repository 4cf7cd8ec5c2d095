// A minimal sequential stdio MCP client: one newline-delimited JSON-RPC message out, wait for the
// answer line, repeat. Used for the round-trip and cold-start measurements.
import type { ChildProcess } from 'node:child_process';
import { peakRssKb, spawnTracked, stopProcess } from './processes.js';

export class StdioSession {
  readonly child: ChildProcess;
  readonly pid: number;
  private buffered = '';
  private stderrTail = '';
  private waiting: ((line: string) => void) | null = null;
  private failure: ((error: Error) => void) | null = null;
  private exited = false;

  constructor(script: string, args: readonly string[], nodeFlags: readonly string[] = []) {
    this.child = spawnTracked(process.execPath, [...nodeFlags, script, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    if (this.child.pid === undefined) throw new Error(`could not spawn ${script}`);
    this.pid = this.child.pid;
    this.child.stdout?.setEncoding('utf8');
    this.child.stderr?.setEncoding('utf8');
    this.child.stderr?.on('data', (chunk: string) => { this.stderrTail = (this.stderrTail + chunk).slice(-4000); });
    this.child.stdout?.on('data', (chunk: string) => this.onData(chunk));
    // Writing to a server that already died raises EPIPE here; the exit handler reports it.
    this.child.stdin?.on('error', () => {});
    this.child.once('exit', (code, signal) => {
      this.exited = true;
      this.failure?.(new Error(`${script} exited (code ${code}, signal ${signal}) while a request was pending; stderr: ${this.stderrTail.trim()}`));
    });
  }

  private onData(chunk: string): void {
    this.buffered += chunk;
    let newline = this.buffered.indexOf('\n');
    while (newline !== -1) {
      const line = this.buffered.slice(0, newline);
      this.buffered = this.buffered.slice(newline + 1);
      const deliver = this.waiting;
      this.waiting = null;
      this.failure = null;
      if (deliver !== null) deliver(line);
      newline = this.buffered.indexOf('\n');
    }
  }

  /** Send one line and resolve with the next line the server writes. */
  exchange(line: string): Promise<string> {
    if (this.exited) return Promise.reject(new Error(`server process ${this.pid} has exited; stderr: ${this.stderrTail.trim()}`));
    return new Promise((resolve, reject) => {
      this.waiting = resolve;
      this.failure = reject;
      this.child.stdin?.write(line + '\n');
    });
  }

  peakRssKb(): number {
    return peakRssKb(this.pid);
  }

  stderr(): string {
    return this.stderrTail;
  }

  async close(): Promise<void> {
    this.child.stdin?.end();
    await stopProcess(this.child);
  }
}

/** Bound a promise in time, so a silent server cannot hang the benchmark. */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms} ms`)), ms); });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}
