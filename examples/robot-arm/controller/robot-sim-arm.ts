/**
 * The arm inside the `robot-sim` process: the simulated cell behind the {@link ArmDriver} interface,
 * on its own real-time clock (the pacer), so the controller process owns the arm's time the way a
 * real controller box does. The socket service serves exactly this interface.
 *
 * Interim: robot-model-17's SimArmDriver (driver/sim-arm-driver.ts) is the simulator's driver; once it
 * is on this branch, robot-sim.ts hosts it instead and this file goes.
 */
import { ArmFaultError, type ArmDriver, type ArmFault, type ArmSample, type ArmStatus, type ExecuteOptions, type ForceTorqueRequest, type ForceTorqueResult, type MotionEnd, type ReleaseResult, type StopMode, type StopReport } from '../driver/arm-driver.js';
import type { Trajectory } from '../model/arm-model.js';
import { realTimePacer, type SimPacer } from '../server/sim-pacer.js';
import type { GraspOutcome, GraspRequest } from '../sim/gripper.js';
import { RobotSimulation, type RobotSimulationOptions } from '../sim/robot-simulation.js';
import type { ObjectDetection } from '../sim/table-camera.js';

export class RobotSimArm implements ArmDriver {
  readonly description: string;
  readonly presetId: ArmDriver['presetId'];
  readonly sim: RobotSimulation;
  private readonly pacer: SimPacer;
  private readonly statusListeners = new Set<(status: ArmStatus) => void>();
  private readonly faultListeners = new Set<(fault: ArmFault) => void>();
  private running: { motionId: string; cancelled: boolean; samples: ArmSample[] } | null = null;
  private closed = false;

  constructor(options: { simulation?: RobotSimulationOptions; pacer?: SimPacer } = {}) {
    this.sim = new RobotSimulation(options.simulation);
    this.pacer = options.pacer ?? realTimePacer(1);
    this.presetId = this.sim.preset.id;
    this.description = `simulated ${this.sim.preset.displayName}, ${this.pacer.description}`;
    this.sim.clock.onTick(() => {
      if (this.running !== null) this.running.samples.push(this.sample());
    });
  }

  status(): ArmStatus {
    const s = this.sim.status();
    const fault: ArmFault | null = s.fault === null ? null : { kind: 'protective_stop', code: 'protective_stop', message: s.fault.message };
    return {
      ...this.sample(),
      asOf: Date.now(),
      presetId: s.presetId,
      heldObjectId: s.heldObjectId,
      held: this.sim.heldObject(),
      objects: this.sim.objects(),
      motion: s.motion === null ? null : { motionId: this.running?.motionId ?? s.motion.motionId, phase: s.motion.phase, elapsedS: s.motion.elapsedS, durationS: s.motion.durationS },
      fault: s.state === 'fault' ? fault : null,
      estopLatched: s.state === 'estop',
      contacts: s.contacts,
    };
  }

  subscribe(listener: (status: ArmStatus) => void): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  onFault(listener: (fault: ArmFault) => void): () => void {
    this.faultListeners.add(listener);
    return () => this.faultListeners.delete(listener);
  }

  async execute(trajectory: Trajectory, options: ExecuteOptions): Promise<MotionEnd> {
    this.assertOpen();
    const started = this.sim.execute(trajectory, { contactAllowedWith: options.contactAllowedWith ?? [] });
    if (!started.ok) throw new ArmFaultError({ kind: started.code === 'fault' ? 'protective_stop' : 'rejected', code: started.code, message: started.message });
    const entry = { motionId: options.motionId, cancelled: false, samples: [] as ArmSample[] };
    this.running = entry;
    const startMs = this.sim.nowMs;
    const onAbort = (): void => {
      entry.cancelled = true;
      this.sim.stop();
    };
    if (options.signal?.aborted === true) onAbort();
    else options.signal?.addEventListener('abort', onAbort, { once: true });
    // A controlled stop asked for through stop() shows as the stopping state at some frame.
    let sawStopping = false;
    this.pacer.idleAdvanceMs();
    try {
      while (this.sim.state === 'moving' || this.sim.state === 'stopping') {
        this.sim.advance(await this.pacer.next());
        if (this.sim.state === 'stopping') sawStopping = true;
        const motion = this.sim.status().motion;
        const samples = entry.samples.splice(0);
        const elapsedS = (this.sim.nowMs - startMs) / 1000;
        options.onProgress?.({ motionId: entry.motionId, fraction: motion === null ? 1 : Math.min(1, motion.elapsedS / Math.max(1e-9, motion.durationS)), elapsedS, samples });
        this.publish();
      }
    } finally {
      options.signal?.removeEventListener('abort', onAbort);
      this.running = null;
    }
    const final = this.status();
    if (final.state === 'fault' && final.fault !== null) for (const listener of this.faultListeners) listener(final.fault);
    const status: MotionEnd['status'] = final.state === 'fault' ? 'protective_stop' : final.state === 'estop' ? 'emergency_stopped' : entry.cancelled ? 'cancelled' : sawStopping ? 'stopped' : 'completed';
    this.publish();
    return { motionId: entry.motionId, status, elapsedS: (this.sim.nowMs - startMs) / 1000, final };
  }

  async stop(mode: StopMode): Promise<StopReport> {
    if (mode === 'emergency') {
      const wasMoving = this.sim.state === 'moving' || this.sim.state === 'stopping';
      this.sim.emergencyStop();
      this.publish();
      return { wasMoving, stoppingTimeS: 0, stoppingDistanceMm: 0, state: this.sim.state };
    }
    const report = this.sim.stop();
    return { wasMoving: report.wasMoving, stoppingTimeS: report.stoppingTimeS, stoppingDistanceMm: report.stoppingDistanceMm, state: report.state };
  }

  async resetEmergencyStop(): Promise<void> {
    this.sim.operatorResetEmergencyStop();
    this.publish();
  }

  async clearFault(): Promise<void> {
    this.sim.operatorClearFault();
    this.publish();
  }

  async grasp(request: GraspRequest): Promise<GraspOutcome> {
    this.assertOpen();
    const outcome = this.sim.grasp(request);
    if (!outcome.ok && (outcome.code === 'busy' || outcome.code === 'estop_latched' || outcome.code === 'fault')) throw new ArmFaultError({ kind: 'rejected', code: outcome.code, message: outcome.message });
    this.publish();
    return outcome as GraspOutcome;
  }

  async release(): Promise<ReleaseResult> {
    this.assertOpen();
    const outcome = this.sim.release();
    if (!outcome.ok && (outcome.code === 'busy' || outcome.code === 'estop_latched' || outcome.code === 'fault')) throw new ArmFaultError({ kind: 'rejected', code: outcome.code, message: outcome.message });
    this.publish();
    return outcome as ReleaseResult;
  }

  async readForceTorque(request: ForceTorqueRequest = {}): Promise<ForceTorqueResult> {
    this.assertOpen();
    this.settle();
    try {
      return this.sim.readForceTorque(request);
    } catch (error) {
      throw new ArmFaultError({ kind: 'rejected', code: 'invalid_input', message: (error as Error).message });
    }
  }

  async captureCamera(): Promise<ObjectDetection[]> {
    this.assertOpen();
    this.settle();
    return this.sim.captureCamera();
  }

  wallMsFor(armMs: number): number {
    return this.pacer.wallMsFor(armMs);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.sim.stop();
    this.closed = true;
  }

  private assertOpen(): void {
    if (this.closed) throw new ArmFaultError({ kind: 'disconnected', message: 'the driver is closed' });
  }

  private sample(): ArmSample {
    const s = this.sim.status();
    return { timeMs: s.timeMs, state: s.state, jointsDeg: s.jointsDeg, jointVelocitiesDegS: s.jointVelocitiesDegS, jointAccelerationsDegS2: s.jointAccelerationsDegS2, tcp: s.tcp, tcpVelocityMmS: s.tcpVelocityMmS, tcpSpeedMmS: s.tcpSpeedMmS };
  }

  /** Idle time passes on the controller's clock before a sensor read, so samples are fresh. */
  private settle(): void {
    if (this.running === null && this.sim.state !== 'moving' && this.sim.state !== 'stopping') this.sim.advance(this.pacer.idleAdvanceMs());
  }

  private publish(): void {
    if (this.statusListeners.size === 0) return;
    const status = this.status();
    for (const listener of this.statusListeners) listener(status);
  }
}
