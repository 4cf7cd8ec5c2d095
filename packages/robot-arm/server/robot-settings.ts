import { APPROVAL_MODES, APPROVER_MODES, type ApprovalMode, type ApproverMode } from './approval-gate.js';
import type { ArmPresetId } from '../model/arm-model.js';

/**
 * The operator's settings of one robot-arm server process, validated once at start-up. main.ts reads
 * them from flags, server.ts (for `toolwright serve`) from ROBOT_* environment variables; both use the
 * same checks, so a typo is a start-up error naming the valid values, never a silent default. The
 * numeric options of the package's constructors (the controller supervisor, the robot controller) go
 * through the same checker and ranges ({@link NUMBER_RULES}).
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

/** A setting (flag, ROBOT_* variable or constructor option) with a value the server cannot start with. */
export class RobotSettingsError extends RangeError {
  override readonly name = 'RobotSettingsError';
}

/** The values a numeric setting may take, and what it is (for the message). */
export interface NumberRule {
  /** What the number is: "a number of motion commands per second". */
  readonly what: string;
  readonly min: number;
  readonly max: number;
  /** The minimum itself is excluded: the range is (min, max]. */
  readonly aboveMin?: boolean;
  readonly integer?: boolean;
}

/**
 * The range of every numeric robot option, by its option name; flags and ROBOT_* variables map onto
 * these. `heartbeatTimeoutMs`: at least three of the controller's 100 ms idle heartbeats (one late frame
 * is not a hung controller), at most a minute (a hung controller must not go unnoticed for longer).
 */
export const NUMBER_RULES = {
  timeScale: { what: 'a number of simulated seconds per second', min: 0, aboveMin: true, max: 1000 },
  rate: { what: 'a number of motion commands per second', min: 0, aboveMin: true, max: 100 },
  heartbeatTimeoutMs: { what: 'a whole number of milliseconds', min: 300, max: 60_000, integer: true },
  startTimeoutMs: { what: 'a whole number of milliseconds', min: 1000, max: 600_000, integer: true },
  watchdogWallSlackMs: { what: 'a number of milliseconds', min: 0, max: 600_000 },
  maxStatusAgeMs: { what: 'a number of milliseconds', min: 0, aboveMin: true, max: 600_000 },
  seed: { what: 'an integer', min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER, integer: true },
} as const satisfies Record<string, NumberRule>;

export type NumericOption = keyof typeof NUMBER_RULES;

/**
 * The one check of a robot setting's number, whether it came from a flag, a ROBOT_* variable or a
 * constructor option: throws {@link RobotSettingsError} naming `source`, the allowed range and the value.
 * `shown` is the value as the user wrote it (default: the number).
 */
export function checkNumber(value: number, source: string, rule: NumberRule, shown: string = String(value)): number {
  const inRange = Number.isFinite(value) && (rule.aboveMin === true ? value > rule.min : value >= rule.min) && value <= rule.max;
  if (!inRange || (rule.integer === true && !Number.isInteger(value))) {
    throw new RobotSettingsError(`${source} must be ${rule.what} in ${rule.aboveMin === true ? '(' : '['}${rule.min}, ${rule.max}], got ${shown}`);
  }
  return value;
}

/** Checks a constructor option by its name in {@link NUMBER_RULES}; the message names the option. */
export function checkOption(name: NumericOption, value: number): number {
  return checkNumber(value, name, NUMBER_RULES[name]);
}

/** A setting's text (a flag or a variable) as a number checked by {@link checkNumber}; the message quotes the text. */
export function parseNumber(text: string, source: string, rule: NumberRule): number {
  return checkNumber(text.trim() === '' ? Number.NaN : Number(text), source, rule, JSON.stringify(text));
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
  return parseNumber(value, source, NUMBER_RULES.timeScale);
}

export function parseRate(value: string, source: string): number {
  return parseNumber(value, source, NUMBER_RULES.rate);
}

export function parseHeartbeatTimeout(value: string, source: string): number {
  return parseNumber(value, source, NUMBER_RULES.heartbeatTimeoutMs);
}

export function parseSeed(value: string, source: string): number {
  return parseNumber(value, source, NUMBER_RULES.seed);
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
