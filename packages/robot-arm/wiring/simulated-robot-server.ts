/**
 * The default arm, wired outside server/: the in-process simulator (`SimArmDriver`) as the driver of
 * a robot server. server/ reaches an arm only through `ArmModel` and `ArmDriver`; this file is where
 * the simulated cell (its pacer, seed, objects, envelope) meets it, for `npm start --controller
 * inprocess`, the `toolwright serve` module (server.ts), tests and benches.
 */
import { SimArmDriver, type SimArmDriverOptions } from '../driver/sim-arm-driver.js';
import { realTimePacer, type SimPacer } from '../driver/sim-pacer.js';
import { createArmModel, type ArmModelOptions, type ArmPresetId } from '../model/arm-model.js';
import { createRobotServer, type RobotServer, type RobotServerOptions } from '../server/create-robot-server.js';

/** Options of {@link createSimulatedRobotServer}: the server's, with a simulated cell instead of a driver. */
export interface SimulatedRobotServerOptions extends Omit<RobotServerOptions<SimArmDriver>, 'driver' | 'preset'> {
  /** Arm preset, default `ur5e` (ignored when `model` is given). */
  readonly preset?: ArmPresetId;
  /** How simulated time runs (default real time). */
  readonly pacer?: SimPacer;
  /** The simulated cell (seed, objects, starting pose, ...) and the model's envelope and collision margin. */
  readonly simulation?: Omit<SimArmDriverOptions, 'model' | 'pacer'> & Pick<ArmModelOptions, 'envelope' | 'collisionMarginMm'>;
}

/** A robot server on a simulated arm of `model` (default: the model of `preset` with `simulation`'s envelope). */
export function createSimulatedRobotServer(options: SimulatedRobotServerOptions = {}): RobotServer<SimArmDriver> {
  const { preset, pacer, simulation, ...server } = options;
  const { envelope, collisionMarginMm, ...cell } = simulation ?? {};
  const model = options.model ?? createArmModel({
    preset: preset ?? 'ur5e',
    ...(envelope !== undefined ? { envelope } : {}),
    ...(collisionMarginMm !== undefined ? { collisionMarginMm } : {}),
  });
  return createRobotServer({ ...server, model, driver: new SimArmDriver({ ...cell, model, pacer: pacer ?? realTimePacer(1) }) });
}
