import type { Finding, LintResult, Severity } from '../types.js';

/** Options for {@link formatPretty}. */
export interface PrettyOptions {
  /** ANSI colours (the CLI turns them on only when stdout is a TTY and NO_COLOR is unset). */
  color: boolean;
  /** What was linted, shown in the header. */
  target: string;
}

const COLORS: Record<Severity | 'dim' | 'bold' | 'reset', string> = {
  error: '\u001b[31m', warning: '\u001b[33m', info: '\u001b[36m', dim: '\u001b[2m', bold: '\u001b[1m', reset: '\u001b[0m',
};
const MARK: Record<Severity, string> = { error: '✖', warning: '⚠', info: 'ℹ' };

/** Human-readable report: findings grouped by tool, each with severity, rule, pointer, explanation and fix. */
export function formatPretty(result: LintResult, options: PrettyOptions): string {
  const paint = (style: keyof typeof COLORS, text: string): string => (options.color ? `${COLORS[style]}${text}${COLORS.reset}` : text);
  const groups = new Map<string, Finding[]>();
  for (const finding of result.findings) {
    const key = finding.tool === undefined ? '(catalog)' : finding.tool;
    let list = groups.get(key);
    if (list === undefined) groups.set(key, (list = []));
    list.push(finding);
  }
  const lines: string[] = [paint('dim', `toolwright lint: ${options.target} (${result.toolCount} tool${result.toolCount === 1 ? '' : 's'})`), ''];
  for (const [tool, findings] of groups) {
    lines.push(paint('bold', tool));
    for (const f of findings) {
      const where = f.pointer === '' ? '' : ` ${paint('dim', f.pointer)}`;
      lines.push(`  ${paint(f.severity, `${MARK[f.severity]} ${f.severity.padEnd(7)}`)} ${f.ruleId}${where}`);
      lines.push(`      ${f.message}`);
      lines.push(`      ${paint('dim', `fix: ${f.fix}`)}`);
    }
    lines.push('');
  }
  if (result.suppressed.length > 0) {
    lines.push(paint('dim', `${result.suppressed.length} opt-out${result.suppressed.length === 1 ? '' : 's'} applied:`));
    for (const s of result.suppressed) lines.push(paint('dim', `  ${s.tool}: ${s.ruleId} (${s.source}) — ${s.reason}`));
    lines.push('');
  }
  const { error, warning, info } = result.counts;
  const summary = `${error} error${error === 1 ? '' : 's'}, ${warning} warning${warning === 1 ? '' : 's'}, ${info} info`;
  lines.push(result.findings.length === 0 ? paint('bold', `No problems found in ${result.toolCount} tool${result.toolCount === 1 ? '' : 's'}.`) : paint(error > 0 ? 'error' : 'bold', summary));
  return `${lines.join('\n')}\n`;
}
