/**
 * The arm as a view draws it (envelope, scene objects, pose and state), read from the controller.
 * One function, used by the console's feed and by the MCP App's state resource, so the two views of
 * the same cell cannot disagree.
 */
import type { ArmModel } from '../model/arm-model.js';
import type { ArmStatus } from '../driver/arm-driver.js';
import { pointOf as pt } from './planned-motion.js';
import type { ArmEnvelope, ArmObject, ArmState } from './arm-feed.js';

/**
 * What a view reads of the arm: the server's RobotController is one. Declared here, not imported,
 * so that view/ stays below server/ (server/ builds the App's resources from these functions).
 */
export interface ArmViewSource {
  readonly model: ArmModel;
  status(): ArmStatus;
  /** The latched emergency stop the server knows of, or null. */
  readonly emergencyStop: { readonly reason: string } | null;
}

/** The drawable state of the cell at one instant. */
export interface ArmViewState {
  envelope: ArmEnvelope;
  objects: ArmObject[];
  state: ArmState;
}

/** The envelope: reach sphere, table plane, base keep-out. */
export function armEnvelopeOf(controller: ArmViewSource): ArmEnvelope {
  const e = controller.model.envelope;
  return { reachCenter: pt(e.reachCenter), reachRadiusMm: e.reachRadiusMm, tableZMm: e.tableZMm, keepOutRadiusMm: e.keepOutRadiusMm };
}

/** The pose (joint origins from forward kinematics of the driver's snapshot), gripper, motion and e-stop state. */
export function armStateOf(controller: ArmViewSource): ArmState {
  const { model } = controller;
  const arm = controller.status();
  const held = arm.heldObjectId;
  const estop = controller.emergencyStop;
  return {
    joints: model.jointOrigins(arm.jointsDeg).map(pt),
    tcp: pt(arm.tcp),
    gripper: { widthMm: held === null ? model.preset.gripper.strokeMm : 0, holding: held },
    moving: arm.state === 'moving' || arm.state === 'stopping',
    estop: { latched: estop !== null || arm.estopLatched, reason: estop?.reason ?? (arm.estopLatched ? 'emergency stop' : null) },
    fault: arm.state === 'fault' ? arm.fault?.message ?? 'fault' : null,
    presence: arm.presence === undefined
      ? { available: false }
      : {
          available: true,
          zone: arm.presence.zone,
          person: arm.presence.person === null ? null : pt(arm.presence.person),
          allowedTcpSpeedMmS: arm.presence.allowedTcpSpeedMmS,
          warningSpeedMmS: arm.presence.config.warningSpeedMmS,
          warningZones: [...arm.presence.config.warningZones],
          protectiveZones: [...arm.presence.config.protectiveZones],
        },
    tS: arm.timeMs / 1000,
  };
}

/** The scene objects. */
export function armObjectsOf(controller: ArmViewSource): ArmObject[] {
  return controller.status().objects.map((o) => ({ id: o.id, label: o.label, shape: o.shape, position: pt(o.position), sizeMm: pt(o.sizeMm), yawDeg: o.yawDeg, held: o.held }));
}

/** All three at once. */
export function armViewStateOf(controller: ArmViewSource): ArmViewState {
  return { envelope: armEnvelopeOf(controller), objects: armObjectsOf(controller), state: armStateOf(controller) };
}
