/**
 * What the robot console page needs from an arm, as one small interface: a snapshot, a stream of
 * events, the operator's two controls (e-stop, reset) and the audit log. The page was built against
 * a test feed first (test/fixtures/console/test-arm-feed.ts); the robot server provides the real one.
 * Every type is plain JSON so the browser code imports the same definitions. Units: millimetres,
 * base frame, z up.
 */

import type { PresenceStatus, PresenceUpdate } from '../driver/arm-driver.js';

/** A point in the base frame, mm. */
export type Point = readonly [x: number, y: number, z: number];

/** Where the TCP may be: reach sphere, table plane, base keep-out cylinder. */
export interface ArmEnvelope {
  reachCenter: Point;
  reachRadiusMm: number;
  tableZMm: number;
  keepOutRadiusMm: number;
}

/** One scene object, drawn as its footprint (top view) and its height (side view). */
export interface ArmObject {
  id: string;
  label: string;
  shape: 'box' | 'cylinder' | 'sphere';
  position: Point;
  sizeMm: Point;
  yawDeg: number;
  held: boolean;
}

/** The arm's pose and state at one instant. */
export interface ArmState {
  /** Joint origins from the base to the flange: the links are drawn between consecutive points. */
  joints: Point[];
  tcp: Point;
  gripper: { widthMm: number; holding: string | null };
  moving: boolean;
  estop: { latched: boolean; reason: string | null };
  /** The protective-stop fault the arm is in (a person in the protective zone, contact force), or null. */
  fault: string | null;
  /** The presence sensor (a person in the cell). */
  presence: ArmPresence;
  /** Sim time, s. */
  tS: number;
}

/** The presence sensor as the page shows it; `available: false` when the driver has none. */
export type ArmPresence =
  | { available: false }
  | {
      available: true;
      zone: 'clear' | 'warning' | 'protective';
      person: Point | null;
      allowedTcpSpeedMmS: number;
      warningSpeedMmS: number;
      warningZones: unknown[];
      protectiveZones: unknown[];
    };

/** One audit record as the page shows it. */
export interface ArmAuditEntry {
  seq: number;
  time: string;
  kind: string;
  summary: string;
  hash: string;
}

/** Result of verifying the audit chain. */
export interface AuditVerification {
  ok: boolean;
  records: number;
  /** First broken record, when not ok. */
  brokenAt?: number;
  message: string;
}

/** Everything the page draws when it connects. */
export interface ArmSnapshot {
  envelope: ArmEnvelope;
  objects: ArmObject[];
  state: ArmState;
  /** The executed TCP trace of the current or last motion. */
  trace: Point[];
  audit: ArmAuditEntry[];
  verification: AuditVerification;
}

/** What a planned motion shows before approval (the `details` of its pending approval). */
export interface PlannedMotion {
  kind: 'arm-motion';
  /** TCP samples of the planned path. */
  path: Point[];
  durationS: number;
  peakSpeedMmS: number;
  gripForceN: number | null;
  planHash: string;
  /** Set for a release: the arm stays still, the path is the object's computed fall. */
  release?: { objectId: string; dropMm: number };
}

/** What the feed reports as it happens. */
export type ArmFeedEvent =
  | { type: 'state'; state: ArmState }
  | { type: 'objects'; objects: ArmObject[] }
  | { type: 'trace-reset' }
  | { type: 'audit'; entry: ArmAuditEntry; verification: AuditVerification };

/** The arm as the console sees it. */
export interface ArmFeed {
  snapshot(): ArmSnapshot;
  /** Returns the function that stops listening. */
  subscribe(listener: (event: ArmFeedEvent) => void): () => void;
  /** Latches the emergency stop now (any motion stops). */
  emergencyStop(operator: string, reason: string): void;
  /**
   * Clears a latched stop: true once the arm's controller confirmed it, false when none was latched;
   * rejects (the stop stays latched) when the controller could not confirm it. Only the operator calls it.
   */
  resetEmergencyStop(operator: string): Promise<boolean>;
  /** Operator action on a cell with a simulated presence sensor: sets the zones and where the person is. Absent: no sensor. */
  setPresence?(operator: string, update: PresenceUpdate): Promise<PresenceStatus>;
}

/** True when an approval's details describe an arm motion. */
export function isPlannedMotion(details: unknown): details is PlannedMotion {
  return typeof details === 'object' && details !== null && (details as { kind?: unknown }).kind === 'arm-motion' && Array.isArray((details as { path?: unknown }).path);
}
