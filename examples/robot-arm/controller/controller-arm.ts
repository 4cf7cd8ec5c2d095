/**
 * The arm as the controller process runs it: the simulated cell on its own real-time clock, the
 * runtime safety monitor on every clock step (a violation latches the e-stop here, where motion
 * happens), and the controller's own e-stop latch on disk, so that restarting the controller keeps
 * it. Everything the socket can ask for is a method here; the socket service only translates.
 */
import { LatchFile, type LatchStore } from '../server/estop-latch-file.js';
import type { EmergencyStopInfo } from '../server/robot-controller.js';
import { SafetyMonitor } from '../server/safety-monitor.js';
import { realTimePacer, type SimPacer } from '../server/sim-pacer.js';
import type { FtAxis, FtFilter } from '../sim/force-torque-sensor.js';
import type { GraspStrategy } from '../sim/gripper.js';
import { RobotSimulation, type RobotSimulationOptions } from '../sim/robot-simulation.js';
import type { ControllerState, WireMotionReport } from './controller-protocol.js';
import { decodeTrajectory } from './trajectory-wire.js';

/** A refusal the controller answers with (code as in the simulator or the protocol). */
export interface ArmRefusal {
  readonly ok: false;
  readonly code: string;
  readonly message: string;
}

export interface ControllerArmOptions {
  readonly simulation?: RobotSimulationOptions;
  /** Where the controller keeps its e-stop latch; default memory only. */
  readonly latchPath?: string;
  readonly pacer?: SimPacer;
}

/** What the arm tells its listeners (the socket service). */
export interface ControllerArmEvents {
  /** After every clock frame of a motion. */
  frame(): void;
  report(report: WireMotionReport): void;
}

export class ControllerArm {
  readonly sim: RobotSimulation;
  private readonly monitor: SafetyMonitor;
  private readonly latchStore: LatchStore | null;
  private readonly pacer: SimPacer;
  private estop: EmergencyStopInfo | null = null;
  private running: { motionId: string; stopReason: WireMotionReport['status'] | null; startMs: number } | null = null;
  private listeners: Partial<ControllerArmEvents> = {};

  constructor(options: ControllerArmOptions = {}) {
    this.sim = new RobotSimulation(options.simulation);
    this.pacer = options.pacer ?? realTimePacer(1);
    this.monitor = new SafetyMonitor(this.sim);
    this.monitor.onViolation((v) => {
      if (this.estop === null) this.latch(`safety monitor: ${v.kind}: ${v.message}`, 'safety_monitor');
    });
    this.latchStore = options.latchPath === undefined ? null : new LatchFile(options.latchPath);
    // A latch saved by an earlier run of the controller holds before the socket accepts anything.
    const saved = this.latchStore?.load() ?? null;
    if (saved !== null) {
      this.sim.emergencyStop();
      this.estop = saved;
      this.monitor.setHoldStill(true);
    }
  }

  on(events: Partial<ControllerArmEvents>): void {
    this.listeners = events;
  }

  state(): ControllerState {
    const s = this.sim.status();
    return {
      state: s.state,
      timeMs: s.timeMs,
      presetId: s.presetId,
      jointsDeg: s.jointsDeg,
      jointVelocitiesDegS: s.jointVelocitiesDegS,
      tcp: s.tcp,
      tcpSpeedMmS: s.tcpSpeedMmS,
      heldObjectId: s.heldObjectId,
      motion: s.motion === null ? null : { motionId: s.motion.motionId, elapsedS: s.motion.elapsedS, durationS: s.motion.durationS },
      fault: s.fault,
      estop: this.estop,
      objects: this.sim.objects(),
    };
  }

  /** Starts a motion from its wire form; the clock runs until the arm is at rest again. */
  execute(args: Record<string, unknown>): { ok: true; motionId: string; durationS: number } | ArmRefusal {
    const contacts = args.contactAllowedWith ?? [];
    if (!(Array.isArray(contacts) && contacts.length <= 16 && contacts.every((c) => typeof c === 'string' && c.length <= 64))) {
      return { ok: false, code: 'bad_args', message: 'contactAllowedWith must be a list of at most 16 object ids' };
    }
    const decoded = decodeTrajectory(args.trajectory, this.sim.preset);
    if ('code' in decoded) return { ok: false, ...decoded };
    if (this.estop !== null) return { ok: false, code: 'estop_latched', message: `the emergency stop is latched on the controller (${this.estop.reason}); only an operator can clear it` };
    const started = this.sim.execute(decoded.trajectory, { contactAllowedWith: contacts as string[] });
    if (!started.ok) return { ok: false, code: started.code, message: started.message };
    this.running = { motionId: started.motionId, stopReason: null, startMs: this.sim.nowMs };
    void this.drive();
    return started;
  }

  /** Never refused. `emergency` freezes the arm and latches (on disk before it answers). */
  stop(mode: 'controlled' | 'emergency', reason: string): { wasMoving: boolean; stoppingTimeS: number; stoppingDistanceMm: number; emergencyStopLatched: boolean } {
    if (mode === 'emergency') {
      const wasMoving = this.sim.state === 'moving' || this.sim.state === 'stopping';
      if (this.running !== null) this.running.stopReason ??= 'emergency_stopped';
      this.latch(reason, 'stop_arm');
      return { wasMoving, stoppingTimeS: 0, stoppingDistanceMm: 0, emergencyStopLatched: true };
    }
    if (this.running !== null) this.running.stopReason ??= 'stopped';
    const report = this.sim.stop();
    return { wasMoving: report.wasMoving, stoppingTimeS: report.stoppingTimeS, stoppingDistanceMm: report.stoppingDistanceMm, emergencyStopLatched: this.estop !== null };
  }

  grasp(args: Record<string, unknown>): Record<string, unknown> {
    if (typeof args.forceN !== 'number' || !Number.isFinite(args.forceN)) return { ok: false, code: 'bad_args', message: 'forceN must be a finite number of newtons' };
    if (this.estop !== null) return this.latchedRefusal();
    return { ...this.sim.grasp({ forceN: args.forceN, ...(typeof args.strategy === 'string' ? { strategy: args.strategy as GraspStrategy } : {}) }) };
  }

  release(): Record<string, unknown> {
    if (this.estop !== null) return this.latchedRefusal();
    return { ...this.sim.release() };
  }

  readForceTorque(args: Record<string, unknown>): Record<string, unknown> {
    this.settle();
    try {
      return { ok: true, ...this.sim.readForceTorque({ ...(typeof args.filter === 'string' ? { filter: args.filter as FtFilter } : {}), ...(Array.isArray(args.axes) ? { axes: args.axes as FtAxis[] } : {}) }) };
    } catch (error) {
      return { ok: false, code: 'bad_args', message: (error as Error).message };
    }
  }

  camera(): Record<string, unknown> {
    this.settle();
    return { ok: true, detections: this.sim.captureCamera() };
  }

  /** Operator reset of the controller's latch: cleared on disk first, so a failed write keeps it latched. */
  resetEmergencyStop(operator: string): boolean {
    if (this.estop === null && this.sim.state !== 'estop') return false;
    this.latchStore?.save(null);
    this.estop = null;
    this.sim.operatorResetEmergencyStop();
    this.monitor.setHoldStill(false);
    void operator;
    return true;
  }

  clearFault(): boolean {
    if (this.sim.state !== 'fault') return false;
    this.sim.operatorClearFault();
    return true;
  }

  private latchedRefusal(): ArmRefusal {
    return { ok: false, code: 'estop_latched', message: `the emergency stop is latched on the controller (${this.estop?.reason ?? 'emergency stop'}); only an operator can clear it` };
  }

  private latch(reason: string, source: EmergencyStopInfo['source']): void {
    this.sim.emergencyStop();
    if (this.estop === null) {
      const latched: EmergencyStopInfo = { reason, source, at: new Date().toISOString() };
      this.estop = latched;
      try {
        this.latchStore?.save(latched);
      } catch (error) {
        this.estop = { ...latched, reason: `${reason} (not saved to disk: ${(error as Error).message}; a controller restart would clear it)` };
      }
    }
    this.monitor.setHoldStill(true);
  }

  /** Idle time passes on the controller's clock before a sensor read, so samples are fresh. */
  private settle(): void {
    if (this.running === null && this.sim.state !== 'moving' && this.sim.state !== 'stopping') this.sim.advance(this.pacer.idleAdvanceMs());
  }

  private async drive(): Promise<void> {
    const entry = this.running!;
    this.pacer.idleAdvanceMs();
    while (this.sim.state === 'moving' || this.sim.state === 'stopping') {
      this.sim.advance(await this.pacer.next());
      this.listeners.frame?.();
    }
    this.running = null;
    const status = this.sim.status();
    const outcome: WireMotionReport['status'] = status.state === 'fault' ? 'protective_stop' : this.estop !== null ? 'emergency_stopped' : entry.stopReason ?? 'completed';
    const detail = outcome === 'protective_stop' ? status.fault?.message : outcome === 'emergency_stopped' ? this.estop?.reason : undefined;
    this.listeners.report?.({ motionId: entry.motionId, status: outcome, simulatedTimeS: (this.sim.nowMs - entry.startMs) / 1000, ...(detail !== undefined ? { detail } : {}) });
  }
}
