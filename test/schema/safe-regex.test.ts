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
    fc.assert(fc.property(fc.array(alphabet, { maxLength: 10 }).map((chars) => chars.join('')), (input) => ours.test(input) === native.test(input)), { numRuns: 300 });
  }
});

test('linear time: a hostile input to a nested quantifier finishes (a backtracking engine would need ~2^20000 steps)', () => {
  const matcher = compilePattern('^(a+)+$');
  assert.equal(matcher.test(`${'a'.repeat(20_000)}!`), false);
  assert.equal(matcher.test('a'.repeat(20_000)), true);
});

test('patterns keep Unicode semantics on the linear-time engine; matchers have distinct toString keys', () => {
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
  // Not risky and not expressible in RE2: these alone run on V8.
  assert.equal(compilePattern('^(a)\\1$').test('aa'), true);
  assert.equal(compilePattern('^(?!x)a$').test('a'), true);
  assert.ok(compilePattern('^(?=.*[0-9]).{8,}$') instanceof RegExp);
  assert.ok(!(compilePattern('^\\d+\\d+$') instanceof RegExp));
});

test('polynomial patterns the static check cannot see are linear too (every pattern runs on re2js)', () => {
  // On V8's backtracking engine these take seconds (^\d+\d+$ on 100 KB: 6.9 s).
  const quadratic = compilePattern('^\\d+\\d+$');
  assert.equal(isBacktrackingRisk('^\\d+\\d+$'), false);
  assert.equal(quadratic.test(`${'1'.repeat(100_000)}x`), false);
  assert.equal(quadratic.test('12'), true);
  const stacked = compilePattern('^a{0,100}a{0,100}a{0,100}a{0,100}a{0,100}$');
  assert.equal(stacked.test(`${'a'.repeat(130)}b`), false);
  assert.equal(stacked.test('a'.repeat(130)), true);
});

test('ECMAScript spellings RE2 lacks are translated with their ECMAScript meaning', () => {
  const same = (source: string, inputs: string[]): void => {
    const native = new RegExp(source, 'u');
    const ours = compilePattern(source);
    for (const input of inputs) assert.equal(ours.test(input), native.test(input), `${source} on ${JSON.stringify(input)}`);
  };
  same('^\\p{Letter}+$', ['héllo', 'h3llo', 'Ωμέγα']);
  same('^\\p{digit}+$', ['123', '\u0660\u0661', '12a']);
  same('^\\p{Script=Greek}+$', ['Ωμέγα', 'abc']);
  same('^\\P{Lu}+$', ['abc', 'aBc']);
  same('^\\cC$', ['\u0003', 'C']);
  same('^[\\b]$', ['\b', 'b']);
  same('^[^]$', ['x', '\n', '']);
  same('^[]$', ['', 'x']);
  same('^\\uD83D\\uDC32$', ['🐲', '\uD83D']);
  same('^\\u{1F432}+$', ['🐲🐲', 'x']);
  same('^.$', ['🐲', '\n', '\u2028']);
  same('^\\s+$', ['\u00a0\u3000 ', 'x']);
  same('^(?<word>\\w+)$', ['abc_1', 'a b']);
});

test('only anchored single-atom sequences with at most one variable count are run natively', async () => {
  const { isLinearOnBacktracking, compilePattern } = await import('../../src/schema/safe-regex.js');
  for (const linear of ['^[A-Za-z0-9_-]{1,40}$', '^\\d{4}-\\d{2}-\\d{2}$', '^[a-z]+$', '^.{2,3}$', '^a{2,2}b+$', '^[+*]a+$']) assert.equal(isLinearOnBacktracking(linear), true, linear);
  for (const risky of ['^a*a*$', '^\\\\*\\\\*$', 'a+$', '^(a+)+$', '^a+b?$', '^\\w+@\\w+$', '^a|b$', '^[a-z]+\\1$']) assert.equal(isLinearOnBacktracking(risky), false, risky);
  // Native and linear: a long near-miss is answered at once, with the ECMAScript answer.
  const matcher = compilePattern('^[A-Za-z0-9_-]{1,40}$');
  assert.equal(matcher instanceof RegExp, true);
  assert.equal(matcher.test('req_42'), true);
  assert.equal(matcher.test('a'.repeat(100000) + '!'), false);
});
