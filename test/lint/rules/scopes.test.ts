import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lintTools } from '../../../src/lint/engine.js';
import { parseLintConfig } from '../../../src/lint/config.js';
import { BUILTIN_RULES } from '../../../src/lint/rules/index.js';
import { defineTool } from '../../../src/index.js';

const tool = (name: string, scopes?: unknown, annotations?: Record<string, unknown>) => ({
  name, description: `Do ${name}. Use when asked.`, inputSchema: { type: 'object', properties: {}, additionalProperties: false },
  ...(annotations === undefined ? {} : { annotations }), ...(scopes === undefined ? {} : { _meta: { 'dev.toolwright/scopes': scopes } }),
});
const findings = (rule: string, tools: unknown[], config?: unknown) =>
  lintTools(tools, { config: config === undefined ? undefined : parseLintConfig(config, BUILTIN_RULES) }).findings
    .filter((f) => f.ruleId === rule).map((f) => `${f.severity} ${f.tool} ${f.pointer}: ${f.message}`);

test('scope-token: each bad token is an error naming the tool, the entry and why, with the checker defineTool uses', () => {
  const cases: Array<[unknown, string]> = [
    ['arm:move', 'error move /_meta/dev.toolwright~1scopes: _meta "dev.toolwright/scopes" must be an array of scope tokens, got string'],
    [[''], 'error move /_meta/dev.toolwright~1scopes/0: _meta "dev.toolwright/scopes"[0] "" is not a scope token (RFC 6749 section 3.3): it is empty'],
    [['arm move'], 'error move /_meta/dev.toolwright~1scopes/0: _meta "dev.toolwright/scopes"[0] "arm move" is not a scope token (RFC 6749 section 3.3): it contains a space (a scope list is space-separated, so this would be several scopes)'],
    [['a"b'], 'error move /_meta/dev.toolwright~1scopes/0: _meta "dev.toolwright/scopes"[0] "a\\"b" is not a scope token (RFC 6749 section 3.3): it contains a double quote (")'],
    [['a\\b'], 'error move /_meta/dev.toolwright~1scopes/0: _meta "dev.toolwright/scopes"[0] "a\\\\b" is not a scope token (RFC 6749 section 3.3): it contains a backslash (\\)'],
    [['bras:déplacer'], 'error move /_meta/dev.toolwright~1scopes/0: _meta "dev.toolwright/scopes"[0] "bras:déplacer" is not a scope token (RFC 6749 section 3.3): it contains the non-ASCII character U+00E9'],
    [[3], 'error move /_meta/dev.toolwright~1scopes/0: _meta "dev.toolwright/scopes"[0] 3 is not a scope token (RFC 6749 section 3.3): it is a number, not a string'],
    [['a', 'a'], 'error move /_meta/dev.toolwright~1scopes/1: _meta "dev.toolwright/scopes"[1] "a" repeats _meta "dev.toolwright/scopes"[0]'],
  ];
  for (const [scopes, want] of cases) assert.deepEqual(findings('security/scope-token', [tool('move', scopes)]), [want]);
  assert.deepEqual(findings('security/scope-token', [tool('move'), tool('grip', ['arm:grip', 'openid'])]), []);
});

test('a catalog made with defineTool carries its scopes to the linter', () => {
  const move = defineTool({ name: 'move_arm', description: 'Move the arm. Use after checking status.', inputSchema: { type: 'object' }, scopes: ['arm:move'], run: () => 'moved' });
  const reset = defineTool({ name: 'reset_arm', description: 'Reset the arm. Use after a stop.', inputSchema: { type: 'object' }, run: () => 'reset' });
  assert.deepEqual(findings('security/destructive-unscoped', [move.descriptor, reset.descriptor]).map((f) => f.split(':')[0]), ['warning reset_arm ']);
});

test('destructive-unscoped: judged only where some tool uses scopes; read-only and destructiveHint:false tools pass', () => {
  assert.deepEqual(findings('security/destructive-unscoped', [tool('reset'), tool('wipe')]), []);
  assert.deepEqual(findings('security/destructive-unscoped', [tool('move', ['arm:move']), tool('read', undefined, { readOnlyHint: true }), tool('tune', undefined, { destructiveHint: false })]), []);
  assert.deepEqual(findings('security/destructive-unscoped', [tool('move', ['arm:move']), tool('wipe', undefined, { destructiveHint: true })]), [
    'warning wipe : wipe may change or destroy state (not read-only, not destructiveHint: false) but requires no scope, while other tools of this server do (move requires "arm:move"): any admitted caller can run it',
  ]);
  // A tool whose scopes are all invalid counts as unscoped (scope-token reports the tokens themselves).
  assert.deepEqual(findings('security/destructive-unscoped', [tool('move', ['arm:move']), tool('wipe', ['bad token'])]).length, 1);
  assert.deepEqual(findings('security/destructive-unscoped', [tool('move', ['arm:move']), tool('wipe')], { rules: { 'security/destructive-unscoped': { severity: 'error' } } })[0]?.split(' ')[0], 'error');
});

test('scope-not-permission: identity and approver scopes alone guard nothing; the list is configurable', () => {
  assert.deepEqual(findings('security/scope-not-permission', [tool('move', ['openid', 'profile'])]), [
    'warning move /_meta/dev.toolwright~1scopes: move is guarded only by "openid", "profile", which grant no permission: they say who the caller is or which host may approve, so any signed-in caller (or any approver host) can run it',
  ]);
  assert.deepEqual(findings('security/scope-not-permission', [tool('move', ['toolwright:approve'])]).length, 1);
  assert.deepEqual(findings('security/scope-not-permission', [tool('move', ['openid', 'arm:move']), tool('read')]), []);
  assert.deepEqual(findings('security/scope-not-permission', [tool('move', ['openid'])], { rules: { 'security/scope-not-permission': { options: { notPermissions: ['tenant:any'] } } } }), []);
  assert.deepEqual(findings('security/scope-not-permission', [tool('move', ['tenant:any'])], { rules: { 'security/scope-not-permission': { options: { notPermissions: ['tenant:any'] } } } }).length, 1);
});
