/**
 * The controller's side of the socket: per connection, the challenge-response handshake, then requests
 * answered in order, the state stream (50 Hz while moving, a heartbeat while idle) and motion
 * progress and reports. One authenticated connection commands the arm; a newer one replaces it
 * (the server reconnecting). Bad frames get a specific error and the connection is closed; nothing a
 * peer sends can throw out of here or move the arm before it has authenticated.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { chmodSync } from 'node:fs';
import { controllerProof, clientProof, newNonce, proofMatches } from './controller-auth.js';
import type { ControllerArm } from './controller-arm.js';
import { CONTROLLER_PROTOCOL, HANDSHAKE_TIMEOUT_MS, IDLE_STATE_PERIOD_MS, MOVING_STATE_PERIOD_MS, parseServerMessage, type ControllerMessage, type ProtocolErrorCode } from './controller-protocol.js';
import { encodeFrame, FrameReader } from './frame-codec.js';

/** A peer that lets this much unread data pile up (it stopped reading) is disconnected. */
const MAX_UNREAD_BYTES = 4 * 1024 * 1024;

interface Peer {
  readonly socket: Socket;
  readonly nonce: string;
  authenticated: boolean;
}

export class ControllerService {
  private readonly server: Server;
  private commander: Peer | null = null;
  private readonly peers = new Set<Peer>();
  private seq = 0;
  private lastStateAt = 0;
  private readonly heartbeat: NodeJS.Timeout;

  constructor(private readonly arm: ControllerArm, private readonly secret: string) {
    this.server = createServer((socket) => this.accept(socket));
    arm.on({
      frame: () => {
        if (performance.now() - this.lastStateAt >= MOVING_STATE_PERIOD_MS) {
          this.sendState();
          const motion = this.arm.sim.status().motion;
          if (motion !== null && motion.durationS > 0) this.sendCommander({ type: 'motion_progress', motionId: motion.motionId, fraction: Math.min(1, motion.elapsedS / motion.durationS) });
        }
      },
      report: (report) => {
        this.sendState();
        this.sendCommander({ type: 'motion_report', report });
      },
    });
    this.heartbeat = setInterval(() => {
      if (performance.now() - this.lastStateAt >= IDLE_STATE_PERIOD_MS - 5) this.sendState();
    }, IDLE_STATE_PERIOD_MS / 2);
  }

  /** Listens on a Unix socket at `path` (its directory must be private) and makes it owner-only (0600). */
  listen(path: string): Promise<void> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(path, () => {
        this.server.off('error', reject);
        chmodSync(path, 0o600);
        resolve();
      });
    });
  }

  close(): Promise<void> {
    clearInterval(this.heartbeat);
    for (const peer of this.peers) peer.socket.destroy();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private accept(socket: Socket): void {
    const peer: Peer = { socket, nonce: newNonce(), authenticated: false };
    this.peers.add(peer);
    const timer = setTimeout(() => this.refuse(peer, 'auth_timeout', `no valid auth within ${HANDSHAKE_TIMEOUT_MS} ms`), HANDSHAKE_TIMEOUT_MS);
    const reader = new FrameReader((frame) => this.receive(peer, frame, timer), (error) => this.refuse(peer, error.code, error.message));
    socket.on('data', (data) => reader.push(data));
    socket.on('error', () => socket.destroy());
    socket.on('close', () => {
      clearTimeout(timer);
      this.peers.delete(peer);
      if (this.commander === peer) this.commander = null;
    });
    this.send(peer, { type: 'hello', protocol: CONTROLLER_PROTOCOL, controller: 'robot-sim', nonce: peer.nonce });
  }

  private receive(peer: Peer, frame: Record<string, unknown>, timer: NodeJS.Timeout): void {
    // Frames after a refusal (same chunk) are not looked at.
    if (peer.socket.destroyed || peer.socket.writableEnded) return;
    const message = parseServerMessage(frame);
    if ('problem' in message) {
      if (!peer.authenticated) return this.refuse(peer, 'not_authenticated', `the first message must be a valid auth (${message.problem})`);
      const id = typeof frame.id === 'number' ? frame.id : undefined;
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
      this.send(peer, { type: 'welcome', mac: controllerProof(this.secret, peer.nonce, message.nonce), pid: process.pid, state: this.arm.state() });
      return;
    }
    if (!peer.authenticated) return this.refuse(peer, 'not_authenticated', 'authenticate first: nothing is accepted before a valid auth');
    let result: Record<string, unknown>;
    try {
      result = this.perform(message.op, message.args);
    } catch (error) {
      result = { ok: false, code: 'internal', message: `the controller failed: ${(error as Error).message}` };
    }
    if (result.ok === false) this.send(peer, { type: 'response', id: message.id, ok: false, error: { code: String(result.code), message: String(result.message) } });
    else this.send(peer, { type: 'response', id: message.id, ok: true, result });
    // Whatever a request changed is in the next state frame at once, not after the next period.
    this.sendState();
  }

  private perform(op: string, args: Record<string, unknown>): Record<string, unknown> {
    switch (op) {
      case 'status': return { ok: true, state: this.arm.state() };
      case 'execute': return this.arm.execute(args);
      case 'stop': {
        if (args.mode !== 'controlled' && args.mode !== 'emergency') return { ok: false, code: 'bad_args', message: 'stop mode must be controlled or emergency' };
        const reason = typeof args.reason === 'string' && args.reason.length <= 500 ? args.reason : `${args.mode} stop requested by the server`;
        return { ok: true, ...this.arm.stop(args.mode, reason) };
      }
      case 'grasp': return this.arm.grasp(args);
      case 'release': return this.arm.release();
      case 'read_ft': return this.arm.readForceTorque(args);
      case 'camera': return this.arm.camera();
      case 'reset_estop':
      case 'clear_fault': {
        if (!(typeof args.operator === 'string' && args.operator.trim() !== '' && args.operator.length <= 200)) return { ok: false, code: 'bad_args', message: 'an operator reset needs the operator\'s name' };
        return { ok: true, cleared: op === 'reset_estop' ? this.arm.resetEmergencyStop(args.operator) : this.arm.clearFault() };
      }
      default: return { ok: false, code: 'unknown_op', message: `unknown op ${op}` };
    }
  }

  private sendState(): void {
    this.lastStateAt = performance.now();
    this.sendCommander({ type: 'state', seq: this.seq++, state: this.arm.state() });
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
