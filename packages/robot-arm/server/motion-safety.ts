import { describePresence, type ArmStatus } from '../driver/arm-driver.js';
import { beside, TOOL_DOWN, type ArmModel, type CartesianTarget, type OrientationTarget, type PlanResult } from '../model/arm-model.js';
import { motionPlanOf, type GripperAction, type MotionPlan, type PoseTarget } from './motion-plan.js';
import type { Refusal } from './safety-stages.js';
import { worldOf } from './world-binding.js';

/** A re-timed plan aims this far under the separation's speed (the planner's samples against the executed ones). */
const PRESENCE_RETIME_MARGIN = 0.97;

/**
 * Longest single motion, seconds. Clients time requests out (the TypeScript SDK after 60 s) and a
 * timed-out request is cancelled, which stops the arm midway; longer work is split into shorter moves.
 */
export const MAX_MOTION_DURATION_S = 50;

/**
 * What the safety checks read: the pure model and the driver's latest snapshot (the controller is one;
 * so is a driver that carries its model, e.g. the simulator's).
 */
export interface ArmView {
  readonly model: ArmModel;
  status(): ArmStatus;
}

/** Caps may be met exactly; the checker allows 0.5% for sampling noise on top of the planner's own 2% margin. */
const CAP_TOLERANCE = 1.005;

/** Stage `finite_and_range`: every number anywhere in the arguments must be finite (JSON can carry 1e999 = Infinity). */
export function findNonFinite(value: unknown, path = ''): string | null {
  if (typeof value === 'number') return Number.isFinite(value) ? null : path || '/';
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const hit = findNonFinite(value[i], `${path}/${i}`);
      if (hit !== null) return hit;
    }
    return null;
  }
  if (typeof value === 'object' && value !== null) {
    for (const [key, child] of Object.entries(value)) {
      const hit = findNonFinite(child, `${path}/${key}`);
      if (hit !== null) return hit;
    }
  }
  return null;
}

/** Stage `finite_and_range` for one number with its unit; never clamps. */
export function checkRange(name: string, value: number, min: number, max: number, unit: string): Refusal | null {
  if (!Number.isFinite(value)) return { stage: 'finite_and_range', code: 'non_finite', message: `${name} must be a finite number of ${unit}, got ${String(value)}` };
  if (value < min || value > max) return { stage: 'finite_and_range', code: 'out_of_range', message: `${name} is ${value} ${unit}; allowed ${min} to ${max} ${unit} (values are refused, never clamped)` };
  return null;
}

export function toCartesianTarget(target: PoseTarget): CartesianTarget {
  const o = target.orientation;
  const orientation: OrientationTarget = o === undefined ? TOOL_DOWN : { kind: 'rpy', rpyDeg: { rollDeg: o.roll_deg, pitchDeg: o.pitch_deg, yawDeg: o.yaw_deg } };
  return { position: { x: target.x_mm, y: target.y_mm, z: target.z_mm }, orientation };
}

/**
 * Objects the fingertips are in right now (e.g. after a failed grasp). Moving away from them must stay
 * possible, so the tool link may touch these (and only these) on the way out; every other link and
 * object keeps its clearance.
 */
export function objectsAtFingertips(arm: ArmView): string[] {
  const { tcp, objects } = arm.status();
  const model = arm.model;
  return objects
    .filter((o) => !o.held && Math.hypot(o.position.x - tcp.x, o.position.y - tcp.y) <= model.graspLateralToleranceMm && Math.abs(o.position.z - tcp.z) <= model.objectHeightMm(o) / 2 + 5)
    .map((o) => o.id);
}

/** Stage `workspace_envelope`: each target TCP position against the reach sphere, table clearance and base keep-out. */
export function checkTargetsInEnvelope(arm: ArmView, targets: readonly PoseTarget[]): Refusal | null {
  for (let i = 0; i < targets.length; i++) {
    const t = targets[i]!;
    const check = arm.model.checkPose({ x: t.x_mm, y: t.y_mm, z: t.z_mm });
    if (!check.ok) {
      const which = targets.length > 1 ? `waypoint ${i} ` : 'target ';
      return { stage: 'workspace_envelope', code: check.violations[0]!.code, message: `${which}(${t.x_mm}, ${t.y_mm}, ${t.z_mm}) mm is outside the workspace: ${check.violations.map((v) => v.message).join('; ')}` };
    }
  }
  return null;
}

export interface PlanRequest {
  readonly kind: MotionPlan['kind'];
  readonly targets: readonly PoseTarget[];
  readonly speedFraction: number;
  readonly timeScaling: 'trapezoidal' | 'quintic';
  readonly path: 'linear' | 'joint';
  readonly toolContactObjectIds?: readonly string[];
  readonly gripperAction?: GripperAction;
}

/** Stage `ik_and_joint_limits`: inverse kinematics and joint limits along the whole path (planner). */
export function planFromCurrentPose(arm: ArmView, request: PlanRequest): MotionPlan | Refusal {
  const model = arm.model;
  const status = arm.status();
  const world = worldOf(status);
  const planWith = (tcpSpeedCapMmS?: number): PlanResult => model.planWaypoints(status.jointsDeg, request.targets.map(toCartesianTarget), {
    speedFraction: request.speedFraction,
    timeScaling: request.timeScaling,
    path: request.path,
    ...(tcpSpeedCapMmS !== undefined ? { tcpSpeedCapMmS } : {}),
  });
  let result = planWith();
  // A person in the warning zone: the same path, re-timed to the speed the separation allows along it.
  const presence = status.presence;
  if (result.ok && presence !== undefined && presence.zone !== 'clear') {
    const cap = model.presenceSpeedCapMmS(presence, result.trajectory.samples.map((s) => s.tcp));
    if (result.trajectory.peaks.peakTcpSpeedMmS > cap) {
      if (!(cap > 0)) return { stage: 'speed_and_acceleration', code: 'person_in_cell', message: `no motion is allowed: ${describePresence(presence)}` };
      result = planWith(cap * PRESENCE_RETIME_MARGIN);
      if (result.ok && result.trajectory.peaks.peakTcpSpeedMmS > cap) {
        return { stage: 'speed_and_acceleration', code: 'person_in_warning_zone', message: `re-timed for ${describePresence(presence)}, the path still peaks at ${beside(result.trajectory.peaks.peakTcpSpeedMmS, cap)} mm/s, above the ${cap.toFixed(1)} mm/s the separation allows` };
      }
    }
  }
  if (!result.ok) {
    const at = result.waypointIndex !== undefined && request.targets.length > 1 ? ` (segment to waypoint ${result.waypointIndex})` : '';
    return { stage: 'ik_and_joint_limits', code: result.code, message: `no valid joint path${at}: ${result.message}` };
  }
  return motionPlanOf(model, {
    kind: request.kind,
    presetId: model.preset.id,
    targets: request.targets,
    speedFraction: request.speedFraction,
    timeScaling: request.timeScaling,
    path: request.path,
    trajectory: result.trajectory,
    toolContactObjectIds: request.toolContactObjectIds ?? [],
    gripperAction: request.gripperAction ?? null,
    world,
  });
}

/** Stage `speed_and_acceleration`: the plan's measured peaks against the configured caps (TCP speed at most 250 mm/s). */
export function checkCaps(arm: ArmView, plan: MotionPlan): Refusal | null {
  const peaks = plan.trajectory.peaks;
  const limits = arm.model.limits;
  if (plan.trajectory.durationS > MAX_MOTION_DURATION_S) {
    return { stage: 'speed_and_acceleration', code: 'too_long', message: `the motion would take ${plan.trajectory.durationS.toFixed(1)} s, longer than the ${MAX_MOTION_DURATION_S} s a single motion may last; raise speed or split it into shorter moves` };
  }
  if (peaks.peakTcpSpeedMmS > limits.maxTcpSpeedMmS * CAP_TOLERANCE) {
    return { stage: 'speed_and_acceleration', code: 'tcp_speed', message: `peak TCP speed ${beside(peaks.peakTcpSpeedMmS, limits.maxTcpSpeedMmS)} mm/s exceeds the ${limits.maxTcpSpeedMmS} mm/s cap` };
  }
  if (peaks.peakTcpAccelerationMmS2 > limits.maxTcpAccelerationMmS2 * CAP_TOLERANCE) {
    return { stage: 'speed_and_acceleration', code: 'tcp_acceleration', message: `peak TCP acceleration ${beside(peaks.peakTcpAccelerationMmS2, limits.maxTcpAccelerationMmS2, 0)} mm/s² exceeds the ${limits.maxTcpAccelerationMmS2} mm/s² cap` };
  }
  for (let j = 0; j < limits.joints.length; j++) {
    const lim = limits.joints[j]!;
    const v = peaks.peakJointSpeedDegS[j]!;
    if (v > lim.maxVelocityDegS * CAP_TOLERANCE) return { stage: 'speed_and_acceleration', code: 'joint_speed', message: `joint ${j + 1} would reach ${beside(v, lim.maxVelocityDegS)}°/s, above its ${lim.maxVelocityDegS}°/s cap` };
    const a = peaks.peakJointAccelerationDegS2[j]!;
    if (a > lim.maxAccelerationDegS2 * CAP_TOLERANCE) return { stage: 'speed_and_acceleration', code: 'joint_acceleration', message: `joint ${j + 1} would reach ${beside(a, lim.maxAccelerationDegS2, 0)}°/s², above its ${lim.maxAccelerationDegS2}°/s² cap` };
  }
  return null;
}

/**
 * The model's trajectory validation of the whole path from the arm's current state (every 4 ms sample, subdivided so no point
 * moves more than half the clearance between checks): a sample outside the envelope is stage
 * `workspace_envelope`; a body closer than the clearance is stage `collision`.
 */
export function checkPathClear(arm: ArmView, plan: MotionPlan): Refusal | null {
  const check = arm.model.validateTrajectory(plan.trajectory, arm.status(), { contactAllowedWith: plan.toolContactObjectIds });
  if (check.ok) return null;
  switch (check.code) {
    case 'stale_start':
      return { stage: 'state_gate', code: 'stale_plan', message: check.message };
    case 'limit_exceeded':
      return { stage: 'speed_and_acceleration', code: 'limit_exceeded', message: check.message };
    case 'outside_envelope':
      return { stage: 'workspace_envelope', code: 'path_leaves_envelope', message: `the path leaves the workspace ${check.message}` };
    case 'collision':
      return { stage: 'collision', code: 'collision', message: check.message };
    default:
      return { stage: 'collision', code: check.code, message: check.message };
  }
}

/**
 * The planning stages again, against the arm and the scene as they are now (envelope, plan, caps,
 * collision): what a request would be planned as after a wait, to compare with the plan approved.
 */
export function replanFromCurrentPose(arm: ArmView, request: PlanRequest): MotionPlan | Refusal {
  const outside = checkTargetsInEnvelope(arm, request.targets);
  if (outside !== null) return outside;
  const plan = planFromCurrentPose(arm, request);
  if ('stage' in plan) return plan;
  return checkCaps(arm, plan) ?? checkPathClear(arm, plan) ?? plan;
}
