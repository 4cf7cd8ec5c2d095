import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as api from '../../src/lint/index.js';
import { repoPath } from '../support/repo-paths.js';

test('package.json exports toolwright/lint from the built src/lint/index.ts', () => {
  const pkg = JSON.parse(readFileSync(repoPath('package.json'), 'utf8')) as { exports: Record<string, { types: string; default: string }> };
  assert.deepEqual(pkg.exports['./lint'], { types: './dist/lint/index.d.ts', default: './dist/lint/index.js' });
});

test('the JSDoc example runs as written: lint, configure, format', () => {
  const tools = [{ name: 'set_grip_force', description: 'Set the grip force.', inputSchema: { type: 'object', properties: { force: { type: 'number' } } } }];
  const config = api.parseLintConfig({ rules: { 'budget/description-tokens': { options: { max: 200 } } } }, api.BUILTIN_RULES);
  const result = api.lintTools(tools, { config });
  assert.deepEqual(result.findings.map((f) => f.ruleId).sort(), [
    'quality/description-purpose', 'quality/description-usage', 'quality/numeric-unit', 'quality/object-closed', 'quality/param-description',
  ]);
  assert.equal(result.counts.error, 0);
  assert.match(api.formatPretty(result, { color: false, target: 'my tools' }), /^toolwright lint: my tools \(1 tools?\)/);
  assert.equal(api.buildJsonReport(result, 'my tools').summary.warnings, 5);
});

test('bad configs and lockfiles throw the exported error classes with the reason', () => {
  assert.throws(() => api.parseLintConfig({ rules: { 'no/such-rule': 'error' } }, api.BUILTIN_RULES), (e: unknown) => e instanceof api.LintConfigError && /unknown rule id/.test((e as Error).message));
  assert.throws(() => api.parsePinLock('{"version":2}'), (e: unknown) => e instanceof api.PinLockError && /not a toolwright pin lockfile/.test((e as Error).message));
  const lock = api.buildPinLock([{ name: 't', inputSchema: { type: 'object' } }]);
  assert.deepEqual(api.parsePinLock(JSON.stringify(lock)).catalog, [{ name: 't', inputSchema: { type: 'object' } }]);
});
