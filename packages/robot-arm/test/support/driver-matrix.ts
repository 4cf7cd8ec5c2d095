/**
 * The driver × arm matrix the safety contracts of issue 30 run on, in one place: the in-process
 * simulation (`SimArmDriver`, stepped time) and a `robot-sim` child process reached by
 * `RemoteArmDriver` (real time, scaled), each for both arm models. A test loops over
 * {@link DRIVER_MATRIX}; a test that needs one driver's particulars takes {@link simSubject} or
 * {@link remoteSubject}. Every subject reads its ground truth from the simulation that moves the arm:
 * the in-process simulation itself, or the pose file the `robot-sim` process writes on every change
 * (read at rest: after a command's answer, which the controller sends after the write).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PoseFile } from '../../controller/controller-pose-file.js';
import { RemoteArmDriver } from '../../controller/remote-arm-driver.js';
import { SimArmDriver, type SimArmDriverOptions } from '../../driver/sim-arm-driver.js';
import { steppedPacer } from '../../driver/sim-pacer.js';
import { createArmModel } from '../../model/arm-model.js';
import type { ArmPresetId } from '../../sim/arm-presets.js';
import type { HeldObject } from '../../sim/held-object-shape.js';
import type { SceneObjectSpec } from '../../sim/scene-objects.js';
import type { DriverSubject } from '../driver/arm-driver-contract.js';

export type DriverKind = 'sim' | 'robot-sim';
export const ARM_PRESETS: readonly ArmPresetId[] = ['ur5e', 'xarm6'];

/** The simulated cell as the simulation that moves the arm has it. */
export interface GroundTruth {
  readonly jointsDeg: readonly number[];
  readonly heldObjectId: string | null;
  /** Every object with its geometry and where it is now (a held one where the gripper carries it). */
  readonly objects: readonly SceneObjectSpec[];
  /** The grip (the held object, its place in the tool, its lift-off floors fixed at the grasp), or null. */
  readonly held: HeldObject | null;
}

export interface MatrixSubject<D extends DriverSubject['driver'] = DriverSubject['driver']> extends DriverSubject {
  readonly driver: D;
  /** Joints, held object and object positions, from the simulation (read at rest). */
  truth(): GroundTruth;
}

export interface RemoteOptions {
  /** The controller's time scale (default 2). */
  readonly timeScale?: number;
  /** Heartbeat bound, ms (default 10 000: wide, hangs are controller-faults.test.ts's subject). */
  readonly heartbeatTimeoutMs?: number;
}

/** An in-process simulated arm of this preset on stepped time (20 ms of arm time a frame). */
export function simSubject(preset: ArmPresetId, options: Omit<SimArmDriverOptions, 'model' | 'pacer'> = {}): MatrixSubject<SimArmDriver> {
  const driver = new SimArmDriver({ ...options, model: createArmModel({ preset }), pacer: steppedPacer(20) });
  const sim = driver.sim;
  return {
    driver,
    model: driver.model,
    groundTruthJoints: () => sim.jointsDeg,
    truth: () => ({ jointsDeg: sim.jointsDeg, heldObjectId: sim.heldObjectId, objects: sim.objects().map(({ condition: _condition, held: _held, ...spec }) => spec), held: sim.heldObject() }),
    close: () => driver.close(),
  };
}

/** A fresh `robot-sim` child process of this preset (its own socket directory, latch and pose files) behind a RemoteArmDriver. */
export async function remoteSubject(preset: ArmPresetId, options: RemoteOptions = {}): Promise<MatrixSubject<RemoteArmDriver>> {
  const dir = mkdtempSync(join(tmpdir(), 'robot-matrix-'));
  const poseFile = new PoseFile(join(dir, 'pose.json'));
  let driver: RemoteArmDriver;
  try {
    driver = await RemoteArmDriver.start({ preset, latchPath: join(dir, 'estop.json'), posePath: poseFile.path, timeScale: options.timeScale ?? 2, heartbeatTimeoutMs: options.heartbeatTimeoutMs ?? 10_000, log: () => undefined });
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const truth = (): GroundTruth => {
    const saved = poseFile.load(preset);
    if (saved === null) throw new Error(`robot-sim wrote no pose file at ${poseFile.path}`);
    const grip = saved.gripper.held;
    const object = grip === null ? undefined : saved.objects.find((o) => o.id === grip.objectId);
    if (grip !== null && object === undefined) throw new Error(`robot-sim's pose file holds ${grip.objectId}, which is not among its objects`);
    const held = grip === null || object === undefined ? null : { object, offsetInToolMm: grip.offsetInToolMm, rotationInTool: grip.rotationInTool, liftOffFloorsMm: grip.liftOffFloorsMm ?? {} };
    return { jointsDeg: saved.jointsDeg, heldObjectId: grip?.objectId ?? null, objects: saved.objects, held };
  };
  return {
    driver,
    model: createArmModel({ preset }),
    groundTruthJoints: () => truth().jointsDeg,
    truth,
    async close() {
      await driver.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** One combination: which driver, which arm, and a factory of fresh subjects (arm idle at home, default scene). */
export interface DriverCase {
  readonly kind: DriverKind;
  readonly preset: ArmPresetId;
  readonly label: string;
  create(options?: RemoteOptions): Promise<MatrixSubject>;
}

/** Every driver × arm combination (robot-sim simulates both presets: none is left out). */
export const DRIVER_MATRIX: readonly DriverCase[] = (['sim', 'robot-sim'] as const).flatMap((kind) => ARM_PRESETS.map((preset): DriverCase => ({
  kind,
  preset,
  label: kind === 'sim' ? `SimArmDriver (${preset}, in process)` : `RemoteArmDriver (${preset}, robot-sim child process)`,
  create: kind === 'sim' ? async () => simSubject(preset) : (options) => remoteSubject(preset, options),
})));
