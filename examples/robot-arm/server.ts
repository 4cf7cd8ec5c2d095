/**
 * The robot-arm server as a module for `toolwright serve examples/robot-arm/server.ts` and
 * `toolwright lint examples/robot-arm/server.ts`. Configured from the environment because `serve`
 * passes no robot options: ROBOT_PRESET (ur5e | xarm6), ROBOT_READ_ONLY=1, ROBOT_APPROVAL
 * (always | large-moves | off), ROBOT_AUDIT_LOG (path). `examples/robot-arm/main.ts` has the same
 * options as flags and prints how to connect.
 */
import type { ApprovalMode } from './server/approval-gate.js';
import { createRobotServer } from './server/create-robot-server.js';

const preset = process.env.ROBOT_PRESET === 'xarm6' ? 'xarm6' : 'ur5e';
const robot = createRobotServer({
  preset,
  readOnly: process.env.ROBOT_READ_ONLY === '1',
  approval: (process.env.ROBOT_APPROVAL ?? 'always') as ApprovalMode,
  ...(process.env.ROBOT_AUDIT_LOG !== undefined ? { auditLogPath: process.env.ROBOT_AUDIT_LOG } : {}),
});

export default robot.server;
