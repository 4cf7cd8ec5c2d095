/**
 * Where the simulated arm physically is, on disk, so that a restarted `robot-sim` starts where the
 * killed one stopped (a real arm does not jump home when its controller reboots: the brakes hold it).
 * Written (temporary file, then rename) at the state-stream rate while the arm moves and after every
 * command; a process crash keeps the last write. What is not restored: an object in the gripper stays
 * where it was last carried, and the gripper restarts open (the simulator has no "held at start"
 * option); a broken object restarts intact. A file that cannot be read or does not fit this arm makes
 * `robot-sim` refuse to start rather than guess a pose.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { ArmStatus } from '../driver/arm-driver.js';
import type { SceneObjectSpec } from '../sim/scene-objects.js';

export interface SavedPose {
  readonly presetId: string;
  readonly jointsDeg: readonly number[];
  readonly objects: readonly SceneObjectSpec[];
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
    let value: Partial<SavedPose>;
    try {
      value = JSON.parse(text) as Partial<SavedPose>;
    } catch {
      throw new Error(`the pose file ${this.path} is damaged (not JSON); remove it only after checking where the arm is`);
    }
    if (value.presetId !== presetId) throw new Error(`the pose file ${this.path} is for preset ${String(value.presetId)}, not ${presetId}`);
    if (!Array.isArray(value.jointsDeg) || !value.jointsDeg.every((v) => typeof v === 'number' && Number.isFinite(v)) || !Array.isArray(value.objects)) {
      throw new Error(`the pose file ${this.path} has no valid jointsDeg and objects`);
    }
    return { presetId, jointsDeg: value.jointsDeg, objects: value.objects };
  }

  save(status: ArmStatus): void {
    const objects: SceneObjectSpec[] = status.objects.map(({ condition: _condition, held: _held, ...spec }) => spec);
    const temporary = `${this.path}.${process.pid}.tmp`;
    writeFileSync(temporary, `${JSON.stringify({ presetId: status.presetId, jointsDeg: status.jointsDeg, objects })}\n`, { mode: 0o600 });
    renameSync(temporary, this.path);
  }
}
