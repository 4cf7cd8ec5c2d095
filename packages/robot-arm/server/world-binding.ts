import { createHash } from 'node:crypto';
import { canonicalJson } from 'toolwright';
import type { JsonValue } from 'toolwright';
import type { ArmPoseState } from '../model/arm-model.js';

/**
 * The world a plan (or a release) was computed against: everything the planner and the collision
 * checks read besides the request. An approval binds it with the plan (issue 30 item 1): after any
 * wait the world is read again, and a plan computed against another world is a different plan.
 * Rounded to 1 µm and 1e-6° so that a world at rest reads the same on every snapshot.
 */
export interface WorldState {
  /** The arm's joints, degrees. */
  readonly joints_deg: readonly number[];
  /** The object in the gripper and where it sits in the tool frame, or null. */
  readonly held: { readonly id: string; readonly offset_in_tool_mm: readonly number[] } | null;
  /** Every object not in the gripper, where it rests (base frame, mm), by id. */
  readonly objects: readonly { readonly id: string; readonly position_mm: readonly number[] }[];
}

function r6(v: number): number {
  return Math.round(v * 1e6) / 1e6;
}

/** The world as a snapshot shows it. */
export function worldOf(status: ArmPoseState): WorldState {
  const held = status.held;
  return {
    joints_deg: status.jointsDeg.map(r6),
    held: held === null ? null : { id: held.object.id, offset_in_tool_mm: [held.offsetInToolMm.x, held.offsetInToolMm.y, held.offsetInToolMm.z].map(r6) },
    objects: status.objects
      .filter((o) => !o.held)
      .map((o) => ({ id: o.id, position_mm: [o.position.x, o.position.y, o.position.z].map(r6) }))
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)),
  };
}

/** SHA-256 (hex) of the canonical world: equal worlds, equal digests. */
export function worldDigest(world: WorldState): string {
  return createHash('sha256').update(canonicalJson(world)).digest('hex');
}

function distance(a: readonly number[], b: readonly number[]): number {
  return Math.hypot(...a.map((v, i) => v - (b[i] ?? 0)));
}

/** What differs between the world an approval was computed against and the world now, in words. */
export function describeWorldChange(approved: WorldState, now: WorldState): string {
  const changes: string[] = [];
  let largest = 0;
  let joint = -1;
  approved.joints_deg.forEach((q, i) => {
    const d = Math.abs((now.joints_deg[i] ?? q) - q);
    if (d > largest) [largest, joint] = [d, i];
  });
  if (largest > 0) changes.push(`the arm moved (joint ${joint + 1} by ${largest.toFixed(3)}°)`);
  const heldId = (w: WorldState): string => w.held?.id ?? 'nothing';
  if (heldId(approved) !== heldId(now)) changes.push(`the gripper held ${heldId(approved)} and now holds ${heldId(now)}`);
  else if (approved.held !== null && now.held !== null && distance(approved.held.offset_in_tool_mm, now.held.offset_in_tool_mm) > 0) {
    changes.push(`${now.held.id} sits ${distance(approved.held.offset_in_tool_mm, now.held.offset_in_tool_mm).toFixed(1)} mm elsewhere in the gripper`);
  }
  const before = new Map(approved.objects.map((o) => [o.id, o.position_mm]));
  for (const o of now.objects) {
    const was = before.get(o.id);
    if (was === undefined) continue;
    const d = distance(was, o.position_mm);
    if (d > 0) changes.push(`${o.id} moved ${d.toFixed(1)} mm`);
  }
  return changes.length > 0 ? changes.join('; ') : 'nothing visible changed';
}

/** The world as a JSON value (for sealing into requestState), field for field. */
export function worldJson(world: WorldState): { [key: string]: JsonValue } {
  return {
    joints_deg: [...world.joints_deg],
    held: world.held === null ? null : { id: world.held.id, offset_in_tool_mm: [...world.held.offset_in_tool_mm] },
    objects: world.objects.map((o) => ({ id: o.id, position_mm: [...o.position_mm] })),
  };
}
