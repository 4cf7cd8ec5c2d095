import { defineTool, type Tool } from 'toolwright';
import { approveAndRun, motionResult } from '../motion-flow.js';
import { checkPlanned, checkTargetsInEnvelope } from '../motion-safety.js';
import type { RobotDeps } from '../robot-deps.js';
import { isRefusal } from '../safety-stages.js';
import { audited, refusalResult } from '../tool-call-record.js';

/** `execute_trajectory`: runs a stored plan after re-checking it against the arm and scene as they are now. */
export function executeTrajectoryTool(deps: RobotDeps): Tool {
  return defineTool({
    name: 'execute_trajectory',
    title: 'Execute trajectory',
    description:
      'Run a path planned by plan_trajectory, identified by its plan_id. Use after plan_trajectory, once the plan looks right. ' +
      'Before moving, the server re-checks the plan against the arm and scene as they are now and asks a human to approve the exact plan (shown with its hash). ' +
      'A plan runs at most once; if the arm moved since planning, plan again. Do not use to stop the arm (use stop_arm).',
    inputSchema: {
      type: 'object',
      properties: {
        plan_id: { type: 'string', pattern: '^plan-[0-9a-f]{16}$', description: 'The plan_id returned by plan_trajectory, e.g. "plan-0123456789abcdef".' },
      },
      required: ['plan_id'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    run: audited<Record<string, unknown>>(deps, 'execute_trajectory', async (raw, ctx, record) => {
      const planId = raw.plan_id as string;
      record.trail.pass('finite_and_range');
      const gate = deps.controller.stateGate('motion');
      if (gate !== null) return refusalResult(record.trail.refuse(gate));
      const plan = deps.controller.plans.get(planId);
      if (plan === undefined) {
        return refusalResult(record.trail.refuse({ stage: 'state_gate', code: 'unknown_plan', message: `no plan ${planId}: it was never made, already executed, or expired (plans last 10 minutes); call plan_trajectory` }));
      }
      record.trail.pass('state_gate');
      record.planHash = plan.hash;
      const envelope = checkTargetsInEnvelope(deps.controller.sim, plan.targets);
      if (envelope !== null) return refusalResult(record.trail.refuse(envelope));
      record.trail.pass('workspace_envelope');
      record.trail.pass('ik_and_joint_limits', `solved when ${plan.id} was planned`);
      const checked = checkPlanned(deps.controller.sim, plan, (stage, detail) => record.trail.pass(stage, detail));
      if (isRefusal(checked)) return refusalResult(record.trail.refuse(checked));
      const outcome = await approveAndRun(deps, ctx, record, plan);
      if ('result' in outcome) return outcome.result;
      const result = motionResult(outcome.report, { plan_hash: plan.hash });
      record.summary = result.structuredContent;
      return result;
    }),
  });
}
