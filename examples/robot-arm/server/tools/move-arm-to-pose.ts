import { defineTool } from '../../../../src/server/define-tool.js';
import type { Tool } from '../../../../src/server/tool-types.js';
import { approveAndRun, motionResult, round3 } from '../motion-flow.js';
import { checkRange, findNonFinite, planAndCheck } from '../motion-safety.js';
import type { MotionPlan } from '../motion-plan.js';
import type { RobotDeps } from '../robot-deps.js';
import { isRefusal } from '../safety-stages.js';
import { audited, refusalResult } from '../tool-call-record.js';
import { ORIENTATION_SCHEMA, TIME_SCALING_SCHEMA, positionSchema, speedSchema, type OrientationArg, type PositionArg } from '../tool-schemas.js';

interface MoveArgs {
  target_position: PositionArg;
  orientation?: OrientationArg;
  speed?: number;
  path?: 'linear' | 'joint';
  time_scaling?: 'trapezoidal' | 'quintic';
  dry_run?: boolean;
}

/** A summary of a checked plan for results (dry runs and plan_trajectory). */
export function planSummary(plan: MotionPlan): Record<string, unknown> {
  const t = plan.trajectory;
  return {
    plan_id: plan.id,
    plan_hash: plan.hash,
    duration_s: round3(t.durationS),
    peak_tcp_speed_mm_s: round3(t.peaks.peakTcpSpeedMmS),
    max_displacement_mm: round3(plan.maxDisplacementMm),
    start_tcp_mm: { x_mm: round3(plan.startTcp.x), y_mm: round3(plan.startTcp.y), z_mm: round3(plan.startTcp.z) },
    end_tcp_mm: { x_mm: round3(plan.endTcp.x), y_mm: round3(plan.endTcp.y), z_mm: round3(plan.endTcp.z) },
    end_joints_deg: t.endJointsDeg.map(round3),
  };
}

/** `move_arm_to_pose`: one checked, approved move of the TCP to a pose. */
export function moveArmToPoseTool(deps: RobotDeps): Tool {
  const preset = deps.controller.sim.preset;
  return defineTool({
    name: 'move_arm_to_pose',
    title: 'Move arm to pose',
    description:
      'Move the arm\'s tool centre point (TCP) to one pose: position in millimetres in the robot base frame (right-handed, +z up), ' +
      'orientation in degrees (default: tool pointing straight down). Use to bring the gripper above an object or to a place position; ' +
      'use get_object_pose first to find where objects are. Do not use for multi-point paths (use plan_trajectory and execute_trajectory) ' +
      'or to close the gripper (use grasp_object_force_control). The server checks workspace, joint limits, speed (TCP at most ' +
      `${preset.maxTcpSpeedMmS} mm/s) and collisions, and asks a human to approve the exact plan; out-of-range targets are refused, never clamped. ` +
      'Set dry_run to only check and preview.',
    inputSchema: {
      type: 'object',
      properties: {
        target_position: positionSchema(preset, 'Where the TCP (fingertip centre) should go.'),
        orientation: ORIENTATION_SCHEMA,
        speed: speedSchema(preset),
        path: { type: 'string', enum: ['linear', 'joint'], default: 'linear', description: 'linear: TCP moves on a straight line; joint: joints interpolate (curved TCP path). Default linear.' },
        time_scaling: TIME_SCALING_SCHEMA,
        dry_run: { type: 'boolean', default: false, description: 'true: run every check and return the plan without moving or asking for approval.' },
      },
      required: ['target_position'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    run: audited<Record<string, unknown>>(deps, 'move_arm_to_pose', async (raw, ctx, record) => {
      const args = raw as unknown as MoveArgs;
      const speed = args.speed ?? 0.5;
      const bad = findNonFinite(args);
      const range = bad !== null ? { stage: 'finite_and_range' as const, code: 'non_finite', message: `${bad} must be a finite number` } : checkRange('speed', speed, 0.1, 1, '(fraction of the speed caps)');
      if (range !== null) return refusalResult(record.trail.refuse(range));
      record.trail.pass('finite_and_range');
      const gate = deps.controller.stateGate(args.dry_run === true ? 'gripper' : 'motion');
      if (gate !== null) return refusalResult(record.trail.refuse(gate));
      record.trail.pass('state_gate');
      const target = { ...args.target_position, ...(args.orientation !== undefined ? { orientation: args.orientation } : {}) };
      const plan = planAndCheck(deps.controller.sim, {
        kind: 'pose',
        targets: [target],
        speedFraction: speed,
        timeScaling: args.time_scaling ?? 'trapezoidal',
        path: args.path ?? 'linear',
      }, (stage, detail) => record.trail.pass(stage, detail));
      if (isRefusal(plan)) return refusalResult(record.trail.refuse(plan));
      record.planHash = plan.hash;
      if (args.dry_run === true) {
        record.trail.skip('approval', 'dry run');
        record.trail.skip('execute', 'dry run');
        const summary = { dry_run: true, ...planSummary(plan) };
        record.summary = summary;
        return { content: [{ type: 'text', text: `Dry run: the move is allowed. It would take ${plan.trajectory.durationS.toFixed(2)} s (plan hash ${plan.hash.slice(0, 16)}). Nothing moved.` }], structuredContent: summary };
      }
      const outcome = await approveAndRun(deps, ctx, record, plan);
      if ('result' in outcome) return outcome.result;
      const result = motionResult(outcome.report);
      record.summary = result.structuredContent;
      return result;
    }),
  });
}
