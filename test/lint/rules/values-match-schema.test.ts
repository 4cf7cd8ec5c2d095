import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lintTools } from '../../../src/lint/engine.js';
import { defaultValid, examplesValid } from '../../../src/lint/rules/spec/values-match-schema.js';
import { oneShotValidator } from '../../../src/lint/schema-validity.js';

// The rule decides simple scalar cases without compiling a validator; these cases sit on the edges
// of that shortcut, and each must come out exactly as the schema engine alone decides it.
const cases: Array<{ name: string; schema: Record<string, unknown>; value: unknown; valid: boolean; root?: Record<string, unknown> }> = [
  { name: 'number inside bounds', schema: { type: 'number', minimum: 0, maximum: 1 }, value: 0.5, valid: true },
  { name: 'number on the maximum', schema: { type: 'number', maximum: 1 }, value: 1, valid: true },
  { name: 'number above the maximum', schema: { type: 'number', maximum: 1 }, value: 1.5, valid: false },
  { name: 'number below the minimum', schema: { type: 'number', minimum: 5 }, value: 4, valid: false },
  { name: 'number on the exclusive maximum', schema: { type: 'number', exclusiveMaximum: 1 }, value: 1, valid: false },
  { name: 'number on the exclusive minimum', schema: { type: 'number', exclusiveMinimum: 0 }, value: 0, valid: false },
  { name: 'fraction for an integer', schema: { type: 'integer' }, value: 1.5, valid: false },
  { name: '1.0 for an integer', schema: { type: 'integer' }, value: 1.0, valid: true },
  { name: 'string for a number', schema: { type: 'number' }, value: '5', valid: false },
  { name: 'null in a type list', schema: { type: ['string', 'null'] }, value: null, valid: true },
  { name: 'boolean for a type list without it', schema: { type: ['string', 'null'] }, value: true, valid: false },
  { name: 'enum member', schema: { type: 'string', enum: ['a', 'b'] }, value: 'b', valid: true },
  { name: 'not an enum member', schema: { type: 'string', enum: ['a', 'b'] }, value: 'c', valid: false },
  { name: 'const mismatch', schema: { const: 3 }, value: 4, valid: false },
  { name: 'string at maxLength', schema: { type: 'string', maxLength: 3 }, value: 'abc', valid: true },
  { name: 'string over maxLength', schema: { type: 'string', maxLength: 3 }, value: 'abcd', valid: false },
  { name: 'astral characters count once for maxLength', schema: { type: 'string', maxLength: 2 }, value: '\u{1F916}\u{1F916}', valid: true },
  { name: 'astral characters count once for minLength', schema: { type: 'string', minLength: 3 }, value: '\u{1F916}\u{1F916}', valid: false },
  { name: 'pattern goes to the engine', schema: { type: 'string', pattern: '^a' }, value: 'b', valid: false },
  { name: 'multipleOf goes to the engine', schema: { type: 'number', multipleOf: 2 }, value: 3, valid: false },
  { name: 'object value goes to the engine', schema: { type: 'object', required: ['x'] }, value: {}, valid: false },
  { name: 'draft-07 root goes to the engine (valid)', root: { $schema: 'http://json-schema.org/draft-07/schema#' }, schema: { type: 'number', exclusiveMaximum: 1 }, value: 0.5, valid: true },
  { name: 'draft-07 root goes to the engine (invalid)', root: { $schema: 'http://json-schema.org/draft-07/schema#' }, schema: { type: 'number', exclusiveMaximum: 1 }, value: 1, valid: false },
];

function toolWith(schema: Record<string, unknown>, value: unknown, keyword: 'default' | 'examples', root: Record<string, unknown> = {}): Record<string, unknown> {
  const property = keyword === 'default' ? { ...schema, default: value } : { ...schema, examples: [value] };
  return { name: 'set_value', description: 'Sets the value.', inputSchema: { ...root, type: 'object', properties: { v: property } } };
}

for (const c of cases) {
  for (const keyword of ['default', 'examples'] as const) {
    test(`${keyword}: ${c.name}`, () => {
      const rule = keyword === 'default' ? defaultValid : examplesValid;
      const findings = lintTools([toolWith(c.schema, c.value, keyword, c.root)], { rules: [rule] }).findings;
      const engine = oneShotValidator({ ...c.root, ...c.schema });
      assert.ok(engine !== undefined, 'the case schema compiles');
      assert.equal(engine(c.value).length === 0, c.valid, 'the schema engine agrees with the expectation');
      if (c.valid) {
        assert.deepEqual(findings, []);
        return;
      }
      assert.equal(findings.length, 1);
      const pointer = keyword === 'default' ? '/inputSchema/properties/v/default' : '/inputSchema/properties/v/examples/0';
      assert.equal(findings[0]!.pointer, pointer);
      assert.match(findings[0]!.message, new RegExp(`does not match its own schema: ${engine(c.value)[0]!.message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
    });
  }
}

test('examples: one bad example among good ones is reported with its index', () => {
  const tool = { name: 'set_speed', description: 'Sets the speed.', inputSchema: { type: 'object', properties: { s: { type: 'number', maximum: 1, examples: [0.2, 3, 0.9] } } } };
  const findings = lintTools([tool], { rules: [examplesValid] }).findings;
  assert.deepEqual(findings.map((f) => f.pointer), ['/inputSchema/properties/s/examples/1']);
  assert.match(findings[0]!.message, /^example #1 3 does not match its own schema: /);
});
