import { defineTool, type Tool } from '../../../../src/index.js';
import { round3 } from '../motion-flow.js';
import type { RobotDeps } from '../robot-deps.js';
import { audited, refusalResult } from '../tool-call-record.js';

/** `release_object`: opens the gripper; a held object drops straight down onto the table. */
export function releaseObjectTool(deps: RobotDeps): Tool {
  return defineTool({
    name: 'release_object',
    title: 'Release object',
    description:
      'Open the gripper and let go of the held object; it drops straight down onto the table. Takes no arguments. ' +
      'Use after grasp_object_force_control and move_arm_to_pose have carried the object to its place, ideally with its bottom less than 50 mm above the table (fragile objects break when dropped from higher). ' +
      'Does not move the arm. Not needed when the gripper holds nothing (get_device_status shows what is held).',
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    run: audited<Record<string, unknown>>(deps, 'release_object', (_args, _ctx, record) => {
      record.trail.pass('finite_and_range');
      const gate = deps.controller.stateGate('gripper');
      if (gate !== null) return refusalResult(record.trail.refuse(gate));
      record.trail.pass('state_gate');
      for (const stage of ['workspace_envelope', 'ik_and_joint_limits', 'speed_and_acceleration', 'collision', 'approval'] as const) record.trail.skip(stage, 'the arm does not move');
      const released = deps.controller.sim.release();
      if (!released.ok) {
        if (released.code === 'not_holding') {
          record.trail.pass('execute', 'nothing held');
          record.summary = { released: false };
          return { content: [{ type: 'text', text: 'The gripper holds nothing; it is open. Nothing changed.' }], structuredContent: { released: false } };
        }
        return refusalResult(record.trail.refuse({ stage: 'state_gate', code: released.code, message: released.message }));
      }
      record.trail.pass('execute', `released ${released.objectId}`);
      const p = released.position;
      const summary = { released: true, object_id: released.objectId, resting_position_mm: { x_mm: round3(p.x), y_mm: round3(p.y), z_mm: round3(p.z) }, drop_height_mm: round3(released.dropHeightMm), broke: released.broke };
      record.summary = summary;
      return {
        content: [{ type: 'text', text: `Released ${released.objectId}; it dropped ${released.dropHeightMm.toFixed(1)} mm and rests at (${p.x.toFixed(1)}, ${p.y.toFixed(1)}, ${p.z.toFixed(1)}) mm (base frame)${released.broke ? '; it broke' : ''}.` }],
        structuredContent: summary,
      };
    }),
  });
}
