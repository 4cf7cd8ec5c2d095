import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lintTools } from '../../src/lint/engine.js';
import { toolCount } from '../../src/lint/rules/budget/tokens.js';

const catalog = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `tool_${i}`, inputSchema: { type: 'object', additionalProperties: false } }));
const findings = (n: number) => lintTools(catalog(n), { rules: [toolCount] }).findings.map((f) => [f.severity, f.message]);

test('budget/tool-count: nothing at 20, warning above 20, stronger warning above 40, error above 128', () => {
  assert.deepEqual(findings(20), []);
  assert.deepEqual(findings(21), [['warning', '21 tools: more than 20; models choose less reliably among many tools']]);
  assert.deepEqual(findings(41), [['warning', '41 tools: well above 40, where tool choice is known to degrade badly']]);
  assert.deepEqual(findings(128), [['warning', '128 tools: well above 40, where tool choice is known to degrade badly']]);
  assert.deepEqual(findings(129), [['error', '129 tools: more than 128, which OpenAI and VS Code reject outright']]);
});
