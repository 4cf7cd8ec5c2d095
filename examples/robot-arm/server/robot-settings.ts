import { APPROVAL_MODES, APPROVER_MODES, type ApprovalMode, type ApproverMode } from './approval-gate.js';
import type { ArmPresetId } from '../sim/arm-presets.js';

/**
 * The operator's settings of one robot-arm server process, validated once at start-up. main.ts reads
 * them from flags, server.ts (for `toolwright serve`) from ROBOT_* environment variables; both use the
 * same checks, so a typo is a start-up error naming the valid values, never a silent default.
 */
export interface RobotSettings {
  readonly preset: ArmPresetId;
  readonly readOnly: boolean;
  readonly approval: ApprovalMode;
  /** Absent: createRobotServer's default file in the OS temp directory. */
  readonly auditLogPath?: string;
  readonly timeScale: number;
  readonly rate: number;
}

/** A setting with a value the server cannot start with. */
export class RobotSettingsError extends Error {
  override readonly name = 'RobotSettingsError';
}

export const PRESET_IDS: readonly ArmPresetId[] = ['ur5e', 'xarm6'];

/** `source` names where the value came from (`--preset`, `ROBOT_PRESET`) so the message points at it. */
export function parsePreset(value: string, source: string): ArmPresetId {
  if (!(PRESET_IDS as readonly string[]).includes(value)) throw new RobotSettingsError(`${source} must be one of ${PRESET_IDS.join(', ')}, got ${JSON.stringify(value)}`);
  return value as ArmPresetId;
}

export function parseApproval(value: string, source: string): ApprovalMode {
  if (!(APPROVAL_MODES as readonly string[]).includes(value)) throw new RobotSettingsError(`${source} must be one of ${APPROVAL_MODES.join(', ')}, got ${JSON.stringify(value)}`);
  return value as ApprovalMode;
}

export function parseApprover(value: string, source: string): ApproverMode {
  if (!(APPROVER_MODES as readonly string[]).includes(value)) throw new RobotSettingsError(`${source} must be one of ${APPROVER_MODES.join(', ')}, got ${JSON.stringify(value)}`);
  return value as ApproverMode;
}

export function parseTimeScale(value: string, source: string): number {
  const scale = value.trim() === '' ? Number.NaN : Number(value);
  if (!(Number.isFinite(scale) && scale > 0 && scale <= 1000)) throw new RobotSettingsError(`${source} must be a number of simulated seconds per second in (0, 1000], got ${JSON.stringify(value)}`);
  return scale;
}

export function parseRate(value: string, source: string): number {
  const rate = value.trim() === '' ? Number.NaN : Number(value);
  if (!(Number.isFinite(rate) && rate > 0 && rate <= 100)) throw new RobotSettingsError(`${source} must be a number of motion commands per second in (0, 100], got ${JSON.stringify(value)}`);
  return rate;
}

const TRUE_WORDS = ['1', 'true', 'yes'];
const FALSE_WORDS = ['0', 'false', 'no'];

export function parseFlag(value: string, source: string): boolean {
  const word = value.trim().toLowerCase();
  if (TRUE_WORDS.includes(word)) return true;
  if (FALSE_WORDS.includes(word)) return false;
  throw new RobotSettingsError(`${source} must be one of ${[...TRUE_WORDS, ...FALSE_WORDS].join(', ')}, got ${JSON.stringify(value)}`);
}

/** The environment variables server.ts reads; any other ROBOT_* name is refused as a likely typo. */
export const ROBOT_ENV_VARS = ['ROBOT_PRESET', 'ROBOT_READ_ONLY', 'ROBOT_APPROVAL', 'ROBOT_AUDIT_LOG', 'ROBOT_TIME_SCALE', 'ROBOT_RATE'] as const;

/** Settings from ROBOT_* variables (unset ones take the defaults); throws {@link RobotSettingsError}. */
export function robotSettingsFromEnv(env: NodeJS.ProcessEnv): RobotSettings {
  const unknown = Object.keys(env).filter((name) => name.startsWith('ROBOT_') && !(ROBOT_ENV_VARS as readonly string[]).includes(name));
  if (unknown.length > 0) throw new RobotSettingsError(`unknown setting${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}; the robot-arm server reads ${ROBOT_ENV_VARS.join(', ')}`);
  const auditLog = env.ROBOT_AUDIT_LOG;
  if (auditLog !== undefined && auditLog.trim() === '') throw new RobotSettingsError('ROBOT_AUDIT_LOG must be a file path, got ""');
  return {
    preset: parsePreset(env.ROBOT_PRESET ?? 'ur5e', 'ROBOT_PRESET'),
    readOnly: parseFlag(env.ROBOT_READ_ONLY ?? '0', 'ROBOT_READ_ONLY'),
    approval: parseApproval(env.ROBOT_APPROVAL ?? 'always', 'ROBOT_APPROVAL'),
    ...(auditLog !== undefined ? { auditLogPath: auditLog } : {}),
    timeScale: parseTimeScale(env.ROBOT_TIME_SCALE ?? '1', 'ROBOT_TIME_SCALE'),
    rate: parseRate(env.ROBOT_RATE ?? '2', 'ROBOT_RATE'),
  };
}
