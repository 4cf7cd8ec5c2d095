import { isJsonObject } from '../json/json-object.js';
import type { ConfigIgnore, LintConfig, LintRule, RuleSetting, SeveritySetting } from './types.js';
import { DefinitionError } from '../errors/toolwright-error.js';

/**
 * Thrown for a config (a file, or one built in code and passed to `lintTools`) that does not fit the
 * documented shape; the message says where and why, e.g. which rule, option and value.
 */
export class LintConfigError extends DefinitionError {
  readonly errorCode = 'lint-config' as const;
  constructor(message: string) {
    super(message);
    this.name = 'LintConfigError';
  }
}

const SEVERITIES: ReadonlySet<string> = new Set(['error', 'warning', 'info', 'off']);

function describe(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value === 'string' ? JSON.stringify(value) : `a ${typeof value}`;
}

/** Names an option's value in a refusal: the value itself when it is short, else its kind. */
function describeValue(value: unknown): string {
  if (typeof value === 'number') return String(value); // NaN and Infinity have no JSON form
  if (typeof value === 'string' || typeof value === 'boolean' || value === null || Array.isArray(value)) {
    const text = JSON.stringify(value);
    if (text.length <= 60) return text;
  }
  return describe(value);
}

/**
 * Checks the options a config gives one rule against the rule's defaults: known names, the default's
 * type (a finite number, a string, a boolean, a list of strings), then the rule's `validateOptions`.
 * `parseLintConfig` runs it when a config file is read and `lintTools` once per run before any
 * `prepare`, so a hand-built config is refused with the same message. Returns the checked options.
 */
export function checkRuleOptions(rule: LintRule, options: unknown): Record<string, number | string | boolean | string[]> {
  const where = `rules["${rule.id}"]`;
  if (!isJsonObject(options)) throw new LintConfigError(`${where}.options must be an object, got ${describe(options)}`);
  const defaults = rule.defaultOptions ?? {};
  const checked: Record<string, number | string | boolean | string[]> = {};
  for (const [key, value] of Object.entries(options)) {
    if (!Object.prototype.hasOwnProperty.call(defaults, key)) {
      const known = Object.keys(defaults);
      throw new LintConfigError(`${where}.options.${key} is not an option of ${rule.id}${known.length > 0 ? ` (options: ${known.join(', ')})` : ' (it has no options)'}`);
    }
    const expected = defaults[key];
    if (Array.isArray(expected)) {
      if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) throw new LintConfigError(`${where}.options.${key} must be a list of strings, got ${describeValue(value)}`);
      checked[key] = value as string[];
    } else if (typeof value !== typeof expected) {
      throw new LintConfigError(`${where}.options.${key} must be a ${typeof expected}, got ${describeValue(value)}`);
    } else if (typeof value === 'number' && !Number.isFinite(value)) {
      throw new LintConfigError(`${where}.options.${key} must be a finite number, got ${describeValue(value)}`);
    } else {
      checked[key] = value as number | string | boolean;
    }
  }
  const problem = rule.validateOptions?.({ ...defaults, ...checked });
  if (problem !== undefined) throw new LintConfigError(`${where}.options: ${problem}`);
  return checked;
}

/**
 * Checks a parsed config file against the known rules:
 * `{"rules": {"<id>": "error"|"warning"|"info"|"off" | {"severity"?, "options"?}}, "ignore": [{"rule", "tools", "reason"}]}`.
 * Unknown rule ids, options, or opt-outs without a reason are errors, so typos never silently do nothing.
 */
export function parseLintConfig(data: unknown, rules: readonly LintRule[]): LintConfig {
  if (!isJsonObject(data)) throw new LintConfigError(`the config must be a JSON object, got ${describe(data)}`);
  const byId = new Map(rules.map((r) => [r.id, r]));
  for (const key of Object.keys(data)) {
    if (key !== 'rules' && key !== 'ignore' && key !== '$schema') throw new LintConfigError(`unknown top-level key "${key}" (expected "rules" and/or "ignore")`);
  }
  const config: LintConfig = { rules: {}, ignore: [] };
  if (data.rules !== undefined) {
    if (!isJsonObject(data.rules)) throw new LintConfigError(`"rules" must be an object keyed by rule id, got ${describe(data.rules)}`);
    for (const [id, setting] of Object.entries(data.rules)) {
      const rule = byId.get(id);
      const where = `rules["${id}"]`;
      if (rule === undefined) throw new LintConfigError(`${where}: unknown rule id (run "toolwright lint --list-rules" to see them)`);
      if (typeof setting === 'string') {
        if (!SEVERITIES.has(setting)) throw new LintConfigError(`${where} must be one of error, warning, info, off; got ${JSON.stringify(setting)}`);
        config.rules[id] = { severity: setting as SeveritySetting };
        continue;
      }
      if (!isJsonObject(setting)) throw new LintConfigError(`${where} must be a severity string or {"severity", "options"}, got ${describe(setting)}`);
      const resolved: RuleSetting = {};
      for (const key of Object.keys(setting)) {
        if (key !== 'severity' && key !== 'options') throw new LintConfigError(`${where}.${key} is not allowed (use "severity" and "options")`);
      }
      if (setting.severity !== undefined) {
        if (typeof setting.severity !== 'string' || !SEVERITIES.has(setting.severity)) throw new LintConfigError(`${where}.severity must be one of error, warning, info, off; got ${describe(setting.severity)}`);
        resolved.severity = setting.severity as SeveritySetting;
      }
      if (setting.options !== undefined) resolved.options = checkRuleOptions(rule, setting.options);
      config.rules[id] = resolved;
    }
  }
  if (data.ignore !== undefined) {
    if (!Array.isArray(data.ignore)) throw new LintConfigError(`"ignore" must be a list, got ${describe(data.ignore)}`);
    data.ignore.forEach((entry, i) => {
      const where = `ignore[${i}]`;
      if (!isJsonObject(entry)) throw new LintConfigError(`${where} must be {"rule", "tools", "reason"}, got ${describe(entry)}`);
      for (const key of Object.keys(entry)) if (key !== 'rule' && key !== 'tools' && key !== 'reason') throw new LintConfigError(`${where}.${key} is not allowed (use "rule", "tools", "reason")`);
      if (typeof entry.rule !== 'string' || !byId.has(entry.rule)) throw new LintConfigError(`${where}.rule must name a known rule, got ${describe(entry.rule)}`);
      if (!Array.isArray(entry.tools) || entry.tools.length === 0 || !entry.tools.every((t) => typeof t === 'string')) throw new LintConfigError(`${where}.tools must be a non-empty list of tool names ("*" for all)`);
      if (typeof entry.reason !== 'string' || entry.reason.trim() === '') throw new LintConfigError(`${where}.reason is required: say why the rule does not apply`);
      const ignore: ConfigIgnore = { rule: entry.rule, tools: entry.tools as string[], reason: entry.reason.trim() };
      config.ignore.push(ignore);
    });
  }
  return config;
}

/** The empty config: every rule at its default. */
export const DEFAULT_CONFIG: LintConfig = Object.freeze({ rules: {}, ignore: [] }) as LintConfig;
