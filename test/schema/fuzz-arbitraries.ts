// Arbitraries for the fuzz differential test: small JSON values and small schemas built from the
// fast path's keywords.
import fc from 'fast-check';

const names = fc.constantFrom('a', 'b', 'c', 'constructor', 'x y');
const scalar = fc.oneof(fc.constantFrom(0, 1, 2.5, -3, 0.3, 10, 1e21, '', 'a', 'ab', 'aaa!', 'b1', true, false, null));
export const json: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true },
    scalar,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(names, tie('value'), { maxKeys: 4, noNullPrototype: true })),
})).value;

// Each node gets 1-3 keywords, so the schemas stay small however deep the recursion goes.
export const schema: fc.Arbitrary<object | boolean> = fc.letrec<{ schema: object | boolean; node: object; entry: [string, unknown] }>((tie) => ({
  schema: fc.oneof({ depthSize: 'small', maxDepth: 3 }, fc.boolean(), tie('node'), tie('node'), tie('node')),
  node: fc.array(tie('entry'), { minLength: 1, maxLength: 3 }).map((entries) => Object.fromEntries(entries)),
  entry: fc.oneof(
    fc.tuple(fc.constant('type'), fc.constantFrom<unknown>('string', 'number', 'integer', 'object', 'array', 'boolean', 'null', ['string', 'number'], ['object', 'null'])),
    fc.tuple(fc.constant('properties'), fc.dictionary(names, tie('schema'), { maxKeys: 2, noNullPrototype: true })),
    fc.tuple(fc.constant('required'), fc.uniqueArray(names, { maxLength: 2 })),
    fc.tuple(fc.constant('additionalProperties'), tie('schema')),
    fc.tuple(fc.constant('patternProperties'), fc.dictionary(fc.constantFrom('^a', 'b$', '^(a+)+$'), tie('schema'), { maxKeys: 1, noNullPrototype: true })),
    fc.tuple(fc.constant('propertyNames'), fc.record({ maxLength: fc.nat(3) })),
    fc.tuple(fc.constantFrom('minProperties', 'maxProperties', 'minItems', 'maxItems', 'minLength', 'maxLength', 'minContains', 'maxContains'), fc.nat(3)),
    fc.tuple(fc.constant('dependentRequired'), fc.dictionary(names, fc.uniqueArray(names, { maxLength: 2 }), { maxKeys: 1, noNullPrototype: true })),
    fc.tuple(fc.constant('dependentSchemas'), fc.dictionary(names, tie('schema'), { maxKeys: 1, noNullPrototype: true })),
    fc.tuple(fc.constantFrom('items', 'contains', 'not', 'if', 'then', 'else'), tie('schema')),
    fc.tuple(fc.constant('prefixItems'), fc.array(tie('schema'), { minLength: 1, maxLength: 2 })),
    fc.tuple(fc.constant('uniqueItems'), fc.boolean()),
    fc.tuple(fc.constantFrom('minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'), fc.constantFrom(-3, -1, 0, 2, 2.5, 10, 1e21)),
    fc.tuple(fc.constant('multipleOf'), fc.constantFrom(0.1, 0.5, 2, 3)),
    fc.tuple(fc.constant('pattern'), fc.constantFrom('^a', '\\d', '^(a+)+!$', '^[a-z]*$')),
    fc.tuple(fc.constant('enum'), fc.array(scalar, { minLength: 1, maxLength: 3 })),
    fc.tuple(fc.constant('const'), json),
    fc.tuple(fc.constantFrom('allOf', 'anyOf', 'oneOf'), fc.array(tie('schema'), { minLength: 1, maxLength: 2 })),
  ) as fc.Arbitrary<[string, unknown]>,
})).schema;


const DIALECTS = [undefined, 'https://json-schema.org/draft/2019-09/schema', 'http://json-schema.org/draft-07/schema#'] as const;

/** A whole document: a random body, a definition reached through `$ref`, a recursive `$ref: "#"`, in a random dialect. */
export const document: fc.Arbitrary<object> = fc.tuple(schema, schema, fc.constantFrom(...DIALECTS), fc.boolean()).map(([body, definition, dialect, recursive]) => {
  const defs = dialect === 'http://json-schema.org/draft-07/schema#' ? 'definitions' : '$defs';
  return {
    ...(dialect === undefined ? {} : { $schema: dialect }),
    [defs]: { d: definition },
    allOf: [body],
    properties: { r: { $ref: `#/${defs}/d` }, ...(recursive ? { self: { $ref: '#' } } : {}) },
  };
});
