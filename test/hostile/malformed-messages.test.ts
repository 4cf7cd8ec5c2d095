// The hostile corpus, message by message: malformed JSON-RPC envelopes, invalid UTF-8 and lone
// surrogates, hostile method and tool names, hostile numbers. Each case sends the bytes over real
// HTTP and asserts the exact status and body, and that the answer stays small (never an echo of a
// large input). Where a case must not run the tool, a counter proves it did not.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, defineTool } from '../../src/index.js';
import type { HttpListener } from '../../src/index.js';
import { echoText, renderJson } from '../../src/schema/describe-value.js';
import { META } from '../fixtures/servers/raw-http.js';

const seen: unknown[] = [];
const echo = defineTool({
  name: 'echo',
  inputSchema: { type: 'object', properties: { n: { type: 'integer' }, x: { type: 'number' }, s: { type: 'string' } } } as const,
  run: (args) => {
    seen.push(args);
    return { structuredContent: { n: args.n ?? null, x: args.x ?? null, negativeZero: Object.is(args.x, -0) || Object.is(args.n, -0), keys: Object.keys(args), proto: Object.getPrototypeOf(args) === Object.prototype } };
  },
});

const server = createServer({ name: 'hostile', version: '1', tools: [echo] });
let listener: HttpListener;
before(async () => {
  listener = await server.listen({ port: 0 });
});
after(() => server.close());

const metaJson = JSON.stringify(META);
const call = (args: string, id = 1): string => `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"echo","arguments":${args},"_meta":${metaJson}}}`;

async function send(body: string | Uint8Array, method = 'tools/list', name?: string): Promise<{ status: number; text: string }> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': method };
  if (name !== undefined) headers['mcp-name'] = name;
  const response = await fetch(listener.url, { method: 'POST', body: body as BodyInit, headers, signal: AbortSignal.timeout(30_000) });
  return { status: response.status, text: await response.text() };
}

/** Sends `body`, asserts status and exact JSON answer, and that the answer is under `maxBytes`. */
async function expect(body: string | Uint8Array, status: number, answer: unknown, options: { method?: string; name?: string; maxBytes?: number } = {}): Promise<void> {
  const got = await send(body, options.method, options.name);
  assert.equal(got.status, status, got.text.slice(0, 300));
  assert.ok(got.text.length <= (options.maxBytes ?? 400), `answer of ${got.text.length} bytes`);
  assert.deepEqual(JSON.parse(got.text), answer);
}

const TOO_DEEP = 'Invalid request: the message nests objects and arrays deeper than 1100 levels; nothing of it was read or run';
const invalid = (message: string, id?: number | string): unknown => (id === undefined ? { jsonrpc: '2.0', error: { code: -32600, message } } : { jsonrpc: '2.0', id, error: { code: -32600, message } });

describe('malformed JSON-RPC envelopes', () => {
  it('missing or wrong jsonrpc, ids of the wrong type, params not an object: -32600 naming the problem; nothing runs', { timeout: 60_000 }, async () => {
    const list = (fields: string): string => `{${fields},"method":"tools/list"}`;
    await expect(list('"id":1'), 400, invalid('Invalid request: jsonrpc must be "2.0"', 1));
    await expect(list('"jsonrpc":"1.0","id":1'), 400, invalid('Invalid request: jsonrpc must be "2.0"', 1));
    await expect(list('"jsonrpc":2,"id":1'), 400, invalid('Invalid request: jsonrpc must be "2.0"', 1));
    for (const [id, type] of [['{}', 'object'], ['[1]', 'array'], ['true', 'boolean'], ['null', 'null'], ['1.5', 'number']] as const) {
      await expect(list(`"jsonrpc":"2.0","id":${id}`), 400, invalid(`Invalid request: id must be a string or an integer, got ${type}`));
    }
    for (const [params, type] of [['[1]', 'array'], ['"x"', 'string'], ['7', 'number'], ['null', 'null']] as const) {
      await expect(`{"jsonrpc":"2.0","id":2,"method":"tools/list","params":${params}}`, 400, invalid(`Invalid request: params must be an object, got ${type}`, 2));
    }
    await expect('{"jsonrpc":"2.0","id":3}', 400, invalid('Invalid request: method must be a string', 3));
    await expect('{"jsonrpc":"2.0","id":3,"method":42}', 400, invalid('Invalid request: method must be a string', 3));
    await expect('{"jsonrpc":"2.0","id":3,"result":{}}', 400, invalid('Invalid request: the server does not accept JSON-RPC responses', 3));
    await expect('null', 400, invalid('Invalid request: expected a JSON-RPC object, got null'));
    await expect('"tools/list"', 400, invalid('Invalid request: expected a JSON-RPC object, got string'));
    await expect('[{"jsonrpc":"2.0","id":1,"method":"tools/list"}]', 400, invalid('Invalid request: batch arrays are not supported; send one message at a time'));
    // 100,000 nested arrays: refused by the nesting bound before JSON.parse reads them.
    await expect(`${'['.repeat(100_000)}${']'.repeat(100_000)}`, 400, invalid(TOO_DEEP));
    const before = seen.length;
    await expect(`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":[{"name":"echo"}]}`, 400, invalid('Invalid request: params must be an object, got array', 4), { method: 'tools/call' });
    assert.equal(seen.length, before, 'the tool never ran');
  });

  it('not JSON at all: -32700 without an id, for empty, blank, truncated and trailing-garbage bodies', { timeout: 60_000 }, async () => {
    const parse = (message: string): unknown => ({ jsonrpc: '2.0', error: { code: -32700, message } });
    await expect('', 400, parse('Parse error: empty message'));
    await expect(' \r\n\t ', 400, parse('Parse error: empty message'));
    for (const body of ['{"jsonrpc":"2.0","id":1,', '{"jsonrpc":"2.0"} x', "{'jsonrpc':'2.0'}", '{"a":01}']) {
      const got = await send(body);
      assert.equal(got.status, 400, body);
      const answer = JSON.parse(got.text) as { error: { code: number; message: string }; id?: unknown };
      assert.equal(answer.error.code, -32700, body);
      assert.match(answer.error.message, /^Parse error: /);
      assert.equal('id' in answer, false);
      assert.ok(got.text.length < 300);
    }
  });
});

describe('the message nesting bound (1,100 levels)', () => {
  /** `levels` nested objects `{"a":...}` around 1: as arguments, the message then nests levels + 2. */
  const nested = (levels: number): string => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;

  it('arguments of 1,000 levels run; 1,098 (a message of 1,100) meet the validation budget; one more level is refused unread with the id; nothing runs', { timeout: 60_000 }, async () => {
    const before = seen.length;
    const ok = await send(call(nested(1_000), 10), 'tools/call', 'echo');
    assert.equal(ok.status, 200, ok.text.slice(0, 300));
    assert.equal(seen.length, before + 1, 'the 1,000-level call ran');
    const budget = await send(call(nested(1_098), 11), 'tools/call', 'echo');
    assert.equal(budget.status, 200);
    const refused = JSON.parse(budget.text) as { id: number; result: { isError: boolean; content: Array<{ text: string }> } };
    assert.equal(refused.id, 11);
    assert.equal(refused.result.isError, true);
    assert.equal(refused.result.content[0]?.text, 'Invalid arguments for tool echo:\n/: value is nested deeper than 1000 levels: too deep to validate within the budget');
    await expect(call(nested(1_099), 12), 400, invalid(TOO_DEEP, 12), { method: 'tools/call', name: 'echo' });
    await expect(call(nested(174_000), 13), 400, invalid(TOO_DEEP, 13), { method: 'tools/call', name: 'echo' });
    // The id is found wherever the message puts it.
    await expect(`{"jsonrpc":"2.0","method":"tools/call","params":{"name":"echo","arguments":${nested(5_000)}},"id":"late"}`, 400, invalid(TOO_DEEP, 'late'), { method: 'tools/call', name: 'echo' });
    assert.equal(seen.length, before + 1, 'no refused call ran');
  });
});

describe('UTF-8 and surrogates', () => {
  const prefix = Buffer.from('{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"x":"');
  const suffix = Buffer.from(`","_meta":${metaJson}}}`);
  const notUtf8 = { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error: the message is not valid UTF-8' } };

  it('invalid UTF-8 bytes anywhere in the body are -32700 (not silently replaced with U+FFFD)', { timeout: 60_000 }, async () => {
    for (const bytes of [[0xff], [0xc3], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xe2, 0x82]]) {
      await expect(Buffer.concat([prefix, Buffer.from(bytes), suffix]), 400, notUtf8);
    }
    // A real U+FFFD written by the client is valid UTF-8 and is accepted.
    const fine = await send(Buffer.concat([prefix, Buffer.from('\uFFFD'), suffix]));
    assert.equal(fine.status, 200, fine.text);
    assert.ok(fine.text.startsWith('{"jsonrpc":"2.0","id":1,"result":{'));
  });

  it('a lone surrogate escape in a string is data: accepted, and answers stay well-formed UTF-8', { timeout: 60_000 }, async () => {
    const got = await send(call('{"s":"a\\ud800b","\\udc00":1}'), 'tools/call', 'echo');
    assert.equal(got.status, 200);
    const answer = JSON.parse(got.text) as { result: { structuredContent: { keys: string[] } } };
    assert.deepEqual(answer.result.structuredContent.keys, ['s', '\udc00']);
    assert.ok(got.text.includes('"\\udc00"'), 'the lone surrogate is escaped on the wire');
    assert.equal(Buffer.from(got.text, 'utf8').toString('utf8'), got.text);
    // In a method name: a header cannot carry a lone surrogate, so the header check answers, naming it escaped.
    await expect(`{"jsonrpc":"2.0","id":9,"method":"x\\udc00","params":{"_meta":${metaJson}}}`, 400, { jsonrpc: '2.0', id: 9, error: { code: -32020, message: 'Header mismatch: Mcp-Method "x" differs from method "x\\udc00"' } }, { method: 'x' });
  });
});

describe('hostile method and tool names', () => {
  const request = (method: string, id = 1): string => JSON.stringify({ jsonrpc: '2.0', id, method, params: { _meta: META } });
  const notFound = (shown: string, id = 1): unknown => ({ jsonrpc: '2.0', id, error: { code: -32601, message: `Method not found: ${shown}` } });

  it('empty, prototype names and unicode are -32601; nothing is looked up on Object.prototype', { timeout: 60_000 }, async () => {
    await expect(request(''), 404, notFound(''), { method: '' });
    for (const method of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'tools/call/../list']) await expect(request(method), 404, notFound(method), { method });
    const before = seen.length;
    await expect(call('{}').replace('"name":"echo"', '"name":"__proto__"'), 200, { jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'Unknown tool: __proto__' } }, { method: 'tools/call', name: '__proto__' });
    assert.equal(seen.length, before, 'the tool never ran');
  });

  it('a unicode method must be sent in Mcp-Method as the body has it; the mismatch is named', { timeout: 60_000 }, async () => {
    await expect(request('tööls/列表'), 400, { jsonrpc: '2.0', id: 1, error: { code: -32020, message: 'Header mismatch: Mcp-Method "t%C3%B6%C3%B6ls%2F%E5%88%97%E8%A1%A8" differs from method "tööls/列表"' } }, { method: encodeURIComponent('tööls/列表') });
  });

  it('a 500 KB method or tool name is answered in a few hundred bytes: cut with its length, never echoed', { timeout: 60_000 }, async () => {
    const huge = 'm'.repeat(500_000);
    await expect(request(huge), 400, { jsonrpc: '2.0', id: 1, error: { code: -32020, message: `Header mismatch: Mcp-Method "m" differs from method ${renderJson(huge)}` } }, { method: 'm' });
    const long = 'n'.repeat(6000); // fits in a header: route answers, cut
    await expect(request(long), 404, notFound(echoText(long)), { method: long });
    assert.equal(echoText(long), `${'n'.repeat(57)}... (6000 characters)`);
    const hugeTool = 't'.repeat(400_000);
    await expect(call('{}').replace('"name":"echo"', `"name":"${hugeTool}"`), 400, { jsonrpc: '2.0', id: 1, error: { code: -32020, message: `Header mismatch: Mcp-Name "t" differs from params.name ${renderJson(hugeTool)}` } }, { method: 'tools/call', name: 't' });
    const longTool = 'u'.repeat(6000);
    await expect(call('{}').replace('"name":"echo"', `"name":"${longTool}"`), 200, { jsonrpc: '2.0', id: 1, error: { code: -32602, message: `Unknown tool: ${echoText(longTool)}` } }, { method: 'tools/call', name: longTool });
    const hugeVersion = 'v'.repeat(300_000);
    const got = await send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: { ...META, 'io.modelcontextprotocol/protocolVersion': hugeVersion } } }));
    assert.equal(got.status, 400);
    assert.ok(got.text.length < 400, `answer of ${got.text.length} bytes`);
    assert.equal((JSON.parse(got.text) as { error: { message: string } }).error.message, `Header mismatch: MCP-Protocol-Version "2026-07-28" differs from _meta protocolVersion ${renderJson(hugeVersion)}`);
  });
});

describe('hostile numbers', () => {
  const result = async (args: string): Promise<{ n: unknown; x: unknown; negativeZero: boolean; keys: string[]; proto: boolean }> => {
    const got = await send(call(args), 'tools/call', 'echo');
    assert.equal(got.status, 200, got.text);
    const answer = JSON.parse(got.text) as { result: { structuredContent: { n: unknown; x: unknown; negativeZero: boolean; keys: string[]; proto: boolean }; isError?: boolean } };
    assert.notEqual(answer.result.isError, true, got.text);
    return answer.result.structuredContent;
  };
  const refused = async (args: string, text: string): Promise<void> => {
    const before = seen.length;
    const got = await send(call(args), 'tools/call', 'echo');
    assert.equal(got.status, 200);
    assert.ok(got.text.length < 600);
    const answer = JSON.parse(got.text) as { result: { isError: boolean; content: Array<{ text: string }> } };
    assert.equal(answer.result.isError, true);
    assert.equal(answer.result.content[0]!.text, text);
    assert.equal(seen.length, before, 'the tool never ran');
  };

  it('1e400 and -1e400 (Infinity after JSON.parse) are invalid arguments, for integer and number alike', { timeout: 60_000 }, async () => {
    await refused('{"n":1e400}', 'Invalid arguments for tool echo:\n/n: expected a finite JSON number, got a number too large for a double (read as Infinity)');
    await refused('{"x":-1e400}', 'Invalid arguments for tool echo:\n/x: expected a finite JSON number, got a number too large for a double (read as -Infinity)');
  });

  it('-0, 1e2, 1.0 and a 30-digit integer are integers (JSON Schema: zero fractional part); 1.5 is not', { timeout: 60_000 }, async () => {
    assert.deepEqual(await result('{"n":-0}'), { n: 0, x: null, negativeZero: true, keys: ['n'], proto: true });
    assert.equal((await result('{"n":1e2}')).n, 100);
    assert.equal((await result('{"n":1.0}')).n, 1);
    assert.equal((await result('{"n":123456789012345678901234567890}')).n, 1.2345678901234568e29);
    assert.equal((await result('{"x":1e-400}')).x, 0, 'underflow reads as 0, a finite number');
    const got = await send(call('{"n":1.5}'), 'tools/call', 'echo');
    assert.match(got.text, /\/n: expected integer, got number 1\.5/);
  });

  it('"__proto__" as an argument key is an own data property: no prototype is replaced', { timeout: 60_000 }, async () => {
    const out = await result('{"n":1,"__proto__":{"x":5}}');
    assert.deepEqual(out, { n: 1, x: null, negativeZero: false, keys: ['n', '__proto__'], proto: true });
  });
});
