/**
 * Keeps the `robot-sim` controller process running for the server: spawns it with a fresh secret on
 * an inherited pipe (fd 3) and stdin as its lifeline, in a private directory (0700) for the socket,
 * connects and authenticates, and when the link is lost (process died, socket closed, no heartbeat)
 * kills what is left of that process and starts a new one after a backoff (doubling from 100 ms to
 * 5 s, reset once a controller stayed up for 10 s). Listeners learn of every connection (with the
 * state the controller reports, to be re-read, never assumed) and every loss (with its reason).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ArmPresetId } from '../sim/arm-presets.js';
import { newSecret } from './controller-auth.js';
import { makeControllerDirectory } from './controller-directory.js';
import { ControllerLink, type ControllerReport } from './controller-link.js';
import { DEFAULT_HEARTBEAT_TIMEOUT_MS } from './controller-protocol.js';
import { READY_PREFIX, SECRET_FD } from './robot-sim.js';
import { checkOption } from '../server/robot-settings.js';

const ROBOT_SIM_SCRIPT = fileURLToPath(new URL('./robot-sim.ts', import.meta.url));
const FIRST_BACKOFF_MS = 100;
const MAX_BACKOFF_MS = 5000;
const STABLE_AFTER_MS = 10_000;

export interface ControllerSupervisorOptions {
  readonly preset: ArmPresetId;
  /** The controller's own e-stop latch file (kept across controller restarts). */
  readonly latchPath: string;
  /** Where the controller keeps the arm's pose (a restarted controller starts there). */
  readonly posePath: string;
  /** Simulated seconds per wall-clock second in the controller (default 1). */
  readonly timeScale?: number;
  readonly seed?: number;
  /**
   * How long the controller may stay silent (no state frame) before it is called lost and replaced, ms:
   * 300 to 60 000, default 2000 (`DEFAULT_HEARTBEAT_TIMEOUT_MS`). A dead controller is seen at once.
   */
  readonly heartbeatTimeoutMs?: number;
  /** How long one start may take until the socket is ready, ms (default 20 000: tsx compiles on start). */
  readonly startTimeoutMs?: number;
  /** Where the controller's stderr goes (default: this process's stderr). */
  readonly log?: (line: string) => void;
}

export interface SupervisorEvents {
  connected(link: ControllerLink, report: ControllerReport): void;
  lost(reason: string): void;
}

export class ControllerSupervisor {
  /** The private directory holding the socket (0700). */
  readonly directory: string;
  readonly socketPath: string;
  private child: ChildProcess | null = null;
  private link: ControllerLink | null = null;
  private closed = false;
  private backoffMs = FIRST_BACKOFF_MS;
  private restartTimer: NodeJS.Timeout | null = null;
  private startedAt = 0;
  private starts = 0;
  private readonly listeners: Array<Partial<SupervisorEvents>> = [];
  private readonly removeDirectory: () => void;

  constructor(private readonly options: ControllerSupervisorOptions) {
    // Checked here, before a process or a directory exists: a bad bound is the caller's error, not a crash loop.
    for (const name of ['timeScale', 'heartbeatTimeoutMs', 'startTimeoutMs', 'seed'] as const) {
      const value = options[name];
      if (value !== undefined) checkOption(name, value);
    }
    const made = makeControllerDirectory();
    this.directory = made.directory;
    this.removeDirectory = made.remove;
    this.socketPath = join(this.directory, 'controller.sock');
  }

  /** The pid of the controller process now running, or null. */
  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  /** How many controller processes were started so far. */
  get startCount(): number {
    return this.starts;
  }

  get timeScale(): number {
    return this.options.timeScale ?? 1;
  }

  /** The bound on the controller's silence, ms. */
  get heartbeatTimeoutMs(): number {
    return this.options.heartbeatTimeoutMs ?? DEFAULT_HEARTBEAT_TIMEOUT_MS;
  }

  on(events: Partial<SupervisorEvents>): void {
    this.listeners.push(events);
  }

  /** Starts the first controller; resolves once it is connected (rejects if that first start fails). */
  start(): Promise<void> {
    return this.launch();
  }

  /** Stops the controller (SIGTERM: controlled stop, then exit) and removes the socket directory. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.restartTimer !== null) clearTimeout(this.restartTimer);
    this.link?.close();
    this.link = null;
    const child = this.child;
    if (child !== null && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      const forced = setTimeout(() => child.kill('SIGKILL'), 3000);
      await exited;
      clearTimeout(forced);
    }
    this.removeDirectory();
  }

  private async launch(): Promise<void> {
    this.starts++;
    this.startedAt = performance.now();
    const args = ['--import', import.meta.resolve('tsx'), ROBOT_SIM_SCRIPT, '--socket', this.socketPath, '--latch-file', this.options.latchPath, '--pose-file', this.options.posePath, '--preset', this.options.preset, '--time-scale', String(this.timeScale)];
    if (this.options.seed !== undefined) args.push('--seed', String(this.options.seed));
    // Its own process group: Ctrl-C or a SIGTERM to the server's group reaches the server alone, which
    // stops the arm under control and then closes the controller (a dead server ends it through stdin).
    const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'pipe', 'pipe'], detached: true });
    this.child = child;
    const log = this.options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
    child.stderr!.setEncoding('utf8').on('data', (text: string) => {
      for (const line of text.split('\n')) if (line !== '') log(line);
    });
    const secretPipe = child.stdio[SECRET_FD] as NodeJS.WritableStream;
    secretPipe.on('error', () => undefined);
    const secret = newSecret();
    secretPipe.end(`${secret}\n`);
    child.stdin!.on('error', () => undefined);
    const exited = new Promise<string>((resolve) => child.once('exit', (code, signal) => resolve(signal !== null ? `the controller process (pid ${child.pid}) was killed by ${signal}` : `the controller process (pid ${child.pid}) exited with code ${code}`)));
    try {
      await this.waitReady(child, exited);
      const { link, report } = await ControllerLink.open({ socketPath: this.socketPath, secret, heartbeatTimeoutMs: this.heartbeatTimeoutMs });
      if (this.closed || child !== this.child) {
        link.close();
        return;
      }
      this.link = link;
      link.on({ lost: (reason) => this.onLost(child, reason) });
      void exited.then((reason) => this.onLost(child, reason));
      for (const l of this.listeners) l.connected?.(link, report);
    } catch (error) {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      throw error;
    }
  }

  private waitReady(child: ChildProcess, exited: Promise<string>): Promise<void> {
    const timeoutMs = this.options.startTimeoutMs ?? 20_000;
    return new Promise((resolve, reject) => {
      let seen = '';
      const timer = setTimeout(() => reject(new Error(`robot-sim did not get ready within ${timeoutMs} ms`)), timeoutMs);
      child.stdout!.setEncoding('utf8').on('data', (text: string) => {
        seen += text;
        if (seen.length > 4096) seen = seen.slice(-4096);
        if (seen.split('\n').some((line) => line.startsWith(READY_PREFIX))) {
          clearTimeout(timer);
          resolve();
        }
      });
      void exited.then((reason) => {
        clearTimeout(timer);
        reject(new Error(`robot-sim did not start: ${reason}`));
      });
    });
  }

  private onLost(child: ChildProcess, reason: string): void {
    if (this.closed || child !== this.child || this.link === null) return;
    this.link.close();
    this.link = null;
    // A controller that stopped answering is not waited for: its latch file keeps what matters.
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    for (const l of this.listeners) l.lost?.(reason);
    if (performance.now() - this.startedAt > STABLE_AFTER_MS) this.backoffMs = FIRST_BACKOFF_MS;
    this.scheduleRestart();
  }

  private scheduleRestart(): void {
    if (this.closed) return;
    const delay = this.backoffMs;
    this.backoffMs = Math.min(MAX_BACKOFF_MS, this.backoffMs * 2);
    this.restartTimer = setTimeout(() => {
      this.restartTimer = null;
      // A failed start is retried with the next backoff, for as long as the server runs.
      this.launch().catch((error: unknown) => {
        (this.options.log ?? ((line: string) => process.stderr.write(`${line}\n`)))(`robot-arm: controller restart failed: ${(error as Error).message}`);
        this.scheduleRestart();
      });
    }, delay);
  }
}
