/**
 * A rule's options are checked once per run and refused with a LintConfigError naming the rule,
 * the option and the value: when a config file is read (parseLintConfig, the command) and when a
 * hand-built config reaches lintTools, where no check runs before the refusal. Each built-in rule
 * with options reads them as typed values from its `prepare`.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { BUILTIN_RULES, LintConfigError, lintTools, parseLintConfig } from '../../src/lint/index.js';
import type { LintConfig, LintRule, RuleSetting } from '../../src/lint/index.js';
import { optionsOfDefaults } from '../../src/lint/rule-options.js';
import { run as runLint } from '../../src/cli/commands/lint.js';
import { repoPath } from '../support/repo-paths.js';

const tools = [{ name: 'read_sensor', description: 'Read the current value of one named sensor on the cell.', inputSchema: { type: 'object', properties: { sensor: { type: 'string', description: 'Sensor name.' } } } }];

/** Each bad setting, and the whole message it is refused with. */
const REFUSALS: Array<[string, RuleSetting, string]> = [
  ['budget/description-tokens', { options: { max: 'abc' } }, 'rules["budget/description-tokens"].options.max must be a number, got "abc"'],
  ['quality/param-count', { options: { warnAbove: true } }, 'rules["quality/param-count"].options.warnAbove must be a number, got true'],
  ['budget/tool-tokens', { options: { max: Number.NaN } }, 'rules["budget/tool-tokens"].options.max must be a finite number, got NaN'],
  ['budget/catalog-tokens', { options: { max: Number.POSITIVE_INFINITY } }, 'rules["budget/catalog-tokens"].options.max must be a finite number, got Infinity'],
  ['quality/prerequisite-tool', { options: { checkNamedTools: 'yes' } }, 'rules["quality/prerequisite-tool"].options.checkNamedTools must be a boolean, got "yes"'],
  ['quality/name-style', { options: { style: 7 } }, 'rules["quality/name-style"].options.style must be a string, got 7'],
  ['quality/name-style', { options: { style: 'Snake' } }, 'rules["quality/name-style"].options: style must be one of dominant, snake_case, camelCase, PascalCase, kebab-case, dot.case, SCREAMING_SNAKE; got "Snake"'],
  ['security/url-in-description', { options: { allow: [1] as unknown as string[] } }, 'rules["security/url-in-description"].options.allow must be a list of strings, got [1]'],
  ['provider/rejected', { options: { providers: 'openai-chat' } }, 'rules["provider/rejected"].options.providers must be a list of strings, got "openai-chat"'],
  ['provider/rejected', { options: { providers: ['nope'] } }, 'rules["provider/rejected"].options: unknown provider "nope" (known: openai-chat, openai-responses, anthropic, gemini, gemini-legacy, all)'],
  ['quality/nesting-depth', { options: { maxDepth: 4 } }, 'rules["quality/nesting-depth"].options.maxDepth is not an option of quality/nesting-depth (options: max)'],
  ['quality/nesting-depth', { options: 5 as unknown as RuleSetting['options'] }, 'rules["quality/nesting-depth"].options must be an object, got a number'],
  // A rule switched off is still refused: the config file says something that can never apply.
  ['budget/description-tokens', { severity: 'off', options: { max: 'abc' } }, 'rules["budget/description-tokens"].options.max must be a number, got "abc"'],
];

/** A rule placed first that records whether any check ran. */
function sentinel(): { rule: LintRule; checks: () => number } {
  let checks = 0;
  const rule: LintRule = { id: 'test/sentinel', family: 'quality', defaultSeverity: 'info', summary: 'counts checks', checkTool: () => void checks++, checkCatalog: () => void checks++ };
  return { rule, checks: () => checks };
}

describe('bad rule options', () => {
  for (const [id, setting, message] of REFUSALS) {
    it(`${JSON.stringify(setting)} for ${id}: refused by parseLintConfig and, hand-built, by lintTools before any check`, () => {
      assert.throws(() => parseLintConfig({ rules: { [id]: setting } }, BUILTIN_RULES), (error: unknown) => error instanceof LintConfigError && error.message === message);
      const { rule, checks } = sentinel();
      const config: LintConfig = { rules: { [id]: setting }, ignore: [] };
      assert.throws(() => lintTools(tools, { config, rules: [rule, ...BUILTIN_RULES] }), (error: unknown) => error instanceof LintConfigError && error.message === message);
      assert.equal(checks(), 0);
    });
  }

  it('the command: a config file with max: "abc" exits 2 with the message and writes no report', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tw-lint-options-'));
    try {
      const file = join(dir, 'lint.json');
      writeFileSync(file, JSON.stringify({ rules: { 'budget/description-tokens': { options: { max: 'abc' } } } }));
      let stdout = '';
      let stderr = '';
      const code = await runLint([repoPath('test/fixtures/lint/seed-good.json'), '--format', 'json', '--config', file], { stdout: { write: (t: string) => { stdout += t; } }, stderr: { write: (t: string) => { stderr += t; } } });
      assert.equal(code, 2);
      assert.equal(stdout, '');
      assert.equal(stderr, `toolwright lint: config ${file}: rules["budget/description-tokens"].options.max must be a number, got "abc"\nRun "toolwright lint --help" for usage.\n`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a hand-built config with good options lints as the parsed one does', () => {
    const data = { rules: { 'budget/description-tokens': { options: { max: 5 } }, 'quality/param-count': { options: { warnAbove: 0 } } } };
    const parsed = lintTools(tools, { config: parseLintConfig(data, BUILTIN_RULES) });
    const handBuilt = lintTools(tools, { config: { ...data, ignore: [] } });
    assert.deepEqual(handBuilt, parsed);
    assert.deepEqual(parsed.findings.filter((f) => f.ruleId.startsWith('budget/description') || f.ruleId === 'quality/param-count').map((f) => f.message), [
      'the description is about 12 tokens (budget 5, the o200k_base equivalent of the seed guide\'s 150 Chinese characters)',
      '1 top-level parameters (more than 0)',
    ]);
  });
});

describe('prepared options', () => {
  it('every built-in rule with options has a prepare that gives its checks typed values', () => {
    const withOptions = BUILTIN_RULES.filter((rule) => rule.defaultOptions !== undefined);
    assert.equal(withOptions.length, 18);
    assert.deepEqual(withOptions.filter((rule) => rule.prepare === undefined).map((rule) => rule.id), []);
    const byId = new Map(BUILTIN_RULES.map((rule) => [rule.id, rule]));
    const prepare = (id: string, options: Record<string, unknown>): unknown => {
      const rule = byId.get(id)!;
      return rule.prepare!.call(rule, { ...rule.defaultOptions, ...parseLintConfig({ rules: { [id]: { options } } }, BUILTIN_RULES).rules[id]!.options });
    };
    assert.deepEqual(prepare('budget/tool-count', { errorAbove: 64 }), { warnAbove: 20, strongWarnAbove: 40, errorAbove: 64 });
    assert.deepEqual(prepare('provider/lossy', { providers: ['gemini', 'anthropic'] }), ['anthropic', 'gemini']);
    assert.deepEqual(prepare('provider/lossy', { providers: ['all'] }), ['openai-chat', 'openai-responses', 'anthropic', 'gemini', 'gemini-legacy']);
    assert.equal(prepare('quality/name-style', { style: 'kebab-case' }), 'kebab-case');
    assert.deepEqual(prepare('quality/name-abbreviation', { allow: ['GS', 'tcp'] }), new Set(['gs', 'tcp']));
  });

  it('optionsOfDefaults refuses options the engine has not checked (prepare called some other way)', () => {
    assert.deepEqual(optionsOfDefaults({ max: 1 }, { max: 7 }), { max: 7 });
    assert.throws(() => optionsOfDefaults({ max: 1 }, { max: 'x' }), new TypeError('option max is a string, its default a number: prepare needs options the engine has checked'));
    assert.throws(() => optionsOfDefaults({ allow: [] as string[] }, {}), new TypeError('option allow is missing or of no option type, its default a list: prepare needs options the engine has checked'));
    const nameStyle = BUILTIN_RULES.find((rule) => rule.id === 'quality/name-style')!;
    assert.throws(() => nameStyle.prepare!({ style: 'Snake' }), new TypeError('style "Snake" reached prepare: validateOptions refuses it when the options are checked'));
  });
});
