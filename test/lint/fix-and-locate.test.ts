import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { applySafeFixes, unifiedDiff } from '../../src/lint/fix.js';
import { locateJsonPointers, nearestPosition } from '../../src/lint/json-locator.js';
import { run } from '../../src/cli/commands/lint.js';
import { repoPath } from '../support/repo-paths.js';

test('applySafeFixes rewrites only parameterless schemas and leaves its input untouched', () => {
  const tools = [
    { name: 'a', inputSchema: {} },
    { name: 'b', inputSchema: { type: 'object', properties: {} } },
    { name: 'c', inputSchema: { type: 'object', properties: { x: { type: 'number' } } } },
    { name: 'd', inputSchema: { type: 'object', minProperties: 1 } },
    'not a tool',
  ];
  const before = JSON.stringify(tools);
  const { tools: fixed, fixes } = applySafeFixes(tools);
  assert.equal(JSON.stringify(tools), before);
  assert.deepEqual(fixes.map((f) => [f.tool, f.ruleId]), [['a', 'spec/no-params-closed'], ['b', 'spec/no-params-closed']]);
  assert.deepEqual((fixed[0] as { inputSchema: unknown }).inputSchema, { type: 'object', additionalProperties: false });
  assert.deepEqual((fixed[1] as { inputSchema: unknown }).inputSchema, { type: 'object', properties: {}, additionalProperties: false });
  assert.equal(fixed[2], tools[2]);
  assert.equal(fixed[3], tools[3]);
  assert.equal(fixed[4], 'not a tool');
});

test('unifiedDiff: hunks with context, nothing for equal texts', () => {
  assert.equal(unifiedDiff('a\nb\n', 'a\nb\n', 'x', 'y'), '');
  const lines = Array.from({ length: 12 }, (_, i) => `line ${i}`);
  const changed = [...lines];
  changed[1] = 'LINE 1';
  changed[10] = 'LINE 10';
  assert.equal(unifiedDiff(lines.join('\n'), changed.join('\n'), 'a/f', 'b/f'), [
    '--- a/f', '+++ b/f',
    '@@ -1,5 +1,5 @@', ' line 0', '-line 1', '+LINE 1', ' line 2', ' line 3', ' line 4',
    '@@ -8,5 +8,5 @@', ' line 7', ' line 8', ' line 9', '-line 10', '+LINE 10', ' line 11',
    '',
  ].join('\n'));
});

test('locateJsonPointers finds every value; nearestPosition falls back to the closest ancestor', () => {
  const text = '{\n  "tools": [\n    {\n      "name": "a~b/c",\n      "inputSchema": {}\n    }\n  ]\n}\n';
  const positions = locateJsonPointers(text);
  assert.deepEqual(positions.get('/tools/0/name'), { line: 4, column: 15 });
  assert.deepEqual(positions.get('/tools/0/inputSchema'), { line: 5, column: 22 });
  assert.deepEqual(nearestPosition(positions, '/tools/0/inputSchema/additionalProperties'), { line: 5, column: 22 });
  assert.equal(locateJsonPointers('{"broken": ').size, 0);
  const escaped = locateJsonPointers('{"a/b": {"c~d": 1}}');
  assert.deepEqual(escaped.get('/a~1b/c~0d'), { line: 1, column: 17 });
});

test('--fix on a module target shows the diff and writes nothing', async () => {
  const path = repoPath('test/fixtures/lint/modules/empty-schema-tools.mjs');
  const source = readFileSync(path, 'utf8');
  const out: string[] = [];
  const code = await run([path, '--fix'], { stdout: { write: (t: string) => out.push(t) }, stderr: { write: (t: string) => out.push(t) } });
  const text = out.join('');
  assert.equal(code, 0, text);
  assert.match(text, /--- a\/tools\/list\n\+\+\+ b\/tools\/list\n/);
  assert.match(text, /^-      "inputSchema": \{\}$/m);
  assert.ok(text.includes(`--fix: ${path} is not a file; apply the change above in the tool definitions' source.`), text);
  assert.equal(readFileSync(path, 'utf8'), source);
});
