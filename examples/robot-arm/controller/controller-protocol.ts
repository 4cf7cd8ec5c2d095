/**
 * The messages of the controller socket (docs/robot-controller-protocol.md is the prose version):
 * their types, the limits both ends enforce, and the checks that turn an untrusted frame into a typed
 * message or a specific error. Both ends validate everything they receive; nothing here throws.
 */
import type { EmergencyStopInfo } from '../server/robot-controller.js';
import type { SimFault, SimState } from '../sim/robot-simulation.js';
import type { SceneObjectState } from '../sim/scene-objects.js';
import type { TcpPose } from '../sim/forward-kinematics.js';
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
/** The server calls the controller lost after this long without a state frame (5 idle heartbeats). */
export const DEFAULT_HEARTBEAT_TIMEOUT_MS = 500;

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
  | 'internal';

/** What the controller reports, in every state frame and in its welcome. */
export interface ControllerState {
  readonly state: SimState;
  /** The controller's clock (simulated time), ms. */
  readonly timeMs: number;
  readonly presetId: string;
  readonly jointsDeg: readonly number[];
  readonly jointVelocitiesDegS: readonly number[];
  readonly tcp: TcpPose;
  readonly tcpSpeedMmS: number;
  readonly heldObjectId: string | null;
  readonly motion: { readonly motionId: string; readonly elapsedS: number; readonly durationS: number } | null;
  readonly fault: SimFault | null;
  /** The controller's own e-stop latch (persisted by the controller). */
  readonly estop: EmergencyStopInfo | null;
  readonly objects: readonly SceneObjectState[];
}

export type OperationName = 'status' | 'execute' | 'stop' | 'grasp' | 'release' | 'read_ft' | 'camera' | 'reset_estop' | 'clear_fault';
export const OPERATIONS: ReadonlySet<string> = new Set<OperationName>(['status', 'execute', 'stop', 'grasp', 'release', 'read_ft', 'camera', 'reset_estop', 'clear_fault']);

/** Server → controller. */
export type ServerMessage =
  | { readonly type: 'auth'; readonly nonce: string; readonly mac: string }
  | { readonly type: 'request'; readonly id: number; readonly op: OperationName; readonly args: Record<string, unknown> };

/** How a motion ended, as the controller reports it. */
export interface WireMotionReport {
  readonly motionId: string;
  readonly status: 'completed' | 'stopped' | 'emergency_stopped' | 'protective_stop';
  readonly simulatedTimeS: number;
  readonly detail?: string;
}

/** Controller → server. */
export type ControllerMessage =
  | { readonly type: 'hello'; readonly protocol: number; readonly controller: string; readonly nonce: string }
  | { readonly type: 'welcome'; readonly mac: string; readonly pid: number; readonly state: ControllerState }
  | { readonly type: 'state'; readonly seq: number; readonly state: ControllerState }
  | { readonly type: 'response'; readonly id: number; readonly ok: true; readonly result: Record<string, unknown> }
  | { readonly type: 'response'; readonly id: number; readonly ok: false; readonly error: { readonly code: string; readonly message: string } }
  | { readonly type: 'motion_progress'; readonly motionId: string; readonly fraction: number }
  | { readonly type: 'motion_report'; readonly report: WireMotionReport }
  | { readonly type: 'error'; readonly code: string; readonly message: string; readonly id?: number };

/** A message that failed validation. */
export interface MessageProblem {
  readonly problem: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isFiniteNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isRequestId = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;
const isShortText = (v: unknown, max = 4096): v is string => typeof v === 'string' && v.length <= max;
const isNumberList = (v: unknown, max = 16): v is number[] => Array.isArray(v) && v.length <= max && v.every(isFiniteNumber);
const isVec3 = (v: unknown): v is Vec3 => isObject(v) && isFiniteNumber(v.x) && isFiniteNumber(v.y) && isFiniteNumber(v.z);
const STATES: ReadonlySet<string> = new Set<SimState>(['idle', 'moving', 'stopping', 'estop', 'fault']);

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
    if (!isObject(args)) return { problem: 'request args must be an object' };
    return { type: 'request', id: frame.id, op: frame.op as OperationName, args };
  }
  return { problem: `unknown message type ${JSON.stringify(frame.type)}; expected auth or request` };
}

/** Checks the state a controller reports; a malformed one is a fault of the controller, not data. */
export function parseControllerState(v: unknown): ControllerState | MessageProblem {
  if (!isObject(v)) return { problem: 'state must be an object' };
  if (typeof v.state !== 'string' || !STATES.has(v.state)) return { problem: `state.state ${JSON.stringify(v.state)} is not a known arm state` };
  if (!isFiniteNumber(v.timeMs) || !isShortText(v.presetId, 64)) return { problem: 'state needs timeMs and presetId' };
  if (!isNumberList(v.jointsDeg) || v.jointsDeg.length === 0 || !isNumberList(v.jointVelocitiesDegS)) return { problem: 'state needs jointsDeg and jointVelocitiesDegS (finite numbers)' };
  const tcp = v.tcp;
  if (!isVec3(tcp) || !isFiniteNumber(tcp.rollDeg) || !isFiniteNumber(tcp.pitchDeg) || !isFiniteNumber(tcp.yawDeg)) return { problem: 'state.tcp must be a pose with finite x, y, z, rollDeg, pitchDeg, yawDeg' };
  if (!isFiniteNumber(v.tcpSpeedMmS) || !(v.heldObjectId === null || isShortText(v.heldObjectId, 64))) return { problem: 'state needs tcpSpeedMmS and heldObjectId' };
  const m = v.motion;
  if (!(m === null || (isObject(m) && isShortText(m.motionId, 64) && isFiniteNumber(m.elapsedS) && isFiniteNumber(m.durationS)))) return { problem: 'state.motion must be null or { motionId, elapsedS, durationS }' };
  const f = v.fault;
  if (!(f === null || (isObject(f) && f.code === 'protective_stop' && isShortText(f.message) && isFiniteNumber(f.atMs)))) return { problem: 'state.fault must be null or a protective stop' };
  const e = v.estop;
  if (!(e === null || (isObject(e) && isShortText(e.reason) && isShortText(e.source, 32) && isShortText(e.at, 64)))) return { problem: 'state.estop must be null or { reason, source, at }' };
  if (!(Array.isArray(v.objects) && v.objects.length <= 64 && v.objects.every((o) => isObject(o) && isShortText(o.id, 64) && isVec3(o.position)))) return { problem: 'state.objects must be a list of objects with id and position' };
  return v as unknown as ControllerState;
}

/** Checks a frame received by the server. */
export function parseControllerMessage(frame: Record<string, unknown>): ControllerMessage | MessageProblem {
  switch (frame.type) {
    case 'hello':
      if (!isFiniteNumber(frame.protocol) || !isShortText(frame.controller, 64) || !isHex256(frame.nonce)) return { problem: 'hello needs protocol, controller and a 64-hex-digit nonce' };
      return { type: 'hello', protocol: frame.protocol, controller: frame.controller, nonce: frame.nonce };
    case 'welcome':
    case 'state': {
      const state = parseControllerState(frame.state);
      if ('problem' in state) return state;
      if (frame.type === 'welcome') {
        if (!isHex256(frame.mac) || !isRequestId(frame.pid)) return { problem: 'welcome needs mac and pid' };
        return { type: 'welcome', mac: frame.mac, pid: frame.pid, state };
      }
      if (!isRequestId(frame.seq)) return { problem: 'state needs seq' };
      return { type: 'state', seq: frame.seq, state };
    }
    case 'response':
      if (!isRequestId(frame.id)) return { problem: 'response needs id' };
      if (frame.ok === true && isObject(frame.result)) return { type: 'response', id: frame.id, ok: true, result: frame.result };
      if (frame.ok === false && isObject(frame.error) && isShortText(frame.error.code, 64) && isShortText(frame.error.message)) {
        return { type: 'response', id: frame.id, ok: false, error: { code: frame.error.code, message: frame.error.message } };
      }
      return { problem: 'response needs ok: true with result, or ok: false with error { code, message }' };
    case 'motion_progress':
      if (!isShortText(frame.motionId, 64) || !isFiniteNumber(frame.fraction)) return { problem: 'motion_progress needs motionId and fraction' };
      return { type: 'motion_progress', motionId: frame.motionId, fraction: Math.min(1, Math.max(0, frame.fraction)) };
    case 'motion_report': {
      const r = frame.report;
      if (!(isObject(r) && isShortText(r.motionId, 64) && typeof r.status === 'string' && ['completed', 'stopped', 'emergency_stopped', 'protective_stop'].includes(r.status) && isFiniteNumber(r.simulatedTimeS) && (r.detail === undefined || isShortText(r.detail)))) {
        return { problem: 'motion_report needs report { motionId, status, simulatedTimeS, detail? }' };
      }
      return { type: 'motion_report', report: r as unknown as WireMotionReport };
    }
    case 'error':
      if (!isShortText(frame.code, 64) || !isShortText(frame.message)) return { problem: 'error needs code and message' };
      return { type: 'error', code: frame.code, message: frame.message, ...(isRequestId(frame.id) ? { id: frame.id } : {}) };
    default:
      return { problem: `unknown message type ${JSON.stringify(frame.type)}` };
  }
}
