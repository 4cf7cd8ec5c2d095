#!/usr/bin/env node
/**
 * `robot-sim`: the simulated robot controller as its own process, as on a real cell. It hosts the
 * simulated arm on its own clock, keeps its own e-stop latch file, and serves the controller protocol
 * (docs/robot-controller-protocol.md) on a Unix socket. It is started by the robot-arm server's
 * supervisor, which hands it the per-start secret on file descriptor 3 (never argv or the environment,
 * which other local processes can read) and keeps stdin open as a lifeline: when the server goes away,
 * the controller stops the arm and exits.
 */
import { lstatSync, readFileSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { SimArmDriver } from '../driver/sim-arm-driver.js';
import { realTimePacer } from '../driver/sim-pacer.js';
import { createArmModel } from '../model/arm-model.js';
import { parsePreset, parseSeed, parseTimeScale } from '../server/robot-settings.js';
import { isHex256 } from './controller-auth.js';
import { PoseFile } from './controller-pose-file.js';
import { decodeTrajectory, encodeTrajectory } from '../model/trajectory-wire.js';
import { LatchFile } from '../server/estop-latch-file.js';
import { ControllerService } from './controller-service.js';

const HELP = `Usage: robot-sim --socket <path> [--latch-file <path>] [--pose-file <path>] [--preset ur5e|xarm6]
                 [--time-scale x] [--seed n]

--latch-file keeps the controller's emergency-stop latch across its restarts; --pose-file keeps where
the arm is and what its gripper holds (a restarted controller starts there, not at home, still holding
the object it held; broken objects stay broken).

The simulated robot controller. Started by the robot-arm server (packages/robot-arm/main.ts), which
passes the per-start secret on file descriptor 3; it refuses to start without one.
`;

/** File descriptor the secret arrives on. */
export const SECRET_FD = 3;
/** The first line robot-sim prints on stdout once its socket accepts connections. */
export const READY_PREFIX = 'robot-sim ready';

function fail(message: string, code = 2): never {
  process.stderr.write(`robot-sim: ${message}\n`);
  process.exit(code);
}

function readSecret(): string {
  let text: string;
  try {
    text = readFileSync(SECRET_FD, 'utf8').trim();
  } catch (error) {
    fail(`no secret on file descriptor ${SECRET_FD} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); robot-sim is started by the robot-arm server`);
  }
  if (!isHex256(text)) fail(`the secret on file descriptor ${SECRET_FD} must be 64 lowercase hex digits`);
  return text;
}

/**
 * Runs the path checks once on a small plan that is never executed, so the first real motion does not
 * pay for compiling them: that first check would otherwise block the heartbeat for most of a second.
 */
function warmUp(arm: SimArmDriver): void {
  const status = arm.status();
  const goal = status.jointsDeg.map((q, j) => (j === 0 ? q + (q < 0 ? 1 : -1) : q));
  const plan = arm.model.planJointMotion(status.jointsDeg, goal, { speedFraction: 0.3 });
  if (!plan.ok) return;
  const decoded = decodeTrajectory(JSON.parse(JSON.stringify(encodeTrajectory(plan.trajectory))), arm.model.preset);
  if (!('code' in decoded)) arm.model.validateTrajectory(decoded.trajectory, status);
}

/** Removes a socket left by a controller that was killed; anything else at the path is left alone. */
function removeStaleSocket(path: string): void {
  try {
    if (!lstatSync(path).isSocket()) fail(`${path} exists and is not a socket; not touching it`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  rmSync(path);
}

/** Runs the controller process with these arguments (the `robot-sim` bin and the supervisor both come here). */
export async function runRobotSim(argv: string[]): Promise<void> {
  let values: { socket?: string; 'latch-file'?: string; 'pose-file'?: string; preset?: string; 'time-scale'?: string; seed?: string; help?: boolean };
  try {
    ({ values } = parseArgs({ args: argv, options: { socket: { type: 'string' }, 'latch-file': { type: 'string' }, 'pose-file': { type: 'string' }, preset: { type: 'string' }, 'time-scale': { type: 'string' }, seed: { type: 'string' }, help: { type: 'boolean', short: 'h' } } }));
  } catch (error) {
    fail(`${(error as Error).message}\n\n${HELP}`);
  }
  if (values.help === true) {
    process.stdout.write(HELP);
    return;
  }
  if (values.socket === undefined) fail(`--socket is required\n\n${HELP}`);
  let arm: SimArmDriver;
  let timeScale: number;
  let poseFile: PoseFile | null;
  try {
    const seed = values.seed === undefined ? 1 : parseSeed(values.seed, '--seed');
    timeScale = parseTimeScale(values['time-scale'] ?? '1', '--time-scale');
    const preset = parsePreset(values.preset ?? 'ur5e', '--preset');
    poseFile = values['pose-file'] === undefined ? null : new PoseFile(resolve(values['pose-file']));
    const saved = poseFile?.load(preset) ?? null;
    arm = new SimArmDriver({ model: createArmModel({ preset }), seed, pacer: realTimePacer(timeScale), ...(saved !== null ? { initialJointsDeg: saved.jointsDeg, objects: saved.objects, restoredGripper: saved.gripper } : {}) });
  } catch (error) {
    fail((error as Error).message);
  }
  if (poseFile !== null) {
    const file = poseFile;
    file.save(arm.status());
    // Every change, every frame of a motion (about 100 Hz): the file lags the arm by at most one frame.
    arm.subscribe((status) => file.save(status));
  }
  warmUp(arm);
  const secret = readSecret();
  const socketPath = resolve(values.socket);
  removeStaleSocket(socketPath);
  const latchStore = values['latch-file'] === undefined ? null : new LatchFile(resolve(values['latch-file']));
  const service = new ControllerService({ driver: arm, preset: arm.model.preset, secret, latchStore });
  try {
    await service.listen(socketPath);
  } catch (error) {
    fail(`cannot listen on ${socketPath}: ${(error as Error).message}`, 1);
  }
  let stopping = false;
  const shutDown = (why: string): void => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`robot-sim: stopping (${why})\n`);
    void arm.stop('controlled').then(() => service.close()).finally(() => {
      rmSync(socketPath, { force: true });
      process.exit(0);
    });
  };
  process.on('SIGTERM', () => shutDown('SIGTERM'));
  process.on('SIGINT', () => shutDown('SIGINT'));
  // The lifeline: the server holds our stdin open; EOF means it is gone.
  process.stdin.on('end', () => shutDown('server gone'));
  process.stdin.on('error', () => shutDown('server gone'));
  process.stdin.resume();
  process.stdout.write(`${READY_PREFIX} pid=${process.pid} preset=${arm.presetId} time-scale=${timeScale} estop=${service.emergencyStop === null ? 'clear' : 'latched'} socket=${socketPath}\n`);
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  runRobotSim(process.argv.slice(2)).catch((error: unknown) => fail(error instanceof Error ? error.stack ?? error.message : String(error), 1));
}
