import { wrapDeg } from './angles.js';
import type { ObjectCondition, ObjectLabel, SceneObjectState } from './scene-objects.js';
import { OBJECT_ID_PATTERN, OBJECT_LABELS } from './scene-objects.js';
import type { SeededRandom } from './seeded-random.js';
import type { Vec3 } from './vector3.js';

/**
 * One detected object. Only numbers, booleans and tokens from fixed vocabularies: nothing the camera
 * "reads" in the scene (printed text, QR codes) can reach a model through this record.
 */
export interface ObjectDetection {
  readonly id: string;
  readonly label: ObjectLabel;
  /** Estimated centre, base frame, millimetres (0.1 mm resolution). */
  readonly position: Vec3;
  /** Estimated rotation about the vertical axis, degrees in (-180, 180]; 0 for round objects. */
  readonly yawDeg: number;
  /** Detector confidence in [0, 0.99]. */
  readonly confidence: number;
  readonly condition: ObjectCondition;
  readonly inGripper: boolean;
}

export interface CameraOptions {
  readonly positionNoiseStdMm?: number;
  readonly yawNoiseStdDeg?: number;
}

/** A fixed overhead camera calibrated to the base frame, seeing the whole table. */
export class TableCamera {
  private readonly positionNoise: number;
  private readonly yawNoise: number;

  constructor(private readonly random: SeededRandom, options: CameraOptions = {}) {
    this.positionNoise = options.positionNoiseStdMm ?? 1.5;
    this.yawNoise = options.yawNoiseStdDeg ?? 1;
    if (!(this.positionNoise >= 0 && Number.isFinite(this.positionNoise))) throw new RangeError('camera positionNoiseStdMm must be a finite number >= 0');
    if (!(this.yawNoise >= 0 && Number.isFinite(this.yawNoise))) throw new RangeError('camera yawNoiseStdDeg must be a finite number >= 0');
  }

  capture(objects: readonly SceneObjectState[]): ObjectDetection[] {
    const detections: ObjectDetection[] = [];
    for (const o of objects) {
      // Defence in depth: scene validation already enforces both, but nothing unvetted may leave the camera.
      if (!OBJECT_ID_PATTERN.test(o.id) || !(OBJECT_LABELS as readonly string[]).includes(o.label)) continue;
      const n = (): number => this.random.gaussian() * this.positionNoise;
      const occlusion = o.held ? 0.15 : 0;
      const damage = o.condition === 'broken' ? 0.2 : 0;
      const confidence = clampConfidence(0.96 - occlusion - damage + this.random.gaussian() * 0.015);
      detections.push({
        id: o.id,
        label: o.label,
        position: { x: round(o.position.x + n(), 10), y: round(o.position.y + n(), 10), z: round(o.position.z + n(), 10) },
        yawDeg: o.shape === 'box' ? round(wrapDeg(o.yawDeg + this.random.gaussian() * this.yawNoise), 10) : 0,
        confidence: round(confidence, 100),
        condition: o.condition === 'broken' ? 'broken' : 'intact',
        inGripper: o.held === true,
      });
    }
    return detections;
  }
}

function round(v: number, per: number): number {
  return Math.round(v * per) / per;
}

function clampConfidence(v: number): number {
  return Math.min(0.99, Math.max(0, v));
}
