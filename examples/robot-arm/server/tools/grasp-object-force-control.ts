import { defineTool, type Tool } from 'toolwright';
import { defaultGripForceN, GRASP_LATERAL_TOLERANCE_MM, requiredGripForceN } from '../../sim/gripper.js';
import { heightOf } from '../../sim/scene-objects.js';
import { approveAndRun, motionResult, round3 } from '../motion-flow.js';
import { checkRange, findNonFinite, planAndCheck } from '../motion-safety.js';
import type { RobotDeps } from '../robot-deps.js';
import { isRefusal } from '../safety-stages.js';
import { audited, refusalResult } from '../tool-call-record.js';
import { positionSchema, type PositionArg } from '../tool-schemas.js';

interface GraspArgs {
  target_position: PositionArg;
  force_n?: number;
  grasp_strategy?: 'parallel' | 'suction' | 'adaptive';
  timeout_seconds?: number;
}

/** Longest straight approach the grasp tool makes on its own; farther targets need move_arm_to_pose first. */
export const MAX_APPROACH_MM = 150;
/** Approach speed as a fraction of the caps: slow near objects. */
const APPROACH_SPEED = 0.3;

/** `grasp_object_force_control`: a short straight approach, then the gripper closes with a set force. */
export function graspObjectForceControlTool(deps: RobotDeps): Tool {
  const preset = deps.controller.sim.preset;
  const g = preset.gripper;
  return defineTool({
    name: 'grasp_object_force_control',
    title: 'Grasp object with force control',
    description:
      `Move the TCP straight (at most ${MAX_APPROACH_MM} mm) to target_position and close the gripper with force_n newtons. ` +
      'Use after move_arm_to_pose has brought the gripper (pointing down) just above an object found with get_object_pose. ' +
      'A force above its max_grip_force_n or too low to hold it is refused before contact. ' +
      'Only fingertips may touch the object: keep the palm (50 mm above the TCP) 5 mm above its top. Not for moving far or while holding an object. A human approves approach and force.',
    inputSchema: {
      type: 'object',
      properties: {
        target_position: positionSchema(preset, `Grasp point in mm, robot base frame: the object's centre (suction: middle of its top face).`, 'stated'),
        force_n: { type: 'number', minimum: g.minForceN, maximum: g.maxForceN, description: `Newtons, ${g.minForceN} to ${g.maxForceN}. Default: per object class, never above its limit (${g.defaultForceN} N with no object).` },
        grasp_strategy: { type: 'string', enum: ['parallel', 'suction', 'adaptive'], default: 'parallel', description: 'parallel: jaws squeeze at force_n; adaptive: jaws tighten until the object holds, at most force_n; suction: vacuum cup on a flat top.' },
        timeout_seconds: { type: 'number', minimum: 1, maximum: 60, default: 10, description: 'Longest the approach may take, seconds, 1 to 60. Default 10.' },
      },
      required: ['target_position'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    run: audited<Record<string, unknown>>(deps, 'grasp_object_force_control', async (raw, ctx, record) => {
      const args = raw as unknown as GraspArgs;
      const sim = deps.controller.sim;
      const timeout = args.timeout_seconds ?? 10;
      const strategy = args.grasp_strategy ?? 'parallel';
      const bad = findNonFinite(args);
      const range = bad !== null
        ? { stage: 'finite_and_range' as const, code: 'non_finite', message: `${bad} must be a finite number` }
        : (args.force_n !== undefined ? checkRange('force_n', args.force_n, g.minForceN, g.maxForceN, 'N') : null) ?? checkRange('timeout_seconds', timeout, 1, 60, 's');
      if (range !== null) return refusalResult(record.trail.refuse(range));
      // The object the jaws close on may touch the fingertips; everything else keeps its clearance.
      const t = args.target_position;
      const target = sim.objects().find((o) => !o.held && Math.hypot(o.position.x - t.x_mm, o.position.y - t.y_mm) <= GRASP_LATERAL_TOLERANCE_MM && Math.abs(o.position.z - t.z_mm) <= heightOf(o) / 2 + 5);
      const classDefault = target !== undefined ? defaultGripForceN(target, g) : g.defaultForceN;
      if (classDefault === null && args.force_n === undefined) {
        return refusalResult(record.trail.refuse({ stage: 'finite_and_range', code: 'no_safe_force', message: `${target!.id} tolerates at most ${target!.maxGripForceN} N, below the gripper's ${g.minForceN} N minimum: no grip force is safe for it` }));
      }
      const force = args.force_n ?? classDefault!;
      if (target !== undefined && target.maxGripForceN !== null && force > target.maxGripForceN) {
        return refusalResult(record.trail.refuse({ stage: 'finite_and_range', code: 'force_above_object_limit', message: `force_n ${force} N is above the ${target.maxGripForceN} N that ${target.id} (${target.label}) tolerates (rule: the commanded force may not exceed the object's max_grip_force_n, for every strategy; nothing was touched)` }));
      }
      const required = target !== undefined ? requiredGripForceN(target, strategy) : undefined;
      if (required !== undefined && force < required) {
        return refusalResult(record.trail.refuse({ stage: 'finite_and_range', code: 'force_too_low', message: `force_n ${force} N cannot hold ${target!.id}: ${strategy} needs at least ${required.toFixed(1)} N (weight × 2 safety factor${strategy === 'suction' ? '' : `, friction ${target!.frictionCoefficient}`}); nothing was touched` }));
      }
      record.trail.pass('finite_and_range');
      const gate = deps.controller.stateGate('motion');
      if (gate !== null) return refusalResult(record.trail.refuse(gate));
      if (sim.heldObjectId !== null) {
        return refusalResult(record.trail.refuse({ stage: 'state_gate', code: 'already_holding', message: `the gripper already holds ${sim.heldObjectId}; call release_object first` }));
      }
      record.trail.pass('state_gate');
      const tcp = sim.tcp;
      const approach = Math.hypot(t.x_mm - tcp.x, t.y_mm - tcp.y, t.z_mm - tcp.z);
      if (approach > MAX_APPROACH_MM) {
        return refusalResult(record.trail.refuse({
          stage: 'workspace_envelope',
          code: 'approach_too_long',
          message: `the target is ${approach.toFixed(1)} mm from the TCP; the grasp approach is limited to ${MAX_APPROACH_MM} mm. Call move_arm_to_pose to bring the gripper just above the object first`,
        }));
      }
      const plan = planAndCheck(sim, {
        kind: 'grasp_approach',
        targets: [t],
        speedFraction: APPROACH_SPEED,
        timeScaling: 'quintic',
        path: 'linear',
        toolContactObjectIds: target !== undefined ? [target.id] : [],
        gripperAction: {
          force_n: force,
          strategy,
          ...(target !== undefined ? { object_id: target.id, object_max_force_n: target.maxGripForceN, required_force_n: Math.round(required! * 1000) / 1000 } : {}),
          ...(args.force_n === undefined && target !== undefined ? { default_for_class: target.label } : {}),
        },
      }, (stage, detail) => record.trail.pass(stage, detail));
      if (isRefusal(plan)) return refusalResult(record.trail.refuse(plan));
      if (plan.trajectory.durationS > timeout) {
        return refusalResult(record.trail.refuse({ stage: 'speed_and_acceleration', code: 'timeout_too_short', message: `the approach takes ${plan.trajectory.durationS.toFixed(2)} s at the approach speed, longer than timeout_seconds = ${timeout} s` }));
      }
      return deps.controller.exclusive(async () => {
        const outcome = await approveAndRun(deps, ctx, record, plan);
        if ('result' in outcome) return outcome.result;
        if (outcome.report.status !== 'completed') {
          const result = motionResult(outcome.report, { grasped: false });
          record.summary = result.structuredContent;
          return result;
        }
        const grasp = sim.grasp({ forceN: force, strategy });
        const base = motionResult(outcome.report).structuredContent;
        if (grasp.ok) {
          const summary = { ...base, grasped: true, object_id: grasp.objectId, strategy: grasp.strategy, applied_force_n: round3(grasp.appliedForceN), required_force_n: round3(grasp.requiredForceN) };
          record.summary = summary;
          return { content: [{ type: 'text', text: `Grasped ${grasp.objectId} with ${grasp.appliedForceN.toFixed(1)} N (${grasp.strategy}); it needs at least ${grasp.requiredForceN.toFixed(1)} N to hold.` }], structuredContent: summary };
        }
        const summary = {
          ...base,
          grasped: false,
          failure: grasp.code,
          ...('objectId' in grasp && grasp.objectId !== undefined ? { object_id: grasp.objectId } : {}),
        };
        record.summary = summary;
        return { content: [{ type: 'text', text: `Grasp failed (${grasp.code}): ${grasp.message}` }], structuredContent: summary, isError: true };
      });
    }),
  });
}
