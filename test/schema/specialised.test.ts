// The specialised validator (engines/specialised.ts) against the general fast path (budget pass +
// Ajv): on random schemas of the common MCP shape and random instances, compileSchema must give the
// same verdict and the same errors, byte for byte, in the same order, with and without tight
// instance budgets. The reference is the same schema with one unknown keyword at its root ("x-general"),
// which Ajv ignores and which routes it away from the specialised validator. Fixed seeds; set
// SPECIALISED_FUZZ_RUNS for a longer run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { compileSchema } from '../../src/schema/index.js';
import { planFastPath, specialisedBlocker } from '../../src/schema/route.js';
import { specialisedSource } from '../../src/schema/engines/specialised.js';
import type { CompileOptions } from '../../src/schema/types.js';
import { repoPath } from '../support/repo-paths.js';

const RUNS = Number(process.env.SPECIALISED_FUZZ_RUNS ?? 600);
const names = fc.constantFrom('a', 'b', 'x y', 'a/b', 't~1', '%', 'é');
const scalar = fc.constantFrom<unknown>(0, 1, -1, 2.5, 0.3, 1e21, -0, '', 'a', 'ab', 'abc!', '😀😀', '\ud83d', 'pinch', true, false, null);
const json: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true },
    scalar,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(names, tie('value'), { maxKeys: 4, noNullPrototype: true })),
})).value;

const types = fc.constantFrom<unknown>('string', 'number', 'integer', 'object', 'array', 'boolean', 'null', ['string', 'number'], ['object', 'null'], ['integer', 'boolean']);
const shaped: fc.Arbitrary<object> = fc.letrec<{ schema: unknown; node: object; entry: [string, unknown] }>((tie) => ({
  schema: fc.oneof({ depthSize: 'small', maxDepth: 3 }, fc.constant(true), tie('node'), tie('node'), tie('node')),
  node: fc.array(tie('entry'), { minLength: 1, maxLength: 4 }).map((entries) => Object.fromEntries(entries)),
  entry: fc.oneof(
    fc.tuple(fc.constant('type'), types),
    fc.tuple(fc.constant('properties'), fc.dictionary(names, tie('schema'), { maxKeys: 3, noNullPrototype: true })),
    fc.tuple(fc.constant('required'), fc.uniqueArray(names, { maxLength: 2 })),
    fc.tuple(fc.constant('additionalProperties'), fc.oneof(fc.boolean(), tie('node'))),
    fc.tuple(fc.constant('items'), tie('schema')),
    fc.tuple(fc.constantFrom('minProperties', 'maxProperties', 'minItems', 'maxItems', 'minLength', 'maxLength'), fc.nat(3)),
    fc.tuple(fc.constantFrom('minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'), fc.constantFrom(-3, -1, 0, 2, 2.5, 10, 1e21)),
    fc.tuple(fc.constant('multipleOf'), fc.constantFrom(0.1, 0.5, 2, 3)),
    fc.tuple(fc.constant('pattern'), fc.constantFrom('^a', '\\d', '^(a+)+!$', '^[a-z]*$', '^[A-Za-z0-9_-]{1,4}$')),
    fc.tuple(fc.constant('enum'), fc.array(scalar, { minLength: 1, maxLength: 3 })),
    fc.tuple(fc.constant('const'), scalar),
    fc.tuple(fc.constant('uniqueItems'), fc.boolean()),
    fc.tuple(fc.constantFrom('format', 'description'), fc.constantFrom('email', 'date-time')),
  ) as fc.Arbitrary<[string, unknown]>,
})).node;

function both(schema: object, options?: CompileOptions) {
  return { special: compileSchema(schema, options), general: compileSchema({ ...schema, 'x-general': true }, options) };
}

/** Compiles `schema` both ways and asserts the same verdict and errors for each instance; returns how many were invalid. */
function sameAnswers(schema: object, instances: readonly unknown[]): number {
  const { special, general } = both(schema);
  let invalid = 0;
  for (const instance of instances) {
    const a = special.validate(instance);
    const b = general.validate(instance);
    assert.equal(a.valid, b.valid);
    assert.deepEqual(a.errors, b.errors);
    if (!a.valid) invalid++;
  }
  return invalid;
}

const takesSpecialisedPath = (schema: object): boolean => specialisedBlocker(schema, planFastPath(schema, '2020-12', false)) === undefined;

test('the specialised validator gives the general path\'s verdict and errors, byte for byte', () => {
  let specialised = 0;
  let invalid = 0;
  fc.assert(fc.property(shaped, fc.array(json, { minLength: 1, maxLength: 8 }), (schema, instances) => {
    if (takesSpecialisedPath(schema)) specialised++;
    invalid += sameAnswers(schema, instances);
  }), { numRuns: RUNS, seed: 31 });
  assert.ok(specialised > RUNS * 0.9, `only ${specialised} of ${RUNS} schemas took the specialised path`);
  assert.ok(invalid > RUNS, `only ${invalid} invalid instances`);
});

// Objects of many properties: the generated key test switches on the key's length first (more
// than four names), with names of equal length, names without rules and every additionalProperties.
const wideNames = fc.constantFrom('a', 'b', 'z', 'ab', 'cd', 'é', 'x y', 't~1', 'abc', 'xyz', 'speed', 'force', 'frame_id', 'timeout_s', '%');
const wideProperty = fc.oneof(shaped, fc.constant({ description: 'no rules' }), fc.constant(true),
  fc.constant({ type: 'number', minimum: 0, maximum: 2 }), fc.constant({ type: 'integer', exclusiveMinimum: -1 }),
  fc.constant({ enum: ['a', 1, null] }), fc.constant({ type: 'string', enum: ['a', 1] }), fc.constant({ const: 'ab' }), fc.constant({ type: ['string', 'null'] }));
const wide = fc.record({
  type: fc.constant('object'),
  properties: fc.dictionary(wideNames, wideProperty, { minKeys: 5, maxKeys: 12, noNullPrototype: true }),
  required: fc.uniqueArray(wideNames, { maxLength: 3 }),
  additionalProperties: fc.oneof(fc.constant(false), fc.constant(true), fc.constant({ type: 'string' }), fc.constant({ description: 'no rules' })),
}, { requiredKeys: ['type', 'properties'] });
const wideInstance = fc.oneof(fc.dictionary(wideNames, json, { maxKeys: 10, noNullPrototype: true }), fc.dictionary(names, json, { maxKeys: 4, noNullPrototype: true }), json);

test('objects of many properties: the specialised validator gives the general path\'s verdict and errors, byte for byte', () => {
  let switched = 0;
  fc.assert(fc.property(wide, fc.array(wideInstance, { minLength: 1, maxLength: 8 }), (schema, instances) => {
    assert.equal(takesSpecialisedPath(schema), true);
    if (/switch \(k\d+\.length\)/.test(specialisedSource(schema, { maxNodes: 100, maxDepth: 5 }).source)) switched++;
    sameAnswers(schema, instances);
  }), { numRuns: RUNS, seed: 231 });
  assert.ok(switched > RUNS * 0.5, `only ${switched} of ${RUNS} schemas switched on key length`);
});

test('with tight instance budgets the refusals are the general path\'s too', () => {
  fc.assert(fc.property(shaped, fc.array(json, { minLength: 1, maxLength: 8 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 0, max: 3 }), (schema, instances, maxInstanceNodes, maxInstanceDepth) => {
    const { special, general } = both(schema, { maxInstanceNodes, maxInstanceDepth });
    for (const instance of instances) {
      const a = special.validate(instance);
      assert.deepEqual([a.valid, a.errors], [general.validate(instance).valid, general.validate(instance).errors]);
    }
  }), { numRuns: RUNS, seed: 131 });
});

test('non-finite numbers anywhere are refused with the general path\'s message', () => {
  // Also where a bound is one-sided (a number inside it may still be infinite) or an enum lists Infinity.
  const properties = { a: { type: 'number' }, b: { type: 'array', items: { type: 'object' } }, low: { type: 'number', minimum: 0 }, high: { type: 'integer', maximum: 3 }, e: { enum: [1, Infinity] } };
  const schema = { type: 'object', properties, additionalProperties: false };
  const { special, general } = both(schema);
  for (const instance of [{ a: Infinity }, { a: 1, b: [{ x: [NaN] }] }, { c: -Infinity }, { b: [{}, 1e400] }, { a: NaN, zz: 1 },
    { low: Infinity }, { low: NaN }, { high: -Infinity }, { high: NaN }, { e: Infinity }]) {
    const a = special.validate(instance);
    assert.equal(a.valid, false);
    assert.deepEqual(a.errors, general.validate(instance).errors);
    assert.match(a.errors[0]!.message, /expected a finite JSON number/);
  }
});

test('an over-budget instance is refused before any property error, as before', () => {
  const schema = { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: false };
  const options = { maxInstanceNodes: 5 };
  const { special, general } = both(schema, options);
  const instance = { a: 1, extra: [1, 2, 3, 4, 5] };
  const result = special.validate(instance);
  assert.deepEqual(result.errors, general.validate(instance).errors);
  assert.deepEqual(result.errors.map((e) => e.keyword), ['budget']);
  assert.equal(result.errors[0]!.message, '/: value has more than 5 nodes (objects, arrays and primitives): too large to validate within the budget');
  const deep = special.validate({ a: 'x', extra: [[[[[[1]]]]]] }); // 8 values, 6 levels
  assert.equal(deep.errors[0]!.keyword, 'budget');
});

test('an inherited enumerable key is validated as Ajv validates it (reported as additional), without a prototype check', () => {
  const schema = { type: 'object', properties: { a: { type: 'number' } }, additionalProperties: false };
  const { special, general } = both(schema);
  const instance = Object.create({ inherited: 1 }) as Record<string, unknown>;
  instance.a = 2;
  assert.deepEqual(special.validate(instance).errors, general.validate(instance).errors);
  assert.equal(special.validate(instance).errors[0]!.message, '/: unexpected property "inherited"');
});

test('the bench fixtures\' shape is specialised, and schemas outside the shape are not', () => {
  assert.equal(takesSpecialisedPath({ type: 'object', properties: { x: { type: 'number', minimum: 0 } }, required: ['x'], additionalProperties: false }), true);
  for (const outside of [{ anyOf: [{ type: 'string' }] }, { properties: { a: { $ref: '#' } } }, { properties: { constructor: { type: 'string' } } }, { enum: [{ a: 1 }] }, { items: [{ type: 'string' }] }, { 'x-extension': 1 }]) {
    assert.equal(takesSpecialisedPath(outside), false, JSON.stringify(outside));
  }
  // The generated code has the budget folded in: no separate pass over a valid instance.
  const { source } = specialisedSource({ type: 'object', properties: { x: { type: 'number' } } }, { maxNodes: 10, maxDepth: 5 });
  assert.match(source, /n > 10/);
  assert.doesNotMatch(source, /checkInstanceBudget/);
});

test('an enumerable key on a polluted Object.prototype gives the general path\'s answer too', () => {
  const schema = { type: 'object', properties: { a: { type: 'number' } }, additionalProperties: false };
  const { special, general } = both(schema);
  (Object.prototype as Record<string, unknown>).polluted = 1;
  try {
    const special1 = special.validate({ a: 1 });
    assert.deepEqual(special1.errors, general.validate({ a: 1 }).errors);
    assert.equal(special1.errors[0]!.message, '/: unexpected property "polluted"');
  } finally {
    delete (Object.prototype as Record<string, unknown>).polluted;
  }
  assert.equal(special.validate({ a: 1 }).valid, true);
});

test('an inherited key with a property\'s name is validated where it is read, as Ajv reads it', () => {
  const schema = { type: 'object', properties: { a: { type: 'number', maximum: 3 } }, required: ['a'], additionalProperties: false };
  const { special, general } = both(schema);
  for (const inherited of [{ a: 2 }, { a: 9 }, { a: 'x' }]) {
    const instance = Object.create(inherited) as object;
    assert.deepEqual([special.validate(instance).valid, special.validate(instance).errors], [general.validate(instance).valid, general.validate(instance).errors]);
  }
  assert.equal(special.validate(Object.create({ a: 9 }) as object).errors[0]!.message, '/a: expected number <= 3, got number 9');
});

test('inherited keys count towards the folded budget only upwards: over it, the exact pass (own keys) decides', () => {
  const schema = { type: 'object', properties: { a: { type: 'number' } } };
  // Own: the object and "a" (2 nodes); inherited: 3 more keys. The exact pass counts 2.
  const instance = Object.assign(Object.create({ p: 1, q: 2, r: 3 }) as object, { a: 1 });
  const { special, general } = both(schema, { maxInstanceNodes: 3 });
  assert.equal(special.validate(instance).valid, true);
  assert.equal(general.validate(instance).valid, true);
  // Own keys over the budget are refused by both, with the same message.
  const big = Object.assign(Object.create({ p: 1 }) as object, { a: 1, b: 2, c: 3 });
  assert.deepEqual(special.validate(big).errors, general.validate(big).errors);
  assert.equal(special.validate(big).errors[0]!.keyword, 'budget');
  assert.doesNotMatch(specialisedSource(schema, { maxNodes: 3, maxDepth: 5 }).source, /getPrototypeOf|OBJECT_PROTOTYPE/);
});

test('validate is replaced by the generated function at the first call; a validate kept from before still answers the same', () => {
  // A schema no other test compiles (the compile cache would hand back an already used validator).
  const compiled = compileSchema({ type: 'object', properties: { a: { type: 'number', maximum: 3 } }, required: ['a'], additionalProperties: false, title: 'kept' });
  const kept = compiled.validate;
  assert.equal(kept({ a: 1 }).valid, true);
  assert.notEqual(compiled.validate, kept);
  for (const instance of [{ a: 1 }, { a: 9, b: 1 }, {}, { a: Infinity }]) {
    assert.deepEqual([kept(instance).valid, kept(instance).errors], [compiled.validate(instance).valid, compiled.validate(instance).errors]);
  }
  assert.deepEqual(kept({ a: 9, b: 1 }).errors.map((e) => e.message), ['/: unexpected property "b"', '/a: expected number <= 3, got number 9']);
});

// Arrays of objects that hold objects and arrays (the trajectory tool's shape: waypoints of
// position, orientation and joint_positions): generated schemas, and instances generated from
// the schema, mostly of its shape, so that the checks deep inside are reached, with a value of
// any kind anywhere now and then. The instance paths of the errors name items inside items.
const leaf: fc.Arbitrary<object> = fc.oneof(
  fc.record({ type: fc.constantFrom('number', 'integer'), minimum: fc.constantFrom(-6.3, 0, 5), maximum: fc.constantFrom(0.3, 6.3, 10), exclusiveMinimum: fc.constantFrom(-1, 0) }, { requiredKeys: ['type'] }),
  fc.record({ type: fc.constant('string'), minLength: fc.nat(2), maxLength: fc.nat(4), pattern: fc.constantFrom('^[A-Za-z0-9_-]{1,4}$', '^a') }, { requiredKeys: ['type'] }),
  fc.record({ type: fc.constant('string'), enum: fc.constant(['box', 'sphere', 'cylinder']) }, { requiredKeys: ['enum'] }),
  fc.constantFrom({ type: 'boolean' }, { description: 'no rules' }, { type: ['string', 'null'] }),
);
const nested: fc.Arbitrary<object> = fc.letrec<{ value: object; object: object; array: object }>((tie) => ({
  value: fc.oneof({ depthSize: 'small', maxDepth: 4 }, leaf, tie('object'), tie('array')),
  object: fc.record({
    type: fc.constant('object'),
    properties: fc.dictionary(names, tie('value'), { minKeys: 1, maxKeys: 4, noNullPrototype: true }),
    required: fc.uniqueArray(names, { maxLength: 3 }),
    additionalProperties: fc.constantFrom(false, true, { type: 'number' }),
  }, { requiredKeys: ['type', 'properties'] }),
  array: fc.record({ type: fc.constant('array'), items: tie('value'), minItems: fc.nat(2), maxItems: fc.integer({ min: 1, max: 4 }), uniqueItems: fc.boolean() }, { requiredKeys: ['type', 'items'] }),
})).object;

const near: readonly unknown[] = [-7, -6.3, -1, 0, 0.01, 0.3, 0.5, 1.5, 3, 5, 6.3, 6.4, 10, 11, 'a', 'ab', 'a_1', 'abcde', 'box', 'moon', 'b c', '', true, null];
/**
 * Instances of a schema's shape, with `odd` in 1,000 choices off it (any value instead of the
 * shape's; a leaf that may fail; an array of any length; an extra key): a leaf is one of `near`
 * or of its enum, one the compliant engine accepts when on shape; an array fits minItems, maxItems and
 * uniqueItems; an object has its required properties and others at random.
 */
function instanceOf(s: Record<string, unknown>, odd: number): fc.Arbitrary<unknown> {
  const either = (shaped: fc.Arbitrary<unknown>, off: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> => fc.oneof({ weight: 1000 - odd, arbitrary: shaped }, { weight: odd, arbitrary: off });
  let shaped: fc.Arbitrary<unknown>;
  if (s.type === 'array') {
    const item = instanceOf(s.items as Record<string, unknown>, odd);
    const maxLength = Math.min(5, typeof s.maxItems === 'number' ? s.maxItems : 5);
    const minLength = Math.min(maxLength, typeof s.minItems === 'number' ? s.minItems : 0);
    const fitted = s.uniqueItems === true ? fc.uniqueArray(item, { minLength, maxLength, selector: (x) => JSON.stringify(x) }) : fc.array(item, { minLength, maxLength });
    shaped = either(fitted, fc.array(item, { maxLength: 5 }));
  } else if (s.type === 'object') {
    const properties = s.properties as Record<string, Record<string, unknown>>;
    const model = Object.fromEntries(Object.entries(properties).map(([name, sub]) => [name, instanceOf(sub, odd)]));
    const required = (Array.isArray(s.required) ? (s.required as string[]) : []).filter((name) => name in model);
    const extra = either(fc.constant(null), fc.tuple(names, json));
    shaped = fc.tuple(fc.record(model, { requiredKeys: required }), extra).map(([object, more]) => (more === null ? object : { ...object, [(more as [string, unknown])[0]]: (more as [string, unknown])[1] }));
  } else {
    const leafSchema = compileSchema(s, { engine: 'compliant' });
    const candidates = [...near, ...(Array.isArray(s.enum) ? (s.enum as unknown[]) : [])];
    const passing = candidates.filter((value) => leafSchema.validate(value).valid);
    shaped = passing.length === 0 ? fc.constantFrom(...candidates) : either(fc.constantFrom(...passing), fc.constantFrom(...candidates));
  }
  return either(shaped, json);
}

test('arrays of objects holding objects and arrays: the specialised validator gives the general path\'s verdict and errors, byte for byte', () => {
  let deep = 0;
  let valid = 0;
  fc.assert(fc.property(nested.chain((schema) => fc.tuple(fc.constant(schema), fc.array(instanceOf(schema as Record<string, unknown>, 60), { minLength: 1, maxLength: 6 }))), ([schema, instances]) => {
    assert.equal(takesSpecialisedPath(schema), true);
    valid += instances.length - sameAnswers(schema, instances);
    for (const instance of instances) {
      if (compileSchema(schema).validate(instance).errors.some((e) => /^\/[^/]+\/\d+\/[^/]+/.test(e.instancePath))) deep++;
    }
  }), { numRuns: Math.ceil(RUNS / 2), seed: 3131 });
  assert.ok(deep > RUNS / 20, `only ${deep} instances had an error inside an item's property`);
  assert.ok(valid > RUNS / 8, `only ${valid} valid instances`);
});

test('the trajectory tool (bench fixture): specialised, and the general path\'s verdict and errors on instances of its shape', () => {
  const trajectory = JSON.parse(readFileSync(repoPath('bench/fixtures/schemas', 'trajectory.json'), 'utf8')) as Record<string, unknown>;
  assert.equal(takesSpecialisedPath(trajectory), true);
  let invalid = 0;
  let total = 0;
  fc.assert(fc.property(fc.array(instanceOf(trajectory, 2), { minLength: 1, maxLength: 4 }), (instances) => {
    invalid += sameAnswers(trajectory, instances);
    total += instances.length;
  }), { numRuns: Math.ceil(RUNS / 3), seed: 31031 });
  assert.ok(invalid > total / 10 && invalid < total * 0.9, `${invalid} of ${total} instances invalid`);
});
