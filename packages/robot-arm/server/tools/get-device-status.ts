import type { Tool } from 'toolwright';
import { describePresence, type PresenceStatus } from '../../driver/arm-driver.js';
import { round3 } from '../motion-flow.js';
import type { RobotDeps } from '../robot-deps.js';
import { robotTool } from '../robot-tool.js';

/** `get_device_status`: the arm's state, pose, gripper, e-stop latch and configured limits. */
export function getDeviceStatusTool(deps: RobotDeps, mode: { readOnly: boolean }): Tool {
  return robotTool(deps, {
    name: 'get_device_status',
    title: 'Get device status',
    description:
      'Report the arm\'s state (idle, moving, stopping, estop, fault; unknown while its controller is unreachable), joint angles in degrees, TCP pose in millimetres and degrees (robot base frame), what the gripper holds, the running motion and its progress, whether an emergency stop is latched, and the configured limits. Takes no arguments. ' +
      'Use when starting a task, after stop_arm, or after a motion tool was refused; not for object positions (use get_object_pose). Read-only: never moves the arm and cannot change any limit.',
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    steps: () => [],
    run({ record }) {
      const controller = deps.controller;
      const model = controller.model;
      const s = controller.status();
      const estop = controller.emergencyStop;
      const knowledge = controller.stateKnowledge();
      const summary = {
        arm: model.preset.displayName,
        // Nobody hears from the arm: its last report is shown as such (with its age), never as its state now.
        state: knowledge.known ? s.state : 'unknown',
        state_known: knowledge.known,
        ...(knowledge.known ? {} : { state_unknown_reason: knowledge.reason, last_report: { state: s.state, age_ms: knowledge.lastReportAgeMs } }),
        read_only_mode: mode.readOnly,
        approval_mode: deps.approval.mode,
        joints_deg: s.jointsDeg.map(round3),
        tcp: { x_mm: round3(s.tcp.x), y_mm: round3(s.tcp.y), z_mm: round3(s.tcp.z), roll_deg: round3(s.tcp.rollDeg), pitch_deg: round3(s.tcp.pitchDeg), yaw_deg: round3(s.tcp.yawDeg) },
        tcp_speed_mm_s: knowledge.known ? round3(s.tcpSpeedMmS) : null,
        held_object_id: s.heldObjectId,
        motion: s.motion === null ? null : { motion_id: s.motion.motionId, phase: s.motion.phase, elapsed_s: round3(s.motion.elapsedS), duration_s: round3(s.motion.durationS) },
        emergency_stop: estop === null ? { latched: s.estopLatched } : { latched: true, reason: estop.reason, since: estop.at, cleared_by: 'operator only' },
        fault: s.fault === null ? null : { code: s.fault.code ?? s.fault.kind, message: s.fault.message },
        presence: presenceSummary(s.presence),
        limits: {
          max_tcp_speed_mm_s: model.limits.maxTcpSpeedMmS,
          max_tcp_acceleration_mm_s2: model.limits.maxTcpAccelerationMmS2,
          reach_radius_mm: model.envelope.reachRadiusMm,
          min_height_above_table_mm: model.envelope.tableClearanceMm,
          base_keep_out_radius_mm: model.envelope.keepOutRadiusMm,
          joint_limits_deg: model.limits.joints.map((j) => [j.minDeg, j.maxDeg]),
          gripper_force_n: [model.preset.gripper.minForceN, model.preset.gripper.maxForceN],
        },
      };
      record.trail.pass('execute', 'status read');
      record.summary = { state: summary.state };
      const tcp = s.tcp;
      const where = `TCP at (${tcp.x.toFixed(1)}, ${tcp.y.toFixed(1)}, ${tcp.z.toFixed(1)}) mm (base frame); holding ${s.heldObjectId ?? 'nothing'}`;
      const text = knowledge.known
        ? `${model.preset.displayName}: ${s.state}${estop !== null ? ' (emergency stop latched)' : ''}; ${where}.${s.presence !== undefined && s.presence.zone !== 'clear' ? ` Presence: ${describePresence(s.presence)}.` : ''}`
        : `${model.preset.displayName}: state unknown: ${knowledge.reason}${estop !== null ? ' (emergency stop latched in the server)' : ''}. Its last report, ${knowledge.lastReportAgeMs} ms old: ${where}; whether it has moved since is not known.`;
      return {
        content: [{ type: 'text', text }],
        structuredContent: summary,
      };
    },
  });
}

/**
 * The presence sensor as status shows it: the zone the person is in, where, the separation and the
 * TCP speed allowed; `available: false` when the driver has no presence sensor.
 */
function presenceSummary(presence: PresenceStatus | undefined): Record<string, unknown> {
  if (presence === undefined) return { available: false };
  return {
    available: true,
    zone: presence.zone,
    person_mm: presence.person === null ? null : { x: round3(presence.person.x), y: round3(presence.person.y), z: round3(presence.person.z) },
    separation_mm: presence.separationMm === null ? null : round3(presence.separationMm),
    allowed_tcp_speed_mm_s: round3(presence.allowedTcpSpeedMmS),
    warning_speed_mm_s: presence.config.warningSpeedMmS,
    warning_zones: presence.config.warningZones,
    protective_zones: presence.config.protectiveZones,
  };
}
