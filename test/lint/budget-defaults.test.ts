import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { countTextTokens } from '../../src/host/token-estimate.js';
import { descriptionTokens, parameterDescriptionTokens } from '../../src/lint/rules/budget/tokens.js';
import { lintTools } from '../../src/lint/engine.js';
import { parseLintConfig } from '../../src/lint/config.js';
import { BUILTIN_RULES } from '../../src/lint/rules/index.js';
import { repoPath } from '../support/repo-paths.js';

// The seed guide (§6.4) budgets descriptions in Chinese characters: 100-150 per tool, 30-50 per
// parameter. For other text the default is what the same content takes in o200k_base tokens,
// measured here on the guide's own examples; docs/lint-rules.md states these numbers.
interface Pair { zh: string; en: string }
const guide = JSON.parse(readFileSync(repoPath('test/fixtures/lint/budget/guide-examples.json'), 'utf8')) as { tools: Pair[]; parameters: Pair[] };

function tokensPerCharacter(pairs: Pair[]): { chars: number; zhTokens: number; enTokens: number; ratio: number } {
  let chars = 0;
  let zhTokens = 0;
  let enTokens = 0;
  for (const { zh, en } of pairs) {
    chars += [...zh].length;
    zhTokens += countTextTokens(zh);
    enTokens += countTextTokens(en);
  }
  return { chars, zhTokens, enTokens, ratio: enTokens / chars };
}

test('tool description budget: 150 characters of the guide\'s tool descriptions take 114 o200k_base tokens of English', () => {
  const m = tokensPerCharacter(guide.tools);
  assert.deepEqual({ chars: m.chars, zhTokens: m.zhTokens, enTokens: m.enTokens }, { chars: 253, zhTokens: 197, enTokens: 193 });
  assert.equal(Math.round(150 * m.ratio), 114);
  assert.deepEqual(descriptionTokens.defaultOptions, { max: 114, maxCjkChars: 150 });
});

test('parameter description budget: 50 characters of the guide\'s parameter descriptions take 31 tokens of English', () => {
  const m = tokensPerCharacter(guide.parameters);
  assert.deepEqual({ chars: m.chars, zhTokens: m.zhTokens, enTokens: m.enTokens }, { chars: 230, zhTokens: 141, enTokens: 142 });
  assert.equal(Math.round(50 * m.ratio), 31);
  assert.deepEqual(parameterDescriptionTokens.defaultOptions, { max: 31, maxCjkChars: 50 });
});

const tool = (description: string, param?: string) => ({
  name: 'read_sensor', description,
  inputSchema: { type: 'object', properties: param === undefined ? {} : { filter: { type: 'string', description: param } }, additionalProperties: false },
});
const budgetFindings = (tools: unknown[], config?: unknown) => lintTools(tools, { config: config === undefined ? undefined : parseLintConfig(config, BUILTIN_RULES) })
  .findings.filter((f) => f.ruleId.startsWith('budget/') && f.ruleId !== 'budget/tool-tokens').map((f) => `${f.ruleId} ${f.message}`);

test('Chinese text is measured in characters (identifiers inside it do not make it English), other text in tokens', () => {
  const chinese150 = `读取传感器。${'当'.repeat(144)}`; // 150 characters
  assert.deepEqual(budgetFindings([tool(chinese150)]), []);
  assert.deepEqual(budgetFindings([tool(`${chinese150}时`)]), ['budget/description-tokens the description is about 151 characters (budget 150, the seed guide\'s 100-150 Chinese characters)']);
  const mixed = `抓取前通常需要先调用move_arm_to_pose将机械臂移动到物体附近。${'读'.repeat(120)}`;
  assert.match(budgetFindings([tool(mixed)])[0] ?? '', /characters \(budget 150/);
  const english = 'Read the sensor. '.repeat(30);
  assert.match(budgetFindings([tool(english)])[0] ?? '', /^budget\/description-tokens the description is about \d+ tokens \(budget 114, the o200k_base equivalent/);
  assert.deepEqual(budgetFindings([tool('Read the sensor. Use when contact matters.', '滤波方式：原始数据、卡尔曼滤波或滑动平均，默认卡尔曼滤波，数据更平稳，适合判断接触和碰撞，不建议用于高频控制回路。')]),
    ['budget/parameter-description-tokens the description of "filter" is about 57 characters (budget 50)']);
});

test('the budgets are configurable: both the token and the character limit', () => {
  const config = { rules: { 'budget/description-tokens': { options: { max: 400, maxCjkChars: 300 } } } };
  assert.deepEqual(budgetFindings([tool('Read the sensor. '.repeat(30))], config), []);
  assert.deepEqual(budgetFindings([tool('当'.repeat(200))], config), []);
  assert.throws(() => parseLintConfig({ rules: { 'budget/description-tokens': { options: { maxCjkChars: '150' } } } }, BUILTIN_RULES), /options\.maxCjkChars must be a number, got "150"/);
});
