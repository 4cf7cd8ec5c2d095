import type { Tool } from 'toolwright';
import { round3 } from '../motion-flow.js';
import type { RobotDeps } from '../robot-deps.js';
import { robotTool } from '../robot-tool.js';

/** `stop_arm`: never gated, idempotent; cancels the running motion and every pending approval. */
export function stopArmTool(deps: RobotDeps): Tool {
  return robotTool(deps, {
    name: 'stop_arm',
    title: 'Stop arm',
    description:
      'Stop the arm now. controlled (default): decelerate along the current path and hold position. emergency: freeze at once and latch an emergency stop that only a human operator can clear (no tool can). ' +
      'Use when something looks wrong, a person is near, or a running motion should end; always allowed, safe to repeat, and it cancels any approval still pending. ' +
      'Use get_device_status afterwards to see where the arm stopped.',
    inputSchema: {
      type: 'object',
      properties: {
        mode: { type: 'string', enum: ['controlled', 'emergency'], default: 'controlled', description: 'controlled: smooth stop, can move again afterwards; emergency: immediate stop, latched until an operator clears it.' },
      },
      additionalProperties: false,
    },
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    steps: () => [],
    skipReason: 'stop_arm is never gated',
    async run({ args, record }) {
      const mode = args.mode === 'emergency' ? 'emergency' : 'controlled';
      record.trail.skip('approval', 'stop_arm is never gated');
      const stop = await deps.controller.stop(mode, mode === 'emergency' ? 'emergency stop requested through stop_arm' : 'stop requested through stop_arm');
      const status = deps.controller.status();
      const tcp = status.tcp;
      const knowledge = deps.controller.stateKnowledge();
      // Unconfirmed or unreachable: whether the arm was moving, and where it is now, is not known.
      const unknown = stop.driverFault !== undefined || !knowledge.known;
      const ageMs = knowledge.known ? 0 : knowledge.lastReportAgeMs;
      record.trail.pass('execute', `${mode} stop${unknown ? ' (arm state unknown)' : stop.wasMoving ? ` of ${stop.stoppedMotionId}` : ' (arm was not moving)'}`);
      const tcpMm = { x_mm: round3(tcp.x), y_mm: round3(tcp.y), z_mm: round3(tcp.z) };
      const summary = {
        mode,
        was_moving: unknown ? null : stop.wasMoving,
        stopped_motion_id: stop.stoppedMotionId,
        stopping_time_s: round3(stop.stoppingTimeS),
        stopping_distance_mm: round3(stop.stoppingDistanceMm),
        pending_approvals_cancelled: stop.cancelledPendingApprovals,
        emergency_stop_latched: stop.emergencyStopLatched,
        state: unknown ? 'unknown' : stop.state,
        state_known: !unknown,
        tcp_mm: tcpMm,
        ...(unknown ? { last_report: { state: status.state, age_ms: ageMs, tcp_mm: tcpMm } } : {}),
        // The arm could not be told (its controller is unreachable): say so; the server's latch holds regardless.
        ...(stop.driverFault !== undefined ? { driver_fault: { kind: stop.driverFault.kind, message: stop.driverFault.message } } : {}),
      };
      record.summary = summary;
      const where = `TCP at (${tcp.x.toFixed(1)}, ${tcp.y.toFixed(1)}, ${tcp.z.toFixed(1)}) mm (base frame)`;
      const what = unknown
        ? `The arm's state is unknown: ${knowledge.known ? 'its controller did not answer' : knowledge.reason}. Whether it was moving, and where it is now, is not known; its last report (${ageMs} ms old) had the ${where}.`
        : `${stop.wasMoving ? `Stopped ${stop.stoppedMotionId} (${mode}).` : 'The arm was not moving; it is holding position.'} ${where}.`;
      const latch = stop.emergencyStopLatched ? ' Emergency stop is latched: an operator must clear it before the arm can move again.' : '';
      const unreachable = stop.driverFault !== undefined ? ` The arm controller did not confirm the stop (${stop.driverFault.kind}: ${stop.driverFault.message}); no motion is accepted until it answers.` : '';
      return { content: [{ type: 'text', text: `${what}${latch}${unreachable}` }], structuredContent: summary };
    },
  });
}
