/**
 * toolwright/lint: judge MCP tool definitions before a model sees them, from code instead of the
 * `toolwright lint` command. The same engine, rules, configuration, lockfile and reporters as the
 * command; docs/lint-rules.md documents every rule and option.
 *
 * @example
 * ```ts
 * import { lintTools, parseLintConfig, BUILTIN_RULES, formatPretty } from 'toolwright/lint';
 *
 * const tools = [{
 *   name: 'set_grip_force',
 *   description: 'Set the grip force.',
 *   inputSchema: { type: 'object', properties: { force: { type: 'number' } } },
 * }];
 * const config = parseLintConfig({ rules: { 'budget/description-tokens': { options: { max: 200 } } } }, BUILTIN_RULES);
 * const result = lintTools(tools, { config });
 * for (const f of result.findings) console.log(f.severity, f.ruleId, f.tool, f.pointer, f.message);
 * console.log(formatPretty(result, { color: false, target: 'my tools' }));
 * if (result.counts.error > 0) process.exitCode = 1;
 * ```
 */
export { lintTools } from './engine.js';
export type { LintOptions } from './engine.js';
export { BUILTIN_RULES } from './rules/index.js';
export { parseLintConfig, LintConfigError, DEFAULT_CONFIG } from './config.js';
export { buildPinLock, parsePinLock, pinTool, PinLockError } from './pin.js';
export type { PinLock, PinEntry } from './pin.js';
export { applySafeFixes } from './fix.js';
export type { AppliedFix, FixOutcome } from './fix.js';
export { formatPretty } from './reporters/pretty.js';
export type { PrettyOptions } from './reporters/pretty.js';
export { buildJsonReport, formatJson } from './reporters/json.js';
export type { JsonReport } from './reporters/json.js';
export { findUsageGuidance, USAGE_CUES } from './text-signals.js';
export type {
  Severity, SeveritySetting, RuleFamily, WireTool, Finding, Report, ParamInfo, ToolView, RuleOptions, RuleContext, CatalogView,
  LintRule, RuleSetting, ConfigIgnore, LintConfig, Suppression, LintResult,
} from './types.js';
