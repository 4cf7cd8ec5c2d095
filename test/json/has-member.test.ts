/** hasMemberNamed: the plain scan that lets $ref and x-mcp-header checks skip their schema walk. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { hasMemberNamed } from '../../src/json/has-member.js';
import { scanHeaderAnnotations } from '../../src/protocol/x-mcp-header.js';
import { checkSchema, SchemaCompileError } from '../../src/schema/index.js';

/** Reference: recursive search of every object member. */
function reference(value: unknown, key: string): boolean {
  if (Array.isArray(value)) return value.some((item) => reference(item, key));
  if (typeof value !== 'object' || value === null) return false;
  if (Object.prototype.hasOwnProperty.call(value, key)) return true;
  return Object.values(value).some((member) => reference(member, key));
}

describe('hasMemberNamed', () => {
  it('finds a member at any depth, inside objects and arrays', () => {
    assert.equal(hasMemberNamed({ $ref: '#' }, '$ref'), true);
    assert.equal(hasMemberNamed({ properties: { a: { items: [{ type: 'string' }, { $ref: '#/$defs/x' }] } } }, '$ref'), true);
    assert.equal(hasMemberNamed([[{ deep: [{ $ref: 1 }] }]], '$ref'), true);
  });

  it('is false for scalars, for the key as a value, and for inherited members', () => {
    assert.equal(hasMemberNamed('$ref', '$ref'), false);
    assert.equal(hasMemberNamed(null, '$ref'), false);
    assert.equal(hasMemberNamed({ enum: ['$ref'], description: '$ref' }, '$ref'), false);
    assert.equal(hasMemberNamed(Object.create({ $ref: '#' }) as object, '$ref'), false);
    assert.equal(hasMemberNamed({}, 'constructor'), false);
  });

  it('does not recurse: a 100,000-level document is scanned', () => {
    let deep: unknown = { $ref: '#' };
    for (let i = 0; i < 100_000; i++) deep = i % 2 === 0 ? { a: deep } : [deep];
    assert.equal(hasMemberNamed(deep, '$ref'), true);
    assert.equal(hasMemberNamed(deep, 'x-mcp-header'), false);
  });

  it('agrees with a recursive reference on arbitrary JSON', () => {
    const key = fc.constantFrom('$ref', 'x-mcp-header', 'a');
    fc.assert(fc.property(fc.jsonValue({ maxDepth: 6 }), key, (value, name) => hasMemberNamed(value, name) === reference(value, name)), { seed: 31, numRuns: 500 });
  });
});

describe('the checks that skip their walk when the document lacks the keyword', () => {
  it('still refuses an unresolvable $ref, and still finds x-mcp-header problems', () => {
    assert.throws(() => checkSchema({ type: 'object', properties: { a: { $ref: '#/$defs/missing' } } }), (error: unknown) => error instanceof SchemaCompileError && error.schemaPath === '/properties/a/$ref');
    const scan = scanHeaderAnnotations({ type: 'object', properties: { region: { type: 'object', 'x-mcp-header': 'Region' } } });
    assert.deepEqual(scan.problems.map((p) => p.code), ['unsupported-type']);
  });

  it('finds nothing in a schema whose only mention is a value, not a member', () => {
    const scan = scanHeaderAnnotations({ type: 'object', properties: { name: { type: 'string', enum: ['x-mcp-header'], default: 'x-mcp-header' } } });
    assert.deepEqual(scan, { annotations: [], problems: [] });
    assert.equal(checkSchema({ type: 'object', properties: { ref: { const: '$ref' } } }), '2020-12');
  });
});
