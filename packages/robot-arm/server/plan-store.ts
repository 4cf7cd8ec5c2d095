/**
 * The plans `plan_trajectory` stores for `execute_trajectory`, kept in the server's store as records
 * with a TTL: whatever store the server was created with (memory by default; Redis with
 * `toolwright serve --store redis://...` or the `store` option), so a plan made on one instance can
 * be approved and executed on another. A record holds what the plan's hash covers, with the
 * trajectory as the model's JSON; reading it back rebuilds the trajectory, recomputes the hash and
 * refuses a record that does not hash to its own id. A plan runs at most once: the run takes
 * (deletes) the record atomically, so of two instances executing one plan only one moves the arm.
 */
import { isJsonObject, type JsonValue, type Store, type StoredRecord } from 'toolwright';
import type { ArmModel, WireTrajectory } from '../model/arm-model.js';
import { motionPlanOf, type GripperAction, type MotionPlan, type PoseTarget } from './motion-plan.js';
import type { Refusal } from './safety-stages.js';
import { storeRefusal } from './store-refusal.js';
import { worldJson, type WorldState } from './world-binding.js';

/** How long a stored plan stays executable, ms (the tools' descriptions say 10 minutes). */
export const PLAN_TTL_MS = 10 * 60_000;

/** A plan read back from the store, with when its record lapses (ms since the epoch, the store's clock). */
export interface StoredPlan {
  readonly plan: MotionPlan;
  readonly expiresAt: number;
}

type JsonRecord = { readonly [key: string]: JsonValue };

function planKey(id: string): string {
  return `robot-arm:plan:${id}`;
}

const isFinite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isNumbers = (v: unknown): v is number[] => Array.isArray(v) && v.every(isFinite);
const isString = (v: unknown): v is string => typeof v === 'string';
const isKind = (v: unknown): v is MotionPlan['kind'] => v === 'pose' || v === 'waypoints' || v === 'grasp_approach';
const isScaling = (v: unknown): v is MotionPlan['timeScaling'] => v === 'trapezoidal' || v === 'quintic';
const isPath = (v: unknown): v is MotionPlan['path'] => v === 'linear' || v === 'joint';

function poseTargetOf(v: unknown): PoseTarget | undefined {
  if (!isJsonObject(v) || !isFinite(v.x_mm) || !isFinite(v.y_mm) || !isFinite(v.z_mm)) return undefined;
  const o = v.orientation;
  if (o === undefined) return { x_mm: v.x_mm, y_mm: v.y_mm, z_mm: v.z_mm };
  if (!isJsonObject(o) || !isFinite(o.roll_deg) || !isFinite(o.pitch_deg) || !isFinite(o.yaw_deg)) return undefined;
  return { x_mm: v.x_mm, y_mm: v.y_mm, z_mm: v.z_mm, orientation: { roll_deg: o.roll_deg, pitch_deg: o.pitch_deg, yaw_deg: o.yaw_deg } };
}

function gripperActionOf(v: unknown): GripperAction | null | undefined {
  if (v === null) return null;
  if (!isJsonObject(v) || !isFinite(v.force_n) || (v.strategy !== 'parallel' && v.strategy !== 'suction' && v.strategy !== 'adaptive')) return undefined;
  const { object_id: objectId, object_max_force_n: maxForce, required_force_n: required, default_for_class: forClass } = v;
  if ((objectId !== undefined && !isString(objectId)) || (maxForce !== undefined && maxForce !== null && !isFinite(maxForce))) return undefined;
  if ((required !== undefined && !isFinite(required)) || (forClass !== undefined && !isString(forClass))) return undefined;
  return {
    force_n: v.force_n,
    strategy: v.strategy,
    ...(objectId !== undefined ? { object_id: objectId } : {}),
    ...(maxForce !== undefined ? { object_max_force_n: maxForce } : {}),
    ...(required !== undefined ? { required_force_n: required } : {}),
    ...(forClass !== undefined ? { default_for_class: forClass } : {}),
  };
}

function worldOfJson(v: unknown): WorldState | undefined {
  if (!isJsonObject(v) || !isNumbers(v.joints_deg) || !Array.isArray(v.objects)) return undefined;
  let held: WorldState['held'] = null;
  if (v.held !== null) {
    if (!isJsonObject(v.held)) return undefined;
    const { id, offset_in_tool_mm: offset } = v.held;
    if (!isString(id) || !isNumbers(offset)) return undefined;
    held = { id, offset_in_tool_mm: offset };
  }
  const objects: WorldState['objects'][number][] = [];
  for (const o of v.objects) {
    if (!isJsonObject(o) || !isString(o.id) || !isNumbers(o.position_mm)) return undefined;
    objects.push({ id: o.id, position_mm: o.position_mm });
  }
  return { joints_deg: v.joints_deg, held, objects };
}

/** The model's JSON of a trajectory as a JSON value, field for field. */
function trajectoryJson(wire: WireTrajectory): JsonRecord {
  return {
    presetId: wire.presetId,
    segments: wire.segments.map((s) => ({
      kind: s.kind,
      knotsRad: s.knotsRad.map((knot) => [...knot]),
      timing: { kind: s.timing.kind, durationS: s.timing.durationS, ...(s.timing.accelFraction !== undefined ? { accelFraction: s.timing.accelFraction } : {}) },
      startTimeS: s.startTimeS,
      brakingDeceleration: s.brakingDeceleration,
    })),
    digest: wire.digest,
  };
}

/** The stored form of a plan: the content its hash covers, the trajectory as the model's JSON. */
function planRecord(model: ArmModel, plan: MotionPlan): JsonRecord {
  const { gripperAction: g } = plan;
  return {
    id: plan.id,
    hash: plan.hash,
    kind: plan.kind,
    preset_id: plan.presetId,
    targets: plan.targets.map((t) => ({ x_mm: t.x_mm, y_mm: t.y_mm, z_mm: t.z_mm, ...(t.orientation !== undefined ? { orientation: { ...t.orientation } } : {}) })),
    speed_fraction: plan.speedFraction,
    time_scaling: plan.timeScaling,
    path: plan.path,
    tool_contact_object_ids: [...plan.toolContactObjectIds],
    gripper_action: g === null ? null : {
      force_n: g.force_n,
      strategy: g.strategy,
      ...(g.object_id !== undefined ? { object_id: g.object_id } : {}),
      ...(g.object_max_force_n !== undefined ? { object_max_force_n: g.object_max_force_n } : {}),
      ...(g.required_force_n !== undefined ? { required_force_n: g.required_force_n } : {}),
      ...(g.default_for_class !== undefined ? { default_for_class: g.default_for_class } : {}),
    },
    world: worldJson(plan.world),
    trajectory: trajectoryJson(model.encodeTrajectory(plan.trajectory)),
  };
}

/** The plan a record holds, or why it is not one of this arm's plans under this id. */
function planOfRecord(model: ArmModel, id: string, value: JsonValue): MotionPlan | string {
  if (!isJsonObject(value)) return 'the record is not an object';
  const { kind, time_scaling: scaling, path, speed_fraction: speed } = value;
  if (!isKind(kind)) return 'kind is not a plan kind';
  if (!isScaling(scaling) || !isPath(path) || !isFinite(speed)) return 'time_scaling, path or speed_fraction is malformed';
  if (value.preset_id !== model.preset.id) return `it is a plan for preset ${String(value.preset_id)}, not this ${model.preset.id}`;
  const targets = Array.isArray(value.targets) ? value.targets.map(poseTargetOf) : [];
  const contacts = value.tool_contact_object_ids;
  const gripperAction = gripperActionOf(value.gripper_action);
  const world = worldOfJson(value.world);
  if (targets.length === 0 || !targets.every((t) => t !== undefined)) return 'targets are malformed';
  if (!Array.isArray(contacts) || !contacts.every(isString) || gripperAction === undefined || world === undefined) return 'contacts, gripper action or world are malformed';
  const decoded = model.decodeTrajectory(value.trajectory);
  if (!('trajectory' in decoded)) return decoded.message;
  const content = { kind, presetId: model.preset.id, targets, speedFraction: speed, timeScaling: scaling, path, trajectory: decoded.trajectory, toolContactObjectIds: contacts, gripperAction, world };
  const plan = motionPlanOf(model, content);
  if (plan.hash !== value.hash || plan.id !== id) return `its content hashes to ${plan.hash.slice(0, 16)}…, not to the plan's own hash`;
  return plan;
}

/** The stored plans of one arm in one store (a view: it holds nothing itself). */
export class PlanStore {
  constructor(
    private readonly store: Store,
    private readonly model: ArmModel,
    readonly ttlMs = PLAN_TTL_MS,
  ) {}

  /** Stores (or re-stores, with a fresh TTL) a checked plan; resolves to when it lapses. Rejects with the store's error. */
  async put(plan: MotionPlan): Promise<{ expiresAt: number }> {
    const record = await this.store.set(planKey(plan.id), planRecord(this.model, plan), { ttlMs: this.ttlMs });
    return { expiresAt: record.expiresAt ?? Date.now() + this.ttlMs };
  }

  /**
   * Stage `state_gate` of `execute_trajectory`: the live plan `id`, or the refusal: never made,
   * already executed or expired (`unknown_plan`), a record that is not a plan of this arm
   * (`plan_corrupt`), or a store that did not answer (`store_unavailable`).
   */
  async get(id: string): Promise<StoredPlan | Refusal> {
    let record: StoredRecord | undefined;
    try {
      record = await this.store.get(planKey(id));
    } catch (error) {
      return storeRefusal(error, 'state_gate');
    }
    if (record === undefined) return { stage: 'state_gate', code: 'unknown_plan', message: `no plan ${id}: it was never made, already executed, or expired (plans last ${Math.round(this.ttlMs / 60_000)} minutes); call plan_trajectory` };
    const plan = planOfRecord(this.model, id, record.value);
    if (typeof plan === 'string') return { stage: 'state_gate', code: 'plan_corrupt', message: `the stored plan ${id} is not a plan of this arm (${plan}); nothing was executed; call plan_trajectory` };
    return { plan, expiresAt: record.expiresAt ?? Date.now() + this.ttlMs };
  }

  /** Takes the plan for its one run: true for exactly one of concurrent takers (instances included), false once it is gone. */
  take(id: string): Promise<boolean> {
    return this.store.delete(planKey(id));
  }

  /**
   * Puts back a plan that was taken but did not start (nothing moved), for the rest of its life
   * unless it was stored again meanwhile. The store reports expiry on its own clock; the rest is
   * measured on this process's, within the plan's TTL.
   */
  async restore(stored: StoredPlan): Promise<void> {
    const restMs = Math.min(this.ttlMs, Math.max(1, stored.expiresAt - Date.now()));
    await this.store.compareAndSet(planKey(stored.plan.id), 0, planRecord(this.model, stored.plan), { ttlMs: restMs });
  }
}
