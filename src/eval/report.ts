import { rate } from './run-eval.js';
import type { EvalRun, Tally } from './run-eval.js';
import type { InterviewAnswer } from './interview.js';

function pct(count: number, of: number): string {
  const r = rate(count, of);
  return r === null ? 'n/a' : `${Math.round(r * 100)}%`;
}

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

const HEADER = ['case', 'expected', 'trials', 'errors', 'tool choice', 'valid as sent', 'valid repaired', 'repaired', 'passed'];

function tallyCells(t: Tally): string[] {
  return [String(t.trials), String(t.errors), pct(t.toolChoiceCorrect, t.scored), pct(t.validBefore, t.calls), pct(t.validAfter, t.calls), `${t.repaired}/${t.calls}`, pct(t.passed, t.scored)];
}

/** The per-case and total table of one run, with the notes of failed trials. */
export function formatRunTable(run: EvalRun): string {
  const rows = run.cases.map((c) => [c.id, c.expectedTool ?? '(none)', ...tallyCells(c.tally)]);
  rows.push(['TOTAL', '', ...tallyCells(run.totals)]);
  const lines = [`toolwright eval: ${run.provider}:${run.model}, catalog ${run.catalog}`, '', table(HEADER, rows), ''];
  lines.push('Rates: tool choice and passed over scored trials; "valid" over trials that called an offered tool (against the original inputSchema, before and after host-side repair).');
  for (const f of run.mappingFailures) lines.push(`not offered (could not be lowered for ${run.provider}): ${f.tool}: ${f.message}`);
  for (const c of run.cases) {
    c.trials.forEach((t, i) => {
      const said = t.error !== undefined ? [`error: ${t.error}`] : t.passed ? [] : t.notes;
      for (const note of said) lines.push(`  ${c.id} #${i + 1}: ${note}`);
    });
  }
  return `${lines.join('\n')}\n`;
}

function tallyJson(t: Tally) {
  return {
    ...t,
    rates: { toolChoice: rate(t.toolChoiceCorrect, t.scored), validAsSent: rate(t.validBefore, t.calls), validRepaired: rate(t.validAfter, t.calls), repairsNeeded: rate(t.repaired, t.calls), passed: rate(t.passed, t.scored) },
  };
}

/** The JSON document of one run (version 1). */
export function runJson(run: EvalRun) {
  return {
    model: `${run.provider}:${run.model}`,
    catalog: run.catalog,
    totals: tallyJson(run.totals),
    cases: run.cases.map((c) => ({ id: c.id, expectedTool: c.expectedTool, ...tallyJson(c.tally), trials: c.trials })),
    mappingFailures: run.mappingFailures,
  };
}

/** Before/after per case: the guide's comparison of two versions of the definitions on the same questions. */
export function formatCompareTable(before: EvalRun, after: EvalRun): string {
  const rows = after.cases.map((c, i) => {
    const old = before.cases[i]!.tally;
    const delta = (rate(c.tally.passed, c.tally.scored) ?? NaN) - (rate(old.passed, old.scored) ?? NaN);
    return [c.id, pct(old.toolChoiceCorrect, old.scored), pct(c.tally.toolChoiceCorrect, c.tally.scored), pct(old.passed, old.scored), pct(c.tally.passed, c.tally.scored), Number.isNaN(delta) ? 'n/a' : `${delta >= 0 ? '+' : ''}${Math.round(delta * 100)}`];
  });
  const o = before.totals;
  const n = after.totals;
  const totalDelta = (rate(n.passed, n.scored) ?? NaN) - (rate(o.passed, o.scored) ?? NaN);
  rows.push(['TOTAL', pct(o.toolChoiceCorrect, o.scored), pct(n.toolChoiceCorrect, n.scored), pct(o.passed, o.scored), pct(n.passed, n.scored), Number.isNaN(totalDelta) ? 'n/a' : `${totalDelta >= 0 ? '+' : ''}${Math.round(totalDelta * 100)}`]);
  return `toolwright eval --compare: ${after.provider}:${after.model}\n  old: ${before.catalog}\n  new: ${after.catalog}\n\n${table(['case', 'choice old', 'choice new', 'passed old', 'passed new', 'Δ pp'], rows)}\n`;
}

/** The interview as text: the description, then the model's reading of it, then the mismatches. */
export function formatInterview(answers: InterviewAnswer[], model: string): string {
  const lines = [`toolwright eval --interview: ${model}`, ''];
  for (const a of answers) {
    lines.push(a.tool, `  description: ${a.description || '(none)'}`);
    if (a.error !== undefined) lines.push(`  error: ${a.error}`);
    else {
      lines.push(`  model, when: ${a.when ?? '(no answer)'}`, `  model, task: ${a.task ?? '(no answer)'}`, `  model, arguments: ${JSON.stringify(a.arguments ?? null)}`);
      lines.push(...(a.mismatches.length === 0 ? ['  ✓ the arguments fit the schema'] : a.mismatches.map((m) => `  ✗ ${m}`)));
    }
    lines.push('');
  }
  const flagged = answers.filter((a) => a.mismatches.length > 0).length;
  lines.push(`${flagged} of ${answers.length} tools with mismatches${answers.some((a) => a.error) ? `, ${answers.filter((a) => a.error).length} without an answer` : ''}.`);
  return `${lines.join('\n')}\n`;
}

/** A one-line progress bar for a terminal (`\r` redraws it). */
export function progressLine(done: number, total: number, label: string, width = 24): string {
  const filled = total === 0 ? width : Math.round((done / total) * width);
  return `\r[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${done}/${total} ${label}`.slice(0, 100);
}
