/**
 * Where the simulated arm physically is and what its gripper holds, on disk, so that a restarted
 * `robot-sim` starts where the killed one stopped (a real arm does not jump home when its controller
 * reboots: the brakes hold it, and the gripper keeps its grip). Written (temporary file, then rename)
 * at the state-stream rate while the arm moves and after every command; a process crash keeps the last
 * write. Restored: the joints, every object where it was (a held one where the gripper carries it),
 * the object in the gripper with its grip, and which objects are broken. A file from a robot-sim that
 * did not record the gripper restarts it open with every object intact, as that robot-sim did. A file
 * that cannot be read or does not fit this arm makes `robot-sim` refuse to start rather than guess.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { isJsonObject } from 'toolwright';
import type { ArmStatus } from '../driver/arm-driver.js';
import type { RestoredGrip, RestoredGripper } from '../sim/restored-gripper.js';
import type { Mat3 } from '../sim/rotation.js';
import type { SceneObjectSpec } from '../sim/scene-objects.js';
import type { Vec3 } from '../sim/vector3.js';

export interface SavedPose {
  readonly presetId: string;
  readonly jointsDeg: readonly number[];
  readonly objects: readonly SceneObjectSpec[];
  readonly gripper: RestoredGripper;
}

/** The file's JSON: the gripper fields are `held` and `broken` (object ids). */
interface PoseFileJson {
  readonly presetId?: unknown;
  readonly jointsDeg?: unknown;
  readonly objects?: unknown;
  readonly held?: unknown;
  readonly broken?: unknown;
}

const isFiniteNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isVec3 = (v: unknown): v is Vec3 => isJsonObject(v) && isFiniteNumber(v.x) && isFiniteNumber(v.y) && isFiniteNumber(v.z);
const isMat3 = (v: unknown): v is Mat3 => Array.isArray(v) && v.length === 9 && v.every(isFiniteNumber);

/** The grip recorded in `held`: null when the gripper was open, undefined when the value is not a grip. */
function gripOf(value: unknown): RestoredGrip | null | undefined {
  if (value === null) return null;
  if (!isJsonObject(value)) return undefined;
  const { objectId, offsetInToolMm, rotationInTool, liftOffFloorsMm } = value;
  if (typeof objectId !== 'string' || !isVec3(offsetInToolMm) || !isMat3(rotationInTool)) return undefined;
  if (liftOffFloorsMm === undefined) return { objectId, offsetInToolMm, rotationInTool };
  if (!(isJsonObject(liftOffFloorsMm) && Object.values(liftOffFloorsMm).every(isFiniteNumber))) return undefined;
  return { objectId, offsetInToolMm, rotationInTool, liftOffFloorsMm: liftOffFloorsMm as Record<string, number> };
}

export class PoseFile {
  constructor(readonly path: string) {}

  /** The saved pose, or null when there is none yet; throws when the file exists but is unusable. */
  load(presetId: string): SavedPose | null {
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw new Error(`the pose file ${this.path} cannot be read: ${(error as Error).message}`);
    }
    let value: PoseFileJson;
    try {
      value = JSON.parse(text) as PoseFileJson;
    } catch {
      throw new Error(`the pose file ${this.path} is damaged (not JSON); remove it only after checking where the arm is`);
    }
    if (!isJsonObject(value)) throw new Error(`the pose file ${this.path} is damaged (not a JSON object); remove it only after checking where the arm is`);
    if (value.presetId !== presetId) throw new Error(`the pose file ${this.path} is for preset ${String(value.presetId)}, not ${presetId}`);
    if (!Array.isArray(value.jointsDeg) || !value.jointsDeg.every(isFiniteNumber) || !Array.isArray(value.objects)) {
      throw new Error(`the pose file ${this.path} has no valid jointsDeg and objects`);
    }
    if (!('held' in value) && !('broken' in value)) {
      // Written by a robot-sim that did not record the gripper: it restarted open with every object
      // intact, and so does this one. (Had that gripper held something, the object, recorded where it
      // was carried, is an obstacle the arm touches: the simulation's start-up collision check refuses.)
      return { presetId, jointsDeg: value.jointsDeg, objects: value.objects as SceneObjectSpec[], gripper: { held: null, brokenObjectIds: [] } };
    }
    const grip = gripOf(value.held);
    if (grip === undefined) throw new Error(`the pose file ${this.path} has an invalid held: it must be null or { objectId, offsetInToolMm {x, y, z}, rotationInTool [9 numbers], liftOffFloorsMm? {obstacle: mm} }`);
    const broken = value.broken;
    if (!(Array.isArray(broken) && broken.every((id): id is string => typeof id === 'string'))) throw new Error(`the pose file ${this.path} has an invalid broken: it must be a list of object ids`);
    // The objects' fields are checked by the simulation (validateSceneObjects), the grip against them.
    return { presetId, jointsDeg: value.jointsDeg, objects: value.objects as SceneObjectSpec[], gripper: { held: grip, brokenObjectIds: broken } };
  }

  save(status: ArmStatus): void {
    const objects: SceneObjectSpec[] = status.objects.map(({ condition: _condition, held: _held, ...spec }) => spec);
    const broken = status.objects.filter((o) => o.condition === 'broken').map((o) => o.id);
    const held = status.held === null ? null : { objectId: status.held.object.id, offsetInToolMm: status.held.offsetInToolMm, rotationInTool: status.held.rotationInTool, liftOffFloorsMm: status.held.liftOffFloorsMm ?? {} };
    const temporary = `${this.path}.${process.pid}.tmp`;
    writeFileSync(temporary, `${JSON.stringify({ presetId: status.presetId, jointsDeg: status.jointsDeg, objects, held, broken })}\n`, { mode: 0o600 });
    renameSync(temporary, this.path);
  }
}
