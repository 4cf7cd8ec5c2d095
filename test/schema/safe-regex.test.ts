import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { compilePattern, isBacktrackingRisk, PatternError } from '../../src/schema/index.js';

test('isBacktrackingRisk flags nested and stacked repetition, not ordinary patterns', () => {
  for (const risky of ['^(a+)+$', '(a*)*', '^(a|aa)*$', '(\\w+\\s?)*$', '^([a-z]+\\.)+[a-z]+$', '(x{1,3}){2,}', 'a*a*a*b', '^(?:a+)+$', '(?<n>a+)+']) {
    assert.equal(isBacktrackingRisk(risky), true, risky);
  }
  for (const safe of ['^[a-z]+$', '^\\d{4}-\\d{2}-\\d{2}$', '^[A-Za-z0-9_-]{1,40}$', 'abc', '^(ab)+$', '^(a|b)$', '^[(+*]+$', '\\(a+\\)+', 'a?b?c?']) {
    assert.equal(isBacktrackingRisk(safe), false, safe);
  }
});

test('a risky pattern gives the same answers on the linear-time engine as ECMAScript does', () => {
  const patterns = ['^(a+)+$', '^(a|aa)*b$', '(\\s*a)*x', '^([a-z.]+\\s?)*$', '^(\\d+)*$', '(.*a){2,}', '^(é+)+$', '^(\\w+\\s?)+$', '^(\\S+\\s*)*$', '^([^a]+b?)+$', '(\\u0061+)+!', '^(.+)+\\/$'];
  const alphabet = fc.constantFrom('a', 'b', 'é', ' ', '\u00a0', '\u2028', '\n', '\t', '1', '!', '.', '/', 'x', 'Z');
  for (const source of patterns) {
    assert.equal(isBacktrackingRisk(source), true, source);
    const ours = compilePattern(source);
    const native = new RegExp(source, 'u');
    assert.notEqual(ours, native);
    fc.assert(fc.property(fc.array(alphabet, { maxLength: 10 }).map((chars) => chars.join('')), (input) => ours.test(input) === native.test(input)), { numRuns: 300 });
  }
});

test('linear time: a hostile input to a nested quantifier finishes (a backtracking engine would need ~2^20000 steps)', () => {
  const matcher = compilePattern('^(a+)+$');
  assert.equal(matcher.test(`${'a'.repeat(20_000)}!`), false);
  assert.equal(matcher.test('a'.repeat(20_000)), true);
});

test('safe patterns run natively with Unicode semantics; matchers have distinct toString keys', () => {
  const p = compilePattern('^\\p{L}+$');
  assert.equal(p.test('héllo'), true);
  assert.equal(p.test('h3llo'), false);
  assert.notEqual(compilePattern('^(a+)+$').toString(), compilePattern('^(b+)+$').toString());
  assert.equal(compilePattern('^x$'), compilePattern('^x$'));
});

test('refusals: invalid syntax, and risky patterns using backreferences or lookaround', () => {
  assert.throws(() => compilePattern('(a'), (e: unknown) => e instanceof PatternError && e.message === '"(a" is not a valid ECMAScript regular expression (Invalid regular expression: /(a/u: Unterminated group)');
  assert.throws(() => compilePattern('(a+)+\\1'), { message: '"(a+)+\\\\1" has nested or stacked quantifiers (catastrophic backtracking risk) and cannot run on the linear-time engine: backreferences cannot run in linear time; rewrite it without nested repetition' });
  assert.throws(() => compilePattern('(?!b)(a+)+'), { message: /lookaround assertions cannot run in linear time/ });
  assert.throws(() => compilePattern('(?<=b)(a+)+'), { message: /lookaround assertions cannot run in linear time/ });
  // Not risky: backreferences and lookaround stay available on the native engine.
  assert.equal(compilePattern('^(a)\\1$').test('aa'), true);
  assert.equal(compilePattern('^(?!x)a$').test('a'), true);
});
