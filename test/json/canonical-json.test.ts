/** canonicalJson: one deterministic JSON text for every hash (approvals, lint lockfiles, robot plans). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { canonicalJson } from '../../src/index.js';
import { buildPinLock } from '../../src/lint/pin.js';
import { digestArguments } from '../../src/server/approvals/request-state-seal.js';

/**
 * Reference writer for JSON data: JSON.stringify for every leaf, members ordered with an explicit
 * code-unit comparison. (Rebuilding sorted objects for JSON.stringify cannot work: JS enumerates
 * integer-like keys such as "0" before all others.)
 */
function reference(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(reference).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const keys = Object.keys(value).sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
    return `{${keys.map((k) => `${JSON.stringify(k)}:${reference((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The same object with its keys inserted in reverse order, at every depth. */
function reversedDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversedDeep);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.keys(value).reverse().map((k) => [k, reversedDeep((value as Record<string, unknown>)[k])]));
  }
  return value;
}

describe('canonicalJson', () => {
  it('sorts keys at every depth and writes no whitespace', () => {
    assert.equal(canonicalJson({ b: 1, a: { d: [3, { z: null, y: 'é' }], c: true } }), '{"a":{"c":true,"d":[3,{"y":"é","z":null}]},"b":1}');
    assert.equal(canonicalJson({ b: 1, a: [true, undefined] }), '{"a":[true,null],"b":1}');
  });

  it('orders keys by UTF-16 code units (RFC 8785), not by locale or JS integer-key order', () => {
    assert.equal(canonicalJson({ b: 0, B: 0, a: 0, '\u00e9': 0, '\ud83d\ude00': 0, '\uff61': 0, '': 0 }), '{"":0,"B":0,"a":0,"b":0,"é":0,"😀":0,"｡":0}');
    assert.equal(canonicalJson({ a: 0, 10: 0, 9: 0, '': 0 }), '{"":0,"10":0,"9":0,"a":0}');
  });

  it('follows JSON.stringify for values JSON cannot hold', () => {
    assert.equal(canonicalJson({ keep: 1, gone: undefined, fn: () => 1, sym: Symbol('s') }), '{"keep":1}');
    assert.equal(canonicalJson([undefined, () => 1, Symbol('s'), Number.NaN, Number.POSITIVE_INFINITY, -0]), '[null,null,null,null,null,0]');
    assert.equal(canonicalJson(new Date(Date.UTC(2026, 6, 28))), '"2026-07-28T00:00:00.000Z"');
    assert.equal(canonicalJson({ at: { toJSON: (key: string) => `key=${key}` } }), '{"at":"key=at"}');
    assert.equal(canonicalJson([Object(2), Object('s'), Object(false)]), '[2,"s",false]');
    assert.equal(canonicalJson(undefined), 'null');
    assert.equal(canonicalJson('a"\n\u2028'), JSON.stringify('a"\n\u2028'));
  });

  it('gives the same text for data already in canonical order (written natively) as for anything else', () => {
    // Sorted at every level, with what only the general writer handles deep inside.
    assert.equal(canonicalJson({ a: { b: [1, { c: new Date(Date.UTC(2026, 0, 1)) }] } }), '{"a":{"b":[1,{"c":"2026-01-01T00:00:00.000Z"}]}}');
    assert.equal(canonicalJson({ a: [Object(2)], b: 1 }), '{"a":[2],"b":1}');
    assert.equal(canonicalJson({ a: [1, undefined], b: undefined, c: () => 1 }), '{"a":[1,null]}');
    assert.throws(() => canonicalJson({ a: { b: 10n } }), { name: 'TypeError', message: 'canonicalJson: a bigint (10n) has no JSON form' });
    const bare = Object.assign(Object.create(null) as Record<string, unknown>, { a: 1, b: [true] });
    assert.equal(canonicalJson(bare), '{"a":1,"b":[true]}');
    class Point { constructor(readonly x: number, readonly y: number) {} }
    assert.equal(canonicalJson({ p: new Point(1, 2) }), '{"p":{"x":1,"y":2}}');
    // Deeper than the native path goes: the general writer, same text.
    let deep: unknown = 1;
    for (let i = 0; i < 200; i++) deep = { k: deep };
    assert.equal(canonicalJson(deep), JSON.stringify(deep));
  });

  it('ignores an enumerable key a polluted Object.prototype adds, as JSON.stringify does', () => {
    Object.defineProperty(Object.prototype, 'polluted', { value: 1, enumerable: true, configurable: true });
    try {
      assert.equal(canonicalJson({ a: 1, b: { c: 2 } }), '{"a":1,"b":{"c":2}}');
    } finally {
      delete (Object.prototype as Record<string, unknown>)['polluted'];
    }
  });

  it('refuses a bigint and a circular structure with a TypeError naming the problem', () => {
    assert.throws(() => canonicalJson({ n: 10n }), { name: 'TypeError', message: 'canonicalJson: a bigint (10n) has no JSON form' });
    const loop: Record<string, unknown> = { a: 1 };
    loop.self = { back: loop };
    assert.throws(() => canonicalJson(loop), { name: 'TypeError', message: 'canonicalJson: circular structure' });
    // A shared (non-circular) reference is fine.
    const shared = { x: 1 };
    assert.equal(canonicalJson({ a: shared, b: [shared] }), '{"a":{"x":1},"b":[{"x":1}]}');
  });

  it('for any JSON value: equals the reference writer, parses back equal, ignores key order', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = canonicalJson(value);
        assert.equal(text, reference(value));
        assert.deepEqual(JSON.parse(text), JSON.parse(JSON.stringify(value)));
        assert.equal(canonicalJson(reversedDeep(value)), text);
      }),
      { numRuns: 300 },
    );
  });

  it('for any text (quotes, controls, lone surrogates, long or short): strings and keys are written as JSON.stringify writes them', () => {
    const text = fc.oneof(fc.string({ unit: 'binary', maxLength: 80 }), fc.string({ unit: 'grapheme-ascii', minLength: 60, maxLength: 70 }), fc.constantFrom('"', '\\', '\u2028', '\ud800', 'plain_name'));
    fc.assert(
      fc.property(text, text, fc.double(), (key, value, number) => {
        const record = { [key]: value, n: number };
        assert.equal(canonicalJson(value), JSON.stringify(value));
        assert.equal(canonicalJson(record), reference(record));
      }),
      { numRuns: 500 },
    );
  });

  it('keeps lint lockfiles written before the shared module valid (same hashes)', () => {
    const tool = { name: 'calculate_sum', description: 'Adds two integers.', inputSchema: { type: 'object', properties: { b: { type: 'integer' }, a: { type: 'integer' } }, required: ['a', 'b'] } };
    assert.deepEqual(buildPinLock([tool]).tools.calculate_sum, {
      description: 'sha256:980c81a5695546358eefe527aed1a1f687672d75958592ccb4ed0eb59ab4cfa3',
      schema: 'sha256:2173edf9a78a532934d03b946389b3df852b6c0a7aafac1c008ddb7da6a55ec1',
      annotations: 'sha256:74234e98afe7498fb5daf1f36ac2d78acc339464f950703b8c019892f982b90b',
    });
  });

  it('approval digests do not depend on argument key order', () => {
    assert.equal(digestArguments({ joint: 2, angle: 10, opts: { slow: true, by: 'op' } }), digestArguments({ opts: { by: 'op', slow: true }, angle: 10, joint: 2 }));
    assert.notEqual(digestArguments({ joint: 2, angle: 10 }), digestArguments({ joint: 2, angle: 11 }));
  });
});
