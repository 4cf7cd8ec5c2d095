import type { ArmPreset } from './arm-presets.js';
import { distance, isFiniteVec3, type Vec3 } from './vector3.js';
import { beside } from './limit-digits.js';

/**
 * Where the TCP may be (base frame, millimetres): inside a reach sphere around the shoulder, at least
 * `tableClearanceMm` above the table plane, and outside a vertical keep-out cylinder around the base axis
 * (unbounded in height: the pinch zone next to the base column is never a target).
 */
export interface WorkspaceEnvelope {
  readonly reachCenter: Vec3;
  readonly reachRadiusMm: number;
  readonly tableZMm: number;
  readonly tableClearanceMm: number;
  readonly keepOutRadiusMm: number;
}

export type EnvelopeOverrides = Partial<Pick<WorkspaceEnvelope, 'reachRadiusMm' | 'tableClearanceMm' | 'keepOutRadiusMm'>>;

export type EnvelopeViolationCode = 'non_finite' | 'outside_reach' | 'below_table_clearance' | 'inside_base_keep_out';

export interface EnvelopeViolation {
  readonly code: EnvelopeViolationCode;
  readonly message: string;
  /** The limit and the offending value, both in millimetres. */
  readonly limitMm: number;
  readonly actualMm: number;
}

export interface EnvelopeCheck {
  readonly ok: boolean;
  readonly violations: readonly EnvelopeViolation[];
}

/** The preset's envelope: reach sphere centred on the shoulder joint, table at z = 0, 20 mm clearance, 175 mm keep-out. */
export function createEnvelope(preset: ArmPreset, overrides: EnvelopeOverrides = {}): WorkspaceEnvelope {
  const envelope: WorkspaceEnvelope = {
    reachCenter: { x: 0, y: 0, z: preset.dh[0]!.dMm },
    reachRadiusMm: overrides.reachRadiusMm ?? preset.envelopeReachMm,
    tableZMm: 0,
    tableClearanceMm: overrides.tableClearanceMm ?? 20,
    keepOutRadiusMm: overrides.keepOutRadiusMm ?? 175,
  };
  const positive = (v: number, name: string, allowZero: boolean): void => {
    if (!Number.isFinite(v) || v < 0 || (!allowZero && v === 0)) throw new RangeError(`envelope ${name} must be a finite number of millimetres ${allowZero ? '>= 0' : '> 0'}, got ${v}`);
  };
  positive(envelope.reachRadiusMm, 'reachRadiusMm', false);
  positive(envelope.tableClearanceMm, 'tableClearanceMm', true);
  positive(envelope.keepOutRadiusMm, 'keepOutRadiusMm', true);
  if (envelope.reachRadiusMm > preset.reachMm) {
    throw new RangeError(`envelope reachRadiusMm ${envelope.reachRadiusMm} exceeds the ${preset.displayName}'s physical reach of ${preset.reachMm} mm`);
  }
  return Object.freeze(envelope);
}

/**
 * Checks one TCP position and lists every violated rule with the numbers involved. Limits are
 * inclusive: a target exactly on a limit is inside. `toleranceMm` (default 0) lets a planned path
 * sample touch a limit within IK rounding.
 */
export function checkPose(envelope: WorkspaceEnvelope, position: Vec3, toleranceMm = 0): EnvelopeCheck {
  if (position === null || typeof position !== 'object' || !isFiniteVec3(position)) {
    return { ok: false, violations: [{ code: 'non_finite', message: 'TCP position must be three finite numbers in millimetres', limitMm: Number.NaN, actualMm: Number.NaN }] };
  }
  const violations: EnvelopeViolation[] = [];
  const c = envelope.reachCenter;
  const reach = distance(position, c);
  if (reach > envelope.reachRadiusMm + toleranceMm) {
    violations.push({
      code: 'outside_reach',
      message: `TCP would be ${beside(reach, envelope.reachRadiusMm)} mm from the shoulder centre (${c.x}, ${c.y}, ${c.z}) mm; the reach sphere allows at most ${envelope.reachRadiusMm} mm`,
      limitMm: envelope.reachRadiusMm,
      actualMm: reach,
    });
  }
  const minZ = envelope.tableZMm + envelope.tableClearanceMm;
  if (position.z < minZ - toleranceMm) {
    violations.push({
      code: 'below_table_clearance',
      message: `TCP z would be ${beside(position.z, minZ)} mm; it must stay at least ${envelope.tableClearanceMm} mm above the table (z >= ${minZ} mm)`,
      limitMm: minZ,
      actualMm: position.z,
    });
  }
  const radial = Math.hypot(position.x, position.y);
  if (radial < envelope.keepOutRadiusMm - toleranceMm) {
    violations.push({
      code: 'inside_base_keep_out',
      message: `TCP would be ${beside(radial, envelope.keepOutRadiusMm)} mm from the base axis; the keep-out cylinder around the base requires at least ${envelope.keepOutRadiusMm} mm`,
      limitMm: envelope.keepOutRadiusMm,
      actualMm: radial,
    });
  }
  return { ok: violations.length === 0, violations };
}

/** The first sample (by time) whose TCP leaves the envelope, or null if the whole path stays inside. */
export function checkPathEnvelope(envelope: WorkspaceEnvelope, samples: readonly { readonly tS: number; readonly tcp: Vec3 }[], toleranceMm = 0): { tS: number; violations: readonly EnvelopeViolation[] } | null {
  for (const sample of samples) {
    const check = checkPose(envelope, sample.tcp, toleranceMm);
    if (!check.ok) return { tS: sample.tS, violations: check.violations };
  }
  return null;
}
