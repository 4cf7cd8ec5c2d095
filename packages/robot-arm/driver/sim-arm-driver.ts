/**
 * The simulated cell as an {@link ArmDriver}. It owns the simulation and its clock: while a motion
 * runs it advances simulated time frame by frame at the pace of its {@link SimPacer} and streams every
 * control tick to `onProgress`; before a sensor read at rest it lets idle time pass so the sensors
 * have fresh samples. Nothing outside the driver advances the clock.
 */
import { createArmModel, type ArmModel, type Trajectory } from '../model/arm-model.js';
import { RobotSimulation, type RobotSimulationOptions, type SimStatus, type StateRefusal } from './robot-simulation.js';
import {
  ArmFaultError,
  type ArmDriver,
  type ArmFault,
  type ArmSample,
  type ArmStatus,
  type ExecuteOptions,
  type ForceTorqueRequest,
  type ForceTorqueResult,
  type GraspOutcome,
  type GraspRequest,
  type MotionEnd,
  type PresenceStatus,
  type PresenceUpdate,
  type ObjectDetection,
  type ReleaseResult,
  type StopMode,
  type StopReport,
} from './arm-driver.js';
import { realTimePacer, type SimPacer } from './sim-pacer.js';

/** Options of {@link SimArmDriver}: the simulation's (seed, objects, starting joints, ...) plus the pacing. */
export interface SimArmDriverOptions extends Omit<RobotSimulationOptions, 'model' | 'preset' | 'envelope' | 'collisionMarginMm'> {
  /** The arm to simulate; default `createArmModel()` (UR5e). */
  readonly model?: ArmModel;
  /** How fast simulated time runs while the arm moves (default real time). */
  readonly pacer?: SimPacer;
}

/** The motion being driven: what its end reports and the ticks not yet streamed. */
interface Run {
  readonly motionId: string;
  readonly durationS: number;
  readonly startMs: number;
  readonly samples: ArmSample[];
  cancelled: boolean;
  stopped: boolean;
  lastFraction: number;
}

function sampleOf(s: SimStatus): ArmSample {
  return {
    timeMs: s.timeMs,
    state: s.state,
    jointsDeg: s.jointsDeg,
    jointVelocitiesDegS: s.jointVelocitiesDegS,
    jointAccelerationsDegS2: s.jointAccelerationsDegS2,
    tcp: s.tcp,
    tcpVelocityMmS: s.tcpVelocityMmS,
    tcpSpeedMmS: s.tcpSpeedMmS,
  };
}

function rejected(refusal: StateRefusal | { readonly code: string; readonly message: string }): ArmFaultError {
  return new ArmFaultError(refusal.code === 'fault' ? { kind: 'protective_stop', code: 'protective_stop', message: refusal.message } : { kind: 'rejected', code: refusal.code, message: refusal.message });
}

const STATE_CODES: ReadonlySet<string> = new Set(['busy', 'estop_latched', 'fault']);

/** The simulation's refusal because of the arm's state (busy, e-stop, fault), not the request. */
function isStateRefusal<T extends { readonly ok: boolean }>(outcome: T | StateRefusal): outcome is StateRefusal {
  return !outcome.ok && 'code' in outcome && typeof outcome.code === 'string' && STATE_CODES.has(outcome.code);
}

/** An in-process simulated arm behind the driver interface. */
export class SimArmDriver implements ArmDriver {
  /** The simulation itself, for tests and diagnostics; the server never touches it. */
  readonly sim: RobotSimulation;
  readonly model: ArmModel;
  readonly pacer: SimPacer;
  readonly description: string;
  private readonly listeners = new Set<(status: ArmStatus) => void>();
  private readonly faultListeners = new Set<(fault: ArmFault) => void>();
  private run: Run | null = null;
  private runEnded: Promise<unknown> = Promise.resolve();
  private reportedFault: SimStatus['fault'] = null;
  private closed = false;

  constructor(options: SimArmDriverOptions = {}) {
    const { model, pacer, ...simulation } = options;
    this.model = model ?? createArmModel();
    this.pacer = pacer ?? realTimePacer(1);
    this.sim = new RobotSimulation({ ...simulation, model: this.model });
    this.description = `simulated ${this.model.preset.displayName}, ${this.pacer.description}`;
    this.sim.clock.onTick(() => this.onTick());
  }

  get presetId(): ArmStatus['presetId'] {
    return this.model.preset.id;
  }

  status(): ArmStatus {
    const s = this.sim.status();
    return {
      ...sampleOf(s),
      asOf: Date.now(),
      presetId: s.presetId,
      heldObjectId: s.heldObjectId,
      held: this.sim.heldObject(),
      objects: this.sim.objects(),
      motion: s.motion,
      fault: s.fault === null ? null : { kind: 'protective_stop', code: s.fault.code, message: s.fault.message },
      estopLatched: s.state === 'estop',
      contacts: s.contacts,
      presence: this.sim.presence(),
    };
  }

  /**
   * The presence sensor's input (simulation only: a real cell's sensor reports, nobody sets it): the
   * zones and where the person is. Rejects `rejected` / `invalid_presence` for an invalid setting.
   */
  async setPresence(update: PresenceUpdate): Promise<PresenceStatus> {
    this.assertOpen();
    const outcome = this.sim.setPresence(update);
    if (!outcome.ok) throw new ArmFaultError({ kind: 'rejected', code: outcome.code, message: outcome.message });
    this.emit();
    return outcome.presence;
  }

  subscribe(listener: (status: ArmStatus) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  onFault(listener: (fault: ArmFault) => void): () => void {
    this.faultListeners.add(listener);
    return () => this.faultListeners.delete(listener);
  }

  execute(trajectory: Trajectory, options: ExecuteOptions): Promise<MotionEnd> {
    // Not an async function: the start (state and path re-check, first tick armed) happens in this call.
    if (this.closed) return Promise.reject(this.closedError());
    // Cancelled before it started: it never starts (not started and stopped at once).
    if (options.signal?.aborted === true) return Promise.resolve(this.notStarted(options.motionId));
    const started = this.sim.execute(trajectory, { motionId: options.motionId, ...(options.contactAllowedWith !== undefined ? { contactAllowedWith: options.contactAllowedWith } : {}) });
    if (!started.ok) return Promise.reject(rejected(started));
    // The motion starts now: the pacer's first frame does not count the time the arm stood still.
    this.pacer.start?.();
    const run: Run = { motionId: started.motionId, durationS: started.durationS, startMs: this.sim.nowMs, samples: [], cancelled: false, stopped: false, lastFraction: 0 };
    this.run = run;
    const done = this.drive(run, options);
    this.runEnded = done.catch(() => undefined);
    this.emit();
    return done;
  }

  stop(mode: StopMode): Promise<StopReport> {
    // Applied in this call, before any await: a stop never waits behind a frame.
    const run = this.run;
    if (run !== null) run.stopped = true;
    if (mode === 'emergency') {
      const wasMoving = this.moving();
      this.sim.emergencyStop();
      this.emit();
      return Promise.resolve({ wasMoving, stoppingTimeS: 0, stoppingDistanceMm: 0, state: this.sim.state });
    }
    const report = this.sim.stop();
    this.emit();
    return Promise.resolve(report);
  }

  async resetEmergencyStop(): Promise<void> {
    this.assertOpen();
    this.sim.operatorResetEmergencyStop();
    this.emit();
  }

  async clearFault(): Promise<void> {
    this.assertOpen();
    const cleared = this.sim.operatorClearFault();
    if (!cleared.ok) throw new ArmFaultError({ kind: 'rejected', code: cleared.code, message: cleared.message });
    this.reportedFault = null;
    this.emit();
  }

  async grasp(request: GraspRequest): Promise<GraspOutcome> {
    this.assertOpen();
    const outcome = this.sim.grasp(request);
    if (isStateRefusal(outcome)) throw rejected(outcome);
    this.emit();
    return outcome;
  }

  async release(): Promise<ReleaseResult> {
    this.assertOpen();
    const outcome = this.sim.release();
    if (isStateRefusal(outcome)) throw rejected(outcome);
    this.emit();
    return outcome;
  }

  async readForceTorque(request: ForceTorqueRequest = {}): Promise<ForceTorqueResult> {
    this.assertOpen();
    this.settleSensors();
    try {
      return this.sim.readForceTorque(request);
    } catch (error) {
      throw new ArmFaultError({ kind: 'rejected', code: 'invalid_request', message: error instanceof Error ? error.message : String(error) });
    }
  }

  async captureCamera(): Promise<ObjectDetection[]> {
    this.assertOpen();
    this.settleSensors();
    return this.sim.captureCamera();
  }

  wallMsFor(armMs: number): number {
    return this.pacer.wallMsFor(armMs);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    if (this.moving()) this.sim.stop();
    await this.runEnded;
    this.closed = true;
    this.listeners.clear();
    this.faultListeners.clear();
  }

  private moving(): boolean {
    return this.sim.state === 'moving' || this.sim.state === 'stopping';
  }

  /** Idle simulated time passes between two reads at rest (the sensors sample on simulated time). */
  private settleSensors(): void {
    if (this.run === null && !this.moving()) this.sim.advance(this.pacer.idleAdvanceMs());
  }

  private onTick(): void {
    const run = this.run;
    if (run !== null) run.samples.push(sampleOf(this.sim.status()));
  }

  private async drive(run: Run, options: ExecuteOptions): Promise<MotionEnd> {
    const signal = options.signal;
    const onAbort = (): void => {
      run.cancelled = true;
      this.sim.stop();
    };
    if (signal !== undefined) {
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
    }
    try {
      while (this.moving()) {
        const ms = await this.pacer.next();
        this.sim.advance(ms);
        const motion = this.sim.status().motion;
        if (motion !== null && run.durationS > 0) run.lastFraction = Math.min(1, motion.elapsedS / run.durationS);
        // The frame that ends the motion has no motion status any more: a completed one is at 100%.
        else if (motion === null && this.sim.state === 'idle' && !run.cancelled && !run.stopped) run.lastFraction = 1;
        const samples = run.samples.splice(0);
        options.onProgress?.({ motionId: run.motionId, fraction: run.lastFraction, elapsedS: (this.sim.nowMs - run.startMs) / 1000, samples });
        this.emit();
      }
    } finally {
      signal?.removeEventListener('abort', onAbort);
      this.run = null;
    }
    const final = this.status();
    const status: MotionEnd['status'] = final.state === 'fault' ? 'protective_stop' : final.state === 'estop' ? 'emergency_stopped' : run.cancelled ? 'cancelled' : run.stopped || this.sim.wasStoppedByPresence(run.motionId) ? 'stopped' : 'completed';
    this.emit();
    return { motionId: run.motionId, status, elapsedS: (this.sim.nowMs - run.startMs) / 1000, final };
  }

  /** The end of a motion cancelled before its start: nothing moved. */
  private notStarted(motionId: string): MotionEnd {
    return { motionId, status: 'cancelled', elapsedS: 0, final: this.status() };
  }

  /** Sends the new snapshot to the state stream, and a new protective stop to the fault listeners. */
  private emit(): void {
    if (this.listeners.size === 0 && this.faultListeners.size === 0) return;
    const status = this.status();
    for (const listener of [...this.listeners]) listener(status);
    const fault = this.sim.status().fault;
    if (fault !== null && fault !== this.reportedFault && status.fault !== null) {
      this.reportedFault = fault;
      for (const listener of [...this.faultListeners]) listener(status.fault);
    }
  }

  private assertOpen(): void {
    if (this.closed) throw this.closedError();
  }

  private closedError(): ArmFaultError {
    return new ArmFaultError({ kind: 'disconnected', code: 'closed', message: 'the simulated arm driver is closed' });
  }
}
