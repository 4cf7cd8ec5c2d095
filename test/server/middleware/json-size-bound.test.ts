/** jsonBytesBound: never below the real UTF-8 size of the JSON text, and gives up (Infinity) past the limit. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { jsonBytesBound } from '../../../src/server/middleware/result-budget/json-size-bound.js';

const bytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value) ?? '');

describe('jsonBytesBound', () => {
  it('is at least the UTF-8 size of JSON.stringify for any JSON value (control characters, astral and lone surrogates included)', () => {
    const text = fc.string({ unit: 'binary' });
    const value = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: 'small' }, text, fc.double(), fc.integer(), fc.boolean(), fc.constant(null),
        fc.array(tie('node'), { maxLength: 5 }), fc.dictionary(text, tie('node'), { maxKeys: 5 })),
    })).node;
    fc.assert(fc.property(value, (v) => jsonBytesBound(v, Number.MAX_SAFE_INTEGER) >= bytes(v)), { numRuns: 2000 });
  });

  it('covers the longest number texts exactly (found by the property above: 25 bytes, not 24)', () => {
    for (const n of [-0.0000016183802177948392, -1.7976931348623157e308, -5e-324, -123456789012345680000, -0.000001234567890123456]) {
      assert.ok(jsonBytesBound(n, 1e6) >= bytes(n), `${JSON.stringify(n)} is ${bytes(n)} bytes`);
    }
    assert.equal(bytes(-0.0000016183802177948392), 25);
  });

  it('stops at the limit, and does not follow toJSON or very deep values', () => {
    assert.equal(jsonBytesBound({ text: 'x'.repeat(100) }, 50), Number.POSITIVE_INFINITY);
    assert.equal(jsonBytesBound({ when: new Date(0) }, 1e6), Number.POSITIVE_INFINITY);
    let deep: unknown = 1;
    for (let i = 0; i < 100; i++) deep = [deep];
    assert.equal(jsonBytesBound(deep, 1e6), Number.POSITIVE_INFINITY);
    assert.ok(jsonBytesBound({ content: [{ type: 'text', text: '{"sum":42}' }], structuredContent: { sum: 42 } }, 4096) <= 4096);
  });
});
