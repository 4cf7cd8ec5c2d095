import { test } from 'node:test';
import assert from 'node:assert/strict';
import { exactIdText, idJson } from '../../src/protocol/json-rpc.js';

const read = (text: string): string | undefined => exactIdText(text, (JSON.parse(text) as { id?: unknown }).id);

test('an id above 2^53 is kept as the exact text the client sent', () => {
  assert.equal(read('{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}'), '9007199254740993');
  assert.equal(read('{ "method": "x", "params": {"id": 1, "a": ["}", {"id": 2}]}, "id" : 123456789012345678901234567890 }'), '123456789012345678901234567890');
  assert.equal(read('{"id":-9007199254740993}'), '-9007199254740993');
  assert.equal(read('{"id":1,"id":18446744073709551617}'), '18446744073709551617', 'the last id wins, as in JSON.parse');
  assert.equal(read('{"k":"a\\"id\\":5","id":9007199254740995}'), '9007199254740995', 'an "id" inside a string is not a member');
  assert.equal(idJson(9007199254740992, '9007199254740993'), '9007199254740993');
});

test('safe, absent or string ids need no exact text', () => {
  assert.equal(read('{"id":42}'), undefined);
  assert.equal(read('{"id":"9007199254740993"}'), undefined);
  assert.equal(read('{"method":"x"}'), undefined);
  assert.equal(idJson(42), '42');
  assert.equal(idJson('a"b'), '"a\\"b"');
  assert.equal(idJson(undefined), 'null');
});
