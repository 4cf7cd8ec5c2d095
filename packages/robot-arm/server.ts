/**
 * The robot-arm server as a module for `toolwright serve packages/robot-arm/server.ts` and
 * `toolwright lint packages/robot-arm/server.ts`. Configured from the environment because `serve`
 * passes no robot options: ROBOT_PRESET (ur5e | xarm6), ROBOT_READ_ONLY (1 | 0), ROBOT_APPROVAL
 * (always | large-moves | off), ROBOT_AUDIT_LOG (path), ROBOT_TIME_SCALE, ROBOT_RATE. A bad value or
 * an unknown ROBOT_* name stops the start with a message naming the valid values.
 * `packages/robot-arm/main.ts` has the same options as flags and prints how to connect.
 */
import { createSimulatedRobotServer } from './wiring/simulated-robot-server.js';
import { approvalOffWarning, installOperatorReset, operatorResetHint } from './server/operator-controls.js';
import { realTimePacer } from './driver/sim-pacer.js';
import { robotSettingsFromEnv } from './server/robot-settings.js';

const settings = robotSettingsFromEnv(process.env);
// Importing this module (lint, preview) opens nothing and prints nothing: the audit log, its lock and
// the operator's SIGUSR2 reset come with serving, when there is a process for `kill -USR2` to reach.
const robot = createSimulatedRobotServer({
  preset: settings.preset,
  readOnly: settings.readOnly,
  approval: settings.approval,
  pacer: realTimePacer(settings.timeScale),
  motionRatePerSecond: settings.rate,
  ...(settings.auditLogPath !== undefined ? { auditLogPath: settings.auditLogPath } : {}),
  onFirstServe: (serving) => {
    installOperatorReset(serving, (line) => process.stderr.write(`${line}\n`));
    // stderr: under `serve --stdio`, stdout carries the protocol.
    if (settings.approval === 'off') process.stderr.write(`${approvalOffWarning()}\n`);
    process.stderr.write(`robot-arm: approval ${settings.approval}; audit log ${serving.audit.path}; operator: ${operatorResetHint()}\n`);
  },
});

export default robot.server;
