// One file over ~400 lines on purpose: the state gate, the single motion slot, the watchdog, the
// monitor's latch and stop share the controller's private state, and splitting them would expose it.
import { isArmFaultError, type ArmDriver, type ArmFault, type ArmState, type ArmStatus, type MotionProgress } from '../driver/arm-driver.js';
import type { ArmModel } from '../model/arm-model.js';
import type { MotionPlan } from './motion-plan.js';
import { SafetyMonitor, type SafetyViolation } from './safety-monitor.js';
import type { Refusal } from './safety-stages.js';
import type { LatchStore } from './estop-latch-file.js';
import { checkOption } from './robot-settings.js';
import { stateKnowledge, type StateKnowledge } from './arm-state-knowledge.js';

/** How a motion ended. */
export interface MotionReport {
  readonly motionId: string;
  readonly planId: string;
  /** `driver_fault`: the driver lost the arm mid-motion (disconnected, timeout); the final pose is the last one reported. */
  readonly status: 'completed' | 'stopped' | 'cancelled' | 'emergency_stopped' | 'protective_stop' | 'watchdog_stopped' | 'driver_fault';
  readonly plannedDurationS: number;
  readonly simulatedTimeS: number;
  readonly finalJointsDeg: readonly number[];
  readonly finalTcpMm: { readonly x: number; readonly y: number; readonly z: number };
  readonly detail?: string;
}

/** What `stop` did. */
export interface StopOutcome {
  readonly mode: 'controlled' | 'emergency';
  readonly wasMoving: boolean;
  readonly stoppedMotionId: string | null;
  readonly stoppingTimeS: number;
  readonly stoppingDistanceMm: number;
  readonly cancelledPendingApprovals: boolean;
  readonly state: ArmState;
  readonly emergencyStopLatched: boolean;
  /** Set when the driver could not be told to stop (the arm is unreachable); the latch still holds in the server. */
  readonly driverFault?: ArmFault;
}

/** Why an emergency stop is latched, and who can clear it. */
export interface EmergencyStopInfo {
  readonly reason: string;
  readonly source: 'stop_arm' | 'safety_monitor' | 'watchdog' | 'operator';
  readonly at: string;
}

export interface RobotControllerOptions {
  /** The arm's limits, envelope, kinematics and collision model (pure). */
  readonly model: ArmModel;
  /** The arm itself; the controller never advances a clock, it only commands and listens. */
  readonly driver: ArmDriver;
  /** Wall-clock slack before the watchdog calls the driver stalled, ms (default 5000). */
  readonly watchdogWallSlackMs?: number;
  /** Where the e-stop latch survives restarts (default: memory only, lost with the process). */
  readonly latchStore?: LatchStore;
  /** Oldest driver snapshot (wall ms since its `asOf`) the state gate plans from; default 1000. */
  readonly maxStatusAgeMs?: number;
}

/** Default bound on the age of the driver's snapshot for planning, ms. */
const MAX_STATUS_AGE_MS = 1000;

/** The one motion that may run; `done` resolves when the arm is at rest again. */
interface ActiveMotion {
  readonly motionId: string;
  readonly planId: string;
  stopReason: MotionReport['status'] | null;
  /** Why an operator-side stop (e.g. shutdown) ended it; told to the motion's client. */
  stopDetail: string | null;
  done: Promise<MotionReport> | null;
}

/** Watchdog: a motion still running 1.5 × its planned duration plus this margin (simulated ms) has gone wrong. */
const WATCHDOG_MARGIN_MS = 500;
/** Extra wall-clock slack before the watchdog blames a stalled driver (a busy CPU slows simulated time, not the arm). */
const WATCHDOG_WALL_SLACK_MS = 5000;

/**
 * Owns the arm's motion authority: the state gate (e-stop latch, driver fault, stale snapshot, busy),
 * at most one motion at a time, execution under a watchdog and the runtime monitor (on
 * the samples the driver streams), stop (never refused, idempotent, cancels pending approvals through
 * `stopEpoch`), and the operator-only e-stop reset. It talks to the arm only through the driver.
 */
export class RobotController {
  readonly model: ArmModel;
  readonly driver: ArmDriver;
  readonly monitor: SafetyMonitor;
  private epoch = 0;
  private stopped = new AbortController();
  private estop: EmergencyStopInfo | null = null;
  private active: ActiveMotion | null = null;
  /** The call holding the single motion slot across an async gap (a console wait, a grasp's approach then close), or null. */
  private slotOwner: object | null = null;
  private motionCounter = 0;
  private readonly wallSlackMs: number;
  private readonly maxStatusAgeMs: number;
  private readonly latchStore: LatchStore | undefined;
  private readonly detach: Array<() => void> = [];

  constructor(options: RobotControllerOptions) {
    this.model = options.model;
    this.driver = options.driver;
    if (this.driver.presetId !== this.model.preset.id) throw new RangeError(`the driver moves a ${this.driver.presetId} arm, but the model is of a ${this.model.preset.id}`);
    this.wallSlackMs = checkOption('watchdogWallSlackMs', options.watchdogWallSlackMs ?? WATCHDOG_WALL_SLACK_MS);
    this.maxStatusAgeMs = checkOption('maxStatusAgeMs', options.maxStatusAgeMs ?? MAX_STATUS_AGE_MS);
    this.monitor = new SafetyMonitor(this.model, this.driver.status());
    this.monitor.onViolation((v) => this.onViolation(v));
    this.detach.push(this.driver.subscribe((status) => {
      if (this.active === null) this.monitor.checkStatus(status);
    }));
    this.latchStore = options.latchStore;
    // A latch saved by an earlier process holds again before any command is accepted.
    const saved = this.latchStore?.load() ?? null;
    if (saved !== null) {
      this.estop = saved;
      this.commandEmergencyStop();
      this.monitor.setHoldStill(true, this.driver.status());
    }
  }

  /** Increments on every stop; an approval asked for under an older epoch is void. */
  get stopEpoch(): number {
    return this.epoch;
  }

  /** Aborted at the next stop (a new signal after each): ends waits that a stop voids, at once. */
  get stopSignal(): AbortSignal {
    return this.stopped.signal;
  }

  private nextEpoch(): void {
    this.epoch++;
    const stopped = this.stopped;
    this.stopped = new AbortController();
    stopped.abort();
  }

  get emergencyStop(): EmergencyStopInfo | null {
    return this.estop;
  }

  get activeMotionId(): string | null {
    return this.active?.motionId ?? null;
  }

  /** The driver's latest snapshot (what every check reads). */
  status(): ArmStatus {
    return this.driver.status();
  }

  /** Whether that snapshot is the arm's state now (see arm-state-knowledge.ts). */
  stateKnowledge(): StateKnowledge {
    return stateKnowledge(this.driver.status(), this.maxStatusAgeMs);
  }

  /**
   * Stage `state_gate`, the arm's part: every command needs the arm at rest and a current snapshot
   * from a driver not in fault. (The rate limits are the server's store's: motion-rate-limits.ts.)
   */
  stateGate(): Refusal | null {
    return this.armRefusal(this.driver.status());
  }

  /**
   * Runs a checked plan to the end (stage `execute`). The arm's state and the whole path are
   * re-checked against the driver's snapshot now (an approval may have waited), the motion slot is
   * taken and the driver commanded, all before this returns; the promise resolves when the arm is at
   * rest again: completed, stopped, cancelled through `signal`, halted by the monitor or the watchdog,
   * or lost by the driver. A refusal (nothing moved) resolves instead of a report.
   */
  runMotion(plan: MotionPlan, options: { signal?: AbortSignal; onProgress?: (fraction: number, status: ArmStatus) => void; owner?: object } = {}): Promise<MotionReport | Refusal> {
    const status = this.driver.status();
    // The caller (`owner`) may hold the motion slot (`holdSlot`) for exactly this motion; nobody else may.
    const refusal = this.armRefusal(status, options.owner);
    if (refusal !== null) return Promise.resolve(refusal);
    const check = this.model.validateTrajectory(plan.trajectory, status, { contactAllowedWith: plan.toolContactObjectIds });
    if (!check.ok) {
      const stage: Refusal['stage'] = check.code === 'stale_start' ? 'state_gate' : check.code === 'limit_exceeded' ? 'speed_and_acceleration' : check.code === 'outside_envelope' ? 'workspace_envelope' : 'collision';
      return Promise.resolve({ stage, code: check.code, message: check.message });
    }
    const motionId = `motion-${++this.motionCounter}`;
    const entry: ActiveMotion = { motionId, planId: plan.id, stopReason: null, stopDetail: null, done: null };
    this.active = entry;
    this.monitor.setMotion({ scene: { held: status.held, objects: status.objects }, allowances: this.model.motionAllowances(plan.trajectory, plan.toolContactObjectIds) });
    const run = this.drive(entry, plan, status, options);
    entry.done = run.then((outcome) => ('stage' in outcome ? this.lastReport(entry, plan, status) : outcome));
    return run;
  }

  /**
   * Resolves at once when the driver's snapshot is recent enough to plan from; otherwise at its next
   * update, or after the age bound (then the state gate refuses the stale snapshot as before). A
   * remote driver's state frames wait in the socket while this process is busy checking a path, so a
   * snapshot read right after a long check is old only because nobody has read the newer frames yet.
   */
  async freshStatus(): Promise<void> {
    if (Date.now() - this.driver.status().asOf <= this.maxStatusAgeMs) return;
    await new Promise<void>((done) => {
      let stopListening = (): void => undefined;
      const finish = (): void => {
        clearTimeout(timer);
        stopListening();
        done();
      };
      const timer = setTimeout(finish, this.maxStatusAgeMs);
      stopListening = this.driver.subscribe(finish);
    });
  }

  /**
   * Holds the single motion slot for `owner` (a call) across an async gap: a console wait for the
   * operator (issue 30 item 1: nothing else moves the arm or the held object between what the operator
   * was shown and what runs), a grasp's approach then close. Returns the release function, or the
   * `busy` refusal when a motion runs or another call holds the slot. The same owner may hold it again
   * (the inner release is then a no-op).
   */
  holdSlot(owner: object): (() => void) | Refusal {
    if (this.slotOwner === owner) return () => undefined;
    const refusal = this.armRefusal(this.driver.status());
    if (refusal !== null) return refusal;
    this.slotOwner = owner;
    return () => {
      if (this.slotOwner === owner) this.slotOwner = null;
    };
  }

  /**
   * Stops the arm. Never refused, idempotent, works in every state, and voids every pending approval.
   * `controlled` decelerates along the path within the acceleration caps; `emergency` freezes the arm at
   * once and latches the emergency stop (operator reset only). If the driver cannot be reached the
   * answer says so, and an emergency latch holds in the server all the same.
   */
  async stop(mode: 'controlled' | 'emergency', reason: string, source: EmergencyStopInfo['source'] = 'stop_arm'): Promise<StopOutcome> {
    this.nextEpoch();
    const active = this.active;
    let stoppingTimeS = 0;
    let stoppingDistanceMm = 0;
    let wasMoving = false;
    let driverFault: ArmFault | undefined;
    if (active !== null) {
      active.stopReason ??= mode === 'emergency' ? 'emergency_stopped' : 'stopped';
      // A stop no client asked for (shutdown): the client of the motion is told why it ended.
      if (source === 'operator') active.stopDetail ??= reason;
    }
    if (mode === 'emergency') {
      const before = this.driver.status().state;
      wasMoving = before === 'moving' || before === 'stopping';
      driverFault = await this.latch(reason, source);
    } else {
      try {
        const report = await this.driver.stop('controlled');
        wasMoving = report.wasMoving;
        stoppingTimeS = report.stoppingTimeS;
        stoppingDistanceMm = report.stoppingDistanceMm;
      } catch (error) {
        driverFault = faultOf(error);
        // Nobody confirmed the arm is stopping: it is held as an emergency stop in the server until an operator resets it.
        await this.latch(`the controlled stop (${reason}) could not be confirmed: ${driverFault.message}`, source);
      }
    }
    if (active?.done != null) await active.done;
    return {
      mode,
      wasMoving,
      stoppedMotionId: active?.motionId ?? null,
      stoppingTimeS,
      stoppingDistanceMm,
      cancelledPendingApprovals: true,
      state: this.driver.status().state,
      emergencyStopLatched: this.estop !== null,
      ...(driverFault !== undefined ? { driverFault } : {}),
    };
  }

  /**
   * Operator action (CLI signal or embedding code), never a tool: clears a latched emergency stop.
   * Resolves true once the driver has confirmed its own e-stop released (the next motion is accepted),
   * false when nothing was latched. The latch on disk is cleared first (if that fails, the reset fails
   * and the arm stays latched). If the driver cannot confirm the release (controller unreachable, or it
   * refused), the server's latch is set again and this rejects with {@link EmergencyStopResetError}.
   */
  async clearEmergencyStop(operator: string): Promise<boolean> {
    if (this.estop === null && !this.driver.status().estopLatched) return false;
    if (!(typeof operator === 'string' && operator.trim() !== '')) throw new TypeError('clearEmergencyStop needs the operator\'s name for the audit log');
    const held = this.estop;
    this.latchStore?.save(null);
    this.estop = null;
    this.monitor.setHoldStill(false, this.driver.status());
    try {
      await this.driver.resetEmergencyStop();
    } catch (error) {
      const fault = faultOf(error);
      // Unless a new stop latched meanwhile, the old latch holds again (memory and disk), as before the reset.
      if (this.estop === null) {
        this.estop = held ?? { reason: 'emergency stop (the controller\'s own latch)', source: 'operator', at: new Date().toISOString() };
        try {
          this.latchStore?.save(this.estop);
        } catch (saveError) {
          this.estop = { ...this.estop, reason: `${this.estop.reason} (not saved to disk: ${(saveError as Error).message}; a restart would clear it)` };
        }
        this.monitor.setHoldStill(true, this.driver.status());
      }
      throw new EmergencyStopResetError(`the arm controller did not confirm the reset (${fault.kind}: ${fault.message}); the emergency stop stays latched`, fault);
    }
    return true;
  }

  /**
   * Operator action: acknowledges a protective stop (fault). Resolves true once the driver confirmed
   * it, false when the arm was not in fault; rejects with the driver's error if it could not clear it.
   */
  async clearFault(operator: string): Promise<boolean> {
    if (this.driver.status().state !== 'fault') return false;
    if (!(typeof operator === 'string' && operator.trim() !== '')) throw new TypeError('clearFault needs the operator\'s name for the audit log');
    await this.driver.clearFault();
    return true;
  }

  /** Detaches from the driver's streams (the driver itself is closed by its owner). */
  dispose(): void {
    for (const detach of this.detach.splice(0)) detach();
  }

  /** Why the arm cannot take a command now (latch, driver fault, stale snapshot, busy), or null. */
  private armRefusal(status: ArmStatus, owner?: object): Refusal | null {
    if (this.estop !== null || status.state === 'estop' || status.estopLatched) {
      return { stage: 'state_gate', code: 'estop_latched', message: `the emergency stop is latched (${this.estop?.reason ?? 'emergency stop'}); only an operator can clear it, no tool can` };
    }
    if (status.state === 'fault' || status.fault !== null) {
      const fault = status.fault;
      if (fault === null || fault.kind === 'protective_stop') {
        return { stage: 'state_gate', code: 'fault', message: `${fault?.message ?? 'the arm is in a fault state'}; an operator must clear the fault` };
      }
      return { stage: 'state_gate', code: `driver_${fault.kind}`, message: `the arm controller is not available (${fault.kind}: ${fault.message}); motions are refused until it answers again and its state is re-read` };
    }
    const ageMs = Date.now() - status.asOf;
    if (ageMs > this.maxStatusAgeMs) {
      return { stage: 'state_gate', code: 'stale_status', message: `the arm's last reported state is ${ageMs} ms old (at most ${this.maxStatusAgeMs} ms); nothing is planned from a stale pose` };
    }
    if (this.active === null && this.slotOwner !== null && this.slotOwner !== owner && status.state !== 'moving' && status.state !== 'stopping') {
      return { stage: 'state_gate', code: 'busy', message: 'another call holds the arm while its motion awaits the operator\'s approval or its grasp completes; only one motion runs at a time. Retry when it has finished' };
    }
    if (this.active !== null || status.state === 'moving' || status.state === 'stopping') {
      return { stage: 'state_gate', code: 'busy', message: `a motion (${this.active?.motionId ?? 'starting'}) is running; only one motion runs at a time. Wait for it to finish or call stop_arm` };
    }
    return null;
  }

  /** Latches (memory, then disk) and commands the driver's emergency stop; resolves with the driver's fault if it could not be told. */
  private async latch(reason: string, source: EmergencyStopInfo['source']): Promise<ArmFault | undefined> {
    if (this.estop === null) {
      const latched: EmergencyStopInfo = { reason, source, at: new Date().toISOString() };
      this.estop = latched;
      try {
        this.latchStore?.save(latched);
      } catch (error) {
        // The arm is being stopped; say (in status and refusals) that a restart would lose the latch.
        this.estop = { ...latched, reason: `${reason} (not saved to disk: ${(error as Error).message}; a restart would clear it)` };
      }
    }
    const sent = this.commandEmergencyStop();
    this.monitor.setHoldStill(true, this.driver.status());
    return sent;
  }

  /** The driver's emergency stop, sent at once (a driver applies it before its first await). */
  private commandEmergencyStop(): Promise<ArmFault | undefined> {
    return this.driver.stop('emergency').then(() => undefined, (error: unknown) => faultOf(error));
  }

  private onViolation(v: SafetyViolation): void {
    if (this.estop !== null) return;
    if (this.active !== null) this.active.stopReason ??= 'emergency_stopped';
    void this.latch(`safety monitor: ${v.kind}: ${v.message}`, 'safety_monitor');
  }

  private async drive(entry: ActiveMotion, plan: MotionPlan, start: ArmStatus, options: { signal?: AbortSignal; onProgress?: (fraction: number, status: ArmStatus) => void }): Promise<MotionReport | Refusal> {
    const durationS = plan.trajectory.durationS;
    const armDeadlineS = (durationS * 1500 + WATCHDOG_MARGIN_MS) / 1000;
    const signal = options.signal;
    const onAbort = (): void => {
      entry.stopReason ??= 'cancelled';
      this.nextEpoch();
    };
    if (signal?.aborted === true) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
    // Wall clock: a driver that stops reporting (hung loop, lost link) is caught without any sample.
    const wallTimer = setTimeout(() => {
      if (this.active !== entry) return;
      entry.stopReason ??= 'watchdog_stopped';
      void this.latch(`watchdog: motion ${entry.motionId} stalled: the arm's clock stopped advancing`, 'watchdog');
    }, this.driver.wallMsFor(durationS * 1500 + WATCHDOG_MARGIN_MS) + this.wallSlackMs);
    let lastFraction = 0;
    let reported = false;
    let last: ArmStatus | null = null;
    const onProgress = (progress: MotionProgress): void => {
      reported = true;
      for (const sample of progress.samples) this.monitor.checkSample(sample);
      if (progress.elapsedS > armDeadlineS && this.estop === null) {
        entry.stopReason ??= 'watchdog_stopped';
        void this.latch(`watchdog: motion ${entry.motionId} did not finish within 1.5 × its planned ${durationS.toFixed(2)} s`, 'watchdog');
      }
      if (durationS > 0 && progress.fraction > lastFraction) {
        lastFraction = progress.fraction;
        // A remote driver's streamed state can trail its progress frames: the pose reported is the newest of the two.
        const now = this.driver.status();
        const sample = progress.samples.at(-1);
        last = sample !== undefined && sample.timeMs > now.timeMs ? { ...now, ...sample } : now;
        options.onProgress?.(progress.fraction, last);
      }
    };
    try {
      const end = await this.driver.execute(plan.trajectory, {
        motionId: entry.motionId,
        onProgress,
        contactAllowedWith: plan.toolContactObjectIds,
        ...(signal !== undefined ? { signal } : {}),
      });
      let outcome: MotionReport['status'] = entry.stopReason ?? end.status;
      if (end.status === 'protective_stop') outcome = 'protective_stop';
      const final = end.final;
      return {
        motionId: entry.motionId,
        planId: entry.planId,
        status: outcome,
        plannedDurationS: durationS,
        simulatedTimeS: end.elapsedS,
        finalJointsDeg: final.jointsDeg,
        finalTcpMm: { x: final.tcp.x, y: final.tcp.y, z: final.tcp.z },
        ...(final.fault !== null && outcome === 'protective_stop' ? { detail: final.fault.message } : {}),
        ...(entry.stopDetail !== null && outcome === 'stopped' ? { detail: entry.stopDetail } : {}),
        ...(this.estop !== null && outcome !== 'completed' ? { detail: this.estop.reason } : {}),
      };
    } catch (error) {
      const fault = faultOf(error);
      if (fault.kind === 'rejected' && !reported) {
        // Refused before it moved: nothing ran, the plan stays valid.
        const stage: Refusal['stage'] = fault.code === 'busy' || fault.code === 'estop_latched' || fault.code === 'stale_start' ? 'state_gate' : fault.code === 'limit_exceeded' ? 'speed_and_acceleration' : fault.code === 'outside_envelope' ? 'workspace_envelope' : 'collision';
        return { stage, code: fault.code ?? 'driver_rejected', message: fault.message };
      }
      const final = last ?? start;
      return {
        motionId: entry.motionId,
        planId: entry.planId,
        status: 'driver_fault',
        plannedDurationS: durationS,
        simulatedTimeS: Math.max(0, (final.timeMs - start.timeMs) / 1000),
        finalJointsDeg: final.jointsDeg,
        finalTcpMm: { x: final.tcp.x, y: final.tcp.y, z: final.tcp.z },
        detail: `the arm driver failed during the motion (${fault.kind}: ${fault.message}); the last reported pose is shown, and the arm's state is re-read before anything else moves`,
      };
    } finally {
      clearTimeout(wallTimer);
      signal?.removeEventListener('abort', onAbort);
      this.monitor.setMotion(null);
      this.active = null;
    }
  }

  /** What `stop` waits for when the start was refused: nothing moved. */
  private lastReport(entry: ActiveMotion, plan: MotionPlan, status: ArmStatus): MotionReport {
    return { motionId: entry.motionId, planId: entry.planId, status: 'stopped', plannedDurationS: plan.trajectory.durationS, simulatedTimeS: 0, finalJointsDeg: status.jointsDeg, finalTcpMm: { x: status.tcp.x, y: status.tcp.y, z: status.tcp.z } };
  }
}

/** An operator's e-stop reset that the arm controller did not confirm: the emergency stop stays latched. */
export class EmergencyStopResetError extends Error {
  override readonly name = 'EmergencyStopResetError';
  constructor(message: string, readonly fault: ArmFault) {
    super(message);
  }
}

/** The typed fault of a driver command's rejection (anything else is reported as a rejection). */
function faultOf(error: unknown): ArmFault {
  if (isArmFaultError(error)) return error.fault;
  return { kind: 'rejected', code: 'driver_error', message: error instanceof Error ? error.message : String(error) };
}
