import { test } from 'node:test';
import assert from 'node:assert/strict';
import { walkSchema } from '../../src/schema/index.js';
import type { SchemaVisit } from '../../src/schema/index.js';

function pointers(schema: object | boolean, options?: Parameters<typeof walkSchema>[2], skip?: (v: SchemaVisit) => boolean): string[] {
  const out: string[] = [];
  walkSchema(schema, (v) => { out.push(v.pointer); return skip?.(v) ? 'skip' : undefined; }, options);
  return out;
}

test('pre-order, document order, with keyword, depth and parent', () => {
  const schema = {
    type: 'object',
    properties: { target_position: { type: 'object', properties: { x: { type: 'number' }, 'a/b': true } }, force: { type: 'number' } },
    $defs: { pos: { $ref: '#/properties/target_position' } },
    anyOf: [{ required: ['force'] }, false],
  };
  const visits: SchemaVisit[] = [];
  walkSchema(schema, (v) => { visits.push(v); });
  assert.deepEqual(visits.map((v) => v.pointer), [
    '', '/$defs/pos', '/anyOf/0', '/anyOf/1', '/properties/target_position', '/properties/target_position/properties/x',
    '/properties/target_position/properties/a~1b', '/properties/force',
  ]);
  const x = visits.find((v) => v.pointer === '/properties/target_position/properties/x')!;
  assert.equal(x.keyword, 'properties');
  assert.equal(x.depth, 2);
  assert.equal(x.parent?.pointer, '/properties/target_position');
  assert.equal(x.parent?.parent?.pointer, '');
  assert.equal(visits[0]!.keyword, undefined);
  assert.equal(visits[0]!.parent, undefined);
});

test("'skip' stops descent below that node only", () => {
  const schema = { properties: { a: { properties: { deep: {} } }, b: {} } };
  assert.deepEqual(pointers(schema, undefined, (v) => v.pointer === '/properties/a'), ['', '/properties/a', '/properties/b']);
});

test('knows each dialect: draft-07 array items + additionalItems + dependencies; 2020-12 prefixItems, unevaluated*, contentSchema', () => {
  const d7 = { items: [{ type: 'string' }, {}], additionalItems: false, dependencies: { a: ['b'], c: { required: ['d'] } }, if: {}, then: {}, else: {} };
  assert.deepEqual(pointers(d7, { dialect: 'draft-07' }), ['', '/if', '/then', '/else', '/dependencies/c', '/items/0', '/items/1', '/additionalItems']);
  const d2020 = { prefixItems: [{}], items: false, unevaluatedItems: false, unevaluatedProperties: {}, contentSchema: {}, dependentSchemas: { a: {} }, propertyNames: {}, contains: {}, not: {}, patternProperties: { '^x': {} }, additionalProperties: true };
  assert.deepEqual(pointers(d2020), ['', '/not', '/patternProperties/^x', '/additionalProperties', '/propertyNames', '/contains', '/prefixItems/0', '/items', '/dependentSchemas/a', '/unevaluatedItems', '/unevaluatedProperties', '/contentSchema']);
  // additionalItems is not a 2020-12 keyword; unevaluatedItems is not a draft-07 one.
  assert.deepEqual(pointers({ additionalItems: {} }), ['']);
  assert.deepEqual(pointers({ unevaluatedItems: {} }, { dialect: 'draft-07' }), ['']);
});

test('does not follow $ref, ignores non-schema values and unknown keywords', () => {
  assert.deepEqual(pointers({ $ref: '#/$defs/a', $defs: { a: { $ref: '#' } }, properties: { p: 3 }, allOf: 'x', foo: { type: 'string' }, enum: [{}] }), ['', '/$defs/a']);
});

test('an embedded resource declaring another dialect is walked with that dialect', () => {
  const schema = { $defs: { old: { $schema: 'http://json-schema.org/draft-07/schema#', $id: 'http://x.test/old', items: [{}], additionalItems: {} } } };
  assert.deepEqual(pointers(schema), ['', '/$defs/old', '/$defs/old/items/0', '/$defs/old/additionalItems']);
});

test('is iterative: a 100,000-level schema walks without a stack overflow', () => {
  let schema: object = { type: 'string' };
  for (let i = 0; i < 100_000; i++) schema = { not: schema };
  let deepest = 0;
  walkSchema(schema, (v) => { deepest = Math.max(deepest, v.depth); });
  assert.equal(deepest, 100_000);
});

test("without a dialect option, the root's $schema picks the dialect", () => {
  const d7 = { $schema: 'http://json-schema.org/draft-07/schema#', items: [{}], additionalItems: {} };
  assert.deepEqual(pointers(d7), ['', '/items/0', '/additionalItems']);
  assert.deepEqual(pointers(d7, { dialect: '2020-12' }), ['', '/items/0']);
});
