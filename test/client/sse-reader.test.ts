import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SseReader } from '../../src/client/index.js';

describe('SseReader', () => {
  it('joins data lines, strips one leading space, ignores comments and other fields', () => {
    const reader = new SseReader();
    assert.deepEqual(reader.push(': keep-alive\nevent: message\nid: 7\ndata: {"a":\ndata:  1}\n\n'), ['{"a":\n 1}']);
  });

  it('handles CR, LF and CRLF line ends, including a CRLF split across chunks', () => {
    const reader = new SseReader();
    assert.deepEqual(reader.push('data: one\r'), []);
    assert.deepEqual(reader.push('\n\r\ndata: two\r\rdata: three\n'), ['one', 'two']);
    assert.deepEqual(reader.push('\n'), ['three']);
  });

  it('emits nothing for an event without data and keeps an incomplete event for later', () => {
    const reader = new SseReader();
    assert.deepEqual(reader.push('event: ping\n\ndata: partial'), []);
    assert.deepEqual(reader.push('\n\n'), ['partial']);
    assert.deepEqual(reader.push('data\n\n'), ['']);
  });
});
