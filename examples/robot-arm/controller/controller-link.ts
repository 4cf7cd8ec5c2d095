/**
 * The server's side of one connection to the controller: the handshake (the controller must prove it
 * knows the secret too), requests with ids, a bound on outstanding ones and a deadline on each, the
 * state stream, and the heartbeat watchdog. The link is lost, once, with a reason, when the socket
 * closes, a frame is bad, or no state frame arrived for `heartbeatTimeoutMs`; every request still
 * outstanding then fails with that reason. A lost link is never reused: the supervisor makes a new one.
 */
import { connect, type Socket } from 'node:net';
import { clientProof, controllerProof, newNonce, proofMatches } from './controller-auth.js';
import { CONTROLLER_PROTOCOL, DEFAULT_HEARTBEAT_TIMEOUT_MS, HANDSHAKE_TIMEOUT_MS, MAX_PENDING_REQUESTS, parseControllerMessage, type ControllerState, type OperationName, type WireMotionReport } from './controller-protocol.js';
import { encodeFrame, FrameReader } from './frame-codec.js';

/** A request the controller refused, or that could not be answered (code `controller_unreachable`, ...). */
export class ControllerRequestError extends Error {
  constructor(readonly code: string, message: string) {
    super(message);
    this.name = 'ControllerRequestError';
  }
}

export interface ControllerLinkEvents {
  state(state: ControllerState): void;
  progress(motionId: string, fraction: number): void;
  report(report: WireMotionReport): void;
  /** Once, when the link is gone for good. */
  lost(reason: string): void;
}

export interface ControllerLinkOptions {
  readonly socketPath: string;
  readonly secret: string;
  readonly heartbeatTimeoutMs?: number;
  /** Deadline of one request, ms (default 2000). */
  readonly requestTimeoutMs?: number;
}

interface Pending {
  resolve(result: Record<string, unknown>): void;
  reject(error: ControllerRequestError): void;
  timer: NodeJS.Timeout;
}

export class ControllerLink {
  /** The controller's pid as it reported it in its welcome. */
  controllerPid = 0;
  private readonly socket: Socket;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private lostReason: string | null = null;
  private watchdog: NodeJS.Timeout | null = null;
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
  static open(options: ControllerLinkOptions): Promise<{ link: ControllerLink; state: ControllerState }> {
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
        reject(new ControllerRequestError('controller_unreachable', why));
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
          resolve({ link, state: message.state });
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

  on(events: Partial<ControllerLinkEvents>): void {
    this.listeners = events;
  }

  /** Sends one request; rejects with the controller's refusal, or `controller_unreachable` / `too_many_pending`. */
  request(op: OperationName, args: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
    if (this.lostReason !== null) return Promise.reject(new ControllerRequestError('controller_unreachable', `controller unreachable: ${this.lostReason}`));
    if (this.pending.size >= MAX_PENDING_REQUESTS) {
      return Promise.reject(new ControllerRequestError('too_many_pending', `${MAX_PENDING_REQUESTS} requests to the controller are already outstanding; ${op} was not sent`));
    }
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new ControllerRequestError('controller_unreachable', `controller unreachable: no answer to ${op} within ${this.requestTimeoutMs} ms`));
      }, this.requestTimeoutMs);
      this.pending.set(id, { resolve, reject, timer });
      this.socket.write(encodeFrame({ type: 'request', id, op, args }));
    });
  }

  /** Closes the link on purpose (no `lost` event). */
  close(): void {
    this.listeners = {};
    this.lose('closed by the server');
  }

  private armWatchdog(): void {
    this.watchdog = setTimeout(() => this.lose(`no heartbeat from the controller for ${this.heartbeatTimeoutMs} ms`), this.heartbeatTimeoutMs);
  }

  private receive(frame: Record<string, unknown>): void {
    if (this.lostReason !== null) return;
    const message = parseControllerMessage(frame);
    if ('problem' in message) return this.lose(`bad message from the controller: ${message.problem}`);
    switch (message.type) {
      case 'state':
        this.watchdog?.refresh();
        this.listeners.state?.(message.state);
        return;
      case 'response': {
        const entry = this.pending.get(message.id);
        if (entry === undefined) return;
        this.pending.delete(message.id);
        clearTimeout(entry.timer);
        if (message.ok) entry.resolve(message.result);
        else entry.reject(new ControllerRequestError(message.error.code, message.error.message));
        return;
      }
      case 'motion_progress':
        this.listeners.progress?.(message.motionId, message.fraction);
        return;
      case 'motion_report':
        this.listeners.report?.(message.report);
        return;
      case 'error': {
        const entry = message.id === undefined ? undefined : this.pending.get(message.id);
        if (entry !== undefined && message.id !== undefined) {
          this.pending.delete(message.id);
          clearTimeout(entry.timer);
          entry.reject(new ControllerRequestError(message.code, message.message));
          return;
        }
        return this.lose(`the controller reported ${message.code}: ${message.message}`);
      }
      default:
        return this.lose(`unexpected ${message.type} from the controller after the handshake`);
    }
  }

  private lose(reason: string): void {
    if (this.lostReason !== null) return;
    this.lostReason = reason;
    if (this.watchdog !== null) clearTimeout(this.watchdog);
    this.socket.destroy();
    for (const [id, entry] of this.pending) {
      clearTimeout(entry.timer);
      entry.reject(new ControllerRequestError('controller_unreachable', `controller unreachable: ${reason}`));
      this.pending.delete(id);
    }
    this.listeners.lost?.(reason);
  }
}
