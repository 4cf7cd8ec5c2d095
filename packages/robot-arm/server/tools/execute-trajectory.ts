import type { Tool } from 'toolwright';
import { approveAndRun, motionResult } from '../motion-flow.js';
import { PlanStore } from '../plan-store.js';
import type { RobotDeps } from '../robot-deps.js';
import { robotTool } from '../robot-tool.js';

/** `execute_trajectory`: runs a stored plan after re-checking it against the arm and scene as they are now. */
export function executeTrajectoryTool(deps: RobotDeps): Tool {
  return robotTool(deps, {
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
    steps: (s) => [
      s.finiteArguments(),
      s.stateGate(() => 'motion'),
      s.storedPlan((args) => args.plan_id),
      // Re-checked against the arm and the scene as they are now; inverse kinematics was solved when planned.
      s.targetsInEnvelope((call) => s.planOf(call).targets),
      { stage: 'ik_and_joint_limits', check: (call) => `solved when ${s.planOf(call).id} was planned` },
      s.withinCaps(),
      s.pathClear(),
    ],
    runsAsTask: () => true,
    async run({ ctx, store, record, plan, storedUntil }) {
      if (plan === undefined || storedUntil === undefined) throw new Error('execute_trajectory: no stored plan after the state gate');
      // Taken from the store (once, across instances) only when it is about to run.
      const outcome = await approveAndRun(deps, ctx, record, plan, { stored: { plans: new PlanStore(store, deps.model), expiresAt: storedUntil } });
      if ('result' in outcome) return outcome.result;
      const result = motionResult(outcome.report, { plan_hash: plan.hash });
      record.summary = result.structuredContent;
      return result;
    },
  });
}
