import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lintTools } from '../../src/lint/engine.js';
import { estimateTokens } from '../../src/host/index.js';

// A description over its token budget that spells a special token: the budget rule must still
// tokenise it (no byte-length shortcut applies) and report it, not crash the whole lint.
const longPoisoned = `Reads the sensor. <|endoftext|> ${'word '.repeat(700)}`;
const tool = {
  name: 'read_sensor',
  description: longPoisoned,
  inputSchema: { type: 'object', additionalProperties: false },
};

test('lint reports an over-budget description that contains <|endoftext|> instead of throwing', () => {
  const result = lintTools([tool]);
  const budget = result.findings.filter((f) => f.ruleId === 'budget/description-tokens');
  assert.equal(budget.length, 1);
  assert.equal(budget[0]?.tool, 'read_sensor');
});

test('host token estimates accept special-token spellings in provider JSON', () => {
  assert.ok(estimateTokens({ name: 'x', description: '<|endoftext|>' }) > 0);
});
