// The lowering is a pure function of (inputSchema, policy): it never writes to its input (a
// deep-frozen input lowers the same as a plain one), a second run gives the same bytes, and the
// result shares nothing with the input, so a caller may change it freely.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { HostError, lowerInputSchema, PROFILES } from '../../src/host/index.js';
import type { LoweringPolicy } from '../../src/host/index.js';
import { NODE_PASSES } from '../../src/host/lowering/passes.js';
import { TREE_PASSES } from '../../src/host/lowering/schema.js';

type Json = Record<string, unknown>;

const POLICIES: ReadonlyArray<[string, LoweringPolicy]> = Object.values(PROFILES).flatMap((profile) =>
  (profile.supportsStrict ? [false, true] : [false]).map((strict): [string, LoweringPolicy] => [`${profile.name}${strict ? ' strict' : ''}`, profile.policy(strict)]));

const name = fc.constantFrom('a', 'b', 'kind', 'x-y', 'n.m', 'a/b');

// Shapes every pass reacts to: refs (recursive, to definitions, with siblings, external), allOf,
// oneOf, null branches, tuples, const, untyped nodes, extensions, maps, boolean schemas.
const schemaArb = fc.letrec<{ schema: unknown }>((tie) => ({
  schema: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom<unknown>(
      { type: 'string', minLength: 1, format: 'uri', pattern: '^(?=a)' }, { type: 'integer', minimum: 0, multipleOf: 2 }, { type: ['string', 'null'] },
      { enum: [1, 'two', null] }, { const: 3 }, { const: 'k' }, {}, true, false, { type: 'array' }, { type: 'object' },
      { $ref: '#/$defs/Leaf' }, { $ref: '#/$defs/Tree' }, { $ref: '#' }, { $ref: '#/definitions/Old' }, { $ref: 'https://example.com/s' },
      { $ref: '#/$defs/Leaf', description: 'with a sibling' }, { type: 'string', nullable: true, 'x-mcp-header': 'H', $comment: 'c' },
    ),
    fc.record({ type: fc.constant('object'), properties: fc.dictionary(name, tie('schema'), { maxKeys: 3 }), required: fc.array(name, { maxLength: 2 }) }, { requiredKeys: ['properties'] }),
    fc.record({ type: fc.constant('object'), additionalProperties: fc.oneof(fc.boolean(), tie('schema')), patternProperties: fc.constant({ '^a': { type: 'string' } }) }, { requiredKeys: ['additionalProperties'] }),
    fc.record({ type: fc.constant('array'), items: fc.oneof(tie('schema'), fc.constant(false)), prefixItems: fc.array(tie('schema'), { maxLength: 2 }), minItems: fc.nat(3) }, { requiredKeys: ['items'] }),
    fc.record({ anyOf: fc.array(tie('schema'), { minLength: 1, maxLength: 2 }).map((branches) => [...branches, { type: 'null' }]) }),
    fc.record({ oneOf: fc.array(tie('schema'), { minLength: 1, maxLength: 3 }), description: fc.constant('either') }, { requiredKeys: ['oneOf'] }),
    fc.record({ allOf: fc.array(tie('schema'), { minLength: 1, maxLength: 2 }), type: fc.constantFrom('object', 'number') }, { requiredKeys: ['allOf'] }),
    fc.record({ if: tie('schema'), then: tie('schema'), not: tie('schema') }, { requiredKeys: ['if'] }),
  ),
}));

const rootArb = fc.record({
  properties: fc.dictionary(name, schemaArb.schema, { maxKeys: 4 }),
  required: fc.array(name, { maxLength: 3 }),
  oneOf: fc.option(fc.array(fc.record({ required: fc.array(name, { maxLength: 2 }), properties: fc.dictionary(name, schemaArb.schema, { maxKeys: 2 }) }), { minLength: 1, maxLength: 3 }), { nil: undefined }),
  allOf: fc.option(fc.array(schemaArb.schema, { maxLength: 2 }), { nil: undefined }),
  $schema: fc.constantFrom(undefined, 'http://json-schema.org/draft-07/schema#'),
}, { requiredKeys: ['properties'] }).map((root) => {
  const schema: Json = {
    type: 'object',
    $defs: { Leaf: { type: 'string', maxLength: 5 }, Tree: { type: 'object', properties: { label: { type: 'string' }, kids: { type: 'array', items: { $ref: '#/$defs/Tree' } } } } },
    definitions: { Old: { type: 'object', properties: { o: { $ref: '#/definitions/Old' } } } },
  };
  for (const [key, value] of Object.entries(root)) if (value !== undefined) schema[key] = value;
  // A subschema shared by reference, as authored code produces: it must lower like two separate copies.
  schema.properties = { ...(schema.properties as Json), shared: (schema.$defs as Json).Leaf, again: (schema.$defs as Json).Leaf };
  return schema;
});

function freezeDeep<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const child of Object.values(value)) freezeDeep(child);
    Object.freeze(value);
  }
  return value;
}

/** Every object and array inside a JSON value. */
function objectsIn(value: unknown, into = new Set<object>()): Set<object> {
  if (typeof value === 'object' && value !== null) {
    into.add(value);
    for (const child of Object.values(value)) objectsIn(child, into);
  }
  return into;
}

/** The lowering's outcome as text: the result, or the HostError it refused with. */
function outcome(schema: Json, policy: LoweringPolicy): string {
  try {
    return JSON.stringify(lowerInputSchema(schema, policy, 'random_tool'));
  } catch (error) {
    if (error instanceof HostError) return `HostError ${error.code}: ${error.message}`;
    throw error;
  }
}

for (const [label, policy] of POLICIES) {
  test(`lowering under ${label} never writes to its input and is deterministic (deep-frozen input, two runs)`, () => {
    fc.assert(fc.property(rootArb, (input) => {
      const before = JSON.stringify(input);
      const plain = outcome(input, policy);
      assert.equal(JSON.stringify(input), before, 'a plain input is left as it was');
      assert.equal(Object.isFrozen(input), false, 'the caller\'s input is not frozen by the lowering');
      // Frozen: any write would throw a TypeError (ESM is strict mode), which fails the property.
      const frozen = freezeDeep(structuredClone(input));
      assert.equal(outcome(frozen, policy), plain, 'a deep-frozen input lowers to the same bytes');
      assert.equal(outcome(input, policy), plain, 'a second run gives the same bytes');
    }), { numRuns: 60, seed: 20261201 });
  });
}

test('the lowered schema shares no object with the input, and changing it changes no later lowering', () => {
  fc.assert(fc.property(rootArb, fc.constantFrom(...POLICIES), (input, [, policy]) => {
    let lowered;
    try { lowered = lowerInputSchema(input, policy, 'random_tool'); } catch (error) { if (error instanceof HostError) return; throw error; }
    const mine = objectsIn(input);
    for (const object of objectsIn(lowered.schema)) assert.equal(mine.has(object), false, 'an input object is reused in the output');
    assert.equal(Object.isFrozen(lowered.schema), false, 'the result is the caller\'s to change');
    const first = JSON.stringify(lowerInputSchema(input, policy, 'random_tool'));
    (lowered.schema as Json).properties = { injected: { type: 'string' } };
    lowered.loss.push({ pointer: '', keyword: 'injected', action: 'added' });
    assert.equal(JSON.stringify(lowerInputSchema(input, policy, 'random_tool')), first);
  }), { numRuns: 60, seed: 7 });
});

test('the pipeline: tree passes and node passes run in one declared order, each named once', () => {
  assert.deepEqual(TREE_PASSES.map((p) => p.name), ['reject recursion', 'flatten root composition', 'lower every node', 'root properties']);
  const names = NODE_PASSES.map((p) => p.name);
  assert.equal(new Set(names).size, names.length);
  assert.deepEqual(names.slice(0, 2), ['resolve $ref', 'register origins'], 'origins are registered right after $ref, before any reshaping');
  assert.equal(names.at(-1), 'notes into the description', 'notes are written once every pass has added its own');
});

test('a node pass that writes to the node it is given fails at once (every node a pass sees is frozen)', () => {
  const writer = { name: 'writes in place', applies: () => true, run: (_cx: unknown, schema: Json) => { schema.description = 'changed'; return schema; } };
  const passes = NODE_PASSES as unknown as Array<typeof writer>;
  passes.push(writer);
  try {
    assert.throws(() => lowerInputSchema({ type: 'object', properties: { a: { type: 'string' } } }, PROFILES.anthropic.policy(false), 't'),
      (error: unknown) => error instanceof TypeError && /read only|read-only|not extensible|Cannot assign/.test(error.message));
  } finally {
    passes.pop();
  }
  assert.equal(NODE_PASSES.at(-1)!.name, 'notes into the description');
});

test('a property named "__proto__" (hostile but valid JSON) stays a property through every profile', () => {
  const input = JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string","minLength":1},"b":{"type":"integer"}},"required":["b"]}') as Json;
  for (const [label, policy] of POLICIES) {
    const { schema } = lowerInputSchema(input, policy, 't');
    const properties = schema.properties as Json;
    assert.deepEqual(Object.keys(properties), ['__proto__', 'b'], label);
    assert.equal(Object.getPrototypeOf(properties), Object.prototype, label);
    assert.equal(Object.getOwnPropertyDescriptor(properties, '__proto__')?.enumerable, true, label);
  }
});
