import type { InferArguments, Tool } from 'toolwright';
import { approveAndRun, motionResult, round3 } from '../motion-flow.js';
import type { RobotDeps } from '../robot-deps.js';
import { replanFromCurrentPose, type PlanRequest } from '../motion-safety.js';
import type { Refusal } from '../safety-stages.js';
import { robotTool } from '../robot-tool.js';
import { driverFaultRefusal, refusalResult } from '../tool-call-record.js';
import type { GraspOutcome } from '../../driver/arm-driver.js';
import { positionSchema } from '../tool-schemas.js';
import type { ArmPreset } from '../../model/arm-model.js';


/** Longest straight approach the grasp tool makes on its own; farther targets need move_arm_to_pose first. */
export const MAX_APPROACH_MM = 150;
/** Approach speed as a fraction of the caps: slow near objects. */
const APPROACH_SPEED = 0.3;

/** The tool's inputSchema: the arguments' type is inferred from it (no hand-written copy). */
function graspInputSchema(preset: ArmPreset) {
  const g = preset.gripper;
  return {
    type: 'object',
    properties: {
      target_position: positionSchema(preset, `Grasp point in mm, robot base frame: the object's centre (suction: middle of its top face).`, 'stated'),
      force_n: { type: 'number', minimum: g.minForceN, maximum: g.maxForceN, description: `Newtons, ${g.minForceN} to ${g.maxForceN}. Default: per object class, never above its limit (${g.defaultForceN} N with no object).` },
      grasp_strategy: { type: 'string', enum: ['parallel', 'suction', 'adaptive'], default: 'parallel', description: 'parallel: jaws squeeze at force_n; adaptive: jaws tighten until the object holds, at most force_n; suction: vacuum cup on a flat top.' },
      timeout_seconds: { type: 'number', minimum: 1, maximum: 60, default: 10, description: 'Longest the approach may take, seconds, 1 to 60. Default 10.' },
    },
    required: ['target_position'],
    additionalProperties: false,
  } as const;
}

type GraspArgs = InferArguments<ReturnType<typeof graspInputSchema>>;

/** `grasp_object_force_control`: a short straight approach, then the gripper closes with a set force. */
export function graspObjectForceControlTool(deps: RobotDeps): Tool {
  const model = deps.model;
  const preset = model.preset;
  const g = preset.gripper;
  /** The object the jaws would close on, the force used and the force it needs (a pure lookup in the scene). */
  const graspFor = (args: GraspArgs) => {
    const t = args.target_position;
    const target = deps.controller.status().objects.find((o) => !o.held && Math.hypot(o.position.x - t.x_mm, o.position.y - t.y_mm) <= model.graspLateralToleranceMm && Math.abs(o.position.z - t.z_mm) <= model.objectHeightMm(o) / 2 + 5);
    const classDefault = target !== undefined ? model.defaultGripForceN(target) : g.defaultForceN;
    const force = args.force_n ?? classDefault;
    const required = target !== undefined ? model.requiredGripForceN(target, args.grasp_strategy ?? 'parallel') : undefined;
    return { target, force: force ?? g.minForceN, noSafeForce: force === null, required };
  };
  /** Stage `finite_and_range` for the force against the object's limit and what holding it needs. */
  const forceRule = (args: GraspArgs): Refusal | undefined => {
    const { target, force, noSafeForce, required } = graspFor(args);
    const strategy = args.grasp_strategy ?? 'parallel';
    if (target === undefined) return undefined;
    if (noSafeForce) return { stage: 'finite_and_range', code: 'no_safe_force', message: `${target.id} tolerates at most ${target.maxGripForceN} N, below the gripper's ${g.minForceN} N minimum: no grip force is safe for it` };
    if (target.maxGripForceN !== null && force > target.maxGripForceN) {
      return { stage: 'finite_and_range', code: 'force_above_object_limit', message: `force_n ${force} N is above the ${target.maxGripForceN} N that ${target.id} (${target.label}) tolerates (rule: the commanded force may not exceed the object's max_grip_force_n, for every strategy; nothing was touched)` };
    }
    if (required !== undefined && force < required) {
      return { stage: 'finite_and_range', code: 'force_too_low', message: `force_n ${force} N cannot hold ${target.id}: ${strategy} needs at least ${required.toFixed(1)} N (weight × 2 safety factor${strategy === 'suction' ? '' : `, friction ${target.frictionCoefficient}`}); nothing was touched` };
    }
    return undefined;
  };
  /** The approach as a plan request (the planning steps, and the re-plan after an approval wait). */
  const graspRequest = (args: GraspArgs): PlanRequest => {
    const { target, force, required } = graspFor(args);
    return {
      kind: 'grasp_approach',
      targets: [args.target_position],
      speedFraction: APPROACH_SPEED,
      timeScaling: 'quintic',
      path: 'linear',
      toolContactObjectIds: target !== undefined ? [target.id] : [],
      gripperAction: {
        force_n: force,
        strategy: args.grasp_strategy ?? 'parallel',
        ...(target !== undefined && required !== undefined ? { object_id: target.id, object_max_force_n: target.maxGripForceN, required_force_n: Math.round(required * 1000) / 1000 } : {}),
        ...(args.force_n === undefined && target !== undefined ? { default_for_class: target.label } : {}),
      },
    };
  };
  const replanFrom = (args: GraspArgs) => replanFromCurrentPose(deps.controller, graspRequest(args));
  return robotTool(deps, {
    name: 'grasp_object_force_control',
    title: 'Grasp object with force control',
    description:
      `Move the TCP straight (at most ${MAX_APPROACH_MM} mm) to target_position and close the gripper with force_n newtons. ` +
      'Use after move_arm_to_pose has brought the gripper (pointing down) just above an object found with get_object_pose. ' +
      'A force above its max_grip_force_n or too low to hold it is refused before contact. ' +
      'Only fingertips may touch the object: keep the palm (50 mm above the TCP) 5 mm above its top. Not for moving far or while holding an object. A human approves approach and force.',
    inputSchema: graspInputSchema(preset),
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    steps: (s) => [
      s.finiteArguments(),
      s.inRange('force_n', (args) => args.force_n, g.minForceN, g.maxForceN, 'N'),
      s.inRange('timeout_seconds', (args) => args.timeout_seconds ?? 10, 1, 60, 's'),
      s.rule('finite_and_range', ({ args }) => forceRule(args)),
      s.stateGate(() => 'motion'),
      s.rule('state_gate', () => {
        const held = deps.controller.status().heldObjectId;
        return held === null ? undefined : { stage: 'state_gate', code: 'already_holding', message: `the gripper already holds ${held}; call release_object first` };
      }),
      s.rule('workspace_envelope', ({ args }) => {
        const t = args.target_position;
        const tcp = deps.controller.status().tcp;
        const approach = Math.hypot(t.x_mm - tcp.x, t.y_mm - tcp.y, t.z_mm - tcp.z);
        if (approach <= MAX_APPROACH_MM) return undefined;
        return {
          stage: 'workspace_envelope',
          code: 'approach_too_long',
          message: `the target is ${approach.toFixed(1)} mm from the TCP; the grasp approach is limited to ${MAX_APPROACH_MM} mm. Call move_arm_to_pose to bring the gripper just above the object first`,
        };
      }),
      ...s.planningSteps(({ args }) => graspRequest(args)).flatMap((step) => (step.stage !== 'speed_and_acceleration' ? [step] : [step, s.rule('speed_and_acceleration', (call) => {
        const timeout = call.args.timeout_seconds ?? 10;
        const durationS = s.planOf(call).trajectory.durationS;
        return durationS <= timeout ? undefined : { stage: 'speed_and_acceleration', code: 'timeout_too_short', message: `the approach takes ${durationS.toFixed(2)} s at the approach speed, longer than timeout_seconds = ${timeout} s` };
      })])),
    ],
    runsAsTask: () => true,
    async run({ args, ctx, record, plan }) {
      if (plan === undefined) throw new Error('grasp_object_force_control: no plan after the planning stages');
      const strategy = args.grasp_strategy ?? 'parallel';
      const { force } = graspFor(args);
      // The approach and the close are one motion of the slot: nothing else moves in between.
      const hold = deps.controller.holdSlot(record);
      if (typeof hold !== 'function') return refusalResult(record.trail.refuse(hold));
      try {
        const outcome = await approveAndRun(deps, ctx, record, plan, { replan: () => replanFrom(args) });
        if ('result' in outcome) return outcome.result;
        if (outcome.report.status !== 'completed') {
          const result = motionResult(outcome.report, { grasped: false });
          record.summary = result.structuredContent;
          return result;
        }
        let grasp: GraspOutcome;
        try {
          grasp = await deps.controller.driver.grasp({ forceN: force, strategy });
        } catch (error) {
          const refusal = record.trail.refuse(driverFaultRefusal(error, 'close the gripper'));
          record.summary = { ...motionResult(outcome.report).structuredContent, grasped: false, failure: refusal.code };
          return refusalResult(refusal);
        }
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
      } finally {
        hold();
      }
    },
  });
}
