import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileSchema, formatSchemaErrors, SchemaCompileError } from '../../src/schema/index.js';
import type { CompileOptions } from '../../src/schema/index.js';

function refusal(schema: object | boolean, options?: CompileOptions): SchemaCompileError {
  try {
    compileSchema(schema, options);
  } catch (error) {
    assert.ok(error instanceof SchemaCompileError, `expected SchemaCompileError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected compileSchema to throw');
}

const grasp = {
  type: 'object',
  properties: {
    target_position: { type: 'object', properties: { x: { type: 'number' }, y: { type: 'number' }, z: { type: 'number' } }, required: ['x', 'y', 'z'], additionalProperties: false },
    force: { type: 'number', minimum: 5, maximum: 30, default: 15 },
    grasp_strategy: { type: 'string', enum: ['pinch', 'power', 'precision'] },
    timeout: { type: 'number', exclusiveMinimum: 0 },
  },
  required: ['target_position', 'grasp_strategy'],
  additionalProperties: false,
};

// Rule 1: dialects.
test('rule 1: no $schema validates as 2020-12 (prefixItems applies)', () => {
  const compiled = compileSchema({ prefixItems: [{ type: 'string' }], items: false });
  assert.equal(compiled.dialect, '2020-12');
  assert.equal(compiled.validate(['a']).valid, true);
  assert.deepEqual(compiled.validate([1]).errors.map((e) => e.message), ['/0: expected string, got number 1']);
  assert.equal(compiled.validate(['a', 'b']).valid, false);
});

test('rule 1: draft-07 ignores keywords beside $ref, uses definitions and array items + additionalItems', () => {
  const schema = {
    $schema: 'http://json-schema.org/draft-07/schema#',
    definitions: { small: { type: 'integer', maximum: 10 } },
    properties: { n: { $ref: '#/definitions/small', minimum: 5 }, pair: { items: [{ type: 'string' }, { type: 'number' }], additionalItems: false } },
  };
  const compiled = compileSchema(schema);
  assert.equal(compiled.dialect, 'draft-07');
  assert.equal(compiled.validate({ n: 2 }).valid, true, 'minimum beside $ref is ignored in draft-07');
  assert.deepEqual(compiled.validate({ n: 11 }).errors.map((e) => e.message), ['/n: expected number <= 10, got number 11']);
  assert.equal(compiled.validate({ pair: ['a', 1] }).valid, true);
  assert.equal(compiled.validate({ pair: ['a', 1, true] }).valid, false);
  assert.equal(compiled.validate({ pair: [1, 1] }).valid, false);
  // The same $ref read as 2020-12 applies the sibling minimum.
  const as2020 = { $defs: { small: { type: 'integer', maximum: 10 } }, properties: { n: { $ref: '#/$defs/small', minimum: 5 } } };
  assert.equal(compileSchema(as2020).validate({ n: 2 }).valid, false);
});

test('rule 1: 2019-09 is honoured (array items + additionalItems still exist there)', () => {
  const compiled = compileSchema({ $schema: 'https://json-schema.org/draft/2019-09/schema', items: [{ type: 'string' }], additionalItems: false });
  assert.equal(compiled.dialect, '2019-09');
  assert.equal(compiled.validate(['a']).valid, true);
  assert.equal(compiled.validate(['a', 'b']).valid, false);
});

test('rule 1: any other $schema is refused at compile time', () => {
  const error = refusal({ $schema: 'http://json-schema.org/draft-04/schema#', type: 'string' });
  assert.equal(error.schemaPath, '/$schema');
  assert.match(error.message, /^invalid schema at \/\$schema: unsupported dialect "http:\/\/json-schema.org\/draft-04\/schema#"; use /);
});

test('a non-schema value is refused', () => {
  for (const [value, got] of [[null, 'null'], [[], 'array'], ['string', 'string'], [3, 'number']] as const) {
    const error = refusal(value as unknown as object);
    assert.equal(error.message, `invalid schema at /: a schema must be an object or a boolean, got ${got}`);
  }
});

// Rule 2: meta-schema.
test('rule 2: a schema that breaks its meta-schema is refused with the path of the problem', () => {
  const cases: Array<[object, string, string]> = [
    [{ type: 'strin' }, '/type', '"type" must be one of array, boolean, integer, null, number, object, string, got string "strin"'],
    [{ properties: { force: { minimum: '5' } } }, '/properties/force/minimum', '"minimum" must be a number, got string "5"'],
    [{ required: ['a', 'a'] }, '/required/1', '"required" must be an array of unique strings, got string "a"'],
    [{ required: 'a' }, '/required', '"required" must be an array of unique strings, got string "a"'],
    [{ anyOf: [] }, '/anyOf', '"anyOf" must be a non-empty array of schemas, got array (0 items)'],
    [{ properties: { a: 3 } }, '/properties/a', '"properties" must be a schema (object or boolean), got number 3'],
    [{ maxLength: -1 }, '/maxLength', '"maxLength" must be a non-negative integer, got number -1'],
    [{ minItems: 1.5 }, '/minItems', '"minItems" must be a non-negative integer, got number 1.5'],
    [{ multipleOf: 0 }, '/multipleOf', '"multipleOf" must be a number greater than 0, got number 0'],
    [{ enum: 'a' }, '/enum', '"enum" must be an array, got string "a"'],
    [{ items: [{}] }, '/items', '"items" must be a schema (object or boolean), got array (1 item)'],
    [{ $defs: { a: { type: ['string', 'string'] } } }, '/$defs/a/type/1', '"type" must be a list without duplicates, got string "string"'],
    [{ $anchor: '1bad' }, '/$anchor', '"$anchor" must be a plain name (letters, digits, "-", "_", "."), got string "1bad"'],
    [{ $id: 'http://x.test/a#frag' }, '/$id', '"$id" must be a URI without a non-empty fragment, got string "http://x.test/a#frag"'],
    [{ dependentRequired: { a: [1] } }, '/dependentRequired/a/0', '"dependentRequired" must be an array of strings, got number 1'],
    [{ $schema: 'http://json-schema.org/draft-07/schema#', dependencies: { a: 5 } }, '/dependencies/a', '"dependencies" must be a schema or an array of property names, got number 5'],
  ];
  for (const [schema, path, problem] of cases) {
    const error = refusal(schema);
    assert.equal(error.schemaPath, path, JSON.stringify(schema));
    assert.equal(error.message, `invalid schema at ${path}: ${problem}`);
  }
});

test('rule 2: keywords unknown to a dialect are not checked by it (draft-07 "$anchor" is just an unknown keyword)', () => {
  assert.equal(compileSchema({ $schema: 'http://json-schema.org/draft-07/schema#', $anchor: 3 }).validate(1).valid, true);
});

// Rule 3: $ref resolution.
test('rule 3: $ref resolves inside the document, against remotes and against built-in meta-schemas', () => {
  const local = compileSchema({ $defs: { pos: { type: 'number' } }, properties: { x: { $ref: '#/$defs/pos' } } });
  assert.equal(local.validate({ x: 'a' }).valid, false);
  const remote = compileSchema({ properties: { x: { $ref: 'http://example.test/num.json' } } }, { remotes: { 'http://example.test/num.json': { type: 'number' } } });
  assert.equal(remote.validate({ x: 1 }).valid, true);
  assert.deepEqual(remote.validate({ x: 'a' }).errors.map((e) => e.message), ['/x: expected number, got string "a"']);
  const meta = compileSchema({ $ref: 'https://json-schema.org/draft/2020-12/schema' });
  assert.equal(meta.validate({ type: 'string' }).valid, true);
  assert.equal(meta.validate({ type: 'strin' }).valid, false);
});

test('rule 3: an unresolvable $ref is a compile error, and nothing is fetched', () => {
  const remoteCases: Array<[object, string, string]> = [
    [{ $ref: 'https://schemas.example.invalid/missing.json' }, '/$ref', 'cannot resolve $ref "https://schemas.example.invalid/missing.json": not in this document, not in remotes, not a built-in meta-schema (nothing is fetched)'],
    [{ properties: { a: { $ref: 'http://127.0.0.1:9/evil.json' } } }, '/properties/a/$ref', 'cannot resolve $ref "http://127.0.0.1:9/evil.json": not in this document, not in remotes, not a built-in meta-schema (nothing is fetched)'],
    [{ $ref: '#/$defs/missing' }, '/$ref', 'cannot resolve $ref "#/$defs/missing": no such location in this document'],
    [{ properties: { a: { $ref: '#nowhere' } } }, '/properties/a/$ref', 'cannot resolve $ref "#nowhere": no $anchor "nowhere" in this document'],
  ];
  for (const [schema, path, problem] of remoteCases) {
    const error = refusal(schema);
    assert.equal(error.schemaPath, path);
    assert.equal(error.message, `invalid schema at ${path}: ${problem}`);
  }
});

// Rule 4: limits.
test('rule 4: a 5,000-level schema is a clear compile error, not a stack overflow', () => {
  let schema: object = { type: 'string' };
  for (let i = 0; i < 5000; i++) schema = { properties: { a: schema } };
  const error = refusal(schema);
  assert.equal(error.schemaPath, '/properties/a'.repeat(65));
  assert.match(error.message, /^invalid schema at \/properties\/a[/pa-z]*\/\.\.\.\/[/pa-z]+: schema nesting depth exceeds maxDepth 64$/);
  assert.ok(error.message.length < 300);
});

test('rule 4: deep literals, too many subschemas and custom limits are refused', () => {
  let literal: unknown = 1;
  for (let i = 0; i < 5000; i++) literal = [literal];
  assert.match(refusal({ const: literal }).message, /: schema nests deeper than 144 JSON levels \(limit derived from maxDepth 64\)$/);
  const wide = { properties: Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`p${i}`, {}])) };
  assert.equal(refusal(wide, { maxNodes: 10 }).message, 'invalid schema at /properties/p9: schema has more than maxNodes 10 subschemas');
  assert.equal(refusal({ properties: { a: { properties: { b: {} } } } }, { maxDepth: 1 }).message, 'invalid schema at /properties/a/properties/b: schema nesting depth exceeds maxDepth 1');
  assert.equal(compileSchema({ properties: { a: {} } }, { maxDepth: 1 }).validate({ a: 1 }).valid, true);
});

// Rule 5: hostile patterns.
test('rule 5: "^(a+)+$" runs on the linear-time engine, so a hostile string cannot stall validation', () => {
  const compiled = compileSchema({ type: 'string', pattern: '^(a+)+$' });
  assert.equal(compiled.validate('a'.repeat(40)).valid, true);
  // On a backtracking engine this input takes ~2^5000 steps; finishing at all proves linear matching.
  const result = compiled.validate(`${'a'.repeat(5000)}!`);
  assert.equal(result.valid, false);
  assert.equal(result.errors[0]!.keyword, 'pattern');
  assert.equal(compileSchema({ patternProperties: { '^(a|aa)+$': { type: 'number' } } }).validate({ [`${'a'.repeat(3000)}`]: 'x' }).valid, false);
});

test('rule 5: risky patterns the linear engine cannot express are refused; invalid patterns are refused', () => {
  assert.equal(refusal({ pattern: '^(a+)+\\1$' }).message, 'invalid schema at /pattern: "^(a+)+\\\\1$" has nested or stacked quantifiers (catastrophic backtracking risk) and cannot run on the linear-time engine: backreferences cannot run in linear time; rewrite it without nested repetition');
  assert.equal(refusal({ pattern: '(?=x)(a*)*' }).schemaPath, '/pattern');
  assert.equal(refusal({ pattern: '(a' }).message, 'invalid schema at /pattern: "(a" is not a valid ECMAScript regular expression (Invalid regular expression: /(a/u: Unterminated group)');
  assert.equal(refusal({ patternProperties: { '[': {} } }).schemaPath, '/patternProperties/[');
});

// Rule 6: messages.
test('rule 6: the grasp tool reports each problem once, with path, expectation and what was found', () => {
  const compiled = compileSchema(grasp);
  assert.equal(compiled.engine, 'fast');
  assert.equal(compiled.validate({ target_position: { x: 0.42, y: 0, z: 0.1 }, grasp_strategy: 'pinch' }).valid, true);
  const result = compiled.validate({ target_position: { x: '0.42', y: 0 }, force: 45, grasp_strategy: 'claw', speed: 3 });
  assert.equal(result.valid, false);
  assert.deepEqual(result.errors, [
    { instancePath: '', keyword: 'additionalProperties', message: '/: unexpected property "speed"', schemaPath: '#/additionalProperties' },
    { instancePath: '/target_position', keyword: 'required', message: '/target_position: missing required property "z"', schemaPath: '#/properties/target_position/required' },
    { instancePath: '/target_position/x', keyword: 'type', message: '/target_position/x: expected number, got string "0.42"', schemaPath: '#/properties/target_position/properties/x/type' },
    { instancePath: '/force', keyword: 'maximum', message: '/force: expected number <= 30, got number 45', schemaPath: '#/properties/force/maximum' },
    { instancePath: '/grasp_strategy', keyword: 'enum', message: '/grasp_strategy: expected one of ["pinch","power","precision"], got string "claw"', schemaPath: '#/properties/grasp_strategy/enum' },
  ]);
  assert.equal(formatSchemaErrors(result.errors), [
    '/: unexpected property "speed"', '/target_position: missing required property "z"', '/target_position/x: expected number, got string "0.42"',
    '/force: expected number <= 30, got number 45', '/grasp_strategy: expected one of ["pinch","power","precision"], got string "claw"',
  ].join('\n'));
  assert.equal(JSON.stringify(result), JSON.stringify({ valid: false, errors: result.errors }));
});

test('rule 6: anyOf/oneOf/if-then fold into one error each; long values are truncated', () => {
  const compiled = compileSchema({
    type: 'object',
    properties: {
      a: { anyOf: [{ type: 'string' }, { type: 'number' }] },
      b: { oneOf: [{ type: 'object', properties: { k: { const: 'x' } }, required: ['k'] }, { type: 'object', properties: { k: { const: 'y' }, v: { type: 'number' } }, required: ['k', 'v'] }] },
      c: { type: 'string', maxLength: 3 },
      d: { if: { properties: { mode: { const: 'fast' } } }, then: { required: ['speed'] }, else: { required: ['force'] } },
      e: { oneOf: [{ type: 'number' }, { type: 'integer' }] },
    },
  });
  const errors = compiled.validate({ a: true, b: { k: 'y', v: '1' }, c: 'x'.repeat(200), d: { mode: 'fast' }, e: 3 }).errors;
  assert.deepEqual(errors.map((e) => [e.keyword, e.message]), [
    ['anyOf', '/a: expected string or number, got boolean true'],
    ['oneOf', '/b: expected a value matching exactly one of the oneOf alternatives, got object {"k":"y","v":"1"}; closest is alternative #1: /b/v: expected number, got string "1"'],
    ['maxLength', `/c: expected string of at most 3 characters, got string "${'x'.repeat(56)}... (200 characters)`],
    ['required', '/d: missing required property "speed"'],
    ['oneOf', '/e: expected exactly one oneOf alternative to match, but alternatives #0 and #1 both match number 3'],
  ]);
});

test('rule 6: the compliant engine speaks the same language', () => {
  const compiled = compileSchema({ $defs: { pos: { $anchor: 'pos', type: 'object', properties: { x: { type: 'number' } }, unevaluatedProperties: false } }, properties: { target_position: { $ref: '#pos' } }, required: ['target_position'] });
  assert.equal(compiled.engine, 'compliant');
  assert.deepEqual(compiled.validate({ target_position: { x: '0.42' } }).errors.map((e) => e.message), ['/target_position/x: expected number, got string "0.42"']);
  assert.deepEqual(compiled.validate({}).errors.map((e) => e.message), ['/: missing required property "target_position"']);
  assert.deepEqual(compiled.validate({ target_position: { x: 1, speed: 3 } }).errors.map((e) => e.keyword), ['unevaluatedProperties']);
});

test('format is an annotation by default and an assertion with formatAssertion: true', () => {
  assert.equal(compileSchema({ format: 'email' }).validate('nope').valid, true);
  const asserted = compileSchema({ format: 'email' }, { formatAssertion: true });
  assert.deepEqual(asserted.validate('nope').errors.map((e) => [e.keyword, e.message]), [['format', '/: expected a valid email, got string "nope"']]);
  assert.equal(asserted.validate('a@b.example').valid, true);
});

test('inherited names ("constructor", "__proto__") never satisfy required or properties', () => {
  const compiled = compileSchema({ required: ['constructor', 'toString'] });
  assert.equal(compiled.validate({}).valid, false);
  assert.equal(compiled.validate({ constructor: 1, toString: 2 }).valid, true);
  const proto = compileSchema(JSON.parse('{"properties": {"__proto__": {"type": "number"}}}') as object);
  assert.equal(proto.validate(JSON.parse('{"__proto__": "x"}')).valid, false);
});

// Rule 7: caching.
test('rule 7: compiled validators are cached by identity and by content', () => {
  const a = compileSchema(grasp);
  assert.equal(compileSchema(grasp), a);
  assert.equal(compileSchema(structuredClone(grasp)), a);
  assert.notEqual(compileSchema(grasp, { formatAssertion: true }), a);
  const withRemotes = { remotes: { 'http://example.test/n.json': { type: 'number' } } };
  const r = compileSchema({ $ref: 'http://example.test/n.json' }, withRemotes);
  assert.equal(r.validate('x').valid, false);
});

test('boolean schemas', () => {
  assert.equal(compileSchema(true).validate(1).valid, true);
  assert.deepEqual(compileSchema(false).validate(1).errors.map((e) => e.message), ['/: no value is allowed here, got number 1']);
});

test('validate never throws: a recursive schema meeting a too-deep instance fails closed', () => {
  let deep: unknown = 1;
  for (let i = 0; i < 200_000; i++) deep = [deep];
  for (const schema of [{ items: { $ref: '#' } }, { $defs: { n: { $dynamicAnchor: 'n', items: { $dynamicRef: '#n' } } }, $ref: '#/$defs/n' }]) {
    // The validation budget refuses it before any engine recurses ...
    const compiled = compileSchema(schema);
    assert.deepEqual(compiled.validate(deep), { valid: false, errors: [{ instancePath: '', keyword: 'budget', message: '/: value is nested deeper than 1000 levels: too deep to validate within the budget', schemaPath: '#' }] }, compiled.engine);
    // ... and with the budget lifted, the engine's stack overflow still fails closed.
    const unbounded = compileSchema(schema, { maxInstanceDepth: Number.MAX_SAFE_INTEGER });
    const result = unbounded.validate(deep);
    assert.deepEqual(result, { valid: false, errors: [{ instancePath: '', keyword: 'validation', message: '/: value is nested too deeply to validate', schemaPath: '#' }] }, unbounded.engine);
  }
});

test('checkSchema runs every pre-build check without building a validator', async () => {
  const { checkSchema } = await import('../../src/schema/index.js');
  assert.equal(checkSchema({ type: 'string' }), '2020-12');
  assert.equal(checkSchema({ $schema: 'http://json-schema.org/draft-07/schema#' }), 'draft-07');
  assert.throws(() => checkSchema({ type: 'strin' }), { name: 'SchemaCompileError', message: 'invalid schema at /type: "type" must be one of array, boolean, integer, null, number, object, string, got string "strin"' });
  assert.throws(() => checkSchema([]), { message: 'invalid schema at /: a schema must be an object or a boolean, got array' });
  assert.throws(() => checkSchema({ $ref: '#/$defs/x' }), { message: 'invalid schema at /$ref: cannot resolve $ref "#/$defs/x": no such location in this document' });
  assert.throws(() => checkSchema({ properties: { a: { properties: { b: {} } } } }, { maxDepth: 1 }), { message: 'invalid schema at /properties/a/properties/b: schema nesting depth exceeds maxDepth 1' });
  assert.throws(() => checkSchema({ $schema: 'http://example.test/nope' }), { message: /^invalid schema at \/\$schema: unsupported dialect "http:\/\/example.test\/nope"/ });
});

test("engine: 'compliant' forces the interpreter, with the same verdicts and messages", () => {
  const compliant = compileSchema(grasp, { engine: 'compliant' });
  assert.equal(compliant.engine, 'compliant');
  assert.notEqual(compliant, compileSchema(grasp));
  assert.deepEqual(compliant.validate({ target_position: { x: '0.42', y: 0, z: 0 }, grasp_strategy: 'pinch' }).errors.map((e) => e.message), ['/target_position/x: expected number, got string "0.42"']);
  assert.equal(compliant.validate({ target_position: { x: 0.42, y: 0, z: 0 }, grasp_strategy: 'pinch' }).valid, true);
});
