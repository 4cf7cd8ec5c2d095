// One file over ~400 lines on purpose: the simulated cell (clock, joints, executor, gripper, objects, sensors) is one
// aggregate whose invariants every step keeps together; SimArmDriver is its only user outside sim/.
import { getArmPreset, type ArmPreset, type ArmPresetId } from '../sim/arm-presets.js';
import { DEG_PER_RAD, RAD_PER_DEG, wrapDeg } from '../sim/angles.js';
import { checkArmCollision, type CollisionHit, type CollisionWorld, type HeldObject } from '../sim/collision-check.js';
import { contactWrench, DEFAULT_CONTACT_MODEL, type ContactPoint, type Wrench } from '../sim/contact-model.js';
import { forwardKinematics, tcpFrameRad, type Frame, type TcpPose } from '../sim/forward-kinematics.js';
import { FT_AXES, ForceTorqueSensor, type FtAxis, type FtFilter } from '../sim/force-torque-sensor.js';
import { attemptGrasp, type GraspOutcome, type GraspRequest } from '../sim/gripper.js';
import type { ReleasePlan } from '../sim/release-landing.js';
import { MotionExecutor, type MotionPhase } from '../sim/motion-executor.js';
import { checkBrokenIds, checkRestoredGrip, type RestoredGripper } from '../sim/restored-gripper.js';
import { apply, column } from '../sim/rotation.js';
import { NO_PRESENCE_ZONES, describePresence, pathTcpSpeedCapMmS, presenceConfigProblem, presenceStatus, type PersonPosition, type PresenceConfig, type PresenceStatus, type SeparationLimits } from '../sim/presence-sensor.js';
import { defaultSceneObjects, validateSceneObjects, type SceneObjectSpec, type SceneObjectState } from '../sim/scene-objects.js';
import { SeededRandom } from '../sim/seeded-random.js';
import { SimClock } from '../sim/sim-clock.js';
import { TableCamera, type ObjectDetection } from '../sim/table-camera.js';
import { Trajectory } from '../sim/trajectory.js';
import type { CartesianTarget, MotionLimits, PlanOptions, PlanResult } from '../sim/trajectory-planner.js';
import { add, type Vec3 } from '../sim/vector3.js';
import type { EnvelopeCheck, EnvelopeOverrides, WorkspaceEnvelope } from '../sim/workspace-envelope.js';
import { ArmModel, type MotionAllowances, type TrajectoryCheck, type TrajectoryProblemCode } from '../model/arm-model.js';

export { describeHit, ENVELOPE_ROUNDING_MM } from '../model/arm-model.js';
export type { TrajectoryCheck, TrajectoryProblemCode };

export interface RobotSimulationOptions {
  /** Arm preset id or a full preset; default `ur5e`. Ignored when `model` is given. */
  readonly preset?: ArmPresetId | ArmPreset;
  /** The arm model to simulate (preset, envelope, collision margin); default one built from these options. */
  readonly model?: ArmModel;
  /** Seed for every noisy part (sensor, camera); default 1. Same seed + same calls = same results. */
  readonly seed?: number;
  /** Fixed control period of the clock, ms; default 4 (250 Hz). */
  readonly stepMs?: number;
  /** Objects on the table; default `defaultSceneObjects(preset)`. Pass [] for an empty table. */
  readonly objects?: readonly SceneObjectSpec[];
  /** Ignored when `model` is given. */
  readonly envelope?: EnvelopeOverrides;
  /** Starting joint angles, degrees; default the preset's home pose. Must be inside the envelope and collision-free. */
  readonly initialJointsDeg?: readonly number[];
  /**
   * What the gripper held and which objects were broken when a previous controller stopped (a restart
   * from its pose file); default the gripper open and every object intact. The held object must be where
   * its grip carries it at `initialJointsDeg`.
   */
  readonly restoredGripper?: RestoredGripper;
  /** Required clearance between links and obstacles, mm; default 5. Ignored when `model` is given. */
  readonly collisionMarginMm?: number;
  /** Contact force (N) that triggers a protective stop while moving; default 40. */
  readonly protectiveStopForceN?: number;
}

/**
 * `idle`: ready. `moving`: executing a trajectory. `stopping`: controlled stop in progress.
 * `estop`: emergency stop latched (only `operatorResetEmergencyStop` clears it). `fault`: protective stop.
 */
export type SimState = 'idle' | 'moving' | 'stopping' | 'estop' | 'fault';

export interface SimFault {
  readonly code: 'protective_stop';
  readonly message: string;
  /** What stopped the arm: excess contact force (default) or a person in the protective zone. */
  readonly cause?: 'contact_force' | 'person_in_protective_zone';
  readonly atMs: number;
}

export interface SimStatus {
  readonly state: SimState;
  readonly timeMs: number;
  readonly presetId: ArmPresetId;
  readonly jointsDeg: readonly number[];
  readonly jointVelocitiesDegS: readonly number[];
  readonly jointAccelerationsDegS2: readonly number[];
  readonly tcp: TcpPose;
  readonly tcpVelocityMmS: Vec3;
  readonly tcpSpeedMmS: number;
  readonly heldObjectId: string | null;
  readonly motion: { readonly motionId: string; readonly phase: MotionPhase; readonly elapsedS: number; readonly durationS: number } | null;
  readonly fault: SimFault | null;
  readonly contacts: readonly ContactPoint[];
}

/** A refusal because of the arm's state rather than the request itself. */
export interface StateRefusal {
  readonly ok: false;
  readonly code: 'busy' | 'estop_latched' | 'fault';
  readonly message: string;
}

export interface ExecuteOptions {
  /** Objects the gripper may touch on this path (the one about to be grasped, or pressed on). */
  readonly contactAllowedWith?: readonly string[];
  /** The motion's id (a driver passes the server's); default `motion-N`, counting this simulation's motions. */
  readonly motionId?: string;
}

export type ExecuteResult = { readonly ok: true; readonly motionId: string; readonly durationS: number } | StateRefusal | Extract<TrajectoryCheck, { ok: false }> | { readonly ok: false; readonly code: 'person_in_warning_zone'; readonly message: string };

/** Rounding allowance of the presence speed checks (the planner's sampled peaks against the executed ones). */
const PRESENCE_SPEED_TOLERANCE = 1.001;

export interface StopReport {
  /** True if a motion was running when stop was called. */
  readonly wasMoving: boolean;
  readonly stoppingTimeS: number;
  readonly stoppingDistanceMm: number;
  readonly state: SimState;
}

export type SimGraspOutcome = GraspOutcome | StateRefusal;

export type ReleaseOutcome =
  | { readonly ok: true; readonly objectId: string; readonly position: Vec3; readonly dropHeightMm: number; readonly broke: boolean }
  | Extract<ReleasePlan, { ok: false }>
  | StateRefusal;

export interface ForceTorqueRequest {
  /** Default `kalman`. */
  readonly filter?: FtFilter;
  /** Default all six. */
  readonly axes?: readonly FtAxis[];
}

export interface ForceTorqueResult {
  readonly timeMs: number;
  readonly filter: FtFilter;
  /** Requested axes only: forces in N, torques in N·m; base-frame axes, torques about the TCP. */
  readonly values: Partial<Record<FtAxis, number>>;
  readonly saturated: boolean;
}

/**
 * The simulated arm cell: one arm preset, a table with objects, a gripper, a wrist F/T sensor and an
 * overhead camera, all on a simulated clock that only moves when `step`/`advance` is called.
 */
export class RobotSimulation {
  readonly preset: ArmPreset;
  readonly envelope: WorkspaceEnvelope;
  readonly limits: MotionLimits;
  readonly clock: SimClock;
  /** The pure model this cell simulates: the same checks any driver's server runs. */
  readonly model: ArmModel;
  private readonly protectiveStopForceN: number;
  private readonly sensor: ForceTorqueSensor;
  private readonly camera: TableCamera;
  private readonly objectStates = new Map<string, SceneObjectState>();
  private joints: number[];
  private executor: MotionExecutor | null = null;
  private stateNow: SimState = 'idle';
  private faultNow: SimFault | null = null;
  private held: (HeldObject & { readonly yawOffsetDeg: number }) | null = null;
  private motionCounter = 0;
  private lastContacts: ContactPoint[] = [];
  private lastWrench: Wrench;
  /** What the running motion may touch and where it started and ends (for the every-tick check). */
  private motionContext: MotionAllowances | null = null;
  /** The presence sensor's zones and where the person is (speed and separation monitoring). */
  private presenceConfig: PresenceConfig = NO_PRESENCE_ZONES;
  private person: PersonPosition = null;
  /** The last motion the presence monitor stopped (a person in a zone), so its end reads `stopped`. */
  private presenceStoppedMotionId: string | null = null;

  constructor(options: RobotSimulationOptions = {}) {
    this.model = options.model ?? new ArmModel({
      preset: typeof options.preset === 'object' ? options.preset : getArmPreset(options.preset ?? 'ur5e'),
      ...(options.envelope !== undefined ? { envelope: options.envelope } : {}),
      ...(options.collisionMarginMm !== undefined ? { collisionMarginMm: options.collisionMarginMm } : {}),
    });
    this.preset = this.model.preset;
    this.envelope = this.model.envelope;
    this.limits = this.model.limits;
    this.clock = new SimClock(options.stepMs ?? 4);
    this.protectiveStopForceN = nonNegative(options.protectiveStopForceN ?? 40, 'protectiveStopForceN');
    const seed = options.seed ?? 1;
    this.sensor = new ForceTorqueSensor(this.preset.ftSensor, SeededRandom.derive(seed, 1), -50);
    this.camera = new TableCamera(SeededRandom.derive(seed, 2));
    for (const spec of validateSceneObjects(options.objects ?? defaultSceneObjects(this.preset.id))) {
      this.objectStates.set(spec.id, Object.freeze({ ...spec, condition: 'intact', held: false }));
    }
    this.joints = [...(options.initialJointsDeg ?? this.preset.homeDeg)];
    this.checkInitialJoints();
    // Before the pose check: a held object is not an obstacle to the arm holding it.
    if (options.restoredGripper !== undefined) this.restoreGripper(options.restoredGripper);
    this.checkInitialPose();
    const { wrench, contacts } = this.measureContacts();
    this.lastWrench = wrench;
    this.lastContacts = contacts;
    // 50 ms of samples before t = 0 so the filters are settled when the first reading is asked for.
    this.sensor.sampleUntil(0, wrench);
    this.clock.onTick((nowMs, dtMs) => this.tick(nowMs, dtMs));
  }

  get state(): SimState {
    return this.stateNow;
  }

  get nowMs(): number {
    return this.clock.nowMs;
  }

  get jointsDeg(): readonly number[] {
    return [...this.joints];
  }

  get tcp(): TcpPose {
    return forwardKinematics(this.preset, this.joints);
  }

  get heldObjectId(): string | null {
    return this.held?.object.id ?? null;
  }

  /** The object in the gripper and where its centre sits in the tool frame (mm), or null. */
  heldObject(): HeldObject | null {
    if (this.held === null) return null;
    return { object: this.objectStates.get(this.held.object.id)!, offsetInToolMm: this.held.offsetInToolMm, rotationInTool: this.held.rotationInTool, liftOffFloorsMm: this.held.liftOffFloorsMm ?? {} };
  }

  status(): SimStatus {
    const motion = this.executor;
    const velocities = motion?.state.jointVelocitiesDegS ?? this.joints.map(() => 0);
    const accelerations = motion?.state.jointAccelerationsDegS2 ?? this.joints.map(() => 0);
    return {
      state: this.stateNow,
      timeMs: this.clock.nowMs,
      presetId: this.preset.id,
      jointsDeg: [...this.joints],
      jointVelocitiesDegS: [...velocities],
      jointAccelerationsDegS2: [...accelerations],
      tcp: this.tcp,
      tcpVelocityMmS: motion?.state.tcpVelocityMmS ?? { x: 0, y: 0, z: 0 },
      tcpSpeedMmS: motion?.state.tcpSpeedMmS ?? 0,
      heldObjectId: this.heldObjectId,
      motion: motion === null ? null : { motionId: motion.motionId, phase: motion.phase, elapsedS: motion.elapsed, durationS: motion.trajectory.durationS },
      fault: this.faultNow,
      contacts: [...this.lastContacts],
    };
  }

  /** Snapshot of every object on the table (or in the gripper). */
  objects(): SceneObjectState[] {
    return [...this.objectStates.values()];
  }

  /** The obstacles as the collision checker sees them now (a held object is not an obstacle). */
  collisionWorld(): CollisionWorld {
    return this.model.collisionWorld({ objects: this.objects() });
  }

  checkPose(position: Vec3): EnvelopeCheck {
    return this.model.checkPose(position);
  }

  planJointMotion(goalDeg: readonly number[], options?: PlanOptions): PlanResult {
    return this.model.planJointMotion(this.joints, goalDeg, options);
  }

  /** Plans from the current joints to a TCP target (straight line unless `options.path` is `joint`). */
  planToPose(target: CartesianTarget, options?: PlanOptions): PlanResult {
    return this.model.planWaypoints(this.joints, [target], options);
  }

  planWaypoints(waypoints: readonly CartesianTarget[], options?: PlanOptions): PlanResult {
    return this.model.planWaypoints(this.joints, waypoints, options);
  }

  /** The arm's state as the model's checks take it. */
  private poseState(): { jointsDeg: readonly number[]; held: HeldObject | null; objects: readonly SceneObjectState[] } {
    return { jointsDeg: this.joints, held: this.heldObject(), objects: this.objects() };
  }

  /**
   * Everything `execute` checks about a trajectory, in order: it came from the planner, for this arm,
   * starts at the current joints, stays within joint, speed and acceleration caps, keeps every sample in
   * the workspace envelope, and collides with nothing (table, base, objects) at any sample.
   */
  validateTrajectory(trajectory: Trajectory, options: ExecuteOptions = {}): TrajectoryCheck {
    return this.model.validateTrajectory(trajectory, this.poseState(), options);
  }

  /** Starts executing a validated trajectory; the arm moves as the clock advances. */
  execute(trajectory: Trajectory, options: ExecuteOptions = {}): ExecuteResult {
    const refusal = this.stateGate();
    if (refusal !== null) return refusal;
    const check = this.validateTrajectory(trajectory, options);
    if (!check.ok) return check;
    const presenceCap = this.presenceSpeedCapFor(trajectory);
    if (trajectory.peaks.peakTcpSpeedMmS > presenceCap * PRESENCE_SPEED_TOLERANCE) {
      return { ok: false, code: 'person_in_warning_zone', message: `the TCP would reach ${trajectory.peaks.peakTcpSpeedMmS.toFixed(1)} mm/s; with ${describePresence(this.presence())} this path may run at most ${presenceCap.toFixed(1)} mm/s: plan it again` };
    }
    this.motionCounter++;
    const motionId = options.motionId ?? `motion-${this.motionCounter}`;
    this.motionContext = this.model.motionAllowances(trajectory, options.contactAllowedWith ?? []);
    this.executor = new MotionExecutor(this.preset, this.limits, trajectory, motionId, this.clock.stepMs / 1000);
    this.stateNow = this.executor.phase === 'done' ? 'idle' : 'moving';
    if (this.stateNow === 'idle') this.executor = null;
    return { ok: true, motionId, durationS: trajectory.durationS };
  }

  /**
   * Controlled stop: decelerates along the current path within the acceleration caps and then holds
   * position. Never refused, idempotent, and effective in every state.
   */
  stop(): StopReport {
    const motion = this.executor;
    if (motion === null || (this.stateNow !== 'moving' && this.stateNow !== 'stopping')) {
      return { wasMoving: false, stoppingTimeS: 0, stoppingDistanceMm: 0, state: this.stateNow };
    }
    const forecast = motion.requestStop();
    if (motion.phase === 'done') this.finishMotion();
    else this.stateNow = 'stopping';
    return { wasMoving: true, ...forecast, state: this.stateNow };
  }

  /** Emergency stop: the arm freezes at once and the state latches until an operator resets it. */
  emergencyStop(): void {
    this.executor?.halt();
    this.executor = null;
    this.motionContext = null;
    this.stateNow = 'estop';
  }

  /** Operator action (CLI or configuration), never a tool: clears a latched emergency stop. */
  operatorResetEmergencyStop(): void {
    if (this.stateNow === 'estop') this.stateNow = this.faultNow === null ? 'idle' : 'fault';
  }

  /** Operator action: acknowledges a protective stop. */
  operatorClearFault(): { readonly ok: true } | { readonly ok: false; readonly code: 'person_in_protective_zone'; readonly message: string } {
    const presence = this.presence();
    if (presence.zone === 'protective') return { ok: false, code: 'person_in_protective_zone', message: `the protective zone is not clear (${describePresence(presence)}); the fault stays until it is` };
    this.faultNow = null;
    if (this.stateNow === 'fault') this.stateNow = 'idle';
    return { ok: true };
  }

  /**
   * The presence sensor's input (an operator's setting from the console, or a test): the zones, and
   * where the person is. Takes effect at once: a person in the protective zone is a protective stop
   * (a controlled stop at the preset's stop deceleration, then `fault`); in the warning zone a motion
   * faster than the separation allows is stopped (controlled). Refused, changing nothing, when the
   * configuration is invalid.
   */
  setPresence(update: { readonly config?: PresenceConfig; readonly person?: PersonPosition }): { readonly ok: true; readonly presence: PresenceStatus } | { readonly ok: false; readonly code: 'invalid_presence'; readonly message: string } {
    const config = update.config ?? this.presenceConfig;
    const problem = presenceConfigProblem(config, this.preset.maxTcpSpeedMmS);
    if (problem !== null) return { ok: false, code: 'invalid_presence', message: problem };
    const person = update.person === undefined ? this.person : update.person;
    if (person !== null && !(Number.isFinite(person.x) && Number.isFinite(person.y) && Number.isFinite(person.z))) {
      return { ok: false, code: 'invalid_presence', message: 'the person\'s position must be finite numbers (mm)' };
    }
    this.presenceConfig = config;
    this.person = person === null ? null : { x: person.x, y: person.y, z: person.z };
    this.enforcePresence(this.clock.nowMs);
    return { ok: true, presence: this.presence() };
  }

  /** What the presence sensor reports now, with the speed it allows at the TCP. */
  presence(): PresenceStatus {
    return presenceStatus(this.presenceConfig, this.person, this.tcp, this.separationLimits());
  }

  /** The TCP speed `trajectory` may reach with the person where they are now (the preset's cap when clear). */
  presenceSpeedCapFor(trajectory: Trajectory): number {
    return pathTcpSpeedCapMmS(this.presence(), trajectory.samples.map((s) => s.tcp));
  }

  private separationLimits(): SeparationLimits {
    return { capMmS: this.preset.maxTcpSpeedMmS, reactionS: this.clock.stepMs / 1000, stopDecelerationMmS2: this.preset.stopDecelerationMmS2 };
  }

  /**
   * Speed and separation monitoring, on every tick and on every change of the sensor: a person in the
   * protective zone stops the arm (controlled, within v*t_r + v^2/(2*a_stop)) and latches a fault that
   * only an operator may clear once the zone is clear; in the warning zone a TCP faster than allowed
   * is stopped (controlled, no fault).
   */
  private enforcePresence(nowMs: number): void {
    const presence = this.presence();
    if (presence.zone === 'protective') {
      if (this.faultNow?.cause !== 'person_in_protective_zone') {
        this.faultNow = { code: 'protective_stop', cause: 'person_in_protective_zone', message: `protective stop: a person entered the protective zone (${describePresence(presence)}); clear the zone, then the operator resets`, atMs: nowMs };
      }
      if (this.executor !== null && (this.stateNow === 'moving' || this.stateNow === 'stopping')) this.stopForPresence();
      else if (this.stateNow === 'idle') this.stateNow = 'fault';
      return;
    }
    const speed = this.executor?.state.tcpSpeedMmS ?? 0;
    if (presence.zone === 'warning' && this.stateNow === 'moving' && speed > presence.allowedTcpSpeedMmS * PRESENCE_SPEED_TOLERANCE) this.stopForPresence();
  }

  private stopForPresence(): void {
    this.presenceStoppedMotionId = this.executor?.motionId ?? null;
    this.stop();
  }

  /** True when the presence monitor (not a caller) stopped motion `motionId`. */
  wasStoppedByPresence(motionId: string): boolean {
    return this.presenceStoppedMotionId === motionId;
  }

  /** Advances simulated time by one step (default: the clock's fixed step), in ms. */
  step(dtMs?: number): void {
    this.clock.step(dtMs);
  }

  /** Advances simulated time by `ms` in fixed steps. */
  advance(ms: number): void {
    this.clock.advance(ms);
  }

  /** Advances until no motion is running or `maxMs` has passed; returns true if the arm is at rest. */
  runUntilSettled(maxMs = 120_000): boolean {
    let spent = 0;
    while ((this.stateNow === 'moving' || this.stateNow === 'stopping') && spent < maxMs) {
      this.clock.step();
      spent += this.clock.stepMs;
    }
    return this.stateNow !== 'moving' && this.stateNow !== 'stopping';
  }

  /** Closes the gripper at the current TCP (instantaneous in simulation). Needs the arm at rest. */
  grasp(request: GraspRequest): SimGraspOutcome {
    const refusal = this.stateGate();
    if (refusal !== null) return refusal;
    const frame = this.tcpFrame();
    const outcome = attemptGrasp(this.preset.gripper, this.preset.payloadKg, frame, this.objects(), this.held !== null, request);
    if (!outcome.ok) return outcome;
    const object = this.updateObject(outcome.objectId, { held: true });
    const grip = { object, offsetInToolMm: outcome.held.offsetInToolMm, rotationInTool: outcome.held.rotationInTool };
    // Fixed here, once: how close to the table (or a neighbour) the object rested is its floor for every later motion.
    const liftOffFloorsMm = Object.freeze(this.model.liftOffFloors(this.poseState(), grip));
    this.held = { ...grip, liftOffFloorsMm, yawOffsetDeg: object.yawDeg - toolYawDeg(frame) };
    this.refreshSensorTruth();
    return { ...outcome, held: { ...grip, liftOffFloorsMm } };
  }

  /**
   * Where the held object would land if released now (straight down onto the table), or why a release
   * is refused: nothing held, it would land on another object, drop too far, or is not upright.
   */
  planRelease(): ReleasePlan {
    return this.model.planRelease(this.poseState());
  }

  /** Opens the gripper if `planRelease` allows it: the held object drops onto the table. Needs the arm at rest. */
  release(): ReleaseOutcome {
    const refusal = this.stateGate();
    if (refusal !== null) return refusal;
    const plan = this.planRelease();
    if (!plan.ok) return plan;
    const id = plan.objectId;
    this.updateObject(id, { held: false, position: plan.position, yawDeg: plan.yawDeg, ...(plan.breaks ? { condition: 'broken' as const } : {}) });
    this.held = null;
    this.refreshSensorTruth();
    return { ok: true, objectId: id, position: plan.position, dropHeightMm: plan.dropHeightMm, broke: plan.breaks };
  }

  /**
   * The collision check of the configuration the arm is in now, with the running motion's allowances
   * (fingertip contact only near the ends of a grasp approach, lift-off of a held object). The runtime
   * monitor calls this every tick with margin 0 (actual contact).
   */
  collisionNow(marginMm: number): CollisionHit | null {
    return this.model.collisionAt(this.joints, this.poseState(), marginMm, this.motionContext);
  }

  /** Latest wrist force/torque value through the chosen filter (500 Hz samples on simulated time). */
  readForceTorque(request: ForceTorqueRequest = {}): ForceTorqueResult {
    const filter = request.filter ?? 'kalman';
    if (filter !== 'raw' && filter !== 'kalman' && filter !== 'moving_average') throw new RangeError(`filter must be raw, kalman or moving_average, got ${String(filter)}`);
    const axes = request.axes ?? FT_AXES;
    for (const a of axes) if (!(FT_AXES as readonly string[]).includes(a)) throw new RangeError(`unknown force/torque axis ${String(a)}; expected ${FT_AXES.join(', ')}`);
    const reading = this.sensor.read(filter)!;
    const values: Partial<Record<FtAxis, number>> = {};
    for (const a of axes) values[a] = reading.values[a];
    return { timeMs: reading.timeMs, filter, values, saturated: reading.saturated };
  }

  /** Raw sensor samples kept for analysis (oldest first), at most the last 2000 (4 s). */
  forceTorqueHistory(count: number): ReadonlyArray<{ timeMs: number; values: Wrench }> {
    return this.sensor.recentRaw(count);
  }

  /** The true (noise-free) wrench the sensor currently sees; for tests and diagnostics. */
  trueWrench(): Wrench {
    return this.lastWrench;
  }

  /** One camera frame: noisy object poses with labels from the fixed vocabulary. */
  captureCamera(): ObjectDetection[] {
    return this.camera.capture(this.objects());
  }

  private tick(nowMs: number, dtMs: number): void {
    const motion = this.executor;
    if (motion !== null && (this.stateNow === 'moving' || this.stateNow === 'stopping')) {
      const state = motion.advance(dtMs / 1000);
      this.joints = [...state.jointsDeg];
      if (motion.phase === 'done') this.finishMotion();
    }
    this.enforcePresence(nowMs);
    this.carryHeldObject();
    const { wrench, contacts } = this.measureContacts();
    this.lastWrench = wrench;
    this.lastContacts = contacts;
    this.breakOverloadedObjects(contacts);
    const contactForce = contacts.reduce((sum, c) => sum + c.forceN, 0);
    if (contactForce > this.protectiveStopForceN && this.executor !== null) {
      this.executor.halt();
      this.executor = null;
      this.motionContext = null;
      this.faultNow = {
        code: 'protective_stop',
        message: `protective stop: contact force ${contactForce.toFixed(1)} N exceeded ${this.protectiveStopForceN} N (${contacts.map((c) => c.obstacle).join(', ')})`,
        atMs: nowMs,
      };
      if (this.stateNow !== 'estop') this.stateNow = 'fault';
    }
    this.sensor.sampleUntil(nowMs, wrench);
  }

  private finishMotion(): void {
    if (this.executor !== null) this.joints = [...this.executor.state.jointsDeg];
    this.executor = null;
    // A protective stop that began as a controlled stop (a person) ends in fault, not at rest.
    if (this.stateNow === 'moving' || this.stateNow === 'stopping') this.stateNow = this.faultNow === null ? 'idle' : 'fault';
  }

  private stateGate(): StateRefusal | null {
    switch (this.stateNow) {
      case 'estop': return { ok: false, code: 'estop_latched', message: 'emergency stop is latched; an operator must reset it' };
      case 'fault': return { ok: false, code: 'fault', message: this.faultNow?.message ?? 'the arm is in a fault state' };
      case 'moving':
      case 'stopping': return { ok: false, code: 'busy', message: `a motion (${this.executor?.motionId ?? 'unknown'}) is running; wait for it or stop it` };
      default: return null;
    }
  }

  private tcpFrame(): Frame {
    return tcpFrameRad(this.preset, this.joints.map((d) => d * RAD_PER_DEG));
  }

  private measureContacts(): { wrench: Wrench; contacts: ContactPoint[] } {
    const opening = this.held === null ? this.preset.gripper.strokeMm : 0;
    return contactWrench(this.tcpFrame(), this.envelope.tableZMm, this.objects(), this.held, { ...DEFAULT_CONTACT_MODEL, jawOpeningMm: opening });
  }

  private refreshSensorTruth(): void {
    const { wrench, contacts } = this.measureContacts();
    this.lastWrench = wrench;
    this.lastContacts = contacts;
  }

  private carryHeldObject(): void {
    if (this.held === null) return;
    const frame = this.tcpFrame();
    const position = add(frame.origin, apply(frame.rotation, this.held.offsetInToolMm));
    this.updateObject(this.held.object.id, { position, yawDeg: wrapDeg(toolYawDeg(frame) + this.held.yawOffsetDeg) });
  }

  private breakOverloadedObjects(contacts: readonly ContactPoint[]): void {
    for (const c of contacts) {
      const o = this.objectStates.get(c.obstacle);
      if (o !== undefined && o.condition === 'intact' && o.maxGripForceN !== null && c.forceN > o.maxGripForceN) this.updateObject(o.id, { condition: 'broken' });
    }
  }

  private updateObject(id: string, change: Partial<Pick<SceneObjectState, 'position' | 'yawDeg' | 'condition' | 'held'>>): SceneObjectState {
    const next = Object.freeze({ ...this.objectStates.get(id)!, ...change });
    this.objectStates.set(id, next);
    return next;
  }

  /** Takes over a previous controller's gripper; the grip is checked at the (already checked) initial joints. */
  private restoreGripper(restored: RestoredGripper): void {
    for (const id of checkBrokenIds(restored.brokenObjectIds, this.objectStates)) this.updateObject(id, { condition: 'broken' });
    if (restored.held === null) return;
    const frame = this.tcpFrame();
    const grip = checkRestoredGrip(restored.held, this.objectStates, frame);
    const object = this.updateObject(grip.object.id, { held: true });
    // The floors recorded at the grasp carry over; a file without them (older robot-sim) gets the floors of where the object is now.
    const liftOffFloorsMm = Object.freeze(grip.liftOffFloorsMm ?? this.model.liftOffFloors(this.poseState(), { ...grip, object }));
    this.held = { object, offsetInToolMm: grip.offsetInToolMm, rotationInTool: grip.rotationInTool, liftOffFloorsMm, yawOffsetDeg: object.yawDeg - toolYawDeg(frame) };
    // Exactly where the grip carries it (the file agreed within the tolerance).
    this.carryHeldObject();
  }

  private checkInitialJoints(): void {
    const joints = this.joints;
    if (joints.length !== this.preset.joints.length || !joints.every(Number.isFinite)) throw new RangeError(`initialJointsDeg must be ${this.preset.joints.length} finite angles in degrees`);
    joints.forEach((v, j) => {
      const lim = this.preset.joints[j]!;
      if (v < lim.minDeg || v > lim.maxDeg) throw new RangeError(`initial joint ${j + 1} is ${v}°, outside its range [${lim.minDeg}, ${lim.maxDeg}]°`);
    });
  }

  private checkInitialPose(): void {
    const joints = this.joints;
    const pose = this.model.checkPose(this.tcp);
    if (!pose.ok) throw new RangeError(`initial pose is outside the workspace envelope: ${pose.violations.map((v) => v.message).join('; ')}`);
    const hit = checkArmCollision(this.preset, this.collisionWorld(), joints, { marginMm: this.model.collisionMarginMm });
    if (hit !== null) throw new RangeError(`initial pose collides: ${hit.link} is ${hit.distanceMm.toFixed(1)} mm from ${hit.obstacle}`);
  }
}

/** Builds a simulation; see `RobotSimulationOptions` for the defaults. */
export function createRobotSimulation(options: RobotSimulationOptions = {}): RobotSimulation {
  return new RobotSimulation(options);
}

function toolYawDeg(frame: Frame): number {
  const x = column(frame.rotation, 0);
  return Math.atan2(x.y, x.x) * DEG_PER_RAD;
}

function nonNegative(v: number, name: string): number {
  if (!(Number.isFinite(v) && v >= 0)) throw new RangeError(`${name} must be a finite number >= 0, got ${v}`);
  return v;
}
