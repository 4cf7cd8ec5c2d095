import { isJsonObject } from '../json/json-object.js';
import { BUILTIN_RULES } from './rules/index.js';
import { createPinRules } from './pin.js';
import type { PinLock } from './pin.js';
import { readInlineOptOuts } from './opt-out.js';
import { buildToolView } from './tool-view.js';
import { checkRuleOptions, DEFAULT_CONFIG } from './config.js';
import type { CatalogView, Finding, LintConfig, LintResult, LintRule, Report, RuleContext, RuleOptions, Severity, Suppression, ToolView } from './types.js';

/** Options for {@link lintTools}. */
export interface LintOptions {
  /** Rule severities, options and opt-outs (see {@link parseLintConfig}). */
  config?: LintConfig;
  /** A pin lockfile to compare against (`--pin`). */
  pin?: PinLock;
  /** Rules to run instead of the built-in set (tests, plug-ins). */
  rules?: readonly LintRule[];
}

interface ResolvedRule {
  rule: LintRule;
  severity: Severity;
  /** The config set a severity explicitly; it then wins over per-report escalation. */
  forced: boolean;
  options: RuleOptions;
  /** The rule's options as its `prepare` made them, once per run. */
  prepared: unknown;
}

const SEVERITY_ORDER: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

/**
 * Settles each rule once per run: its severity, its options (checked as `parseLintConfig` checks
 * them, so a hand-built config with a bad value is refused here, before any rule runs, rather than
 * read as NaN by every check) and what its `prepare` makes of them.
 */
function resolveRules(rules: readonly LintRule[], config: LintConfig): ResolvedRule[] {
  const resolved: ResolvedRule[] = [];
  for (const rule of rules) {
    const setting = config.rules[rule.id];
    const configured = setting?.options === undefined ? undefined : checkRuleOptions(rule, setting.options);
    const severity = setting?.severity ?? rule.defaultSeverity;
    if (severity === 'off') continue;
    const options = { ...rule.defaultOptions, ...configured };
    resolved.push({ rule, severity, forced: setting?.severity !== undefined, options, prepared: rule.prepare?.(options) });
  }
  return resolved;
}

function comparePointers(a: Finding, b: Finding): number {
  const ta = a.toolIndex ?? -1;
  const tb = b.toolIndex ?? -1;
  if (ta !== tb) return ta - tb;
  if (a.pointer !== b.pointer) return a.pointer < b.pointer ? -1 : 1;
  if (a.ruleId !== b.ruleId) return a.ruleId < b.ruleId ? -1 : 1;
  return SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity];
}

/**
 * Lints a `tools/list` catalog: every rule over every tool, then the catalog-wide rules. Never
 * throws on bad tools (a broken definition is a finding); findings come back sorted by tool, then
 * pointer, then rule id, so output is stable.
 *
 * @throws LintConfigError when `config` gives a rule an option it does not have or a value of the
 *   wrong type (the message names the rule, the option and the value), before any rule runs.
 */
export function lintTools(tools: readonly unknown[], options: LintOptions = {}): LintResult {
  const config = options.config ?? DEFAULT_CONFIG;
  const baseRules = options.rules ?? BUILTIN_RULES;
  const rules = options.pin !== undefined
    ? [...baseRules.filter((r) => !r.id.startsWith('security/pin-')), ...createPinRules(options.pin)]
    : baseRules;
  const knownIds = new Set(rules.map((r) => r.id));
  const active = resolveRules(rules, config);
  const activeById = new Map(active.map((r) => [r.rule.id, r]));
  const findings: Finding[] = [];
  const suppressed: Suppression[] = [];

  const views: ToolView[] = [];
  const optOuts = new Map<number, Map<string, string>>();
  tools.forEach((entry, index) => {
    if (!isJsonObject(entry)) {
      const meta = activeById.get('lint/tool-object');
      if (meta) findings.push({ ruleId: 'lint/tool-object', severity: meta.severity, tool: `#${index}`, toolIndex: index, pointer: '', message: `tools[${index}] is ${entry === null ? 'null' : Array.isArray(entry) ? 'an array' : typeof entry}, not a tool object`, fix: 'every entry must be {"name", "inputSchema", ...}' });
      return;
    }
    const view = buildToolView(entry, index);
    views.push(view);
    const inline = readInlineOptOuts(entry, knownIds);
    if (inline.optOuts.length > 0) optOuts.set(index, new Map(inline.optOuts.map((o) => [o.rule, o.reason])));
    const meta = activeById.get('lint/opt-out-invalid');
    if (meta) for (const problem of inline.problems) findings.push({ ruleId: 'lint/opt-out-invalid', severity: meta.severity, tool: view.name, toolIndex: index, pointer: problem.pointer, message: problem.message, fix: 'write "<rule id>": "<reason it does not apply>"' });
  });

  const configIgnore = (ruleId: string, tool: string): string | undefined => {
    for (const entry of config.ignore) if (entry.rule === ruleId && (entry.tools.includes(tool) || entry.tools.includes('*'))) return entry.reason;
    return undefined;
  };
  const seenSuppression = new Set<string>();
  const suppress = (s: Suppression): void => {
    const key = `${s.ruleId}\u0000${s.tool}\u0000${s.source}`;
    if (seenSuppression.has(key)) return;
    seenSuppression.add(key);
    suppressed.push(s);
  };

  const emit = (resolved: ResolvedRule, report: Report, tool: ToolView | undefined): void => {
    if (tool !== undefined) {
      const inlineReason = optOuts.get(tool.index)?.get(resolved.rule.id);
      if (inlineReason !== undefined) return suppress({ ruleId: resolved.rule.id, tool: tool.name, reason: inlineReason, source: 'inline' });
      const configReason = configIgnore(resolved.rule.id, tool.name);
      if (configReason !== undefined) return suppress({ ruleId: resolved.rule.id, tool: tool.name, reason: configReason, source: 'config' });
    }
    findings.push({
      ruleId: resolved.rule.id,
      severity: resolved.forced ? resolved.severity : report.severity ?? resolved.severity,
      tool: tool?.name,
      toolIndex: tool?.index,
      pointer: report.pointer,
      message: report.message,
      fix: report.fix,
    });
  };

  for (const resolved of active) {
    const check = resolved.rule.checkTool;
    if (check === undefined) continue;
    // One context per rule, pointed at each tool in turn (not one object and closure per tool and rule).
    let current: ToolView | undefined;
    const ctx: RuleContext = { options: resolved.options, prepared: resolved.prepared, report: (report) => emit(resolved, report, current) };
    for (const view of views) {
      current = view;
      check.call(resolved.rule, view, ctx);
    }
  }
  const catalog: CatalogView = { tools: views };
  for (const resolved of active) {
    const check = resolved.rule.checkCatalog;
    if (check === undefined) continue;
    const ctx: RuleContext = { options: resolved.options, prepared: resolved.prepared, report: (report) => emit(resolved, report, report.tool) };
    check.call(resolved.rule, catalog, ctx);
  }

  findings.sort(comparePointers);
  const counts = { error: 0, warning: 0, info: 0 };
  for (const finding of findings) counts[finding.severity]++;
  return { findings, suppressed, toolCount: tools.length, counts };
}
