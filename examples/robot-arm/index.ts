/**
 * @toolwright/robot-arm: a robot arm served as MCP tools on Toolwright. The server keeps the limits,
 * the safety stages, the approval and the audit log; the arm itself is behind a driver.
 */
export { createRobotServer, MOTION_TOOL_NAMES } from './server/create-robot-server.js';
export type { RobotServer, RobotServerOptions } from './server/create-robot-server.js';
export { realTimePacer, steppedPacer } from './server/sim-pacer.js';
export type { SimPacer } from './server/sim-pacer.js';
export { AuditLog, AuditLogLockedError } from './server/audit-log.js';
export type { ApprovalMode } from './server/approval-gate.js';
export { ARM_PRESETS } from './sim/arm-presets.js';
export type { ArmPresetId } from './sim/arm-presets.js';
