// The keyword table of the lowering (src/host/lowering/table.ts) is complete and obeyed: every row has
// a sample here, every keyword a profile lists or the schema walker descends into has a row, and
// lowering each sample under every profile reports the keyword exactly as its row says.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lowerInputSchema, PROFILES } from '../../src/host/index.js';
import type { LoweringPolicy, LossEntry } from '../../src/host/index.js';
import { KEYWORDS, providerTakes, ruleOf } from '../../src/host/lowering/table.js';
import { SUBSCHEMA_KEYWORDS } from '../../src/schema/index.js';

type Json = Record<string, unknown>;

/** One subschema per row, holding that keyword (typed, so strict profiles judge its keywords). */
const SAMPLES: Readonly<Record<string, Json>> = {
  $schema: { type: 'string', $schema: 'https://json-schema.org/draft/2020-12/schema' },
  $id: { type: 'string', $id: 'urn:example:p' },
  $comment: { type: 'string', $comment: 'why' },
  $anchor: { type: 'string', $anchor: 'here' },
  $dynamicAnchor: { type: 'string', $dynamicAnchor: 'node' },
  $vocabulary: { type: 'string', $vocabulary: { 'https://json-schema.org/draft/2020-12/vocab/core': true } },
  $ref: { $ref: '#/$defs/D' },
  $dynamicRef: { type: 'string', $dynamicRef: '#node' },
  $defs: { type: 'object', properties: {}, $defs: { E: { type: 'string' } } },
  definitions: { type: 'object', properties: {}, definitions: { E: { type: 'string' } } },
  allOf: { type: 'object', allOf: [{ properties: { a: { type: 'string' } } }] },
  anyOf: { anyOf: [{ type: 'string' }, { type: 'integer' }] },
  oneOf: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
  not: { type: 'string', not: { type: 'string', maxLength: 0 } },
  if: { type: 'string', if: { type: 'string', minLength: 3 } },
  then: { type: 'string', then: { type: 'string', pattern: '^a' } },
  else: { type: 'string', else: { type: 'string', pattern: '^b' } },
  properties: { type: 'object', properties: { a: { type: 'string' } } },
  patternProperties: { type: 'object', properties: {}, patternProperties: { '^a': { type: 'string' } } },
  additionalProperties: { type: 'object', properties: {}, additionalProperties: false },
  propertyNames: { type: 'object', properties: {}, propertyNames: { type: 'string', maxLength: 3 } },
  items: { type: 'array', items: { type: 'string' } },
  prefixItems: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'integer' }] },
  additionalItems: { type: 'array', items: { type: 'string' }, additionalItems: false },
  contains: { type: 'array', items: { type: 'string' }, contains: { type: 'string', const: 'x' } },
  dependentSchemas: { type: 'object', properties: {}, dependentSchemas: { a: { required: ['b'] } } },
  dependencies: { type: 'object', properties: {}, dependencies: { a: ['b'] } },
  unevaluatedItems: { type: 'array', items: { type: 'string' }, unevaluatedItems: false },
  unevaluatedProperties: { type: 'object', properties: {}, unevaluatedProperties: false },
  type: { type: 'boolean' },
  enum: { type: 'string', enum: ['a', 'b'] },
  const: { type: 'string', const: 'a' },
  multipleOf: { type: 'number', multipleOf: 0.5 },
  maximum: { type: 'number', maximum: 9 },
  exclusiveMaximum: { type: 'number', exclusiveMaximum: 9 },
  minimum: { type: 'number', minimum: 1 },
  exclusiveMinimum: { type: 'number', exclusiveMinimum: 1 },
  maxLength: { type: 'string', maxLength: 8 },
  minLength: { type: 'string', minLength: 1 },
  pattern: { type: 'string', pattern: '^[a-z]+$' },
  maxItems: { type: 'array', items: { type: 'string' }, maxItems: 4 },
  minItems: { type: 'array', items: { type: 'string' }, minItems: 1 },
  uniqueItems: { type: 'array', items: { type: 'string' }, uniqueItems: true },
  maxContains: { type: 'array', items: { type: 'string' }, maxContains: 2 },
  minContains: { type: 'array', items: { type: 'string' }, minContains: 1 },
  maxProperties: { type: 'object', properties: {}, maxProperties: 3 },
  minProperties: { type: 'object', properties: {}, minProperties: 1 },
  required: { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
  dependentRequired: { type: 'object', properties: {}, dependentRequired: { a: ['b'] } },
  format: { type: 'string', format: 'date-time' },
  contentEncoding: { type: 'string', contentEncoding: 'base64' },
  contentMediaType: { type: 'string', contentMediaType: 'application/json' },
  contentSchema: { type: 'string', contentSchema: { type: 'object' } },
  title: { type: 'string', title: 'P' },
  description: { type: 'string', description: 'A p.' },
  default: { type: 'string', default: 'z' },
  examples: { type: 'string', examples: ['z'] },
  deprecated: { type: 'string', deprecated: true },
  readOnly: { type: 'string', readOnly: true },
  writeOnly: { type: 'string', writeOnly: true },
  nullable: { type: 'string', nullable: true },
  'x-mcp-header': { type: 'string', 'x-mcp-header': 'Region' },
  'x-*': { type: 'string', 'x-vendor-hint': 'fast' },
};

/** Every distinct lowering policy of the profiles, named. */
const POLICIES: ReadonlyArray<[string, LoweringPolicy]> = Object.values(PROFILES).flatMap((profile) => {
  const modes = profile.supportsStrict ? [false, true] : [false];
  return modes.map((strict): [string, LoweringPolicy] => [`${profile.name}${strict ? ' strict' : ''}`, profile.policy(strict)]);
});

/** The keyword a sample carries for its row (`x-*` stands for any extension). */
const keywordOf = (row: string): string => (row === 'x-*' ? 'x-vendor-hint' : row);

function lowerSample(sample: Json, policy: LoweringPolicy): { entries: LossEntry[]; lowered: Json } {
  const input = { type: 'object', properties: { p: sample }, required: ['p'], $defs: { D: { type: 'string' } } };
  const result = lowerInputSchema(input, policy, 'sample');
  const properties = result.schema.properties as Json;
  return { entries: result.loss.filter((e) => e.pointer === '/properties/p'), lowered: (properties.p ?? {}) as Json };
}

test('keyword table: every row has a sample, and every keyword a profile keeps or the walker descends into has a row', () => {
  assert.deepEqual(Object.keys(SAMPLES).sort(), Object.keys(KEYWORDS).sort());
  const kept = new Set(POLICIES.flatMap(([, policy]) => [...(policy.keep ?? [])]));
  const walked = new Set(Object.values(SUBSCHEMA_KEYWORDS).flatMap((map) => [...map.keys()]));
  const missing = [...kept, ...walked].filter((k) => !Object.prototype.hasOwnProperty.call(KEYWORDS, k));
  assert.deepEqual(missing, []);
  // Extensions fall to the x-* row, anything else to a describe row.
  assert.equal(ruleOf('x-anything'), KEYWORDS['x-*']);
  assert.equal(ruleOf('madeUpKeyword').lower, 'describe');
});

for (const [name, policy] of POLICIES) {
  test(`keyword table under ${name}: every keyword of the table is reported, with the action its row gives`, () => {
    for (const [row, sample] of Object.entries(SAMPLES)) {
      const keyword = keywordOf(row);
      const rule = KEYWORDS[row]!;
      const { entries, lowered } = lowerSample(sample, policy);
      const mine = entries.filter((e) => e.keyword === keyword);
      assert.ok(mine.length > 0, `${row}: no loss entry at /properties/p in ${JSON.stringify(entries)}`);
      if (rule.lower === 'drop') {
        assert.deepEqual(mine, [{ pointer: '/properties/p', keyword, action: 'dropped', note: rule.note }], row);
        assert.equal(keyword in lowered, false, `${row} is not sent`);
        continue;
      }
      if (rule.pass !== undefined) continue; // reshaped by its own pass; the pass tests check how
      if (policy.keep === undefined || (providerTakes(keyword, policy) && rule.unsupportedValue?.(sample[keyword], policy) === undefined)) {
        assert.deepEqual(mine.map((e) => e.action), ['kept'], row);
        assert.deepEqual(lowered[keyword], sample[keyword], `${row} is sent as it is`);
      } else if (rule.lower === 'reject-in-strict' && policy.strictObjects) {
        assert.deepEqual(mine, [{ pointer: '/properties/p', keyword, action: 'rejected', note: rule.note }], row);
      } else {
        assert.deepEqual(mine.map((e) => e.action), ['moved-into-description'], row);
        assert.equal(keyword in lowered, false, `${row} leaves the schema`);
        assert.ok(String(lowered.description).includes(`${keyword}: ${JSON.stringify(sample[keyword])}`), `${row} is stated in ${String(lowered.description)}`);
      }
    }
  });
}

test('keyword table: a value the provider cannot take moves into the description with the reason of its row', () => {
  const cases: ReadonlyArray<[string, LoweringPolicy, Json, string]> = [
    ['format', PROFILES['openai-chat'].policy(true), { type: 'string', format: 'uri' }, 'format "uri" is not in the provider\'s list'],
    ['pattern', PROFILES['openai-chat'].policy(true), { type: 'string', pattern: '^(?=a)' }, 'regex features the provider does not support (lookaround, backreferences, ...)'],
    ['pattern', PROFILES.anthropic.policy(true), { type: 'string', pattern: '\\bword' }, 'regex features the provider does not support (lookaround, backreferences, ...)'],
    ['minItems', PROFILES.anthropic.policy(true), { type: 'array', items: { type: 'string' }, minItems: 2 }, 'only minItems 0..1 is supported'],
    ['enum', PROFILES['gemini-legacy'].policy(false), { type: 'integer', enum: [1, 2] }, 'only string enums are accepted'],
  ];
  for (const [keyword, policy, sample, note] of cases) {
    const { entries, lowered } = lowerSample(sample, policy);
    assert.deepEqual(entries.filter((e) => e.keyword === keyword), [{ pointer: '/properties/p', keyword, action: 'moved-into-description', note }]);
    assert.equal(keyword in lowered, false);
    assert.match(String(lowered.description), new RegExp(`${keyword}: `));
  }
});

test('gemini-legacy: an authored `nullable` is reported (it was missing from the loss report); one the lowering makes is not', () => {
  const policy = PROFILES['gemini-legacy'].policy(false);
  const authored = lowerSample({ type: 'string', nullable: true }, policy);
  assert.deepEqual(authored.entries.filter((e) => e.keyword === 'nullable'), [{ pointer: '/properties/p', keyword: 'nullable', action: 'kept' }]);
  assert.deepEqual(authored.lowered, { type: 'STRING', nullable: true });
  const hoisted = lowerSample({ anyOf: [{ type: 'string' }, { type: 'null' }] }, policy);
  assert.deepEqual(hoisted.entries.filter((e) => e.keyword === 'nullable' || e.keyword === 'anyOf'),
    [{ pointer: '/properties/p', keyword: 'anyOf', action: 'kept', note: 'null alternative sent as nullable: true' }]);
  assert.deepEqual(hoisted.lowered, { nullable: true, type: 'STRING' });
});
