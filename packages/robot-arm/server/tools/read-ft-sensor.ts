import type { Tool } from 'toolwright';
import { round3 } from '../motion-flow.js';
import { FT_AXES, type FtAxis, type FtFilter, type ForceTorqueResult } from '../../driver/arm-driver.js';
import type { RobotDeps } from '../robot-deps.js';
import { driverFaultRefusal, refusalResult } from '../tool-call-record.js';
import { robotTool } from '../robot-tool.js';

/** `read_ft_sensor`: the wrist force/torque sensor, filtered. */
export function readFtSensorTool(deps: RobotDeps, mode: { readOnly: boolean }): Tool {
  const spec = deps.model.preset.ftSensor;
  return robotTool(deps, {
    name: 'read_ft_sensor',
    title: 'Read force/torque sensor',
    description:
      `Read the wrist 6-axis force/torque sensor (${spec.sampleRateHz} Hz): forces Fx, Fy, Fz in N and torques Mx, My, Mz in N·m, along robot base frame axes, torques about the TCP. ` +
      `Range ±${spec.forceRangeN} N, ±${spec.torqueRangeNm} N·m; raw noise about ${spec.forceNoiseStdN} N. ` +
      // Read-only mode serves no grasp or release tool, so the hint must not name them there.
      (mode.readOnly
        ? 'Use to check contact or a held object\'s weight. '
        : 'Use to check contact, to confirm a held object\'s weight after grasp_object_force_control, or before release_object. ') +
      'Not for finding objects (use get_object_pose). Read-only: never moves the arm.',
    inputSchema: {
      type: 'object',
      properties: {
        filter: { type: 'string', enum: ['raw', 'kalman', 'moving_average'], default: 'kalman', description: 'raw: latest noisy sample; kalman: Kalman-filtered (default); moving_average: mean of the last 50 ms.' },
        axes: { type: 'array', items: { type: 'string', enum: [...FT_AXES] }, minItems: 1, maxItems: 6, uniqueItems: true, description: 'Channels to return; default all six.' },
      },
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    steps: () => [],
    async run({ args, record }) {
      const filter: FtFilter = args.filter ?? 'kalman';
      const axes: readonly FtAxis[] = args.axes ?? FT_AXES;
      let reading: ForceTorqueResult;
      try {
        reading = await deps.controller.driver.readForceTorque({ filter, axes });
      } catch (error) {
        return refusalResult(record.trail.refuse(driverFaultRefusal(error, 'read the force/torque sensor')));
      }
      const status = deps.controller.status();
      record.trail.pass('execute', 'sensor read');
      const values: Record<string, number> = {};
      for (const axis of axes) values[axis] = round3(reading.values[axis] ?? 0);
      const summary = {
        filter,
        sim_time_ms: round3(reading.timeMs),
        values,
        units: { force: 'N', torque: 'N·m' },
        frame: 'robot base frame axes; torques about the TCP',
        saturated: reading.saturated,
        in_contact: status.contacts.length > 0,
      };
      record.summary = summary;
      const text = axes.map((a) => `${a}=${values[a]!.toFixed(2)} ${a.startsWith('F') ? 'N' : 'N·m'}`).join(', ');
      return { content: [{ type: 'text', text: `F/T (${filter}) at t=${reading.timeMs.toFixed(0)} ms: ${text}${reading.saturated ? ' (saturated)' : ''}.` }], structuredContent: summary };
    },
  });
}
