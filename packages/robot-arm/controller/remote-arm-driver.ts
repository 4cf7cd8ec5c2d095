/**
 * {@link ArmDriver} over the controller socket: the server's view of an arm whose controller is another
 * process (`robot-sim`, kept running by {@link ControllerSupervisor}). `status()` is the last state the
 * controller streamed, stamped with when it arrived. When the link is lost the driver is in fault
 * (kind `disconnected`) within the heartbeat bound: a motion in flight rejects with the reason, new
 * motions and gripper commands are refused, and `stop` rejects saying the stop could not be confirmed
 * (an emergency stop asked for then is sent again first thing when the controller is back). When the
 * controller is back its state is re-read from its welcome (pose, held object, its own e-stop latch),
 * never assumed, and the driver stays in fault until an operator clears it (`clearFault`).
 */
import { ArmFaultError, type ArmDriver, type ArmFault, type ArmStatus, type ExecuteOptions, type ForceTorqueRequest, type ForceTorqueResult, type MotionEnd, type PresenceStatus, type PresenceUpdate, type ReleaseResult, type StopMode, type StopReport } from '../driver/arm-driver.js';
import type { Trajectory } from '../model/arm-model.js';
import type { ArmPresetId } from '../sim/arm-presets.js';
import type { GraspOutcome, GraspRequest } from '../sim/gripper.js';
import type { ObjectDetection } from '../sim/table-camera.js';
import type { ControllerLink, ControllerReport } from './controller-link.js';
import type { WireArmStatus, WireLatch } from './controller-protocol.js';
import { ControllerSupervisor, type ControllerSupervisorOptions } from './controller-supervisor.js';
import { encodeTrajectory } from '../model/trajectory-wire.js';

export interface RemoteArmDriverOptions extends Omit<ControllerSupervisorOptions, 'preset'> {
  readonly preset: ArmPresetId;
}

export class RemoteArmDriver implements ArmDriver {
  readonly presetId: ArmPresetId;
  readonly supervisor: ControllerSupervisor;
  private link: ControllerLink | null = null;
  private last: { status: WireArmStatus; asOf: number } | null = null;
  private latchInfo: WireLatch = null;
  /** The driver's own fault (link lost, or lost and back until an operator clears it). */
  private linkFault: ArmFault | null = null;
  private emergencyOwed = false;
  private closed = false;
  private readonly statusListeners = new Set<(status: ArmStatus) => void>();
  private readonly faultListeners = new Set<(fault: ArmFault) => void>();

  private constructor(options: RemoteArmDriverOptions) {
    this.presetId = options.preset;
    this.supervisor = new ControllerSupervisor(options);
    this.supervisor.on({
      connected: (link, report) => this.onConnected(link, report),
      lost: (reason) => this.onLost(reason),
    });
  }

  /** Starts the controller process and resolves once it is connected and its state is read. */
  static async start(options: RemoteArmDriverOptions): Promise<RemoteArmDriver> {
    const driver = new RemoteArmDriver(options);
    try {
      await driver.supervisor.start();
    } catch (error) {
      await driver.supervisor.close();
      throw error;
    }
    return driver;
  }

  get description(): string {
    return `robot-sim controller process (pid ${this.supervisor.pid ?? 'restarting'}) over a Unix socket, ${this.supervisor.timeScale === 1 ? 'real time' : `${this.supervisor.timeScale}x real time`}, lost after ${this.supervisor.heartbeatTimeoutMs} ms without a heartbeat`;
  }

  /** The controller's own e-stop latch as it last reported it (null: none, or not heard from yet). */
  get controllerLatch(): WireLatch {
    return this.latchInfo;
  }

  status(): ArmStatus {
    const last = this.last!;
    const base: ArmStatus = { ...last.status, asOf: last.asOf };
    if (this.linkFault === null) return base;
    // Last known pose, marked as such by its age; in fault until the operator clears it.
    return { ...base, state: 'fault', fault: this.linkFault, motion: null, jointVelocitiesDegS: base.jointVelocitiesDegS.map(() => 0), tcpSpeedMmS: 0 };
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
    const link = this.usableLink();
    // Cancelled before it started: never sent. (A later abort sends `cancel` after `execute` on the same
    // ordered socket, so the controller always knows the motion by then.)
    if (options.signal?.aborted === true) return { motionId: options.motionId, status: 'cancelled', elapsedS: 0, final: this.status() };
    const onAbort = (): void => {
      void link.request('cancel', { motionId: options.motionId }).catch(() => undefined);
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const result = await link.request('execute', { motionId: options.motionId, trajectory: encodeTrajectory(trajectory), contactAllowedWith: options.contactAllowedWith ?? [] }, { timeoutMs: null, ...(options.onProgress !== undefined ? { onProgress: options.onProgress } : {}) });
      const end = result.end as Omit<MotionEnd, 'final'> & { final: WireArmStatus };
      return { ...end, final: { ...end.final, asOf: Date.now() } };
    } finally {
      options.signal?.removeEventListener('abort', onAbort);
    }
  }

  async stop(mode: StopMode): Promise<StopReport> {
    const link = this.link;
    if (link === null || this.closed) {
      if (mode === 'emergency') this.emergencyOwed = true;
      throw new ArmFaultError({ kind: 'disconnected', code: 'controller_unreachable', message: `the ${mode} stop could not be confirmed: ${this.linkFault?.message ?? 'controller unreachable'}` });
    }
    const result = await link.request('stop', { mode });
    return result.report as StopReport;
  }

  async resetEmergencyStop(): Promise<void> {
    await this.usableLink(true).request('reset_estop');
  }

  /** Sets the controller's simulated presence sensor (rejects `rejected` with the controller's reason). */
  async setPresence(update: PresenceUpdate): Promise<PresenceStatus> {
    const result = await this.usableLink(true).request('set_presence', { ...update });
    return result.presence as PresenceStatus;
  }

  async clearFault(): Promise<void> {
    const link = this.usableLink(true);
    if (this.last?.status.state === 'fault') await link.request('clear_fault');
    if (this.linkFault !== null) {
      this.linkFault = null;
      this.publish();
    }
  }

  async grasp(request: GraspRequest): Promise<GraspOutcome> {
    return (await this.usableLink().request('grasp', { ...request })).outcome as GraspOutcome;
  }

  async release(): Promise<ReleaseResult> {
    return (await this.usableLink().request('release')).outcome as ReleaseResult;
  }

  async readForceTorque(request: ForceTorqueRequest = {}): Promise<ForceTorqueResult> {
    return (await this.usableLink(true).request('read_ft', { ...request })).reading as ForceTorqueResult;
  }

  async captureCamera(): Promise<ObjectDetection[]> {
    return (await this.usableLink(true).request('camera')).detections as ObjectDetection[];
  }

  wallMsFor(armMs: number): number {
    return armMs / this.supervisor.timeScale;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.link !== null) await this.link.request('stop', { mode: 'controlled' }).catch(() => undefined);
    this.link = null;
    await this.supervisor.close();
  }

  /** The link for a command; reads (`evenInFault`) work after the link is back, motions only once the fault is cleared. */
  private usableLink(evenInFault = false): ControllerLink {
    if (this.closed) throw new ArmFaultError({ kind: 'disconnected', code: 'closed', message: 'the driver is closed' });
    if (this.link === null) throw new ArmFaultError({ kind: 'disconnected', code: 'controller_unreachable', message: this.linkFault?.message ?? 'controller unreachable' });
    if (this.linkFault !== null && !evenInFault) throw new ArmFaultError(this.linkFault);
    return this.link;
  }

  private onConnected(link: ControllerLink, report: ControllerReport): void {
    if (report.status.presetId !== this.presetId) {
      this.link = null;
      this.raise({ kind: 'rejected', code: 'wrong_arm', message: `the controller drives preset ${report.status.presetId}, the server is set up for ${this.presetId}` });
      link.close();
      return;
    }
    this.link = link;
    this.last = { status: report.status, asOf: Date.now() };
    this.latchInfo = report.latch;
    link.on({
      state: (next) => {
        this.last = { status: next.status, asOf: Date.now() };
        this.latchInfo = next.latch;
        this.publish();
      },
      fault: (fault) => this.emit(fault),
    });
    if (this.linkFault !== null) {
      this.linkFault = { kind: 'disconnected', code: 'link_recovered', message: `the controller connection was lost (${this.linkFault.message}) and is back (pid ${link.controllerPid}); its state was re-read; an operator must clear the fault before the arm moves` };
    }
    if (this.emergencyOwed) {
      this.emergencyOwed = false;
      void link.request('stop', { mode: 'emergency', reason: 'emergency stop requested while the controller was unreachable' }).catch(() => {
        this.emergencyOwed = true;
      });
    }
    this.publish();
  }

  private onLost(reason: string): void {
    this.link = null;
    if (this.closed) return;
    this.raise({ kind: reason.startsWith('no heartbeat') ? 'timeout' : 'disconnected', code: 'controller_unreachable', message: `controller unreachable: ${reason}` });
  }

  private raise(fault: ArmFault): void {
    this.linkFault = fault;
    this.emit(fault);
    this.publish();
  }

  private emit(fault: ArmFault): void {
    for (const listener of this.faultListeners) listener(fault);
  }

  private publish(): void {
    if (this.statusListeners.size === 0 || this.last === null) return;
    const status = this.status();
    for (const listener of this.statusListeners) listener(status);
  }
}
