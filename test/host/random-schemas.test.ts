import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { checkProviderTool, HostError, mapTool } from '../../src/host/index.js';
import type { ToolDescriptor } from '../../src/host/index.js';
import { VARIANTS } from './corpus.js';

// Any 2020-12 input schema a server might publish: every profile either produces output that
// passes that provider's checker, or refuses with a HostError naming the reason. Never a crash,
// never output the provider would reject.

const name = fc.constantFrom('a', 'b', 'c', 'd', 'kind', 'x-y', 'n.m');

const schemaArb = fc.letrec<{ schema: unknown }>((tie) => ({
  schema: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom<unknown>(
      { type: 'string' }, { type: 'integer', minimum: 0 }, { type: 'number', exclusiveMinimum: 0 }, { type: 'boolean' }, { type: 'null' },
      { type: ['string', 'null'] }, { enum: ['p', 'q'] }, { enum: [1, 'two', null] }, { const: 3 }, { const: 'k' }, {}, true,
      { type: 'string', format: 'uri', pattern: '^(?=a)' }, { type: 'string', minLength: 2, default: 'zz' },
      { $ref: '#/$defs/Leaf' }, { $ref: '#/$defs/Tree' }, { $ref: '#' }, { type: 'array' }, { type: 'object' },
    ),
    fc.record({ type: fc.constant('object'), properties: fc.dictionary(name, tie('schema'), { maxKeys: 3 }), required: fc.array(name, { maxLength: 2 }) },
      { requiredKeys: ['properties'] }),
    fc.record({ type: fc.constant('object'), additionalProperties: fc.oneof(fc.boolean(), tie('schema')), propertyNames: fc.constant({ maxLength: 3 }) },
      { requiredKeys: ['additionalProperties'] }),
    fc.record({ type: fc.constant('array'), items: tie('schema'), prefixItems: fc.array(tie('schema'), { maxLength: 2 }), uniqueItems: fc.boolean(), minItems: fc.nat(3) },
      { requiredKeys: ['items'] }),
    fc.record({ anyOf: fc.array(tie('schema'), { minLength: 1, maxLength: 3 }) }),
    fc.record({ oneOf: fc.array(tie('schema'), { minLength: 1, maxLength: 3 }), description: fc.constant('either') }, { requiredKeys: ['oneOf'] }),
    fc.record({ allOf: fc.array(tie('schema'), { minLength: 1, maxLength: 2 }) }),
    fc.record({ if: tie('schema'), then: tie('schema'), not: tie('schema') }, { requiredKeys: ['if'] }),
    fc.record({ $ref: fc.constant('#/$defs/Leaf'), description: fc.constant('with a sibling') }),
  ),
}));

const rootArb = fc.record({
  properties: fc.dictionary(name, schemaArb.schema, { maxKeys: 4 }),
  required: fc.array(name, { maxLength: 3 }),
  additionalProperties: fc.option(fc.boolean(), { nil: undefined }),
  oneOf: fc.option(fc.array(fc.record({ required: fc.array(name, { maxLength: 2 }), properties: fc.dictionary(name, schemaArb.schema, { maxKeys: 2 }) }), { minLength: 1, maxLength: 3 }), { nil: undefined }),
  allOf: fc.option(fc.array(schemaArb.schema, { maxLength: 2 }), { nil: undefined }),
}, { requiredKeys: ['properties'] }).map((root) => {
  const schema: Record<string, unknown> = {
    type: 'object',
    $defs: { Leaf: { type: 'string', maxLength: 5 }, Tree: { type: 'object', properties: { label: { type: 'string' }, kids: { type: 'array', items: { $ref: '#/$defs/Tree' } } } } },
  };
  for (const [key, value] of Object.entries(root)) if (value !== undefined) schema[key] = value;
  return schema;
});

for (const variant of VARIANTS) {
  test(`random schemas through ${variant.id}: checker-clean output or a HostError, never a crash`, () => {
    const outcomes = { mapped: 0, refused: 0 };
    const refusal = new RegExp(`^tool "random_tool" cannot be sent to ${variant.options.provider}( in strict mode)?: (.+)$`);
    fc.assert(fc.property(rootArb, (inputSchema) => {
      const tool: ToolDescriptor = { name: 'random_tool', description: 'Random.', inputSchema };
      let mapped: ReturnType<typeof mapTool>;
      try {
        mapped = mapTool(tool, variant.options);
      } catch (error) {
        if (!(error instanceof HostError)) throw error;
        outcomes.refused++;
        assert.equal(error.code, 'unmappable_tool');
        assert.equal(error.tool, 'random_tool');
        // The refusal lists what the provider would reject: one "<pointer into the provider JSON>: <why>" per problem.
        const problems = refusal.exec(error.message)?.[2];
        assert.ok(problems, error.message);
        for (const problem of problems.split('; ')) assert.match(problem, /^\/[^ ]*: \S/, error.message);
        return;
      }
      outcomes.mapped++;
      assert.deepEqual(checkProviderTool(variant.options.provider, mapped.json), []);
      for (const entry of mapped.loss) assert.equal(typeof entry.pointer, 'string');
    }), { numRuns: 150, seed: 99 });
    // Every run is counted, and some schemas must map, or the checker half of the property is never tested.
    assert.equal(outcomes.mapped + outcomes.refused, 150);
    assert.ok(outcomes.mapped > 0, `no random schema mapped through ${variant.id}`);
  });
}
