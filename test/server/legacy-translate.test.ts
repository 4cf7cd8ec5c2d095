/** toLegacyResult: a 2026-07-28 result as each 2025 revision reads it (the 2025 wire's answers); withMeta: the params a 2025 request is forwarded with. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { META } from '../../src/protocol/constants.js';
import { toLegacyResult } from '../../src/server/legacy/translate.js';
import { mergeMeta, withMeta } from '../../src/server/legacy/session.js';

const call = () => ({
  resultType: 'complete',
  content: [{ type: 'text', text: 'sum 42' }],
  structuredContent: { sum: 42 },
  ttlMs: 0,
  cacheScope: 'public',
  _meta: { [META.serverInfo]: { name: 'x', version: '1' }, [META.subscriptionId]: 's1', 'example.com/trace': 'abc' },
  isError: false,
});

describe('toLegacyResult', () => {
  it('drops the 2026-07-28 members and reserved _meta keys, keeps the rest in the same order', () => {
    const legacy = toLegacyResult('tools/call', call(), '2025-11-25');
    assert.equal(JSON.stringify(legacy), '{"content":[{"type":"text","text":"sum 42"}],"structuredContent":{"sum":42},"_meta":{"example.com/trace":"abc"},"isError":false}');
  });

  it('leaves _meta out when only reserved keys were in it, and copies, never changes, the result', () => {
    const result = { resultType: 'complete', content: [], _meta: { [META.serverInfo]: { name: 'x', version: '1' } } };
    const before = JSON.stringify(result);
    assert.deepEqual(toLegacyResult('tools/call', result, '2025-06-18'), { content: [] });
    assert.equal(JSON.stringify(result), before);
  });

  it('keeps a _meta that is not an object as it is', () => {
    assert.deepEqual(toLegacyResult('ping', { resultType: 'complete', _meta: 'odd' }, '2025-11-25'), { _meta: 'odd' });
  });

  it('drops structuredContent for 2025-03-26 tools/call only', () => {
    assert.equal(toLegacyResult('tools/call', call(), '2025-03-26').structuredContent, undefined);
    assert.deepEqual(toLegacyResult('tools/call', call(), '2025-06-18').structuredContent, { sum: 42 });
    assert.deepEqual(toLegacyResult('resources/read', { resultType: 'complete', structuredContent: 1 }, '2025-03-26'), { structuredContent: 1 });
  });

  it('lists tools with only the fields the revision defines', () => {
    const tool = { name: 't', title: 'T', description: 'd', inputSchema: { type: 'object' }, outputSchema: { type: 'object' }, annotations: {}, execution: { taskSupport: 'optional' } };
    assert.deepEqual(toLegacyResult('tools/list', { resultType: 'complete', tools: [tool] }, '2025-03-26'), { tools: [{ name: 't', description: 'd', inputSchema: { type: 'object' }, annotations: {} }] });
    assert.deepEqual(Object.keys((toLegacyResult('tools/list', { resultType: 'complete', tools: [tool] }, '2025-11-25').tools as object[])[0]!), Object.keys(tool));
  });
});

describe('withMeta (a 2025 request\'s params with the translated _meta)', () => {
  const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' };
  /** What the spread gives: the same own keys and values, prototype and all. */
  const sameAsSpread = (params: Record<string, unknown>) => {
    const built = withMeta(params, meta);
    const spread = { ...params, _meta: meta };
    assert.deepEqual(Object.keys(built).sort(), Object.keys(spread).sort());
    for (const key of Object.keys(spread)) assert.equal(built[key], spread[key as keyof typeof spread], key);
    assert.equal(Object.getPrototypeOf(built), Object.prototype);
  };

  it('equals { ...params, _meta } for the usual calls and for anything else', () => {
    for (const text of ['{"name":"sum","arguments":{"a":1}}', '{"name":"sum"}', '{"name":"sum","arguments":{},"_meta":{"progressToken":1}}', '{}', '{"arguments":{}}', '{"uri":"file:///a"}', '{"name":"p","arguments":{},"task":{}}', '{"name":"x","__proto__":{"polluted":true}}', '{"__proto__":null,"name":"x","arguments":{}}']) {
      sameAsSpread(JSON.parse(text) as Record<string, unknown>);
    }
  });

  it('equals { ...params, _meta } for any JSON object (property)', () => {
    fc.assert(fc.property(fc.dictionary(fc.constantFrom('name', 'arguments', '_meta', 'uri', '__proto__', 'task', 'cursor'), fc.jsonValue()), (params) => {
      sameAsSpread(JSON.parse(JSON.stringify(params)) as Record<string, unknown>);
    }));
  });
});

describe('mergeMeta (the client\'s _meta under the translated keys)', () => {
  const translated = (clientInfo: boolean): Record<string, unknown> => ({
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
    'io.modelcontextprotocol/logLevel': 'info',
    ...(clientInfo ? { 'io.modelcontextprotocol/clientInfo': { name: 'c', version: '1' } } : {}),
  });
  const sameAsSpread = (clientMeta: Record<string, unknown>, withClientInfo: boolean) => {
    const t = translated(withClientInfo);
    const built = mergeMeta(clientMeta, t);
    const spread = { ...clientMeta, ...t };
    assert.deepEqual(Object.keys(built).sort(), Object.keys(spread).sort());
    for (const key of Object.keys(spread)) assert.equal(built[key], spread[key], key);
    assert.equal(Object.getPrototypeOf(built), Object.prototype);
  };

  it('equals { ...clientMeta, ...translated }: the translated keys win, the client\'s others stay', () => {
    for (const text of ['{"progressToken":7}', '{}', '{"io.modelcontextprotocol/logLevel":"error","progressToken":"p"}', '{"io.modelcontextprotocol/protocolVersion":"1999-01-01"}', '{"__proto__":{"polluted":true},"progressToken":1}', '{"example.com/trace":"t","io.modelcontextprotocol/clientInfo":{"name":"forged"}}']) {
      sameAsSpread(JSON.parse(text) as Record<string, unknown>, true);
      sameAsSpread(JSON.parse(text) as Record<string, unknown>, false);
    }
  });

  it('equals { ...clientMeta, ...translated } for any client _meta (property)', () => {
    const keys = fc.constantFrom('progressToken', '__proto__', 'example.com/x', 'io.modelcontextprotocol/logLevel', 'io.modelcontextprotocol/clientInfo', 'io.modelcontextprotocol/protocolVersion');
    fc.assert(fc.property(fc.dictionary(keys, fc.jsonValue()), fc.boolean(), (clientMeta, withClientInfo) => {
      sameAsSpread(JSON.parse(JSON.stringify(clientMeta)) as Record<string, unknown>, withClientInfo);
    }));
  });
});
