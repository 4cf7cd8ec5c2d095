import { test } from 'node:test';
import assert from 'node:assert/strict';
import { escapePointerToken, unescapePointerToken, resolvePointer } from '../../src/schema/index.js';

test('escapePointerToken escapes "~" before "/" (RFC 6901)', () => {
  assert.equal(escapePointerToken('a/b~c'), 'a~1b~0c');
  assert.equal(escapePointerToken('~1'), '~01');
  assert.equal(escapePointerToken('plain'), 'plain');
  assert.equal(unescapePointerToken('~01'), '~1');
  assert.equal(unescapePointerToken(escapePointerToken('x/~/y')), 'x/~/y');
});

test('resolvePointer follows objects and arrays, accepts the "#" fragment form', () => {
  const doc = { $defs: { 'a/b': { items: [{ type: 'string' }, { 'x~y': 1 }] } }, '': 'empty' };
  assert.equal(resolvePointer(doc, ''), doc);
  assert.deepEqual(resolvePointer(doc, '/$defs/a~1b/items/0'), { type: 'string' });
  assert.equal(resolvePointer(doc, '/$defs/a~1b/items/1/x~0y'), 1);
  assert.equal(resolvePointer(doc, '#/$defs/a~1b/items/1/x~0y'), 1);
  assert.equal(resolvePointer(doc, '#/%24defs/a~1b/items/1/x~0y'), 1);
  assert.equal(resolvePointer(doc, '/'), 'empty');
});

test('resolvePointer returns undefined for missing, malformed or inherited steps', () => {
  const doc = { a: [1, 2], b: {} };
  assert.equal(resolvePointer(doc, '/a/2'), undefined);
  assert.equal(resolvePointer(doc, '/a/01'), undefined);
  assert.equal(resolvePointer(doc, '/a/-'), undefined);
  assert.equal(resolvePointer(doc, '/b/toString'), undefined);
  assert.equal(resolvePointer(doc, 'a'), undefined);
  assert.equal(resolvePointer(doc, '/a/0/x'), undefined);
  assert.equal(resolvePointer(doc, '#%E0%A4%A'), undefined);
});
