// The schema engine's bounds under hostile instances: capped error lists, bounded value echoes,
// linear uniqueItems, the validation budget, non-finite numbers, maxLength before pattern.
// Sizes are asserted exactly or as bounds; time only through the test timeout.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileSchema, formatSchemaErrors } from '../../src/schema/index.js';
import type { CompileOptions } from '../../src/schema/index.js';

const engines: CompileOptions[] = [{}, { engine: 'compliant' }];
const manyKeys = (n: number): Record<string, number> => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]));

test('10,000 unknown keys: the first 20 problems, then one "and M more" line; the answer stays small', () => {
  for (const options of engines) {
    const compiled = compileSchema({ type: 'object', properties: { x: { type: 'number' } }, additionalProperties: false }, options);
    const errors = compiled.validate(manyKeys(10_000)).errors;
    assert.equal(errors.length, 21, compiled.engine);
    assert.equal(errors[0]!.message, '/: unexpected property "k0"', compiled.engine);
    assert.deepEqual(errors[20], { instancePath: '', keyword: 'errorLimit', message: 'and 9980 more problems not listed (only the first 20 are reported)', schemaPath: '#' }, compiled.engine);
    assert.ok(formatSchemaErrors(errors).length < 2_000, compiled.engine);
  }
});

test('maxErrors sets the cap; a single omitted problem is singular', () => {
  const compiled = compileSchema({ type: 'array', items: { type: 'string' } }, { maxErrors: 2 });
  assert.deepEqual(compiled.validate([1, 2, 3]).errors.map((e) => e.message), [
    '/0: expected string, got number 1', '/1: expected string, got number 2', 'and 1 more problem not listed (only the first 2 are reported)',
  ]);
});

test('a value is echoed from a bounded prefix, with a marker and its size', () => {
  for (const options of engines) {
    const compiled = compileSchema({ type: 'object', properties: { v: { type: 'string' }, s: { maxLength: 1 } } }, options);
    const big = manyKeys(50_000);
    const [error] = compiled.validate({ v: big }).errors;
    assert.equal(error!.message, '/v: expected string, got object {"k0":0,"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,... (50000 properties)', compiled.engine);
    const [long] = compiled.validate({ s: '🐲'.repeat(100_000) }).errors;
    assert.match(long!.message, /^\/s: expected string of at most 1 character, got string "(🐲)+\.\.\. \(100000 characters\)$/, compiled.engine);
    assert.ok(long!.message.length < 200);
  }
});

test('anyOf over 20,000 items: one message per item up to the cap, never all branches of all items', () => {
  for (const options of engines) {
    const compiled = compileSchema({ type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'object', properties: { a: { const: 1 } } }] } }, options);
    const errors = compiled.validate(Array.from({ length: 20_000 }, (_, i) => ({ a: i }))).errors;
    assert.equal(errors.length, 21, compiled.engine);
    assert.match(errors[0]!.message, /^\/0: expected a value matching at least one of the anyOf alternatives, got object \{"a":0\}/, compiled.engine);
    assert.match(errors[20]!.message, /^and \d+ more problems? not listed/, compiled.engine);
  }
});

test('a 5,000-value enum is echoed cut with its size', () => {
  const compiled = compileSchema({ enum: Array.from({ length: 5000 }, (_, i) => `v${i}`) });
  const [error] = compiled.validate('zzz').errors;
  assert.match(error!.message, /^\/: expected one of \["v0","v1",.*\.\.\. \(5000 items\), got string "zzz"$/);
});

test('uniqueItems hashes canonical JSON: linear on 100,000 arrays, key order ignored, "__proto__" items are equal', () => {
  for (const options of engines) {
    const compiled = compileSchema({ uniqueItems: true }, options);
    assert.equal(compiled.validate(Array.from({ length: 100_000 }, (_, i) => [i])).valid, true, compiled.engine);
    assert.deepEqual(compiled.validate(['__proto__', '__proto__']).errors.map((e) => e.message), ['/: expected unique items, items 0 and 1 are equal'], compiled.engine);
    assert.equal(compiled.validate([JSON.parse('{"__proto__":1}'), JSON.parse('{"__proto__":2}')]).valid, true, compiled.engine);
    assert.equal(compiled.validate([{ a: 1, b: [2, { c: 3 }] }, { b: [2, { c: 3 }], a: 1 }]).valid, false, compiled.engine);
    assert.equal(compiled.validate([1, 1.0]).valid, false, compiled.engine);
    assert.equal(compiled.validate([1, '1', true, null, [1], { 1: 1 }]).valid, true, compiled.engine);
  }
});

test('type integer (and number) refuses 1e400, which JSON.parse reads as Infinity', () => {
  for (const options of engines) {
    const compiled = compileSchema({ type: 'object', properties: { a: { type: 'integer' } } }, options);
    assert.deepEqual(compiled.validate(JSON.parse('{"a":1e400}')).errors, [{ instancePath: '/a', keyword: 'type', message: '/a: expected a finite JSON number, got a number too large for a double (read as Infinity)', schemaPath: '#' }]);
    assert.equal(compileSchema({ type: 'integer' }, options).validate(JSON.parse('-1e400')).valid, false);
    assert.equal(compileSchema({ type: 'number' }, options).validate(Number.NaN).errors[0]!.message, '/: expected a finite JSON number, got NaN');
    assert.equal(compiled.validate({ a: 1.5 }).valid, false, "not an integer");
    assert.equal(compiled.validate({ a: 1e300 }).valid, true, "1e300 is an integer");
    assert.equal(compiled.validate({ a: 2 ** 60 }).valid, true);
  }
});

test('the validation budget refuses an instance too large or too deep, before any engine runs', () => {
  for (const options of engines) {
    const small = compileSchema({ type: 'array' }, { ...options, maxInstanceNodes: 10 });
    assert.deepEqual(small.validate(Array.from({ length: 10 }, () => 0)).errors, [{ instancePath: '', keyword: 'budget', message: '/: value has more than 10 nodes (objects, arrays and primitives): too large to validate within the budget', schemaPath: '#' }]);
    assert.equal(small.validate(Array.from({ length: 9 }, () => 0)).valid, true);
    let deep: unknown = 1;
    for (let i = 0; i < 174_000; i++) deep = { a: deep };
    assert.equal(compileSchema({ type: 'object' }, options).validate(deep).errors[0]!.message, '/: value is nested deeper than 1000 levels: too deep to validate within the budget');
  }
});

test('maxLength is checked before pattern: an over-long string gets the maxLength error only', () => {
  for (const options of engines) {
    const compiled = compileSchema({ type: 'string', maxLength: 3, pattern: '^b+$' }, options);
    assert.deepEqual(compiled.validate('a'.repeat(1_000_000)).errors.map((e) => e.keyword), ['maxLength'], compiled.engine);
    assert.deepEqual(compiled.validate('aa').errors.map((e) => e.keyword), ['pattern'], compiled.engine);
    // maxLength counts code points: two dragons are 4 UTF-16 units but within maxLength 3.
    assert.deepEqual(compiled.validate('🐲🐲').errors.map((e) => e.keyword), ['pattern'], compiled.engine);
    assert.equal(compileSchema({ type: 'string', pattern: '^\\d+\\d+$' }, options).validate(`${'1'.repeat(100_000)}x`).valid, false);
  }
});
