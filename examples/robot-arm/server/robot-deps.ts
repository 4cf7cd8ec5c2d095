import type { ApprovalGate } from './approval-gate.js';
import type { AuditLog } from './audit-log.js';
import type { RobotController } from './robot-controller.js';

/** What every robot tool works with; built once by `createRobotServer`. */
export interface RobotDeps {
  readonly controller: RobotController;
  readonly approval: ApprovalGate;
  readonly audit: AuditLog;
}
