import type { LintResult } from '../types.js';

/** The `--format json` document, version 1 (documented in docs/lint-rules.md; fields are only ever added). */
export interface JsonReport {
  format: 'toolwright-lint';
  version: 1;
  target: string;
  summary: { tools: number; errors: number; warnings: number; infos: number; suppressed: number };
  findings: Array<{ ruleId: string; severity: string; tool: string | null; toolIndex: number | null; pointer: string; message: string; fix: string }>;
  suppressed: Array<{ ruleId: string; tool: string; reason: string; source: string }>;
}

/** Builds the stable JSON report. */
export function buildJsonReport(result: LintResult, target: string): JsonReport {
  return {
    format: 'toolwright-lint',
    version: 1,
    target,
    summary: { tools: result.toolCount, errors: result.counts.error, warnings: result.counts.warning, infos: result.counts.info, suppressed: result.suppressed.length },
    findings: result.findings.map((f) => ({ ruleId: f.ruleId, severity: f.severity, tool: f.tool ?? null, toolIndex: f.toolIndex ?? null, pointer: f.pointer, message: f.message, fix: f.fix })),
    suppressed: result.suppressed.map((s) => ({ ruleId: s.ruleId, tool: s.tool, reason: s.reason, source: s.source })),
  };
}

/** The JSON report as text (two-space indented, trailing newline). */
export function formatJson(result: LintResult, target: string): string {
  return `${JSON.stringify(buildJsonReport(result, target), null, 2)}\n`;
}
