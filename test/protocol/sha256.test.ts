/** The hot-path hashes: hmacSha256Hex is HMAC-SHA-256 exactly as node:crypto computes it. */
import assert from 'node:assert/strict';
import { createHash, createHmac } from 'node:crypto';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { hmacSha256Hex, sha256 } from '../../src/protocol/sha256.js';

const reference = (key: Uint8Array, text: string): string => createHmac('sha256', key).update(text).digest('hex');

describe('hmacSha256Hex', () => {
  it('equals createHmac for any key length (empty, short, one block, longer than a block) and any text', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 0, maxLength: 130 }), fc.array(fc.string({ unit: 'binary', maxLength: 400 }), { minLength: 1, maxLength: 4 }), (key, texts) => {
        const hmac = hmacSha256Hex(key);
        // Several texts through one function: the scratch buffers must not leak one text into the next.
        for (const text of texts) assert.equal(hmac(text), reference(key, text));
      }),
      { numRuns: 300 },
    );
  });

  it('grows past its scratch buffer for a long text and stays exact for short ones after', () => {
    const key = Buffer.from('00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff', 'hex');
    const hmac = hmacSha256Hex(key);
    const long = 'é'.repeat(5000) + '\u{1F916}'.repeat(700);
    assert.equal(hmac('short'), reference(key, 'short'));
    assert.equal(hmac(long), reference(key, long));
    assert.equal(hmac('short'), reference(key, 'short'));
    assert.equal(hmac(''), reference(key, ''));
  });

  it('encodes a lone surrogate as node:crypto does (U+FFFD)', () => {
    const key = Buffer.alloc(32, 7);
    for (const text of ['\uD800', 'a\uDC00b', '\uDBFF\uDBFF']) assert.equal(hmacSha256Hex(key)(text), reference(key, text));
  });
});

describe('sha256', () => {
  it('equals createHash in hex and base64url', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (text) => {
        assert.equal(sha256(text, 'hex'), createHash('sha256').update(text).digest('hex'));
        assert.equal(sha256(text, 'base64url'), createHash('sha256').update(text).digest('base64url'));
      }),
      { numRuns: 200 },
    );
  });
});
