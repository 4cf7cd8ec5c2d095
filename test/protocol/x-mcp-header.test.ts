import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  buildParamHeaders,
  checkParamHeaders,
  compareHeaderWithBody,
  decodeHeaderValue,
  encodeHeaderValue,
  scanHeaderAnnotations,
} from '../../src/protocol/x-mcp-header.js';

function codes(schema: unknown): string[] {
  return scanHeaderAnnotations(schema).problems.map((p) => `${p.pointer} ${p.code}`);
}

describe('scanHeaderAnnotations', () => {
  it('finds annotations on string, integer and boolean properties, including nested properties chains', () => {
    const scan = scanHeaderAnnotations({
      type: 'object',
      properties: {
        region: { type: 'string', 'x-mcp-header': 'Region' },
        count: { type: 'integer', 'x-mcp-header': 'Count' },
        dry: { type: 'boolean', 'x-mcp-header': 'Dry-Run' },
        target: { type: 'object', properties: { 'a/b~c': { type: 'string', 'x-mcp-header': 'Target' } } },
      },
    });
    assert.deepEqual(scan.problems, []);
    assert.deepEqual(
      scan.annotations.map((a) => [a.name, a.headerName, a.headerKey, a.path, a.pointer, a.type]),
      [
        ['Region', 'Mcp-Param-Region', 'mcp-param-region', ['region'], '/properties/region', 'string'],
        ['Count', 'Mcp-Param-Count', 'mcp-param-count', ['count'], '/properties/count', 'integer'],
        ['Dry-Run', 'Mcp-Param-Dry-Run', 'mcp-param-dry-run', ['dry'], '/properties/dry', 'boolean'],
        ['Target', 'Mcp-Param-Target', 'mcp-param-target', ['target', 'a/b~c'], '/properties/target/properties/a~1b~0c', 'string'],
      ],
    );
  });

  it('rejects empty, non-string and non-token names with exact messages', () => {
    const scan = scanHeaderAnnotations({
      type: 'object',
      properties: {
        a: { type: 'string', 'x-mcp-header': '' },
        b: { type: 'string', 'x-mcp-header': 7 },
        c: { type: 'string', 'x-mcp-header': 'Has Space' },
        d: { type: 'string', 'x-mcp-header': 'Line\r\nBreak' },
        e: { type: 'string', 'x-mcp-header': 'Ünicode' },
      },
    });
    assert.deepEqual(scan.annotations, []);
    assert.deepEqual(scan.problems.map((p) => p.code), ['empty', 'not-a-string', 'not-a-token', 'not-a-token', 'not-a-token']);
    assert.equal(scan.problems[0]?.message, 'x-mcp-header at /properties/a must not be empty');
    assert.equal(scan.problems[1]?.message, 'x-mcp-header at /properties/b must be a string, got number');
    assert.equal(scan.problems[2]?.message, 'x-mcp-header "Has Space" at /properties/c is not an HTTP token (allowed: letters, digits and !#$%&\'*+-.^_`|~)');
  });

  it('rejects names that collide case-insensitively', () => {
    const scan = scanHeaderAnnotations({
      type: 'object',
      properties: { a: { type: 'string', 'x-mcp-header': 'Region' }, b: { type: 'string', 'x-mcp-header': 'REGION' } },
    });
    assert.equal(scan.annotations.length, 1);
    assert.deepEqual(scan.problems, [{
      pointer: '/properties/b',
      code: 'duplicate',
      message: 'x-mcp-header "REGION" at /properties/b duplicates the one at /properties/a (names compare case-insensitively)',
    }]);
  });

  it('rejects number, array, object, null, multi-type and untyped properties', () => {
    const props = Object.fromEntries(
      (['number', 'array', 'object', 'null', ['string', 'null'], undefined] as const).map((type, i) => [
        `p${i}`,
        type === undefined ? { 'x-mcp-header': `H${i}` } : { type, 'x-mcp-header': `H${i}` },
      ]),
    );
    const scan = scanHeaderAnnotations({ type: 'object', properties: props });
    assert.deepEqual(scan.problems.map((p) => p.code), Array(6).fill('unsupported-type'));
    assert.equal(scan.problems[0]?.message, 'x-mcp-header "H0" at /properties/p0 is on a property of type "number"; only "string", "integer" or "boolean" may be mirrored');
    assert.equal(scan.problems[5]?.message, 'x-mcp-header "H5" at /properties/p5 is on a property of type null; only "string", "integer" or "boolean" may be mirrored');
  });

  it('rejects annotations not statically reachable through properties alone', () => {
    const schema = {
      type: 'object',
      'x-mcp-header': 'Root',
      properties: {
        list: { type: 'array', items: { type: 'string', 'x-mcp-header': 'Item' } },
        choice: { anyOf: [{ type: 'string', 'x-mcp-header': 'Choice' }] },
        ref: { $ref: '#/$defs/r' },
        cond: { if: { type: 'string' }, then: { type: 'string', 'x-mcp-header': 'Then' } },
      },
      patternProperties: { '^x': { type: 'string', 'x-mcp-header': 'Pattern' } },
      additionalProperties: { type: 'string', 'x-mcp-header': 'Extra' },
      allOf: [{ properties: { inAllOf: { type: 'string', 'x-mcp-header': 'AllOf' } } }],
      $defs: { r: { type: 'string', 'x-mcp-header': 'Def' } },
    };
    assert.deepEqual(codes(schema).sort(), [
      ' not-statically-reachable',
      '/$defs/r not-statically-reachable',
      '/additionalProperties not-statically-reachable',
      '/allOf/0/properties/inAllOf not-statically-reachable',
      '/patternProperties/^x not-statically-reachable',
      '/properties/choice/anyOf/0 not-statically-reachable',
      '/properties/cond/then not-statically-reachable',
      '/properties/list/items not-statically-reachable',
    ]);
    assert.equal(
      scanHeaderAnnotations(schema).problems.find((p) => p.pointer === '/properties/list/items')?.message,
      'x-mcp-header "Item" at /properties/list/items is not on a property reachable from the root through "properties" alone',
    );
  });

  it('rejects integer properties whose bounds exceed +/-(2^53-1)', () => {
    assert.deepEqual(codes({ type: 'object', properties: { n: { type: 'integer', maximum: 2 ** 60, 'x-mcp-header': 'N' } } }), ['/properties/n integer-out-of-range']);
    assert.deepEqual(codes({ type: 'object', properties: { n: { type: 'integer', minimum: -(2 ** 53 - 1), 'x-mcp-header': 'N' } } }), []);
  });

  it('ignores x-mcp-header inside data (const, enum, default, examples)', () => {
    assert.deepEqual(scanHeaderAnnotations({
      type: 'object',
      properties: { a: { type: 'object', const: { 'x-mcp-header': 'No' }, default: { 'x-mcp-header': 'No' }, examples: [{ 'x-mcp-header': 'No' }] } },
    }), { annotations: [], problems: [] });
  });
});

describe('encodeHeaderValue / decodeHeaderValue', () => {
  it('passes plain ASCII through and encodes integers and booleans in decimal / lower case', () => {
    assert.equal(encodeHeaderValue('us-west1'), 'us-west1');
    assert.equal(encodeHeaderValue(42), '42');
    assert.equal(encodeHeaderValue(-7), '-7');
    assert.equal(encodeHeaderValue(true), 'true');
    assert.equal(encodeHeaderValue(false), 'false');
    assert.equal(encodeHeaderValue(''), '');
  });

  it('uses the base64 sentinel for non-ASCII, control characters, outer whitespace and sentinel look-alikes', () => {
    assert.equal(encodeHeaderValue('Zürich'), `=?base64?${Buffer.from('Zürich').toString('base64')}?=`);
    assert.equal(encodeHeaderValue('a\nb'), `=?base64?${Buffer.from('a\nb').toString('base64')}?=`);
    assert.equal(encodeHeaderValue(' padded'), `=?base64?${Buffer.from(' padded').toString('base64')}?=`);
    assert.equal(encodeHeaderValue('=?base64?abc?='), `=?base64?${Buffer.from('=?base64?abc?=').toString('base64')}?=`);
    assert.equal(encodeHeaderValue('inner space ok'), 'inner space ok');
  });

  it('refuses to encode numbers outside the safe integer range', () => {
    assert.throws(() => encodeHeaderValue(2 ** 53), { name: 'RangeError', message: 'Cannot mirror 9007199254740992 into a header: only integers within +/-(2^53-1) are allowed' });
    assert.throws(() => encodeHeaderValue(1.5), RangeError);
  });

  it('decodes the sentinel, trims surrounding whitespace, and takes other values literally', () => {
    assert.deepEqual(decodeHeaderValue('=?base64?WsO8cmljaA==?='), { ok: true, value: 'Zürich' });
    assert.deepEqual(decodeHeaderValue('  us-west1 \t'), { ok: true, value: 'us-west1' });
    assert.deepEqual(decodeHeaderValue('=?BASE64?WsO8cmljaA==?='), { ok: true, value: '=?BASE64?WsO8cmljaA==?=' });
    assert.deepEqual(decodeHeaderValue('=?base64?abc'), { ok: true, value: '=?base64?abc' });
    assert.deepEqual(decodeHeaderValue('=?base64??='), { ok: true, value: '' });
  });

  it('rejects bad base64, non-UTF-8 payloads and characters outside VCHAR/SP/HTAB', () => {
    assert.deepEqual(decodeHeaderValue('=?base64?not base64!?='), { ok: false, reason: 'invalid Base64 inside =?base64?...?=' });
    assert.deepEqual(decodeHeaderValue('=?base64?WsO8cmljaA=?='), { ok: false, reason: 'invalid Base64 inside =?base64?...?=' });
    assert.deepEqual(decodeHeaderValue(`=?base64?${Buffer.from([0xff, 0xfe]).toString('base64')}?=`), { ok: false, reason: 'Base64 inside =?base64?...?= is not UTF-8' });
    assert.deepEqual(decodeHeaderValue('bad\u0001value'), { ok: false, reason: 'contains characters not allowed in a header value' });
    assert.deepEqual(decodeHeaderValue('caf\u00e9'), { ok: false, reason: 'contains characters not allowed in a header value' });
  });

  it('round-trips any string (property)', () => {
    fc.assert(fc.property(fc.string({ unit: 'grapheme' }), (value) => {
      const decoded = decodeHeaderValue(encodeHeaderValue(value));
      assert.deepEqual(decoded, { ok: true, value });
    }), { numRuns: 300 });
  });
});

describe('compareHeaderWithBody', () => {
  it('compares strings exactly and case-sensitively', () => {
    assert.equal(compareHeaderWithBody('us-west1', 'us-west1'), null);
    assert.equal(compareHeaderWithBody('US-WEST1', 'us-west1'), 'differs from the body value');
  });
  it('compares booleans as lower-case true/false', () => {
    assert.equal(compareHeaderWithBody('true', true), null);
    assert.equal(compareHeaderWithBody('false', false), null);
    assert.equal(compareHeaderWithBody('True', true), 'differs from the body value');
    assert.equal(compareHeaderWithBody('1', true), 'differs from the body value');
  });
  it('compares integers numerically', () => {
    assert.equal(compareHeaderWithBody('42', 42), null);
    assert.equal(compareHeaderWithBody('42.0', 42), null);
    assert.equal(compareHeaderWithBody('4.2e1', 42), null);
    assert.equal(compareHeaderWithBody('+42', 42), null);
    assert.equal(compareHeaderWithBody('43', 42), 'differs from the body value');
    assert.equal(compareHeaderWithBody('forty-two', 42), 'is not a number');
    assert.equal(compareHeaderWithBody('', 42), 'is not a number');
    assert.equal(compareHeaderWithBody('9007199254740993', 2 ** 53), 'body value is not an integer within +/-(2^53-1)');
  });
});

describe('checkParamHeaders / buildParamHeaders', () => {
  const { annotations } = scanHeaderAnnotations({
    type: 'object',
    properties: {
      region: { type: 'string', 'x-mcp-header': 'Region' },
      limit: { type: 'integer', 'x-mcp-header': 'Limit' },
      nested: { type: 'object', properties: { flag: { type: 'boolean', 'x-mcp-header': 'Flag' } } },
    },
  });
  const headersOf = (record: Record<string, string>) => (name: string) => Object.entries(record).find(([k]) => k.toLowerCase() === name)?.[1];

  it('accepts headers built by buildParamHeaders for the same arguments', () => {
    const args = { region: 'Zürich', limit: 10, nested: { flag: true } };
    const built = buildParamHeaders(annotations, args);
    assert.deepEqual(built, { 'Mcp-Param-Region': '=?base64?WsO8cmljaA==?=', 'Mcp-Param-Limit': '10', 'Mcp-Param-Flag': 'true' });
    assert.equal(checkParamHeaders(annotations, args, headersOf(built)), null);
  });

  it('expects no header for null or absent values', () => {
    assert.deepEqual(buildParamHeaders(annotations, { region: null }), {});
    assert.equal(checkParamHeaders(annotations, { region: null }, headersOf({})), null);
  });

  it('reports a missing header, a mismatch and an invalid value with exact messages', () => {
    assert.equal(checkParamHeaders(annotations, { region: 'eu' }, headersOf({})), 'Header mismatch: Mcp-Param-Region is required because arguments.region is present');
    assert.equal(
      checkParamHeaders(annotations, { region: 'eu' }, headersOf({ 'mcp-param-region': 'us' })),
      'Header mismatch: Mcp-Param-Region "us" differs from the body value "eu" at arguments.region',
    );
    assert.equal(
      checkParamHeaders(annotations, { nested: { flag: false } }, headersOf({ 'Mcp-Param-Flag': 'true' })),
      'Header mismatch: Mcp-Param-Flag "true" differs from the body value false at arguments.nested.flag',
    );
    assert.equal(
      checkParamHeaders(annotations, { region: 'eu' }, headersOf({ 'mcp-param-region': '=?base64?***?=' })),
      'Header mismatch: Mcp-Param-Region invalid Base64 inside =?base64?...?=',
    );
  });
});
