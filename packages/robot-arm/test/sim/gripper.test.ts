import { test } from 'node:test';
import assert from 'node:assert/strict';
import { UR5E } from '../../sim/arm-presets.js';
import type { Frame } from '../../sim/forward-kinematics.js';
import { attemptGrasp, DEFAULT_GRIP_FORCE_BY_LABEL, defaultGripForceN, GRAVITY_MS2, requiredGripForceN, type GraspOutcome } from '../../sim/gripper.js';
import { OBJECT_LABELS } from '../../sim/scene-objects.js';
import { fromRpyDeg } from '../../sim/rotation.js';
import { defaultSceneObjects, type SceneObjectSpec, type SceneObjectState } from '../../sim/scene-objects.js';
import type { Vec3 } from '../../sim/vector3.js';

const gripper = UR5E.gripper;
const scene: SceneObjectState[] = defaultSceneObjects('ur5e').map((o) => ({ ...o, condition: 'intact', held: false }));
const byId = (id: string): SceneObjectState => scene.find((o) => o.id === id)!;

/** Tool pointing straight down at `at`, jaws closing along base x rotated by `yawDeg`. */
function toolDownAt(at: Vec3, yawDeg = 0): Frame {
  return { origin: at, rotation: fromRpyDeg({ rollDeg: 180, pitchDeg: 0, yawDeg }) };
}

function graspAt(id: string, forceN: number, strategy?: 'parallel' | 'suction' | 'adaptive', objects: readonly SceneObjectState[] = scene): GraspOutcome {
  const o = objects.find((x) => x.id === id)!;
  const at = strategy === 'suction' ? { ...o.position, z: o.position.z + (o.shape === 'sphere' ? o.sizeMm.x : o.sizeMm.z) / 2 } : o.position;
  return attemptGrasp(gripper, UR5E.payloadKg, toolDownAt(at), objects, false, strategy === undefined ? { forceN } : { forceN, strategy });
}

const required = (o: SceneObjectSpec): number => (o.massKg * GRAVITY_MS2 * 2) / (2 * o.frictionCoefficient);

test('a cup held with 15 N parallel grip succeeds; friction model 2·μ·F ≥ m·g·2', () => {
  const outcome = graspAt('cup-1', 15);
  assert.ok(outcome.ok);
  assert.equal(outcome.objectId, 'cup-1');
  assert.equal(outcome.appliedForceN, 15);
  assert.ok(Math.abs(outcome.requiredForceN - required(byId('cup-1'))) < 1e-12);
  assert.deepEqual(outcome.held.offsetInToolMm, { x: 0, y: 0, z: 0 });
});

test('too little force for the mass slips: the 0.3 kg block needs 6.5 N, 5 N slips', () => {
  const outcome = graspAt('block-1', 5);
  assert.deepEqual(outcome, {
    ok: false,
    code: 'slipped',
    message: 'object block-1 slipped: 5.0 N of grip with friction 0.45 holds less than its 0.3 kg needs (6.5 N with safety factor 2)',
    objectId: 'block-1',
    appliedForceN: 5,
    requiredForceN: required(byId('block-1')),
  });
  assert.ok(graspAt('block-1', 7).ok);
});

test('the full bottle (0.9 kg, μ 0.35) slips at 15 N and holds at 30 N', () => {
  const weak = graspAt('bottle-1', 15);
  assert.ok(!weak.ok && weak.code === 'slipped');
  assert.ok(graspAt('bottle-1', 30).ok);
});

test('a force above what a fragile object tolerates is refused before contact, for every strategy', () => {
  for (const strategy of ['parallel', 'adaptive'] as const) {
    const outcome = graspAt('egg-1', 15, strategy);
    assert.deepEqual(outcome, {
      ok: false,
      code: 'force_above_object_limit',
      message: 'the commanded 15 N is above the 8 N that egg-1 tolerates; nothing touched it. Use at most 8 N (the default for a egg is 6 N)',
      objectId: 'egg-1',
    });
  }
  const cup = graspAt('cup-1', 26, 'suction');
  assert.ok(!cup.ok && cup.code === 'force_above_object_limit', 'suction too: the cup tolerates 25 N');
  assert.ok(graspAt('egg-1', 6).ok);
  assert.ok(graspAt('egg-1', 8).ok, 'exactly at the limit is allowed');
});

test('default grip forces per object class never exceed a known object\'s limit and hold every default-scene object they can', () => {
  for (const label of OBJECT_LABELS) assert.ok(DEFAULT_GRIP_FORCE_BY_LABEL[label] >= gripper.minForceN && DEFAULT_GRIP_FORCE_BY_LABEL[label] <= gripper.maxForceN, label);
  for (const o of scene) {
    const force = defaultGripForceN(o, gripper)!;
    assert.ok(o.maxGripForceN === null || force <= o.maxGripForceN, `${o.id}: default ${force} N within its ${o.maxGripForceN} N`);
    assert.ok(force >= requiredGripForceN(o, 'parallel') || o.id === 'tray-1', `${o.id}: default ${force} N holds it`);
  }
  assert.equal(defaultGripForceN({ ...byId('egg-1'), maxGripForceN: 4 }, gripper), null, 'no safe force when the limit is below the gripper minimum');
  assert.equal(defaultGripForceN({ ...byId('cup-1'), maxGripForceN: 7 }, gripper), 7, 'capped by the object\'s own limit');
});

test('adaptive grip raises force only as far as needed (never above the command)', () => {
  const egg = graspAt('egg-1', 8, 'adaptive');
  assert.ok(egg.ok);
  assert.equal(egg.appliedForceN, gripper.minForceN);
  const bottle = graspAt('bottle-1', 20, 'adaptive');
  assert.ok(!bottle.ok && bottle.code === 'slipped' && bottle.appliedForceN === 20, 'adaptive never exceeds the commanded force');
});

test('objects wider than the jaw opening cannot be grasped; the width depends on the jaw direction', () => {
  const tray = graspAt('tray-1', 15);
  assert.deepEqual(tray, { ok: false, code: 'too_wide', message: 'object tray-1 is 220.0 mm wide across the jaws; the gripper opens 85 mm', objectId: 'tray-1' });
  const plank: SceneObjectState = { ...byId('block-1'), id: 'plank-1', sizeMm: { x: 200, y: 40, z: 40 }, yawDeg: 0, position: { x: -200, y: -400, z: 20 } };
  const along = attemptGrasp(gripper, 5, toolDownAt(plank.position, 0), [plank], false, { forceN: 20 });
  assert.ok(!along.ok && along.code === 'too_wide');
  const across = attemptGrasp(gripper, 5, toolDownAt(plank.position, 90), [plank], false, { forceN: 20 });
  assert.ok(across.ok, 'closing across the 40 mm side fits');
});

test('nothing between the jaws, a tilted tool, or already holding: specific refusals', () => {
  const empty = attemptGrasp(gripper, 5, toolDownAt({ x: -200, y: 200, z: 50 }), scene, false, { forceN: 15 });
  assert.deepEqual(empty, { ok: false, code: 'no_object', message: 'no object to grasp at TCP (-200.0, 200.0, 50.0) mm: the TCP must be within 15 mm of an object\'s vertical axis and between its bottom and top' });
  const cup = byId('cup-1');
  const above = attemptGrasp(gripper, 5, toolDownAt({ ...cup.position, z: 160 }), scene, false, { forceN: 15 });
  assert.ok(!above.ok && above.code === 'no_object', 'jaws above the cup close on air');
  const tilted = attemptGrasp(gripper, 5, { origin: cup.position, rotation: fromRpyDeg({ rollDeg: 150, pitchDeg: 0, yawDeg: 0 }) }, scene, false, { forceN: 15 });
  assert.deepEqual(tilted, { ok: false, code: 'not_aligned', message: 'the tool axis is tilted 30.0° from straight down; grasps need at most 20°' });
  const twice = attemptGrasp(gripper, 5, toolDownAt(cup.position), scene, true, { forceN: 15 });
  assert.deepEqual(twice, { ok: false, code: 'already_holding', message: 'the gripper already holds an object; release it first' });
});

test('grip force outside 5–30 N is refused, never clamped', () => {
  for (const force of [4.99, 30.01, Number.NaN, Number.POSITIVE_INFINITY, -10]) {
    const outcome = graspAt('cup-1', force);
    assert.deepEqual(outcome, { ok: false, code: 'invalid_input', message: `grip force must be a number of newtons from 5 to 30, got ${String(force)}` });
  }
  const strategy = attemptGrasp(gripper, 5, toolDownAt(byId('cup-1').position), scene, false, { forceN: 15, strategy: 'magnet' as 'parallel' });
  assert.deepEqual(strategy, { ok: false, code: 'invalid_input', message: 'grasp strategy must be parallel, suction or adaptive, got magnet' });
});

test('suction applies exactly the commanded force; it needs a flat top and enough force', () => {
  const block = graspAt('block-1', 10, 'suction');
  assert.ok(block.ok);
  assert.equal(block.appliedForceN, 10);
  const egg = graspAt('egg-1', 6, 'suction');
  assert.deepEqual(egg, { ok: false, code: 'not_suctionable', message: 'object egg-1 has no flat top for the suction cup', objectId: 'egg-1' });
  const heavy: SceneObjectState = { ...byId('block-1'), id: 'iron-1', massKg: 3 };
  const lift = graspAt('iron-1', 10, 'suction', [heavy]);
  assert.ok(!lift.ok && lift.code === 'slipped');
});

test('objects above the arm’s payload are refused; broken objects cannot be grasped', () => {
  const anvil: SceneObjectState = { ...byId('block-1'), id: 'anvil-1', massKg: 6 };
  const outcome = graspAt('anvil-1', 30, 'parallel', [anvil]);
  assert.deepEqual(outcome, { ok: false, code: 'over_payload', message: "object anvil-1 weighs 6 kg, above the arm's 5 kg payload", objectId: 'anvil-1' });
  const broken: SceneObjectState = { ...byId('egg-1'), condition: 'broken' };
  const again = graspAt('egg-1', 6, 'parallel', [broken]);
  assert.deepEqual(again, { ok: false, code: 'object_broken', message: 'object egg-1 is broken and cannot be grasped', objectId: 'egg-1' });
});
