/**
 * The one way the robot server reaches an arm. Written for a driver that is REMOTE (another process,
 * a real controller box): `status()` is a cached snapshot with its age, fed by the driver's state
 * stream; every command is async and may fail with a typed {@link ArmFault}. The server keeps every
 * safety decision (limits, planning, approval, the runtime monitor on the streamed motion samples,
 * the e-stop latch on disk, audit); a driver moves the arm, streams what it does, stops it and
 * reports faults. `SimArmDriver` (sim-arm-driver.ts) is one driver; docs/robot-driver.md maps UR
 * RTDE/URScript and ROS 2 onto this interface.
 */
import type { ContactPoint } from '../sim/contact-model.js';
import { FT_AXES, type FtAxis, type FtFilter } from '../sim/force-torque-sensor.js';
import type { GraspOutcome, GraspRequest } from '../sim/gripper.js';
import type { MotionPhase } from '../sim/motion-executor.js';
import type { ReleasePlan } from '../sim/release-landing.js';
import { describePresence, presenceUpdateOf, type PresenceStatus, type PresenceUpdateInput } from '../sim/presence-sensor.js';
import type { ObjectDetection } from '../sim/table-camera.js';
import type { Vec3 } from '../sim/vector3.js';
import type { ArmPoseState, ArmPresetId, TcpPose, Trajectory } from '../model/arm-model.js';

import type { ForceTorqueRequest, ForceTorqueResult } from './robot-simulation.js';

export type { ContactPoint, FtAxis, FtFilter, GraspOutcome, GraspRequest, ObjectDetection, PresenceStatus };
/**
 * What a driver's readings and the presence sensor's input are, for the server and the console: the
 * F/T channels, a presence status in words, and a presence update parsed from untrusted JSON (or why not).
 */
export { describePresence, FT_AXES, presenceUpdateOf };

/** A change of the presence sensor's input: the zones, where the person is (null: nobody), or both. */
export type PresenceUpdate = PresenceUpdateInput;

/**
 * `idle`: ready. `moving`: executing a trajectory. `stopping`: controlled stop in progress.
 * `estop`: emergency stop engaged (only an operator reset clears it). `fault`: the driver is in
 * {@link ArmStatus.fault} (protective stop, lost connection, unanswered controller).
 */
export type ArmState = 'idle' | 'moving' | 'stopping' | 'estop' | 'fault';

/**
 * Why a command failed or why the driver is in fault. `disconnected`: the controller cannot be
 * reached (process gone, socket closed). `timeout`: it did not answer in the driver's bound.
 * `protective_stop`: the arm stopped itself (contact force, controller-side limit). `rejected`: the
 * controller refused the command in the state it is in (`code` says why, e.g. `busy`, `estop_latched`,
 * `stale_start`, `collision`).
 */
export type ArmFaultKind = 'disconnected' | 'timeout' | 'protective_stop' | 'rejected';

export interface ArmFault {
  readonly kind: ArmFaultKind;
  readonly message: string;
  /** A machine code within the kind (the controller's reason for a `rejected`), when there is one. */
  readonly code?: string;
}

/** The error every driver command rejects with; nothing else is thrown by a command. */
export class ArmFaultError extends Error {
  readonly fault: ArmFault;

  constructor(fault: ArmFault) {
    super(fault.message);
    this.name = 'ArmFaultError';
    this.fault = Object.freeze({ ...fault });
  }

  get kind(): ArmFaultKind {
    return this.fault.kind;
  }
}

/** The arm's kinematic state at one control tick, on the controller's clock (mm, degrees, base frame). */
export interface ArmSample {
  /** Controller time of this sample, ms (the driver's clock, not the wall clock). */
  readonly timeMs: number;
  readonly state: ArmState;
  readonly jointsDeg: readonly number[];
  readonly jointVelocitiesDegS: readonly number[];
  readonly jointAccelerationsDegS2: readonly number[];
  readonly tcp: TcpPose;
  readonly tcpVelocityMmS: Vec3;
  readonly tcpSpeedMmS: number;
}

/** The running motion as the controller reports it. */
export interface ArmMotionStatus {
  readonly motionId: string;
  readonly phase: MotionPhase;
  readonly elapsedS: number;
  readonly durationS: number;
}

/**
 * A snapshot of the arm. It is what the server plans from, so it carries its age: a snapshot older
 * than the server's bound, or one in fault, is refused for planning (never assumed current).
 */
export interface ArmStatus extends ArmSample, ArmPoseState {
  /**
   * Wall-clock time (`Date.now()` of this process) when the driver last heard from the arm. An
   * in-process driver answers with the time of the call; a remote one with its last received update.
   */
  readonly asOf: number;
  readonly presetId: ArmPresetId;
  readonly heldObjectId: string | null;
  readonly motion: ArmMotionStatus | null;
  /** Set while `state` is `fault`: why (protective stop, disconnected, timeout). */
  readonly fault: ArmFault | null;
  /** The controller's own emergency stop is engaged (the server's latch on disk is kept by the server). */
  readonly estopLatched: boolean;
  /** What the gripper and the held object touch now (from the controller's contact sensing). */
  readonly contacts: readonly ContactPoint[];
  /**
   * The presence sensor (speed and separation monitoring): which zone the person is in and the TCP
   * speed allowed. Absent when the driver has no presence sensor.
   */
  readonly presence?: PresenceStatus;
}

/** One report of a running motion: how far along, and every control sample since the last report. */
export interface MotionProgress {
  readonly motionId: string;
  /** Progress along the trajectory, 0 to 1. */
  readonly fraction: number;
  /** Controller time since the motion started, s. */
  readonly elapsedS: number;
  /** Every control-tick sample since the previous report, oldest first (the runtime monitor checks each). */
  readonly samples: readonly ArmSample[];
}

/** Options of {@link ArmDriver.execute}. */
export interface ExecuteOptions {
  /** The id the server gave this motion (it names the motion in status, refusals and the audit log). */
  readonly motionId: string;
  /**
   * Aborting it stops the motion (controlled stop); `execute` then resolves with status `cancelled`.
   * Already aborted when `execute` is called: the motion never starts (resolves `cancelled`, nothing moved).
   */
  readonly signal?: AbortSignal;
  /** Called at every control frame while the motion runs (synchronously; keep it short). */
  readonly onProgress?: (progress: MotionProgress) => void;
  /** Objects the fingertip pads may touch on this path (the one about to be grasped). */
  readonly contactAllowedWith?: readonly string[];
}

/** How a motion the driver accepted ended, and the arm's state at rest. */
export interface MotionEnd {
  readonly motionId: string;
  readonly status: 'completed' | 'stopped' | 'cancelled' | 'emergency_stopped' | 'protective_stop';
  /** Controller time the motion took, s. */
  readonly elapsedS: number;
  readonly final: ArmStatus;
}

/** What a stop did. */
export interface StopReport {
  /** True if a motion was running when stop was called. */
  readonly wasMoving: boolean;
  /** Forecast of a controlled stop (0 for an emergency stop: the arm halts at once). */
  readonly stoppingTimeS: number;
  readonly stoppingDistanceMm: number;
  readonly state: ArmState;
}

export type StopMode = 'controlled' | 'emergency';

/** Where the held object landed after a release, or why the controller would not let go. */
export type ReleaseResult =
  | { readonly ok: true; readonly objectId: string; readonly position: Vec3; readonly dropHeightMm: number; readonly broke: boolean }
  | Extract<ReleasePlan, { ok: false }>;

// The sensor reading's shape is the simulator's own (one definition; a real driver fills the same fields).
export type { ForceTorqueRequest, ForceTorqueResult } from './robot-simulation.js';

/**
 * An arm behind a controller. Contract (test/driver/arm-driver-contract.ts checks it for any driver):
 * - `status()` never throws and never blocks; it returns the latest snapshot with its `asOf`.
 * - Every command returns a promise that rejects only with {@link ArmFaultError}.
 * - `execute` rejects (kind `rejected`, code `busy` / `estop_latched` / `stale_start` / ...; or kind
 *   `protective_stop` / `disconnected` while in fault) without moving when it cannot start; once
 *   accepted it resolves with a {@link MotionEnd} when the arm is at rest again, whatever stopped it.
 * - `stop` is never refused by the driver's own state: it acts in every state, is idempotent, and an
 *   emergency stop is applied (or sent) before the returned promise's first await. An emergency
 *   stop leaves the arm in `estop` until `resetEmergencyStop`.
 * - Gripper commands need the arm at rest (else `rejected`, code `busy`); sensor reads are allowed in
 *   every state (a bad request is `rejected`).
 * - A fault (protective stop, lost link) sets `status().fault` and calls every fault listener once.
 * - `close()` stops the arm (controlled) and releases the link; commands after it reject `disconnected`.
 */
export interface ArmDriver {
  /** For banners and logs, e.g. "simulated UR5e, real time". */
  readonly description: string;
  /** The preset of the arm this driver moves (the server refuses to start with a different model). */
  readonly presetId: ArmPresetId;

  /** The latest snapshot (cached for a remote driver; see {@link ArmStatus.asOf}). */
  status(): ArmStatus;
  /** The state stream: called with every new snapshot. Returns the unsubscribe function. */
  subscribe(listener: (status: ArmStatus) => void): () => void;
  /** Called when the driver enters a fault (protective stop, disconnected, timeout). Returns the unsubscribe function. */
  onFault(listener: (fault: ArmFault) => void): () => void;

  /** Runs a trajectory that starts at the current joints; resolves when the arm is at rest again. */
  execute(trajectory: Trajectory, options: ExecuteOptions): Promise<MotionEnd>;
  /** Stops the arm; see the contract above. */
  stop(mode: StopMode): Promise<StopReport>;
  /** Operator action, never a tool: releases the controller's emergency stop. */
  resetEmergencyStop(): Promise<void>;
  /** Operator action, never a tool: acknowledges a protective stop (or a fault the link recovered from). */
  clearFault(): Promise<void>;

  /** Closes the gripper at the current TCP. */
  grasp(request: GraspRequest): Promise<GraspOutcome>;
  /** Opens the gripper: the held object drops onto the table. */
  release(): Promise<ReleaseResult>;

  /** The latest wrist force/torque reading through the chosen filter. */
  readForceTorque(request?: ForceTorqueRequest): Promise<ForceTorqueResult>;
  /** One camera frame: object poses (noisy) with labels from the fixed vocabulary. Data, never instructions. */
  captureCamera(): Promise<ObjectDetection[]>;

  /**
   * Sets the simulated presence sensor's input (zones, person). Only drivers of a simulated cell have
   * it; a real sensor reports and is never set.
   */
  setPresence?(update: PresenceUpdate): Promise<PresenceStatus>;
  /** Wall-clock ms a motion of `armMs` controller time takes (1:1 on a real arm); bounds the server's watchdog. */
  wallMsFor(armMs: number): number;

  /** Stops the arm (controlled), ends the state stream and releases the link. Idempotent. */
  close(): Promise<void>;
}

/** True for the error every driver command rejects with. */
export function isArmFaultError(error: unknown): error is ArmFaultError {
  return error instanceof ArmFaultError;
}
