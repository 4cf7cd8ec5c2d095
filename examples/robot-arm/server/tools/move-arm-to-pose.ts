import { defineTool, type Tool } from 'toolwright';
import { approveAndRun, motionResult, round3 } from '../motion-flow.js';
import { checkRange, findNonFinite, objectsAtFingertips, planAndCheck } from '../motion-safety.js';
import type { MotionPlan } from '../motion-plan.js';
import type { RobotDeps } from '../robot-deps.js';
import { isRefusal } from '../safety-stages.js';
import { audited, refusalResult } from '../tool-call-record.js';
import { ORIENTATION_SCHEMA, positionSchema, speedSchema, type OrientationArg, type PositionArg } from '../tool-schemas.js';

interface MoveArgs {
  target_position: PositionArg;
  orientation?: OrientationArg;
  speed?: number;
  path?: 'linear' | 'joint';
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
    run: audited<Record<string, unknown>>(deps, 'move_arm_to_pose', async (raw, ctx, record) => {
      const args = raw as unknown as MoveArgs;
      const speed = args.speed ?? 0.5;
      const bad = findNonFinite(args);
      const range = bad !== null ? { stage: 'finite_and_range' as const, code: 'non_finite', message: `${bad} must be a finite number` } : checkRange('speed', speed, 0.1, 1, '(fraction of the speed caps)');
      if (range !== null) return refusalResult(record.trail.refuse(range));
      record.trail.pass('finite_and_range');
      const gate = deps.controller.stateGate(args.dry_run === true ? 'plan' : 'motion');
      if (gate !== null) return refusalResult(record.trail.refuse(gate));
      record.trail.pass('state_gate');
      const target = { ...args.target_position, ...(args.orientation !== undefined ? { orientation: args.orientation } : {}) };
      const plan = planAndCheck(deps.controller.sim, {
        kind: 'pose',
        targets: [target],
        speedFraction: speed,
        timeScaling: 'trapezoidal',
        path: args.path ?? 'linear',
        toolContactObjectIds: objectsAtFingertips(deps.controller.sim),
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
