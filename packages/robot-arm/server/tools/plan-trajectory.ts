import type { Tool } from 'toolwright';
import { objectsAtFingertips } from '../motion-safety.js';
import { PlanStore } from '../plan-store.js';
import type { RobotDeps } from '../robot-deps.js';
import { robotTool } from '../robot-tool.js';
import { storeRefusal } from '../store-refusal.js';
import { refusalResult } from '../tool-call-record.js';
import { TIME_SCALING_SCHEMA, positionSchema, speedSchema } from '../tool-schemas.js';
import { planSummary } from './move-arm-to-pose.js';

export const MAX_WAYPOINTS = 16;

/** `plan_trajectory`: checks a multi-point path and stores it as a plan; moves nothing. */
export function planTrajectoryTool(deps: RobotDeps, mode: { readOnly: boolean }): Tool {
  const preset = deps.model.preset;
  return robotTool(deps, {
    name: 'plan_trajectory',
    title: 'Plan trajectory',
    description:
      'Plan a TCP path through 2 to 16 waypoints (mm, robot base frame, right-handed, +z up; tool pointing down) from where the arm is now. ' +
      'Moves nothing: checks workspace, joint limits, speed caps and collisions along the whole path; returns plan_id and plan_hash, valid 10 minutes while the arm stays where it was planned from. ' +
      // Read-only mode serves no motion tool, so the hint must not send the model to one.
      (mode.readOnly
        ? 'Use to check whether a multi-point path is feasible; this server cannot execute it (read-only mode).'
        : 'Use before execute_trajectory when the arm must pass intermediate points (e.g. lift, carry, lower); for a single target use move_arm_to_pose.'),
    inputSchema: {
      type: 'object',
      properties: {
        waypoints: {
          type: 'array',
          minItems: 2,
          maxItems: MAX_WAYPOINTS,
          description: 'TCP positions to pass through in order (the current position is the implicit start).',
          items: positionSchema(preset, 'One waypoint of the TCP.'),
        },
        speed: speedSchema(preset),
        time_scaling: TIME_SCALING_SCHEMA,
      },
      required: ['waypoints'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    steps: (s) => [
      s.finiteArguments(),
      s.inRange('speed', (args) => args.speed ?? 0.5, 0.1, 1, '(fraction of the speed caps)'),
      s.stateGate(() => 'plan'),
      ...s.planningSteps(({ args }) => ({
        kind: 'waypoints',
        targets: args.waypoints,
        speedFraction: args.speed ?? 0.5,
        timeScaling: args.time_scaling ?? 'trapezoidal',
        path: 'linear',
        toolContactObjectIds: objectsAtFingertips(deps.controller),
      })),
    ],
    async run({ args, store, record, plan }) {
      if (plan === undefined) throw new Error('plan_trajectory: no plan after the planning stages');
      let expiresAt: number;
      try {
        ({ expiresAt } = await new PlanStore(store, deps.model).put(plan));
      } catch (error) {
        return refusalResult(record.trail.refuse(storeRefusal(error, 'execute')));
      }
      record.trail.skip('approval', 'planning only; approval is asked by execute_trajectory');
      record.trail.skip('execute', 'planning only');
      const summary = { ...planSummary(plan), waypoint_count: args.waypoints.length, expires_at: new Date(expiresAt).toISOString() };
      record.summary = summary;
      return {
        content: [{ type: 'text', text: `Planned ${plan.id} (hash ${plan.hash.slice(0, 16)}): ${args.waypoints.length} waypoints, ${plan.trajectory.durationS.toFixed(2)} s. Nothing moved; call execute_trajectory with this plan_id to run it.` }],
        structuredContent: summary,
      };
    },
  });
}
