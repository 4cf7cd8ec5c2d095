import type { Log, ReportingDescriptor, Result } from 'sarif';
import { escapePointerToken } from '../schema/index.js';
import type { CatalogDiff, ChangeKind } from './types.js';

const ORDER: readonly ChangeKind[] = ['breaking', 'unknown', 'compatible', 'model-facing'];
const TAG: Record<ChangeKind, string> = { breaking: 'BREAKING', unknown: 'unknown', compatible: 'compatible', 'model-facing': 'model-facing' };
const COLOUR: Record<ChangeKind, string> = { breaking: '\u001b[31m', unknown: '\u001b[33m', compatible: '\u001b[32m', 'model-facing': '\u001b[36m' };

/** Human-readable report: changes grouped by tool, then the counts, the bump and the suggestions. */
export function formatDiffPretty(diff: CatalogDiff, options: { color: boolean; before: string; after: string }): string {
  const paint = (kind: ChangeKind, text: string) => (options.color ? `${COLOUR[kind]}${text}\u001b[0m` : text);
  const lines = [`toolwright diff ${options.before} → ${options.after}`, ''];
  if (diff.changes.length === 0) lines.push('No changes.', '');
  let current: string | undefined;
  for (const change of diff.changes) {
    if (change.tool !== current) {
      if (current !== undefined) lines.push('');
      lines.push(change.tool);
      current = change.tool;
    }
    lines.push(`  ${paint(change.kind, TAG[change.kind].padEnd(13))} ${change.pointer || '(tool)'}`, `    ${change.message}`);
  }
  if (diff.changes.length > 0) lines.push('');
  lines.push(ORDER.map((k) => `${diff.counts[k]} ${k}`).join(', '));
  lines.push(`Suggested version bump: ${diff.bump} (${diff.bumpReason})`);
  for (const s of diff.suggestions) lines.push(`  - ${s.tool}: ${s.message}`);
  if (diff.counts['model-facing'] > 0 || diff.counts.compatible > 0) lines.push('Model-facing text or the tool set changed: re-run the regression set (toolwright eval cases.yaml --compare <old>).');
  return `${lines.join('\n')}\n`;
}

/** The JSON report: `{ changes: [{tool, pointer, kind, breaking, message}], ... }`, version 1, fields only ever added. */
export function formatDiffJson(diff: CatalogDiff, options: { before: string; after: string }): string {
  return `${JSON.stringify({
    format: 'toolwright-diff',
    version: 1,
    before: options.before,
    after: options.after,
    changes: diff.changes.map(({ tool, pointer, kind, breaking, message }) => ({ tool, pointer, kind, breaking, message })),
    summary: { breaking: diff.counts.breaking, compatible: diff.counts.compatible, modelFacing: diff.counts['model-facing'], unknown: diff.counts.unknown },
    bump: diff.bump,
    bumpReason: diff.bumpReason,
    suggestions: diff.suggestions,
  }, null, 2)}\n`;
}

const LEVEL: Record<ChangeKind, Result.level> = { breaking: 'error', unknown: 'warning', compatible: 'note', 'model-facing': 'note' };
const RULES: Record<ChangeKind, string> = {
  breaking: 'Existing callers (input side) or consumers of structuredContent (output side) stop working.',
  unknown: 'Compatibility cannot be decided from the two definitions; review.',
  compatible: 'Existing callers and consumers keep working.',
  'model-facing': 'Text a model reads changed; behaviour may change, re-run the regression set.',
};

/** SARIF 2.1.0: one rule per kind (`diff/<kind>`), one result per change, located at the new target. */
export function buildDiffSarif(diff: CatalogDiff, uri: string, version: string): Log {
  const descriptors: ReportingDescriptor[] = ORDER.map((kind) => ({
    id: `diff/${kind}`,
    shortDescription: { text: RULES[kind] },
    help: { text: `See docs/diff.md, "${kind}".` },
    defaultConfiguration: { level: LEVEL[kind] },
  }));
  const results: Result[] = diff.changes.map((c) => ({
    ruleId: `diff/${c.kind}`,
    ruleIndex: ORDER.indexOf(c.kind),
    level: LEVEL[c.kind],
    message: { text: c.message },
    locations: [{
      physicalLocation: { artifactLocation: { uri } },
      logicalLocations: [{ fullyQualifiedName: `tools/${escapePointerToken(c.tool)}${c.pointer}`, kind: 'member' }],
    }],
    partialFingerprints: { toolwrightChange: `${c.kind}|${c.tool}|${c.pointer}` },
  }));
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [{ tool: { driver: { name: 'toolwright-diff', version, rules: descriptors } }, results }],
  };
}
