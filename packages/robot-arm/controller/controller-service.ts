/**
 * The controller's side of the socket: it serves an {@link ArmDriver} (the arm the controller process
 * hosts) to one authenticated server. Per connection: the challenge-response handshake; then requests
 * (at most MAX_PENDING_REQUESTS in flight, a long one being a motion), the state stream (50 Hz while
 * moving, a heartbeat while idle), motion progress with every control sample, and faults. A newer
 * authenticated connection replaces the old one (the server reconnecting); when the commanding
 * connection goes away mid-motion, the controller brings the arm to a controlled stop, like a real
 * controller whose link watchdog trips. The controller keeps its own e-stop latch on disk, so a
 * restart of the controller keeps it. Bad frames get a specific error; nothing a peer sends can throw
 * out of here, and nothing reaches the arm before the peer has authenticated.
 */
import { chmodSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { ArmFaultError, type ArmDriver, type ArmStatus, type ForceTorqueRequest } from '../driver/arm-driver.js';
import type { LatchStore } from '../server/estop-latch-file.js';
import type { EmergencyStopInfo } from '../server/robot-controller.js';
import type { ArmPreset } from '../sim/arm-presets.js';
import { clientProof, controllerProof, newNonce, proofMatches } from './controller-auth.js';
import { CONTROLLER_PROTOCOL, HANDSHAKE_TIMEOUT_MS, IDLE_STATE_PERIOD_MS, MAX_PENDING_REQUESTS, MOVING_STATE_PERIOD_MS, parseServerMessage, type ControllerMessage, type ProtocolErrorCode, type WireArmStatus, type WireError } from './controller-protocol.js';
import { encodeFrame, FrameReader } from './frame-codec.js';
import { decodeTrajectory } from '../model/trajectory-wire.js';
import { presenceUpdateOf } from '../sim/presence-sensor.js';

/** A peer that lets this much unsent data pile up (it stopped reading) is disconnected. */
const MAX_UNREAD_BYTES = 4 * 1024 * 1024;

interface Peer {
  readonly socket: Socket;
  readonly nonce: string;
  authenticated: boolean;
  inFlight: number;
}

class RequestRefused extends Error {
  constructor(readonly error: WireError) {
    super(error.message);
  }
}

const refused = (code: ProtocolErrorCode | string, message: string): RequestRefused => new RequestRefused({ kind: 'rejected', code, message });

/** Drops `asOf`: the receiver stamps its own clock. */
export function toWireStatus(status: ArmStatus): WireArmStatus {
  const { asOf: _asOf, ...rest } = status;
  return rest;
}

export interface ControllerServiceOptions {
  readonly driver: ArmDriver;
  /** The preset the driver moves (to rebuild trajectories). */
  readonly preset: ArmPreset;
  readonly secret: string;
  /** The controller's own e-stop latch; null keeps it in memory only. */
  readonly latchStore: LatchStore | null;
}

export class ControllerService {
  private readonly server: Server;
  private readonly driver: ArmDriver;
  private readonly preset: ArmPreset;
  private readonly secret: string;
  private readonly latchStore: LatchStore | null;
  private latch: EmergencyStopInfo | null = null;
  private commander: Peer | null = null;
  private readonly peers = new Set<Peer>();
  private readonly motions = new Map<string, AbortController>();
  private seq = 0;
  private lastStateAt = 0;
  private readonly heartbeat: NodeJS.Timeout;
  private readonly unsubscribe: Array<() => void> = [];

  constructor(options: ControllerServiceOptions) {
    this.driver = options.driver;
    this.preset = options.preset;
    this.secret = options.secret;
    this.latchStore = options.latchStore;
    this.server = createServer((socket) => this.accept(socket));
    this.unsubscribe.push(
      this.driver.subscribe(() => {
        if (performance.now() - this.lastStateAt >= MOVING_STATE_PERIOD_MS) this.sendState();
      }),
      this.driver.onFault((fault) => this.sendCommander({ type: 'fault', fault })),
    );
    this.heartbeat = setInterval(() => {
      if (performance.now() - this.lastStateAt >= IDLE_STATE_PERIOD_MS - 5) this.sendState();
    }, IDLE_STATE_PERIOD_MS / 4);
  }

  /**
   * Re-applies a latch saved by an earlier run (the arm is stopped before the socket exists), then
   * listens on a Unix socket at `path` (its directory must be private) and makes it owner-only (0600).
   */
  async listen(path: string): Promise<void> {
    const saved = this.latchStore?.load() ?? null;
    if (saved !== null) {
      await this.driver.stop('emergency');
      this.latch = saved;
    }
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(path, () => {
        this.server.off('error', reject);
        chmodSync(path, 0o600);
        resolve();
      });
    });
  }

  get emergencyStop(): EmergencyStopInfo | null {
    return this.latch;
  }

  async close(): Promise<void> {
    clearInterval(this.heartbeat);
    for (const off of this.unsubscribe) off();
    for (const peer of this.peers) peer.socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(socket: Socket): void {
    const peer: Peer = { socket, nonce: newNonce(), authenticated: false, inFlight: 0 };
    this.peers.add(peer);
    const timer = setTimeout(() => this.refuse(peer, 'auth_timeout', `no valid auth within ${HANDSHAKE_TIMEOUT_MS} ms`), HANDSHAKE_TIMEOUT_MS);
    const reader = new FrameReader((frame) => this.receive(peer, frame, timer), (error) => this.refuse(peer, error.code, error.message));
    socket.on('data', (data) => reader.push(data));
    socket.on('error', () => socket.destroy());
    socket.on('close', () => {
      clearTimeout(timer);
      this.peers.delete(peer);
      if (this.commander === peer) {
        this.commander = null;
        // The link to the server is gone: no motion runs on without it.
        if (this.motions.size > 0) void this.driver.stop('controlled').catch(() => undefined);
      }
    });
    this.send(peer, { type: 'hello', protocol: CONTROLLER_PROTOCOL, controller: 'robot-sim', nonce: peer.nonce });
  }

  private receive(peer: Peer, frame: Record<string, unknown>, timer: NodeJS.Timeout): void {
    // Frames after a refusal (same chunk) are not looked at.
    if (peer.socket.destroyed || peer.socket.writableEnded) return;
    const message = parseServerMessage(frame);
    if ('problem' in message) {
      if (!peer.authenticated) return this.refuse(peer, 'not_authenticated', `the first message must be a valid auth (${message.problem})`);
      const id = typeof frame.id === 'number' && Number.isSafeInteger(frame.id) ? frame.id : undefined;
      const code: ProtocolErrorCode = message.problem.startsWith('unknown op') ? 'unknown_op' : 'bad_message';
      // A bad request is answered, not fatal: the connection stays usable.
      this.send(peer, { type: 'error', code, message: message.problem, ...(id !== undefined ? { id } : {}) });
      return;
    }
    if (message.type === 'auth') {
      if (peer.authenticated) return this.send(peer, { type: 'error', code: 'bad_message', message: 'already authenticated' });
      if (!proofMatches(clientProof(this.secret, peer.nonce, message.nonce), message.mac)) return this.refuse(peer, 'auth_failed', 'authentication failed: the proof does not match this controller\'s secret');
      clearTimeout(timer);
      peer.authenticated = true;
      const previous = this.commander;
      this.commander = peer;
      if (previous !== null) this.refuse(previous, 'bad_message', 'superseded by a newer authenticated connection');
      this.send(peer, { type: 'welcome', mac: controllerProof(this.secret, peer.nonce, message.nonce), pid: process.pid, status: toWireStatus(this.driver.status()), latch: this.latch });
      return;
    }
    if (!peer.authenticated) return this.refuse(peer, 'not_authenticated', 'authenticate first: nothing is accepted before a valid auth');
    if (peer.inFlight >= MAX_PENDING_REQUESTS) {
      this.send(peer, { type: 'response', id: message.id, ok: false, error: { kind: 'rejected', code: 'too_many_pending', message: `${MAX_PENDING_REQUESTS} requests are already in flight on this connection; ${message.op} was not performed` } });
      return;
    }
    peer.inFlight++;
    // The state frame goes before the answer: when the server sees the answer, it has the state after it.
    this.perform(peer, message.id, message.op, message.args).then(
      (result) => {
        peer.inFlight--;
        this.sendState();
        this.send(peer, { type: 'response', id: message.id, ok: true, result });
      },
      (error: unknown) => {
        peer.inFlight--;
        const wire: WireError = error instanceof RequestRefused ? error.error : error instanceof ArmFaultError ? error.fault : { kind: 'rejected', code: 'internal', message: `the controller failed: ${(error as Error).message}` };
        this.sendState();
        this.send(peer, { type: 'response', id: message.id, ok: false, error: wire });
      },
    );
  }

  private async perform(peer: Peer, id: number, op: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
    switch (op) {
      case 'status': return { status: toWireStatus(this.driver.status()), latch: this.latch };
      case 'execute': return this.execute(peer, id, args);
      case 'cancel': {
        if (typeof args.motionId !== 'string') throw refused('bad_args', 'cancel needs motionId');
        const motion = this.motions.get(args.motionId);
        motion?.abort();
        return { cancelled: motion !== undefined };
      }
      case 'stop': {
        if (args.mode !== 'controlled' && args.mode !== 'emergency') throw refused('bad_args', 'stop mode must be controlled or emergency');
        const reason = typeof args.reason === 'string' && args.reason.length <= 500 ? args.reason : `${args.mode} stop requested by the server`;
        // The stop is applied inside this call; the latch goes to disk right after, before any await,
        // so it is saved before the answer and before the state frame that precedes it.
        const stopping = this.driver.stop(args.mode);
        let latchSaved = true;
        if (args.mode === 'emergency' && this.latch === null) {
          this.latch = { reason, source: 'stop_arm', at: new Date().toISOString() };
          try {
            this.latchStore?.save(this.latch);
          } catch {
            latchSaved = false;
          }
        }
        return { report: await stopping, latchSaved };
      }
      case 'grasp':
        if (typeof args.forceN !== 'number') throw refused('bad_args', 'grasp needs forceN (newtons)');
        if (!(args.strategy === undefined || args.strategy === 'parallel' || args.strategy === 'suction' || args.strategy === 'adaptive')) throw refused('bad_args', 'grasp strategy must be parallel, suction or adaptive');
        return { outcome: await this.driver.grasp({ forceN: args.forceN, ...(args.strategy !== undefined ? { strategy: args.strategy } : {}) }) };
      case 'release': return { outcome: await this.driver.release() };
      case 'read_ft': return { reading: await this.driver.readForceTorque(args as ForceTorqueRequest) };
      case 'camera': return { detections: await this.driver.captureCamera() };
      case 'reset_estop':
        // Cleared on disk first: if that fails, the reset fails and the arm stays latched.
        this.latchStore?.save(null);
        this.latch = null;
        await this.driver.resetEmergencyStop();
        return {};
      case 'clear_fault':
        await this.driver.clearFault();
        return {};
      case 'set_presence': {
        // The simulated presence sensor's input, from the operator through the server.
        const update = presenceUpdateOf(args);
        if (typeof update === 'string') throw refused('bad_args', update);
        if (this.driver.setPresence === undefined) throw refused('no_presence_sensor', 'this controller has no presence sensor to set');
        return { presence: await this.driver.setPresence(update) };
      }
      default: throw refused('unknown_op', `unknown op ${op}`);
    }
  }

  private async execute(peer: Peer, id: number, args: Record<string, unknown>): Promise<Record<string, unknown>> {
    const motionId = args.motionId;
    if (typeof motionId !== 'string' || !/^[A-Za-z0-9._:-]{1,64}$/.test(motionId)) throw refused('bad_args', 'execute needs motionId (1-64 of A-Z a-z 0-9 . _ : -)');
    const contacts = args.contactAllowedWith ?? [];
    if (!(Array.isArray(contacts) && contacts.length <= 16 && contacts.every((c) => typeof c === 'string' && c.length <= 64))) throw refused('bad_args', 'contactAllowedWith must be a list of at most 16 object ids');
    const decoded = decodeTrajectory(args.trajectory, this.preset);
    if ('code' in decoded) throw refused(decoded.code, decoded.message);
    if (this.latch !== null) throw refused('estop_latched', `the emergency stop is latched on the controller (${this.latch.reason}); only an operator can clear it`);
    if (this.motions.has(motionId)) throw refused('duplicate_id', `motion ${motionId} is already running`);
    const abort = new AbortController();
    this.motions.set(motionId, abort);
    // A heartbeat right before the start: the driver's own re-check of the path blocks this process for a while.
    this.sendState();
    try {
      const end = await this.driver.execute(decoded.trajectory, {
        motionId,
        signal: abort.signal,
        contactAllowedWith: contacts as string[],
        onProgress: (progress) => this.send(peer, { type: 'motion_progress', id, progress }),
      });
      return { end: { ...end, final: toWireStatus(end.final) } };
    } finally {
      this.motions.delete(motionId);
    }
  }

  private sendState(): void {
    this.lastStateAt = performance.now();
    if (this.commander !== null) this.send(this.commander, { type: 'state', seq: this.seq++, status: toWireStatus(this.driver.status()), latch: this.latch });
  }

  private sendCommander(message: ControllerMessage): void {
    if (this.commander !== null) this.send(this.commander, message);
  }

  private send(peer: Peer, message: ControllerMessage): void {
    if (peer.socket.destroyed || !peer.socket.writable) return;
    if (peer.socket.writableLength > MAX_UNREAD_BYTES) {
      peer.socket.destroy();
      return;
    }
    peer.socket.write(encodeFrame(message));
  }

  private refuse(peer: Peer, code: ProtocolErrorCode, message: string): void {
    if (peer.socket.destroyed || peer.socket.writableEnded) return;
    if (this.commander === peer) this.commander = null;
    peer.socket.end(encodeFrame({ type: 'error', code, message }));
    // A peer that does not read its error is not waited for.
    setTimeout(() => peer.socket.destroy(), 200).unref();
  }
}
