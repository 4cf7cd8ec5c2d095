/**
 * The messages of the controller socket (docs/robot-controller-protocol.md is the prose version):
 * their types, the limits both ends enforce, and the checks that turn an untrusted frame into a typed
 * message or a specific error. Both ends validate everything they receive; nothing here throws.
 */
import { isJsonObject } from 'toolwright';
import type { ArmFault, ArmFaultKind, ArmSample, ArmState, ArmStatus, MotionProgress } from '../driver/arm-driver.js';
import type { EmergencyStopInfo } from '../server/robot-controller.js';
import type { Vec3 } from '../sim/vector3.js';
import { isHex256 } from './controller-auth.js';

/** Protocol revision in hello; a server refuses a controller speaking another one. */
export const CONTROLLER_PROTOCOL = 1;
/** Requests a server may have outstanding on one connection; more are answered `too_many_pending`. */
export const MAX_PENDING_REQUESTS = 16;
/** The controller sends state at least this often while the arm moves (50 Hz). */
export const MOVING_STATE_PERIOD_MS = 20;
/** ... and this often while idle: the heartbeat. */
export const IDLE_STATE_PERIOD_MS = 100;
/** A peer that has not finished the handshake within this is disconnected. */
export const HANDSHAKE_TIMEOUT_MS = 2000;
/**
 * The server calls the controller lost after this long without a state frame (20 idle heartbeats).
 * Not lower by default: before it moves, the controller re-checks the path against the scene (a
 * collision check of every 4 ms sample) in one synchronous step, and on a 2-core machine at load 16
 * that kept it from sending for over a second. A dead controller is seen at once anyway (the socket
 * closes); this bound is for a hung one. RemoteArmDriver takes a tighter one (tests use 500 ms idle).
 * Measured (packages/robot-arm/bench/controller-stall.ts, 300 s of back-to-back motions while the
 * robot test suite ran on the same 2 cores): longest gap between state frames 524 ms, p99.9 181 ms.
 * That rules out 500 ms; with the earlier >1 s observation at load 16 it does not justify going below 2 s.
 */
export const DEFAULT_HEARTBEAT_TIMEOUT_MS = 2000;

/** Error codes of the protocol itself (arm refusals reuse the simulator's codes: busy, estop_latched, ...). */
export type ProtocolErrorCode =
  | 'frame_too_large'
  | 'bad_json'
  | 'bad_message'
  | 'not_authenticated'
  | 'auth_failed'
  | 'auth_timeout'
  | 'unknown_op'
  | 'bad_args'
  | 'too_many_pending'
  | 'duplicate_id'
  | 'no_presence_sensor'
  | 'internal';

/** The arm's status as the controller reports it: the driver's {@link ArmStatus} without `asOf` (the receiver's clock). */
export type WireArmStatus = Omit<ArmStatus, 'asOf'>;

/** What the controller reports with every status: its own persisted e-stop latch, or null. */
export type WireLatch = EmergencyStopInfo | null;

export type OperationName = 'status' | 'execute' | 'cancel' | 'stop' | 'grasp' | 'release' | 'read_ft' | 'camera' | 'reset_estop' | 'clear_fault' | 'set_presence';
export const OPERATIONS: ReadonlySet<string> = new Set<OperationName>(['status', 'execute', 'cancel', 'stop', 'grasp', 'release', 'read_ft', 'camera', 'reset_estop', 'clear_fault', 'set_presence']);

/** Server → controller. */
export type ServerMessage =
  | { readonly type: 'auth'; readonly nonce: string; readonly mac: string }
  | { readonly type: 'request'; readonly id: number; readonly op: OperationName; readonly args: Record<string, unknown> };

/** A refused or failed request: the driver's {@link ArmFault}, or a protocol error (kind `rejected`, code as in {@link ProtocolErrorCode}). */
export interface WireError {
  readonly kind: ArmFaultKind;
  readonly code?: string;
  readonly message: string;
}

/** A motion's progress as sent: the driver's {@link MotionProgress}. */
export type WireProgress = MotionProgress;

/** Controller → server. */
export type ControllerMessage =
  | { readonly type: 'hello'; readonly protocol: number; readonly controller: string; readonly nonce: string }
  | { readonly type: 'welcome'; readonly mac: string; readonly pid: number; readonly status: WireArmStatus; readonly latch: WireLatch }
  | { readonly type: 'state'; readonly seq: number; readonly status: WireArmStatus; readonly latch: WireLatch }
  | { readonly type: 'response'; readonly id: number; readonly ok: true; readonly result: Record<string, unknown> }
  | { readonly type: 'response'; readonly id: number; readonly ok: false; readonly error: WireError }
  | { readonly type: 'motion_progress'; readonly id: number; readonly progress: WireProgress }
  | { readonly type: 'fault'; readonly fault: ArmFault }
  | { readonly type: 'error'; readonly code: string; readonly message: string; readonly id?: number };

/** A message that failed validation. */
export interface MessageProblem {
  readonly problem: string;
}

const isFiniteNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isRequestId = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;
const isShortText = (v: unknown, max = 4096): v is string => typeof v === 'string' && v.length <= max;
const isNumberList = (v: unknown, max = 16): v is number[] => Array.isArray(v) && v.length <= max && v.every(isFiniteNumber);
const isVec3 = (v: unknown): v is Vec3 => isJsonObject(v) && isFiniteNumber(v.x) && isFiniteNumber(v.y) && isFiniteNumber(v.z);
const STATES: ReadonlySet<string> = new Set<ArmState>(['idle', 'moving', 'stopping', 'estop', 'fault']);
const FAULT_KINDS: ReadonlySet<string> = new Set<ArmFaultKind>(['disconnected', 'timeout', 'protective_stop', 'rejected']);

/** Checks a frame received by the controller. */
export function parseServerMessage(frame: Record<string, unknown>): ServerMessage | MessageProblem {
  if (frame.type === 'auth') {
    if (!isHex256(frame.nonce) || !isHex256(frame.mac)) return { problem: 'auth needs nonce and mac, each 64 lowercase hex digits' };
    return { type: 'auth', nonce: frame.nonce, mac: frame.mac };
  }
  if (frame.type === 'request') {
    if (!isRequestId(frame.id)) return { problem: 'a request needs an id (a non-negative integer)' };
    if (typeof frame.op !== 'string' || !OPERATIONS.has(frame.op)) return { problem: `unknown op ${JSON.stringify(frame.op)}; expected one of ${[...OPERATIONS].join(', ')}` };
    const args = frame.args ?? {};
    if (!isJsonObject(args)) return { problem: 'request args must be an object' };
    return { type: 'request', id: frame.id, op: frame.op as OperationName, args };
  }
  return { problem: `unknown message type ${JSON.stringify(frame.type)}; expected auth or request` };
}

function sampleProblem(v: unknown, what: string): string | null {
  if (!isJsonObject(v)) return `${what} must be an object`;
  if (typeof v.state !== 'string' || !STATES.has(v.state)) return `${what}.state ${JSON.stringify(v.state)} is not a known arm state`;
  if (!isFiniteNumber(v.timeMs)) return `${what}.timeMs must be a finite number`;
  if (!isNumberList(v.jointsDeg) || v.jointsDeg.length === 0 || !isNumberList(v.jointVelocitiesDegS) || !isNumberList(v.jointAccelerationsDegS2)) return `${what} needs jointsDeg, jointVelocitiesDegS and jointAccelerationsDegS2 (finite numbers)`;
  const tcp = v.tcp;
  if (!(isJsonObject(tcp) && isVec3(tcp) && isFiniteNumber(tcp.rollDeg) && isFiniteNumber(tcp.pitchDeg) && isFiniteNumber(tcp.yawDeg))) return `${what}.tcp must be a pose with finite x, y, z, rollDeg, pitchDeg, yawDeg`;
  if (!isVec3(v.tcpVelocityMmS) || !isFiniteNumber(v.tcpSpeedMmS)) return `${what} needs tcpVelocityMmS and tcpSpeedMmS`;
  return null;
}

/** `value` is a `T`: its checker found no problem. Narrows only what a checker has just looked at. */
function passed<T>(value: unknown, problem: string | null): value is T {
  return problem === null;
}

function faultProblem(f: unknown): string | null {
  if (!(isJsonObject(f) && typeof f.kind === 'string' && FAULT_KINDS.has(f.kind) && isShortText(f.message) && (f.code === undefined || isShortText(f.code, 64)))) return 'a fault must be { kind, message, code? } with a known kind';
  return null;
}

/** Checks the status a controller reports; a malformed one is a fault of the controller, not data. */
export function parseWireStatus(v: unknown): WireArmStatus | MessageProblem {
  const problem = statusProblem(v);
  if (!passed<WireArmStatus>(v, problem)) return { problem: problem ?? 'status is malformed' };
  return v;
}

function statusProblem(v: unknown): string | null {
  const problem = sampleProblem(v, 'status');
  if (problem !== null || !isJsonObject(v)) return problem ?? 'status must be an object';
  const s = v;
  if (!isShortText(s.presetId, 64) || !(s.heldObjectId === null || isShortText(s.heldObjectId, 64)) || typeof s.estopLatched !== 'boolean') return 'status needs presetId, heldObjectId and estopLatched';
  const m = s.motion;
  if (!(m === null || (isJsonObject(m) && isShortText(m.motionId, 64) && isShortText(m.phase, 32) && isFiniteNumber(m.elapsedS) && isFiniteNumber(m.durationS)))) return 'status.motion must be null or { motionId, phase, elapsedS, durationS }';
  if (!(s.fault === null || faultProblem(s.fault) === null)) return 'status.fault must be null or a fault { kind, message, code? }';
  const held = s.held;
  if (!(held === null || (isJsonObject(held) && isJsonObject(held.object) && isVec3(held.offsetInToolMm) && isNumberList(held.rotationInTool, 9) && held.rotationInTool.length === 9))) return 'status.held must be null or { object, offsetInToolMm, rotationInTool, liftOffFloorsMm? }';
  if (held !== null && held.liftOffFloorsMm !== undefined && !(isJsonObject(held.liftOffFloorsMm) && Object.keys(held.liftOffFloorsMm).length <= 80 && Object.values(held.liftOffFloorsMm).every(isFiniteNumber))) return 'status.held.liftOffFloorsMm must map at most 80 obstacle ids to finite millimetres';
  if (!(Array.isArray(s.objects) && s.objects.length <= 64 && s.objects.every((o) => isJsonObject(o) && isShortText(o.id, 64) && isVec3(o.position)))) return 'status.objects must be a list of at most 64 objects with id and position';
  if (!(Array.isArray(s.contacts) && s.contacts.length <= 64 && s.contacts.every(isJsonObject))) return 'status.contacts must be a list';
  return null;
}

function latchProblem(e: unknown): string | null {
  return e === null || (isJsonObject(e) && isShortText(e.reason) && isShortText(e.source, 32) && isShortText(e.at, 64)) ? null : 'latch must be null or { reason, source, at }';
}

/** Checks a frame received by the server. */
export function parseControllerMessage(frame: Record<string, unknown>): ControllerMessage | MessageProblem {
  switch (frame.type) {
    case 'hello':
      if (!isFiniteNumber(frame.protocol) || !isShortText(frame.controller, 64) || !isHex256(frame.nonce)) return { problem: 'hello needs protocol, controller and a 64-hex-digit nonce' };
      return { type: 'hello', protocol: frame.protocol, controller: frame.controller, nonce: frame.nonce };
    case 'welcome':
    case 'state': {
      const status = parseWireStatus(frame.status);
      if ('problem' in status) return status;
      const latch = latchProblem(frame.latch);
      if (latch !== null) return { problem: latch };
      const l = frame.latch as WireLatch;
      if (frame.type === 'welcome') {
        if (!isHex256(frame.mac) || !isRequestId(frame.pid)) return { problem: 'welcome needs mac and pid' };
        return { type: 'welcome', mac: frame.mac, pid: frame.pid, status, latch: l };
      }
      if (!isRequestId(frame.seq)) return { problem: 'state needs seq' };
      return { type: 'state', seq: frame.seq, status, latch: l };
    }
    case 'response':
      if (!isRequestId(frame.id)) return { problem: 'response needs id' };
      if (frame.ok === true && isJsonObject(frame.result)) return { type: 'response', id: frame.id, ok: true, result: frame.result };
      if (frame.ok === false && passed<WireError>(frame.error, faultProblem(frame.error))) return { type: 'response', id: frame.id, ok: false, error: frame.error };
      return { problem: 'response needs ok: true with result, or ok: false with error { kind, message, code? }' };
    case 'motion_progress': {
      const p = frame.progress;
      if (!(isRequestId(frame.id) && isJsonObject(p) && isShortText(p.motionId, 64) && isFiniteNumber(p.fraction) && isFiniteNumber(p.elapsedS) && Array.isArray(p.samples) && p.samples.length <= 1000)) return { problem: 'motion_progress needs id and progress { motionId, fraction, elapsedS, samples }' };
      for (const sample of p.samples) {
        const problem = sampleProblem(sample, 'progress sample');
        if (problem !== null) return { problem };
      }
      return { type: 'motion_progress', id: frame.id, progress: { motionId: p.motionId, fraction: Math.min(1, Math.max(0, p.fraction)), elapsedS: p.elapsedS, samples: p.samples as ArmSample[] } };
    }
    case 'fault': {
      const fault: unknown = frame.fault;
      const problem = faultProblem(fault);
      if (!passed<ArmFault>(fault, problem)) return { problem: problem ?? 'a fault is malformed' };
      return { type: 'fault', fault };
    }
    case 'error':
      if (!isShortText(frame.code, 64) || !isShortText(frame.message)) return { problem: 'error needs code and message' };
      return { type: 'error', code: frame.code, message: frame.message, ...(isRequestId(frame.id) ? { id: frame.id } : {}) };
    default:
      return { problem: `unknown message type ${JSON.stringify(frame.type)}` };
  }
}
