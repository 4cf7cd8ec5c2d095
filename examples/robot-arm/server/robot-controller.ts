import type { RobotSimulation, SimState } from '../sim/robot-simulation.js';
import type { MotionPlan } from './motion-plan.js';
import { PlanStore } from './motion-plan.js';
import { RateLimiter } from './rate-limiter.js';
import { SafetyMonitor, type SafetyViolation } from './safety-monitor.js';
import type { Refusal } from './safety-stages.js';
import type { SimPacer } from './sim-pacer.js';
import type { LatchStore } from './estop-latch-file.js';

/** How a motion ended. */
export interface MotionReport {
  readonly motionId: string;
  readonly planId: string;
  readonly status: 'completed' | 'stopped' | 'cancelled' | 'emergency_stopped' | 'protective_stop' | 'watchdog_stopped';
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
  readonly state: SimState;
  readonly emergencyStopLatched: boolean;
}

/** Why an emergency stop is latched, and who can clear it. */
export interface EmergencyStopInfo {
  readonly reason: string;
  readonly source: 'stop_arm' | 'safety_monitor' | 'watchdog' | 'operator';
  readonly at: string;
}

export interface RobotControllerOptions {
  readonly sim: RobotSimulation;
  readonly pacer: SimPacer;
  /** Motion commands per second (token bucket refill), default 2. */
  readonly motionRatePerSecond?: number;
  /** Motion commands allowed back to back, default 2. */
  readonly motionBurst?: number;
  /**
   * Planning requests (plan_trajectory, dry runs) per second and back to back; default the motion rate
   * and burst. Planning moves nothing but can cost about half a CPU-second, so it has its own bucket.
   */
  readonly planRatePerSecond?: number;
  readonly planBurst?: number;
  /** Wall-clock source for rate limiting and plan expiry (tests inject one). */
  readonly now?: () => number;
  /** Wall-clock slack before the watchdog calls the driver stalled, ms (default 5000). */
  readonly watchdogWallSlackMs?: number;
  /** Where the e-stop latch survives restarts (default: memory only, lost with the process). */
  readonly latchStore?: LatchStore;
}

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
 * Owns the arm's motion authority: the state gate (e-stop latch, fault, busy, rate limit), at most one
 * motion at a time, execution under a watchdog and the runtime monitor, stop (never refused, idempotent,
 * cancels pending approvals through `stopEpoch`), and the operator-only e-stop reset.
 */
export class RobotController {
  readonly sim: RobotSimulation;
  readonly pacer: SimPacer;
  readonly plans: PlanStore;
  readonly monitor: SafetyMonitor;
  private readonly limiter: RateLimiter;
  private readonly planLimiter: RateLimiter;
  private epoch = 0;
  private stopped = new AbortController();
  private estop: EmergencyStopInfo | null = null;
  private active: ActiveMotion | null = null;
  private reserved = false;
  private readonly wallSlackMs: number;
  private readonly latchStore: LatchStore | undefined;

  constructor(options: RobotControllerOptions) {
    this.sim = options.sim;
    this.pacer = options.pacer;
    const now = options.now ?? Date.now;
    this.plans = new PlanStore(10 * 60_000, 32, now);
    this.limiter = new RateLimiter(options.motionRatePerSecond ?? 2, options.motionBurst ?? 2, now);
    this.planLimiter = new RateLimiter(options.planRatePerSecond ?? this.limiter.perSecond, options.planBurst ?? this.limiter.burst, now);
    this.wallSlackMs = options.watchdogWallSlackMs ?? WATCHDOG_WALL_SLACK_MS;
    this.monitor = new SafetyMonitor(this.sim);
    this.monitor.onViolation((v) => this.onViolation(v));
    this.latchStore = options.latchStore;
    // A latch saved by an earlier process holds again before any command is accepted.
    const saved = this.latchStore?.load() ?? null;
    if (saved !== null) {
      this.sim.emergencyStop();
      this.estop = saved;
      this.monitor.setHoldStill(true);
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

  /**
   * Stage `state_gate`. Every kind needs the arm at rest; `motion` commands also take a token of the
   * motion rate limit, `plan` requests (plan_trajectory, dry runs) one of the planning rate limit;
   * `gripper` commands (grasp closes, release opens) take none.
   */
  stateGate(kind: 'motion' | 'plan' | 'gripper'): Refusal | null {
    if (this.estop !== null || this.sim.state === 'estop') {
      return { stage: 'state_gate', code: 'estop_latched', message: `the emergency stop is latched (${this.estop?.reason ?? 'emergency stop'}); only an operator can clear it, no tool can` };
    }
    if (this.sim.state === 'fault') {
      return { stage: 'state_gate', code: 'fault', message: `${this.sim.status().fault?.message ?? 'the arm is in a fault state'}; an operator must clear the fault` };
    }
    if (this.active !== null || this.reserved || this.sim.state === 'moving' || this.sim.state === 'stopping') {
      return { stage: 'state_gate', code: 'busy', message: `a motion (${this.active?.motionId ?? 'starting'}) is running; only one motion runs at a time. Wait for it to finish or call stop_arm` };
    }
    if (kind === 'motion') {
      const waitMs = this.limiter.take();
      if (waitMs > 0) {
        return { stage: 'state_gate', code: 'rate_limited', message: `motion commands are limited to ${this.limiter.perSecond} per second (burst ${this.limiter.burst}); retry in ${waitMs} ms` };
      }
    }
    if (kind === 'plan') {
      const waitMs = this.planLimiter.take();
      if (waitMs > 0) {
        return { stage: 'state_gate', code: 'rate_limited', message: `planning requests are limited to ${this.planLimiter.perSecond} per second (burst ${this.planLimiter.burst}); retry in ${waitMs} ms` };
      }
    }
    return null;
  }

  /**
   * Runs a checked plan to the end (stage `execute`). Call it synchronously after `stateGate` and the
   * planning stages (no await in between), so nothing can start in the gap; the simulator re-checks
   * state and path anyway. Resolves when the arm is at rest again: completed, stopped, cancelled through
   * `signal`, or halted by the monitor or the watchdog.
   */
  runMotion(plan: MotionPlan, options: { signal?: AbortSignal; onProgress?: (fraction: number) => void } = {}): Promise<MotionReport> | Refusal {
    const started = this.sim.execute(plan.trajectory, { contactAllowedWith: plan.toolContactObjectIds });
    if (!started.ok) {
      const stage: Refusal['stage'] = started.code === 'busy' || started.code === 'estop_latched' || started.code === 'fault' || started.code === 'stale_start' ? 'state_gate' : started.code === 'limit_exceeded' ? 'speed_and_acceleration' : started.code === 'outside_envelope' ? 'workspace_envelope' : 'collision';
      return { stage, code: started.code, message: started.message };
    }
    this.plans.delete(plan.id);
    const entry: ActiveMotion = { motionId: started.motionId, planId: plan.id, stopReason: null, stopDetail: null, done: null };
    this.active = entry;
    const done = this.drive(entry, plan, options);
    entry.done = done;
    return done;
  }

  /** Holds the single motion slot across an async gap (grasp: approach, then close). */
  async exclusive<T>(body: () => Promise<T>): Promise<T> {
    this.reserved = true;
    try {
      return await body();
    } finally {
      this.reserved = false;
    }
  }

  /**
   * Stops the arm. Never refused, idempotent, works in every state, and voids every pending approval.
   * `controlled` decelerates along the path within the acceleration caps; `emergency` freezes the arm at
   * once and latches the emergency stop (operator reset only).
   */
  async stop(mode: 'controlled' | 'emergency', reason: string, source: EmergencyStopInfo['source'] = 'stop_arm'): Promise<StopOutcome> {
    this.nextEpoch();
    const active = this.active;
    let stoppingTimeS = 0;
    let stoppingDistanceMm = 0;
    let wasMoving = false;
    if (active !== null) {
      active.stopReason ??= mode === 'emergency' ? 'emergency_stopped' : 'stopped';
      // A stop no client asked for (shutdown): the client of the motion is told why it ended.
      if (source === 'operator') active.stopDetail ??= reason;
    }
    if (mode === 'emergency') {
      wasMoving = this.sim.state === 'moving' || this.sim.state === 'stopping';
      this.latch(reason, source);
    } else {
      const report = this.sim.stop();
      wasMoving = report.wasMoving;
      stoppingTimeS = report.stoppingTimeS;
      stoppingDistanceMm = report.stoppingDistanceMm;
    }
    if (active?.done != null) await active.done;
    return {
      mode,
      wasMoving,
      stoppedMotionId: active?.motionId ?? null,
      stoppingTimeS,
      stoppingDistanceMm,
      cancelledPendingApprovals: true,
      state: this.sim.state,
      emergencyStopLatched: this.estop !== null,
    };
  }

  /** Operator action (CLI signal or embedding code), never a tool: clears a latched emergency stop. */
  clearEmergencyStop(operator: string): boolean {
    if (this.estop === null && this.sim.state !== 'estop') return false;
    if (!(typeof operator === 'string' && operator.trim() !== '')) throw new TypeError('clearEmergencyStop needs the operator\'s name for the audit log');
    // Cleared on disk first: if that fails, the reset fails and the arm stays latched.
    this.latchStore?.save(null);
    this.estop = null;
    this.sim.operatorResetEmergencyStop();
    this.monitor.setHoldStill(false);
    return true;
  }

  /** Operator action: acknowledges a protective stop (fault). */
  clearFault(operator: string): boolean {
    if (this.sim.state !== 'fault') return false;
    if (!(typeof operator === 'string' && operator.trim() !== '')) throw new TypeError('clearFault needs the operator\'s name for the audit log');
    this.sim.operatorClearFault();
    return true;
  }

  /** Lets idle simulated time pass so sensors have fresh samples (only while no motion drives the clock). */
  settleSensors(): void {
    if (this.active === null && this.sim.state !== 'moving' && this.sim.state !== 'stopping') this.sim.advance(this.pacer.idleAdvanceMs());
  }

  private latch(reason: string, source: EmergencyStopInfo['source']): void {
    this.sim.emergencyStop();
    if (this.estop === null) {
      const latched: EmergencyStopInfo = { reason, source, at: new Date().toISOString() };
      this.estop = latched;
      try {
        this.latchStore?.save(latched);
      } catch (error) {
        // The arm is already stopped; say (in status and refusals) that a restart would lose the latch.
        this.estop = { ...latched, reason: `${reason} (not saved to disk: ${(error as Error).message}; a restart would clear it)` };
      }
    }
    this.monitor.setHoldStill(true);
  }

  private onViolation(v: SafetyViolation): void {
    if (this.estop !== null) return;
    if (this.active !== null) this.active.stopReason ??= 'emergency_stopped';
    this.latch(`safety monitor: ${v.kind}: ${v.message}`, 'safety_monitor');
  }

  private async drive(entry: ActiveMotion, plan: MotionPlan, options: { signal?: AbortSignal; onProgress?: (fraction: number) => void }): Promise<MotionReport> {
    const durationS = plan.trajectory.durationS;
    const startSimMs = this.sim.nowMs;
    const simDeadlineMs = startSimMs + durationS * 1500 + WATCHDOG_MARGIN_MS;
    const wallDeadline = performance.now() + this.pacer.wallMsFor(durationS * 1500 + WATCHDOG_MARGIN_MS) + this.wallSlackMs;
    const onAbort = (): void => {
      entry.stopReason ??= 'cancelled';
      this.nextEpoch();
      this.sim.stop();
    };
    const signal = options.signal;
    if (signal !== undefined) {
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
    }
    try {
      while (this.sim.state === 'moving' || this.sim.state === 'stopping') {
        const ms = await this.pacer.next();
        this.sim.advance(ms);
        const motion = this.sim.status().motion;
        if (motion !== null && durationS > 0) options.onProgress?.(Math.min(1, motion.elapsedS / durationS));
        if ((this.sim.state === 'moving' || this.sim.state === 'stopping') && (this.sim.nowMs > simDeadlineMs || performance.now() > wallDeadline)) {
          entry.stopReason ??= 'watchdog_stopped';
          const why = this.sim.nowMs > simDeadlineMs ? `did not finish within 1.5 × its planned ${durationS.toFixed(2)} s` : 'stalled: simulated time stopped advancing';
          this.latch(`watchdog: motion ${entry.motionId} ${why}`, 'watchdog');
        }
      }
    } finally {
      signal?.removeEventListener('abort', onAbort);
      this.active = null;
    }
    const status = this.sim.status();
    let outcome: MotionReport['status'] = entry.stopReason ?? 'completed';
    if (status.state === 'fault') outcome = 'protective_stop';
    return {
      motionId: entry.motionId,
      planId: entry.planId,
      status: outcome,
      plannedDurationS: durationS,
      simulatedTimeS: (this.sim.nowMs - startSimMs) / 1000,
      finalJointsDeg: status.jointsDeg,
      finalTcpMm: { x: status.tcp.x, y: status.tcp.y, z: status.tcp.z },
      ...(status.fault !== null && outcome === 'protective_stop' ? { detail: status.fault.message } : {}),
      ...(entry.stopDetail !== null && outcome === 'stopped' ? { detail: entry.stopDetail } : {}),
      ...(this.estop !== null && outcome !== 'completed' ? { detail: this.estop.reason } : {}),
    };
  }
}
