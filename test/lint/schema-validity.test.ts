import { test } from 'node:test';
import assert from 'node:assert/strict';
import { findSchemaProblem } from '../../src/lint/schema-validity.js';

test('findSchemaProblem: an unresolvable local $ref deep in the schema is the problem, with its pointer', () => {
  const problem = findSchemaProblem({ type: 'object', properties: { path: { type: 'array', items: { $ref: '#/$defs/point' } } } });
  assert.ok(problem !== undefined);
  assert.equal(problem.schemaPath, '/properties/path/items/$ref');
  assert.equal(problem.message, 'invalid schema at /properties/path/items/$ref: cannot resolve $ref "#/$defs/point": no such location in this document');
});

test('findSchemaProblem: a $ref to a missing anchor is the problem', () => {
  const problem = findSchemaProblem({ $defs: { a: { $ref: '#nowhere' } } });
  assert.equal(problem?.schemaPath, '/$defs/a/$ref');
  assert.equal(problem?.message, 'invalid schema at /$defs/a/$ref: cannot resolve $ref "#nowhere": no $anchor "nowhere" in this document');
});

test('findSchemaProblem: resolving references and schemas without any are valid', () => {
  assert.equal(findSchemaProblem({ $defs: { point: { type: 'number' } }, items: { $ref: '#/$defs/point' } }), undefined);
  assert.equal(findSchemaProblem({ type: 'object', properties: { x: { type: 'number', default: 1 } } }), undefined);
  // A "$ref" member inside a const value is data, not a reference.
  assert.equal(findSchemaProblem({ const: { $ref: '#/nowhere' } }), undefined);
});

test('findSchemaProblem: data nested past the size limit is reported by the limit check, not a stack overflow', () => {
  let value: unknown = 0;
  for (let i = 0; i < 100_000; i++) value = [value];
  assert.match(findSchemaProblem({ const: value })?.message ?? '', /schema nests deeper than \d+ JSON levels/);
});
