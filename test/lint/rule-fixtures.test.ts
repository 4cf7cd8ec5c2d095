import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { lintTools } from '../../src/lint/engine.js';
import { BUILTIN_RULES } from '../../src/lint/rules/index.js';
import { parseLintConfig } from '../../src/lint/config.js';
import { buildPinLock } from '../../src/lint/pin.js';
import type { WireTool } from '../../src/lint/types.js';

interface RuleFixture {
  rule: string;
  config?: unknown;
  pinFrom?: WireTool[];
  pass: { tools: unknown[] };
  fail: { tools: unknown[] };
  expect: Array<{ tool: string | null; pointer: string; severity?: string }>;
}

const DIR = new URL('../fixtures/lint/rules/', import.meta.url);
const fixtureFile = (id: string): string => `${id.replace('/', '__')}.json`;

function run(fixture: RuleFixture, tools: unknown[]) {
  const config = fixture.config === undefined ? undefined : parseLintConfig(fixture.config, BUILTIN_RULES);
  const pin = fixture.pinFrom === undefined ? undefined : buildPinLock(fixture.pinFrom);
  return lintTools(tools, { config, pin }).findings.filter((f) => f.ruleId === fixture.rule);
}

test('every built-in rule has a fixture file and every fixture names a built-in rule', () => {
  const files = new Set(readdirSync(DIR).filter((f) => f.endsWith('.json')));
  for (const rule of BUILTIN_RULES) assert.ok(files.has(fixtureFile(rule.id)), `missing fixture ${fixtureFile(rule.id)} for ${rule.id}`);
  assert.equal(files.size, BUILTIN_RULES.length);
});

for (const rule of BUILTIN_RULES) {
  const fixture = JSON.parse(readFileSync(new URL(fixtureFile(rule.id), DIR), 'utf8')) as RuleFixture;
  test(`${rule.id}: passing fixture raises nothing`, () => {
    assert.equal(fixture.rule, rule.id);
    assert.deepEqual(run(fixture, fixture.pass.tools).map((f) => `${f.tool} ${f.pointer}: ${f.message}`), []);
  });
  test(`${rule.id}: failing fixture raises exactly the expected findings`, () => {
    const findings = run(fixture, fixture.fail.tools);
    const got = findings.map((f) => ({ tool: f.tool ?? null, pointer: f.pointer, severity: f.severity }));
    const want = fixture.expect.map((e) => ({ tool: e.tool, pointer: e.pointer, severity: e.severity ?? rule.defaultSeverity }));
    const key = (x: { tool: string | null; pointer: string }) => `${x.tool} ${x.pointer}`;
    assert.deepEqual(got.sort((a, b) => key(a).localeCompare(key(b))), want.sort((a, b) => key(a).localeCompare(key(b))));
    for (const f of findings) {
      assert.ok(f.message.length > 10, `message too thin: ${f.message}`);
      assert.ok(f.fix.length > 10, `fix too thin: ${f.fix}`);
    }
  });
}
