/**
 * The server's side of one connection to the controller: the handshake (the controller must prove it
 * knows the secret too), requests with ids, a bound on outstanding ones and a deadline on each, the
 * state stream, and the heartbeat watchdog. The link is lost, once, with a reason, when the socket
 * closes, a frame is bad, or no state frame arrived for `heartbeatTimeoutMs`; every request still
 * outstanding then fails with that reason. A lost link is never reused: the supervisor makes a new one.
 */
import { connect, type Socket } from 'node:net';
import { clientProof, controllerProof, newNonce, proofMatches } from './controller-auth.js';
import { ArmFaultError, type ArmFault, type MotionProgress } from '../driver/arm-driver.js';
import { CONTROLLER_PROTOCOL, DEFAULT_HEARTBEAT_TIMEOUT_MS, HANDSHAKE_TIMEOUT_MS, MAX_PENDING_REQUESTS, parseControllerMessage, type OperationName, type WireArmStatus, type WireLatch } from './controller-protocol.js';
import { encodeFrame, FrameReader } from './frame-codec.js';

/** The controller as it reported itself: its status and its own e-stop latch. */
export interface ControllerReport {
  readonly status: WireArmStatus;
  readonly latch: WireLatch;
}

export interface ControllerLinkEvents {
  state(report: ControllerReport): void;
  fault(fault: ArmFault): void;
  /** Once, when the link is gone for good. */
  lost(reason: string): void;
}

export interface RequestOptions {
  /** Deadline of the answer, ms; null for a motion (it answers when the arm is at rest; the heartbeat watches it). */
  readonly timeoutMs?: number | null;
  readonly onProgress?: (progress: MotionProgress) => void;
}

const unreachable = (reason: string): ArmFaultError => new ArmFaultError({ kind: 'disconnected', code: 'controller_unreachable', message: `controller unreachable: ${reason}` });

export interface ControllerLinkOptions {
  readonly socketPath: string;
  readonly secret: string;
  readonly heartbeatTimeoutMs?: number;
  /** Deadline of one request, ms (default 2000). */
  readonly requestTimeoutMs?: number;
}

interface Pending {
  resolve(result: Record<string, unknown>): void;
  reject(error: ArmFaultError): void;
  timer: NodeJS.Timeout | null;
  onProgress: ((progress: MotionProgress) => void) | undefined;
}

export class ControllerLink {
  /** The controller's pid as it reported it in its welcome. */
  controllerPid = 0;
  private readonly socket: Socket;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private lostReason: string | null = null;
  private watchdog: NodeJS.Timeout | null = null;
  private lastStateAt = 0;
  private readonly heartbeatTimeoutMs: number;
  private readonly requestTimeoutMs: number;
  private listeners: Partial<ControllerLinkEvents> = {};

  private constructor(socket: Socket, options: ControllerLinkOptions) {
    this.socket = socket;
    this.heartbeatTimeoutMs = options.heartbeatTimeoutMs ?? DEFAULT_HEARTBEAT_TIMEOUT_MS;
    this.requestTimeoutMs = options.requestTimeoutMs ?? 2000;
  }

  /**
   * Connects and authenticates both ways; resolves with the link and the controller's state as it
   * reports it (the server re-reads it on every connection, never assumes it).
   */
  static open(options: ControllerLinkOptions): Promise<{ link: ControllerLink; report: ControllerReport }> {
    return new Promise((resolve, reject) => {
      const socket = connect(options.socketPath);
      const link = new ControllerLink(socket, options);
      let controllerNonce: string | null = null;
      const clientNonce = newNonce();
      let settled = false;
      const failOpen = (why: string): void => {
        if (settled) return;
        settled = true;
        clearTimeout(deadline);
        socket.destroy();
        reject(unreachable(why));
      };
      const deadline = setTimeout(() => failOpen(`the controller did not complete the handshake within ${HANDSHAKE_TIMEOUT_MS} ms`), HANDSHAKE_TIMEOUT_MS);
      const reader = new FrameReader((frame) => {
        if (settled) return link.receive(frame);
        const message = parseControllerMessage(frame);
        if ('problem' in message) return failOpen(`bad handshake frame from the controller: ${message.problem}`);
        if (message.type === 'error') return failOpen(`the controller refused the connection: ${message.code}: ${message.message}`);
        if (message.type === 'hello' && controllerNonce === null) {
          if (message.protocol !== CONTROLLER_PROTOCOL) return failOpen(`the controller speaks protocol ${message.protocol}, this server ${CONTROLLER_PROTOCOL}`);
          controllerNonce = message.nonce;
          socket.write(encodeFrame({ type: 'auth', nonce: clientNonce, mac: clientProof(options.secret, controllerNonce, clientNonce) }));
          return;
        }
        if (message.type === 'welcome' && controllerNonce !== null) {
          if (!proofMatches(controllerProof(options.secret, controllerNonce, clientNonce), message.mac)) return failOpen('the peer on the controller socket could not prove it knows the secret; not a controller this server started');
          settled = true;
          clearTimeout(deadline);
          link.controllerPid = message.pid;
          link.armWatchdog();
          resolve({ link, report: { status: message.status, latch: message.latch } });
          return;
        }
        failOpen(`unexpected ${message.type} during the handshake`);
      }, (error) => (settled ? link.lose(`bad frame from the controller: ${error.code}: ${error.message}`) : failOpen(`bad frame from the controller: ${error.message}`)));
      socket.on('data', (data) => reader.push(data));
      socket.on('error', (error) => (settled ? link.lose(`controller socket error: ${error.message}`) : failOpen(`cannot connect to the controller: ${error.message}`)));
      socket.on('close', () => (settled ? link.lose('the controller closed the connection') : failOpen('the controller closed the connection during the handshake')));
    });
  }

  /** Null while the link works; the reason once it is lost. */
  get lost(): string | null {
    return this.lostReason;
  }

  /** Adds listeners (the supervisor listens for `lost`, the driver for state and faults). */
  on(events: Partial<ControllerLinkEvents>): void {
    this.listeners = { ...this.listeners, ...events };
  }

  /**
   * Sends one request. Rejects only with {@link ArmFaultError}: the controller's refusal as it sent it,
   * `disconnected` (code `controller_unreachable`) when the link is or gets lost, `timeout` past the
   * deadline, `rejected` / `too_many_pending` when MAX_PENDING_REQUESTS are outstanding (not sent).
   */
  request(op: OperationName, args: Record<string, unknown> = {}, options: RequestOptions = {}): Promise<Record<string, unknown>> {
    if (this.lostReason !== null) return Promise.reject(unreachable(this.lostReason));
    if (this.pending.size >= MAX_PENDING_REQUESTS) {
      return Promise.reject(new ArmFaultError({ kind: 'rejected', code: 'too_many_pending', message: `${MAX_PENDING_REQUESTS} requests to the controller are already outstanding; ${op} was not sent` }));
    }
    const id = this.nextId++;
    const timeoutMs = options.timeoutMs === undefined ? this.requestTimeoutMs : options.timeoutMs;
    return new Promise((resolve, reject) => {
      const timer = timeoutMs === null ? null : setTimeout(() => {
        this.pending.delete(id);
        reject(new ArmFaultError({ kind: 'timeout', code: 'controller_timeout', message: `the controller did not answer ${op} within ${timeoutMs} ms` }));
      }, timeoutMs);
      this.pending.set(id, { resolve, reject, timer, onProgress: options.onProgress });
      this.socket.write(encodeFrame({ type: 'request', id, op, args }));
    });
  }

  /** Closes the link on purpose (no `lost` event). */
  close(): void {
    this.listeners = {};
    this.lose('closed by the server');
  }

  /**
   * Every state frame counts as a heartbeat. When the bound passes, the verdict waits for one
   * setImmediate: after this process's own event loop was blocked (planning can take half a
   * CPU-second), timers run before pending socket data is read, and a frame already received by the
   * kernel must not count as missing.
   */
  private armWatchdog(): void {
    this.lastStateAt = performance.now();
    const check = (): void => {
      setImmediate(() => {
        if (this.lostReason !== null) return;
        const age = performance.now() - this.lastStateAt;
        if (age >= this.heartbeatTimeoutMs) this.lose(`no heartbeat from the controller for ${this.heartbeatTimeoutMs} ms`);
        else this.watchdog = setTimeout(check, this.heartbeatTimeoutMs - age);
      });
    };
    this.watchdog = setTimeout(check, this.heartbeatTimeoutMs);
  }

  private receive(frame: Record<string, unknown>): void {
    if (this.lostReason !== null) return;
    const message = parseControllerMessage(frame);
    if ('problem' in message) return this.lose(`bad message from the controller: ${message.problem}`);
    switch (message.type) {
      case 'state':
        this.lastStateAt = performance.now();
        this.listeners.state?.({ status: message.status, latch: message.latch });
        return;
      case 'response': {
        const entry = this.settle(message.id);
        if (entry === undefined) return;
        if (message.ok) entry.resolve(message.result);
        else entry.reject(new ArmFaultError(message.error));
        return;
      }
      case 'motion_progress':
        this.pending.get(message.id)?.onProgress?.(message.progress);
        return;
      case 'fault':
        this.listeners.fault?.(message.fault);
        return;
      case 'error': {
        const entry = message.id === undefined ? undefined : this.settle(message.id);
        if (entry !== undefined) return entry.reject(new ArmFaultError({ kind: 'rejected', code: message.code, message: message.message }));
        return this.lose(`the controller reported ${message.code}: ${message.message}`);
      }
      default:
        return this.lose(`unexpected ${message.type} from the controller after the handshake`);
    }
  }

  private settle(id: number): Pending | undefined {
    const entry = this.pending.get(id);
    if (entry === undefined) return undefined;
    this.pending.delete(id);
    if (entry.timer !== null) clearTimeout(entry.timer);
    return entry;
  }

  private lose(reason: string): void {
    if (this.lostReason !== null) return;
    this.lostReason = reason;
    if (this.watchdog !== null) clearTimeout(this.watchdog);
    this.socket.destroy();
    for (const id of [...this.pending.keys()]) this.settle(id)?.reject(unreachable(reason));
    this.listeners.lost?.(reason);
  }
}
