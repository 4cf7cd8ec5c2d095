import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { lintTools } from '../../src/lint/engine.js';
import { repoPath } from '../support/repo-paths.js';

// Findings on public servers' tools/list snapshots (test/fixtures/lint/real-servers): these
// numbers are what the closing note reports, so a rule change that moves them is visible.
function countsFor(file: string): Record<string, number> {
  const { tools } = JSON.parse(readFileSync(repoPath('test/fixtures/lint/real-servers', file), 'utf8')) as { tools: unknown[] };
  const counts: Record<string, number> = {};
  for (const finding of lintTools(tools).findings) counts[finding.ruleId] = (counts[finding.ruleId] ?? 0) + 1;
  return counts;
}

test('server-filesystem 0.2.0: undescribed parameters, usage guidance missing in 3 of 11 descriptions, one confusable pair, no errors', () => {
  assert.deepEqual(countsFor('filesystem.json'), {
    'quality/param-description': 18,
    'quality/description-usage': 3,
    'quality/confusable-tools': 1,
  });
});

test('server-memory: no usage guidance anywhere, four undescribed parameters, three 4-level structures', () => {
  assert.deepEqual(countsFor('memory.json'), {
    'quality/description-usage': 9,
    'quality/param-description': 4,
    'quality/nesting-depth': 3,
  });
});
