import type { Tool } from 'toolwright';
import { approveAndRun, motionResult, round3 } from '../motion-flow.js';
import { objectsAtFingertips, replanFromCurrentPose, type PlanRequest } from '../motion-safety.js';
import type { MotionPlan } from '../motion-plan.js';
import type { RobotDeps } from '../robot-deps.js';
import { robotTool } from '../robot-tool.js';
import { ORIENTATION_SCHEMA, positionSchema, speedSchema } from '../tool-schemas.js';

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

/** The arguments a move is planned from (as the inputSchema validates them). */
interface MoveArgs {
  readonly target_position: { readonly x_mm: number; readonly y_mm: number; readonly z_mm: number };
  readonly orientation?: { readonly roll_deg: number; readonly pitch_deg: number; readonly yaw_deg: number };
  readonly speed?: number;
  readonly path?: 'linear' | 'joint';
}

/** `move_arm_to_pose`: one checked, approved move of the TCP to a pose. */
export function moveArmToPoseTool(deps: RobotDeps): Tool {
  const preset = deps.model.preset;
  /** The move as a plan request (the planning steps, and the re-plan after an approval wait). */
  const moveRequest = (args: MoveArgs): PlanRequest => ({
    kind: 'pose',
    targets: [{ ...args.target_position, ...(args.orientation !== undefined ? { orientation: args.orientation } : {}) }],
    speedFraction: args.speed ?? 0.5,
    timeScaling: 'trapezoidal',
    path: args.path ?? 'linear',
    toolContactObjectIds: objectsAtFingertips(deps.controller),
  });
  return robotTool(deps, {
    name: 'move_arm_to_pose',
    title: 'Move arm to pose',
    description:
      'Move the tool centre point (TCP) to one pose: millimetres, robot base frame (+z up), tool pointing down unless orientation is given. ' +
      'Use to bring the gripper above an object (see get_object_pose) or to a place position. ' +
      'For multi-point paths use plan_trajectory; to grasp use grasp_object_force_control. ' +
      `Checks (workspace, joint limits, TCP at most ${preset.maxTcpSpeedMmS} mm/s, collisions) refuse, never clamp; a human approves the exact plan.`,
    inputSchema: {
      type: 'object',
      properties: {
        target_position: positionSchema(preset, 'TCP goal.'),
        orientation: ORIENTATION_SCHEMA,
        speed: speedSchema(preset),
        path: { type: 'string', enum: ['linear', 'joint'], default: 'linear', description: 'linear (default): straight TCP line; joint: joint-space move.' },
        dry_run: { type: 'boolean', default: false, description: 'Only check and preview; nothing moves.' },
      },
      required: ['target_position'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    steps: (s) => [
      s.finiteArguments(),
      s.inRange('speed', (args) => args.speed ?? 0.5, 0.1, 1, '(fraction of the speed caps)'),
      s.stateGate((args) => (args.dry_run === true ? 'plan' : 'motion')),
      ...s.planningSteps(({ args }) => moveRequest(args)),
    ],
    // A task for clients that declared the tasks extension; a dry run moves nothing and answers at once.
    runsAsTask: ({ args }) => args.dry_run !== true,
    async run({ args, ctx, record, plan }) {
      if (plan === undefined) throw new Error('move_arm_to_pose: no plan after the planning stages');
      if (args.dry_run === true) {
        record.trail.skip('approval', 'dry run');
        record.trail.skip('execute', 'dry run');
        const summary = { dry_run: true, ...planSummary(plan) };
        record.summary = summary;
        return { content: [{ type: 'text', text: `Dry run: the move is allowed. It would take ${plan.trajectory.durationS.toFixed(2)} s (plan hash ${plan.hash.slice(0, 16)}). Nothing moved.` }], structuredContent: summary };
      }
      const outcome = await approveAndRun(deps, ctx, record, plan, { replan: () => replanFromCurrentPose(deps.controller, moveRequest(args)) });
      if ('result' in outcome) return outcome.result;
      const result = motionResult(outcome.report);
      record.summary = result.structuredContent;
      return result;
    },
  });
}
