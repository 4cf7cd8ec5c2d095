/**
 * @toolwright/robot-arm: a robot arm served as MCP tools on Toolwright. The server keeps the limits,
 * the safety stages, the approval and the audit log; the arm itself is behind a driver.
 */
export { createRobotServer, MOTION_TOOL_NAMES } from './server/create-robot-server.js';
export type { RobotServer, RobotServerOptions } from './server/create-robot-server.js';
export { createSimulatedRobotServer } from './wiring/simulated-robot-server.js';
export type { SimulatedRobotServerOptions } from './wiring/simulated-robot-server.js';
export { realTimePacer, steppedPacer } from './driver/sim-pacer.js';
export type { SimPacer } from './driver/sim-pacer.js';
export { AuditLog, AuditLogLockedError } from './server/audit-log.js';
export type { ApprovalMode } from './server/approval-gate.js';
export { ARM_PRESETS } from './sim/arm-presets.js';
export type { ArmPresetId } from './sim/arm-presets.js';
export { robotTool, ROBOT_MIDDLEWARE_PREFIX } from './server/robot-tool.js';
export type { RobotToolInit, SafetyCall, SafetyStep } from './server/robot-tool.js';
export type { StepKit } from './server/motion-steps.js';
export { SAFETY_STAGES, GATING_STAGES } from './server/safety-stages.js';
export type { SafetyStage, GatingStage, Refusal } from './server/safety-stages.js';
export { LatchFile, latchPathFor } from './server/estop-latch-file.js';
export type { LatchStore } from './server/estop-latch-file.js';
export { ArmModel, createArmModel } from './model/arm-model.js';
export type { ArmModelOptions, ArmPoseState, MotionAllowances, TrajectoryCheck } from './model/arm-model.js';
export { ArmFaultError, isArmFaultError } from './driver/arm-driver.js';
export type {
  ArmDriver,
  ArmFault,
  ArmFaultKind,
  ArmMotionStatus,
  ArmSample,
  ArmState,
  ArmStatus,
  ExecuteOptions,
  ForceTorqueRequest,
  ForceTorqueResult,
  MotionEnd,
  MotionProgress,
  ReleaseResult,
  StopMode,
  StopReport,
} from './driver/arm-driver.js';
export { SimArmDriver } from './driver/sim-arm-driver.js';
export type { SimArmDriverOptions } from './driver/sim-arm-driver.js';
