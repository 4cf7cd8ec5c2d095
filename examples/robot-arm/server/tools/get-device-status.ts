import type { Tool } from 'toolwright';
import { round3 } from '../motion-flow.js';
import type { RobotDeps } from '../robot-deps.js';
import { robotTool } from '../robot-tool.js';

/** `get_device_status`: the arm's state, pose, gripper, e-stop latch and configured limits. */
export function getDeviceStatusTool(deps: RobotDeps, mode: { readOnly: boolean }): Tool {
  return robotTool(deps, {
    name: 'get_device_status',
    title: 'Get device status',
    description:
      'Report the arm\'s state (idle, moving, stopping, estop, fault), joint angles in degrees, TCP pose in millimetres and degrees (robot base frame), what the gripper holds, the running motion and its progress, whether an emergency stop is latched, and the configured limits. Takes no arguments. ' +
      'Use when starting a task, after stop_arm, or after a motion tool was refused; not for object positions (use get_object_pose). Read-only: never moves the arm and cannot change any limit.',
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    steps: () => [],
    run({ record }) {
      const controller = deps.controller;
      const model = controller.model;
      const s = controller.status();
      const estop = controller.emergencyStop;
      const summary = {
        arm: model.preset.displayName,
        state: s.state,
        read_only_mode: mode.readOnly,
        approval_mode: deps.approval.mode,
        joints_deg: s.jointsDeg.map(round3),
        tcp: { x_mm: round3(s.tcp.x), y_mm: round3(s.tcp.y), z_mm: round3(s.tcp.z), roll_deg: round3(s.tcp.rollDeg), pitch_deg: round3(s.tcp.pitchDeg), yaw_deg: round3(s.tcp.yawDeg) },
        tcp_speed_mm_s: round3(s.tcpSpeedMmS),
        held_object_id: s.heldObjectId,
        motion: s.motion === null ? null : { motion_id: s.motion.motionId, phase: s.motion.phase, elapsed_s: round3(s.motion.elapsedS), duration_s: round3(s.motion.durationS) },
        emergency_stop: estop === null ? { latched: s.estopLatched } : { latched: true, reason: estop.reason, since: estop.at, cleared_by: 'operator only' },
        fault: s.fault === null ? null : { code: s.fault.code ?? s.fault.kind, message: s.fault.message },
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
      record.summary = { state: s.state };
      const tcp = s.tcp;
      return {
        content: [{ type: 'text', text: `${model.preset.displayName}: ${s.state}${estop !== null ? ' (emergency stop latched)' : ''}; TCP at (${tcp.x.toFixed(1)}, ${tcp.y.toFixed(1)}, ${tcp.z.toFixed(1)}) mm (base frame); holding ${s.heldObjectId ?? 'nothing'}.` }],
        structuredContent: summary,
      };
    },
  });
}
