import { test } from 'node:test';
import assert from 'node:assert/strict';
import { detectDialect, SchemaCompileError } from '../../src/schema/index.js';

test('no $schema and boolean schemas are 2020-12', () => {
  assert.equal(detectDialect({ type: 'string' }), '2020-12');
  assert.equal(detectDialect(true), '2020-12');
});

test('the three supported meta-schema URIs select their dialect, with or without a trailing "#"', () => {
  assert.equal(detectDialect({ $schema: 'https://json-schema.org/draft/2020-12/schema' }), '2020-12');
  assert.equal(detectDialect({ $schema: 'https://json-schema.org/draft/2020-12/schema#' }), '2020-12');
  assert.equal(detectDialect({ $schema: 'https://json-schema.org/draft/2019-09/schema' }), '2019-09');
  assert.equal(detectDialect({ $schema: 'http://json-schema.org/draft-07/schema#' }), 'draft-07');
  assert.equal(detectDialect({ $schema: 'http://json-schema.org/draft-07/schema' }), 'draft-07');
});

test('any other $schema is refused at /$schema, never read as 2020-12', () => {
  for (const uri of ['http://json-schema.org/draft-04/schema#', 'https://json-schema.org/draft/2021-01/schema', 'http://json-schema.org/draft-07/schema##']) {
    assert.throws(() => detectDialect({ $schema: uri }), (error: unknown) => {
      assert.ok(error instanceof SchemaCompileError);
      assert.equal(error.schemaPath, '/$schema');
      assert.equal(error.message, `invalid schema at /$schema: unsupported dialect ${JSON.stringify(uri)}; use https://json-schema.org/draft/2020-12/schema (the default when "$schema" is absent), https://json-schema.org/draft/2019-09/schema or http://json-schema.org/draft-07/schema#`);
      return true;
    });
  }
});

test('a non-string $schema is refused', () => {
  assert.throws(() => detectDialect({ $schema: 7 }), { name: 'SchemaCompileError', message: 'invalid schema at /$schema: "$schema" must be a string URI, got 7' });
});

test('a custom meta-schema registered in remotes is accepted when built on a supported dialect', () => {
  const meta = {
    $schema: 'https://json-schema.org/draft/2020-12/schema', $id: 'http://example.test/meta',
    $vocabulary: { 'https://json-schema.org/draft/2020-12/vocab/core': true, 'https://json-schema.org/draft/2020-12/vocab/applicator': true },
  };
  assert.equal(detectDialect({ $schema: 'http://example.test/meta' }, { 'http://example.test/meta': meta }), '2020-12');
});

test('a custom meta-schema requiring an unknown vocabulary, or built on an unsupported dialect, is refused', () => {
  const unknownVocab = { $schema: 'https://json-schema.org/draft/2020-12/schema', $vocabulary: { 'https://example.test/vocab/magic': true } };
  assert.throws(() => detectDialect({ $schema: 'http://example.test/meta' }, { 'http://example.test/meta': unknownVocab }),
    { message: 'invalid schema at /$schema: custom meta-schema "http://example.test/meta" requires unknown vocabulary "https://example.test/vocab/magic"' });
  const optionalVocab = { $schema: 'https://json-schema.org/draft/2020-12/schema', $vocabulary: { 'https://example.test/vocab/magic': false } };
  assert.equal(detectDialect({ $schema: 'http://example.test/meta' }, { 'http://example.test/meta': optionalVocab }), '2020-12');
  const onDraft4 = { $schema: 'http://json-schema.org/draft-04/schema#' };
  assert.throws(() => detectDialect({ $schema: 'http://example.test/meta' }, { 'http://example.test/meta': onDraft4 }),
    { message: /unsupported dialect "http:\/\/json-schema.org\/draft-04\/schema#"/ });
  const selfReferential = { $schema: 'http://example.test/meta' };
  assert.throws(() => detectDialect({ $schema: 'http://example.test/meta' }, { 'http://example.test/meta': selfReferential }),
    { message: 'invalid schema at /$schema: custom meta-schema "http://example.test/meta" must itself declare a supported "$schema"' });
});
