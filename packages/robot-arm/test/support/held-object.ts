/**
 * Test support for held-object tests over MCP: a call approved by the client's user whenever the
 * server asks (so every approval mode runs the same sequence), picking up the cup, and the cup's
 * ground truth (in-process simulator or a matrix subject's).
 */
import assert from 'node:assert/strict';
import type { ArmDriver } from '../../driver/arm-driver.js';
import type { SceneObjectSpec } from '../../sim/scene-objects.js';
import { ELICITATION, type Harness, type RpcReply } from './robot-harness.js';

const ACCEPT = { approval: { action: 'accept', content: { approve: true } } };

/** Calls a tool as a client that can elicit; when the server asks for approval, the user approves once. */
export async function callApproved(h: Harness<ArmDriver>, name: string, args: Record<string, unknown>): Promise<RpcReply> {
  const first = await h.call(name, args, { capabilities: ELICITATION });
  const result = first.body.result;
  if (result?.resultType !== 'input_required') return first;
  return h.call(name, args, { capabilities: ELICITATION, requestState: result.requestState!, inputResponses: ACCEPT });
}

/**
 * Height of the cup's lowest point above the table (z = 0), from ground truth: the in-process
 * simulator's `sim.objects()` or a matrix subject's `truth().objects` (the cup stays upright).
 */
export function cupBottomMm(objects: readonly SceneObjectSpec[], id = 'cup-1'): number {
  const cup = objects.find((o) => o.id === id);
  assert.ok(cup !== undefined, `no object ${id} in the ground truth`);
  return cup.position.z - cup.sizeMm.z / 2;
}

/** Moves above the cup and grasps it 20 mm above its centre (approved); the cup rests on the table. Any driver (its own report). */
export async function graspCup(h: Harness<ArmDriver>, id = 'cup-1'): Promise<void> {
  const cup = h.robot.driver.status().objects.find((o) => o.id === id)!;
  const p = cup.position;
  const above = await callApproved(h, 'move_arm_to_pose', { target_position: { x_mm: p.x, y_mm: p.y, z_mm: p.z + 100 }, path: 'joint' });
  assert.equal(above.body.result?.structuredContent?.status, 'completed', JSON.stringify(above.body));
  const grasp = await callApproved(h, 'grasp_object_force_control', { target_position: { x_mm: p.x, y_mm: p.y, z_mm: p.z + 20 }, force_n: 15 });
  assert.equal(grasp.body.result?.structuredContent?.grasped, true, JSON.stringify(grasp.body));
  assert.equal(h.robot.driver.status().heldObjectId, id);
}
