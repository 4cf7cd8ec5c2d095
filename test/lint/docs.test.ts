import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { BUILTIN_RULES } from '../../src/lint/rules/index.js';
import { repoPath } from '../support/repo-paths.js';

test('docs/lint-rules.md has a section for every rule, stating its default severity', () => {
  const docs = readFileSync(repoPath('docs/lint-rules.md'), 'utf8');
  const sections = new Map<string, string>();
  const parts = docs.split(/^### /m).slice(1);
  for (const part of parts) sections.set(part.slice(0, part.indexOf('\n')).trim(), part);
  for (const rule of BUILTIN_RULES) {
    const section = sections.get(rule.id);
    assert.ok(section, `docs/lint-rules.md has no "### ${rule.id}" section`);
    assert.match(section, new RegExp(`Default: \\*\\*${rule.defaultSeverity}\\*\\*`), `${rule.id}: default severity not documented as ${rule.defaultSeverity}`);
    for (const option of Object.keys(rule.defaultOptions ?? {})) assert.match(section, new RegExp(`\`${option}\``), `${rule.id}: option ${option} not documented`);
  }
  assert.equal(sections.size, BUILTIN_RULES.length, 'a documented rule does not exist');
});
