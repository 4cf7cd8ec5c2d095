// Upstream bugs the fuzz differential test found, and how each engine is corrected. Every case runs
// on both engines: the verdict must be the spec's, whichever engine the schema lands on.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileSchema } from '../../src/schema/index.js';

function onBoth(schema: object, instance: unknown, valid: boolean, label: string): void {
  for (const engine of ['auto', 'compliant'] as const) {
    const compiled = compileSchema(schema, { engine });
    const result = compiled.validate(instance);
    assert.equal(result.valid, valid, `${label} (${compiled.engine}): ${JSON.stringify(result.errors)}`);
    if (!valid) assert.notEqual(result.errors[0]!.keyword, 'validation', `${label}: engine crashed instead of validating`);
  }
}

test('Ajv: contains under a loop no longer accepts an empty array after a matching one', () => {
  onBoth({ items: { contains: { type: 'number' } } }, [[1], []], false, 'items/contains');
  onBoth({ additionalProperties: { contains: { type: 'array' } } }, { x: [[]], a: [] }, false, 'additionalProperties/contains');
  onBoth({ items: { contains: { type: 'number' } } }, [[1], ['x', 2]], true, 'items/contains valid');
  onBoth({ items: { contains: { const: 1 }, minContains: 2, maxContains: 3 } }, [[1, 1], [1, 1, 1, 1]], false, 'maxContains');
  onBoth({ items: { contains: { const: 1 }, minContains: 0, maxContains: 1 } }, [[], [2]], true, 'minContains 0');
});

test('Ajv: anyOf + always-valid patternProperties + nested anyOf no longer throws', () => {
  const schema = { allOf: [{ anyOf: [{ patternProperties: { '^a': true }, anyOf: [{ type: 'number', properties: { 'x y': true } }] }] }] };
  onBoth(schema, { a: false }, false, 'anyOf/patternProperties');
  onBoth({ anyOf: [{ patternProperties: { '^a': true } }, { type: 'number' }] }, { a: 1 }, true, 'anyOf/patternProperties valid');
});

test('json-schema-library: maximum 0, boolean contains with min/maxContains, draft-07 ignores minContains', () => {
  onBoth({ maximum: 0 }, 2.5, false, 'maximum 0');
  onBoth({ maximum: 0 }, 0, true, 'maximum 0 boundary');
  onBoth({ contains: true, minContains: 3 }, [1, 2], false, 'contains true + minContains');
  onBoth({ contains: true, maxContains: 1 }, [1, 2], false, 'contains true + maxContains');
  onBoth({ contains: false, minContains: 0 }, [1], true, 'contains false + minContains 0');
  onBoth({ $schema: 'http://json-schema.org/draft-07/schema#', contains: { const: 1 }, minContains: 2 }, [1], true, 'draft-07 minContains');
});

test('json-schema-library: inherited names are not properties ("constructor", "toString", "__proto__")', () => {
  onBoth({ properties: {} }, { constructor: 0, toString: 1 }, true, 'properties lookup');
  onBoth({ dependentRequired: { b: ['constructor'] } }, { b: 1 }, false, 'dependentRequired');
  onBoth({ $schema: 'http://json-schema.org/draft-07/schema#', dependencies: { b: ['toString'] } }, { b: 1 }, false, 'dependencies');
  onBoth(JSON.parse('{"properties": {"__proto__": {"type": "number"}}}') as object, JSON.parse('{"__proto__": "x"}'), false, '__proto__');
});

test('json-schema-library: "_id" is an ordinary property; empty patternProperties keeps additionalProperties: false', () => {
  onBoth({ additionalProperties: false }, { _id: 1 }, false, '_id');
  onBoth({ additionalProperties: false, patternProperties: {} }, { a: 0 }, false, 'empty patternProperties');
});

test('the compliant engine words dependency errors like the fast one', () => {
  const schema = { $schema: 'http://json-schema.org/draft-07/schema#', dependencies: { b: ['toString', 'c'] } };
  const messages = (engine: 'auto' | 'compliant') => compileSchema(schema, { engine }).validate({ b: 1 }).errors.map((e) => `${e.keyword} ${e.message}`).sort();
  assert.deepEqual(messages('compliant'), messages('auto'));
  assert.deepEqual(messages('auto'), ['dependencies /: missing property "c" (required when "b" is present)', 'dependencies /: missing property "toString" (required when "b" is present)']);
});
