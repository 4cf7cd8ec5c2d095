import type { ApprovalGate } from './approval-gate.js';
import type { AuditChainGate } from './audit-chain-gate.js';
import type { AuditLog } from './audit-log.js';
import type { MotionRateLimits } from './motion-rate-limits.js';
import type { ArmModel } from '../model/arm-model.js';
import type { RobotController } from './robot-controller.js';

/** What every robot tool works with; built once by `createRobotServer`. */
export interface RobotDeps {
  /** The controller's model, reachable before the controller exists: tool descriptors are built from it. */
  readonly model: ArmModel;
  readonly controller: RobotController;
  readonly approval: ApprovalGate;
  readonly audit: AuditLog;
  /** Motion is refused while the audit chain's break is unacknowledged. */
  readonly auditChain: AuditChainGate;
  /** The motion and planning rate limits (buckets in the server's store, reached through each call). */
  readonly rateLimits: MotionRateLimits;
}
