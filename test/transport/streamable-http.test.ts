/** Every Streamable HTTP rule of issue 3, over real HTTP on 127.0.0.1 (and the fetch handler). */
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { resolveHttpPolicy } from '../../src/transport/http-policy.js';
import type { HttpListener } from '../../src/index.js';
import { createEverythingServer } from '../fixtures/servers/everything.js';
import { META, post, rpc, standardHeaders } from '../fixtures/servers/raw-http.js';
import { assertServerMessage } from '../fixtures/servers/wire-schema.js';
import { parseSse } from '../support/sse-events.js';

const server = createEverythingServer({ logger: { error: () => {} } });
let listener: HttpListener;
let url: string;

before(async () => {
  listener = await server.listen({ port: 0, maxBodyBytes: 4096 });
  url = listener.url;
});
after(() => server.close());

function errorOf(body: Record<string, unknown> | undefined): { code: number; message: string } {
  assert.ok(body && 'error' in body, `expected an error, got ${JSON.stringify(body)}`);
  return body.error as { code: number; message: string };
}
function resultOf(body: Record<string, unknown> | undefined): Record<string, unknown> {
  assert.ok(body && 'result' in body, `expected a result, got ${JSON.stringify(body)}`);
  return body.result as Record<string, unknown>;
}
const call = (name: string, args: Record<string, unknown>, meta: Record<string, unknown> = META) => rpc('tools/call', { name, arguments: args }, 1, meta);

async function expectHeaderMismatch(message: Record<string, unknown>, headers: Record<string, string | null>, expected: string): Promise<void> {
  const res = await post(url, message, headers);
  assert.equal(res.status, 400);
  assert.deepEqual(errorOf(res.body), { code: -32020, message: expected });
}

describe('endpoint, methods and transport refusals', () => {
  it('a 2026-07-28-only server answers GET, DELETE and PUT with 405 and Allow: POST', async () => {
    const modernOnly = createEverythingServer({ logger: { error: () => {} }, eras: 'modern' });
    const modernListener = await modernOnly.listen({ port: 0 });
    try {
      for (const method of ['GET', 'DELETE', 'PUT']) {
        const res = await post(modernListener.url, rpc('tools/list'), {}, { method });
        assert.equal(res.status, 405, method);
        assert.equal(res.headers.get('allow'), 'POST');
        assert.deepEqual(errorOf(res.body), { code: -32600, message: `Method not allowed: ${method}; the MCP endpoint accepts POST only` });
      }
    } finally {
      await modernOnly.close();
    }
  });

  it('a dual-era server answers PUT with 405 (Allow: GET, POST, DELETE); GET and DELETE belong to legacy sessions', async () => {
    const put = await post(url, rpc('tools/list'), {}, { method: 'PUT' });
    assert.equal(put.status, 405);
    assert.equal(put.headers.get('allow'), 'GET, POST, DELETE');
    assert.deepEqual(errorOf(put.body), { code: -32600, message: 'Method not allowed: PUT; the MCP endpoint accepts POST, GET and DELETE' });
    const del = await post(url, rpc('tools/list'), {}, { method: 'DELETE' });
    assert.equal(del.status, 400);
    assert.deepEqual(errorOf(del.body), { code: -32600, message: 'Bad request: Mcp-Session-Id header is required; send initialize first' });
  });

  it('answers other paths with 404', async () => {
    const res = await post(url.replace(/\/mcp$/, '/other'), rpc('tools/list'));
    assert.equal(res.status, 404);
    assert.deepEqual(errorOf(res.body), { code: -31400, message: 'Not found: the MCP endpoint is /mcp' });
  });

  it('refuses a foreign Origin with 403 and accepts loopback origins', async () => {
    const res = await post(url, rpc('tools/list'), { origin: 'https://evil.example' });
    assert.equal(res.status, 403);
    assert.deepEqual(errorOf(res.body), { code: -31400, message: 'Forbidden: Origin "https://evil.example" is not allowed' });
    const ok = await post(url, rpc('tools/list'), { origin: 'http://localhost:5173' });
    assert.equal(ok.status, 200);
  });

  it('refuses a foreign Host with 403 (DNS rebinding) and accepts localhost', async () => {
    const status = (host: string) =>
      new Promise<number>((resolve, reject) => {
        const body = JSON.stringify(rpc('tools/list'));
        const req = httpRequest(url, { method: 'POST', headers: { ...standardHeaders(rpc('tools/list')), host, 'content-length': Buffer.byteLength(body) } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', reject);
        req.end(body);
      });
    assert.equal(await status('evil.example'), 403);
    assert.equal(await status(`localhost:${listener.port}`), 200);
    assert.equal(await status(`127.0.0.1:${listener.port}`), 200);
  });

  it('refuses a body over the limit with 413', async () => {
    const big = rpc('tools/call', { name: 'no_arguments', arguments: { pad: 'x'.repeat(5000) } });
    const res = await post(url, big);
    assert.equal(res.status, 413);
    assert.deepEqual(errorOf(res.body), { code: -31400, message: 'Payload too large: the limit is 4096 bytes' });
  });

  it('refuses a non-JSON Content-Type with 415', async () => {
    const res = await post(url, rpc('tools/list'), { 'content-type': 'text/plain' });
    assert.equal(res.status, 415);
    assert.deepEqual(errorOf(res.body), { code: -32600, message: 'Unsupported media type: Content-Type must be application/json, got "text/plain"' });
    // No Content-Type at all (a Uint8Array body: fetch adds none) is said to be missing, not `got ""`.
    const bare = await fetch(url, { method: 'POST', headers: { accept: 'application/json, text/event-stream' }, body: new TextEncoder().encode(JSON.stringify(rpc('tools/list'))) });
    assert.equal(bare.status, 415);
    assert.deepEqual(errorOf(await bare.json()), { code: -32600, message: 'Unsupported media type: Content-Type must be application/json, and the header is missing' });
    const charset = await post(url, rpc('tools/list'), { 'content-type': 'application/json; charset=utf-8' });
    assert.equal(charset.status, 200);
  });

  it('accepts notifications with 202 and an empty body, headers or not', async () => {
    const res = await post(url, { jsonrpc: '2.0', method: 'notifications/whatever' }, { 'mcp-protocol-version': null });
    assert.equal(res.status, 202);
    assert.equal(res.text, '');
  });

  it('ignores Mcp-Session-Id and never echoes it', async () => {
    const res = await post(url, rpc('tools/list'), { 'mcp-session-id': 'abc' });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('mcp-session-id'), null);
  });
});

describe('standard headers', () => {
  it('requires MCP-Protocol-Version equal to the _meta version', async () => {
    await expectHeaderMismatch(rpc('tools/list'), { 'mcp-protocol-version': null }, 'Header mismatch: missing required header MCP-Protocol-Version');
    await expectHeaderMismatch(rpc('tools/list'), { 'mcp-protocol-version': '2025-06-18' }, 'Header mismatch: MCP-Protocol-Version "2025-06-18" differs from _meta protocolVersion "2026-07-28"');
  });

  it('requires Mcp-Method equal to the body method, values case-sensitive', async () => {
    await expectHeaderMismatch(rpc('tools/list'), { 'mcp-method': null }, 'Header mismatch: missing required header Mcp-Method');
    await expectHeaderMismatch(rpc('tools/list'), { 'mcp-method': 'tools/call' }, 'Header mismatch: Mcp-Method "tools/call" differs from method "tools/list"');
    await expectHeaderMismatch(rpc('tools/list'), { 'mcp-method': 'TOOLS/LIST' }, 'Header mismatch: Mcp-Method "TOOLS/LIST" differs from method "tools/list"');
  });

  it('compares header names case-insensitively and ignores surrounding whitespace', async () => {
    const res = await post(url, call('calculate_sum', { a: 1, b: 2 }), { 'MCP-METHOD': ' tools/call ', 'mcp-name': '\tcalculate_sum  ', 'Mcp-Protocol-Version': ' 2026-07-28' });
    assert.equal(res.status, 200);
    assert.deepEqual(resultOf(res.body).content, [{ type: 'text', text: '3' }]);
  });

  it('requires Mcp-Name equal to params.name for tools/call, decoding the base64 sentinel', async () => {
    const message = call('calculate_sum', { a: 1, b: 2 });
    await expectHeaderMismatch(message, { 'mcp-name': null }, 'Header mismatch: missing required header Mcp-Name');
    await expectHeaderMismatch(message, { 'mcp-name': 'Calculate_Sum' }, 'Header mismatch: Mcp-Name "Calculate_Sum" differs from params.name "calculate_sum"');
    await expectHeaderMismatch(message, { 'mcp-name': '=?base64?%%%?=' }, 'Header mismatch: Mcp-Name invalid Base64 inside =?base64?...?=');
    const encoded = await post(url, message, { 'mcp-name': `=?base64?${Buffer.from('calculate_sum').toString('base64')}?=` });
    assert.equal(encoded.status, 200);
  });

  it('does not require Mcp-Name on methods without a name (tools/list)', async () => {
    const res = await post(url, rpc('tools/list'), { 'mcp-name': 'anything' });
    assert.equal(res.status, 200);
  });

  it('returns 404 with -32601 for unknown methods even with correct headers', async () => {
    const res = await post(url, rpc('resources/list'));
    assert.equal(res.status, 404);
    assert.deepEqual(errorOf(res.body), { code: -32601, message: 'Method not found: resources/list' });
  });
});

describe('Mcp-Param-* headers (x-mcp-header)', () => {
  it('accepts matching headers: literal, base64 sentinel, numeric integer, boolean', async () => {
    const res = await post(url, call('region_echo', { region: 'Zürich', priority: 10, urgent: false }), {
      'Mcp-Param-Region': `=?base64?${Buffer.from('Zürich').toString('base64')}?=`,
      'mcp-param-priority': '10.0',
      'MCP-PARAM-URGENT': 'false',
    });
    assert.equal(res.status, 200);
    assert.deepEqual(resultOf(res.body).structuredContent, { region: 'Zürich', priority: 10, urgent: false });
  });

  it('rejects a missing header when the body has the value', async () => {
    await expectHeaderMismatch(call('region_echo', { region: 'eu' }), {}, 'Header mismatch: Mcp-Param-Region is required because arguments.region is present');
  });

  it('rejects a header that differs from the body', async () => {
    await expectHeaderMismatch(call('region_echo', { region: 'eu' }), { 'mcp-param-region': 'us' }, 'Header mismatch: Mcp-Param-Region "us" differs from the body value "eu" at arguments.region');
    await expectHeaderMismatch(call('region_echo', { region: 'eu', priority: 3 }), { 'mcp-param-region': 'eu', 'mcp-param-priority': '4' }, 'Header mismatch: Mcp-Param-Priority "4" differs from the body value 3 at arguments.priority');
    await expectHeaderMismatch(call('region_echo', { region: 'eu', urgent: true }), { 'mcp-param-region': 'eu', 'mcp-param-urgent': 'True' }, 'Header mismatch: Mcp-Param-Urgent "True" differs from the body value true at arguments.urgent');
  });

  it('takes a value without the exact sentinel markers literally, and rejects bad base64', async () => {
    await expectHeaderMismatch(call('region_echo', { region: 'eu' }), { 'mcp-param-region': '=?BASE64?ZXU=?=' }, 'Header mismatch: Mcp-Param-Region "=?BASE64?ZXU=?=" differs from the body value "eu" at arguments.region');
    await expectHeaderMismatch(call('region_echo', { region: 'eu' }), { 'mcp-param-region': '=?base64?ZXU?=' }, 'Header mismatch: Mcp-Param-Region invalid Base64 inside =?base64?...?=');
    const literal = await post(url, call('region_echo', { region: '=?base64?x' }), { 'mcp-param-region': '=?base64?x' });
    assert.equal(literal.status, 200);
  });

  it('expects no header when the value is null or absent', async () => {
    const res = await post(url, call('region_echo', { region: 'eu', priority: null }), { 'mcp-param-region': 'eu' });
    assert.equal(res.status, 200);
  });

  it('ignores Mcp-Param headers no annotation asks for (A-07)', async () => {
    const res = await post(url, call('calculate_sum', { a: 1, b: 1 }), { 'mcp-param-region': 'ignored' });
    assert.equal(res.status, 200);
  });
});

describe('per-request SSE stream', () => {
  it('streams progress and logs on the call\'s own SSE stream, then the result, and ends it', async () => {
    const message = call('slow_progress', { delayMs: 5 }, { ...META, progressToken: 'tok-1', 'io.modelcontextprotocol/logLevel': 'info' });
    const res = await post(url, message);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'text/event-stream');
    assert.equal(res.headers.get('x-accel-buffering'), 'no');
    assert.doesNotMatch(res.text, /^id:/m);
    const methods = res.messages.map((m) => (m.method as string | undefined) ?? 'response');
    assert.deepEqual(methods, [
      'notifications/progress', 'notifications/message', 'notifications/progress', 'notifications/message', 'notifications/progress', 'notifications/message', 'response',
    ]);
    const progress = res.messages.filter((m) => m.method === 'notifications/progress').map((m) => m.params);
    assert.deepEqual(progress, [
      { progressToken: 'tok-1', progress: 0, total: 100, message: 'step 0' },
      { progressToken: 'tok-1', progress: 50, total: 100, message: 'step 50' },
      { progressToken: 'tok-1', progress: 100, total: 100, message: 'step 100' },
    ]);
    assert.deepEqual(res.messages[1]?.params, { level: 'info', logger: 'slow_progress', data: { step: 0 } });
    assert.deepEqual(resultOf(res.body).content, [{ type: 'text', text: 'done' }]);
  });

  it('answers with plain JSON when the call sends nothing before its result', async () => {
    const res = await post(url, call('slow_progress', { delayMs: 1 }));
    assert.equal(res.headers.get('content-type'), 'application/json');
    assert.equal(res.messages.length, 1);
  });

  it('sends no log notifications below the requested level', async () => {
    const res = await post(url, call('slow_progress', { delayMs: 1 }, { ...META, 'io.modelcontextprotocol/logLevel': 'warning' }));
    assert.equal(res.messages.length, 1);
  });
});

describe('fetch handler (same pipeline)', () => {
  const fetchServer = createEverythingServer({ logger: { error: () => {} } });
  const send = async (message: Record<string, unknown>, headers: Record<string, string> = {}, method = 'POST') => {
    const response = await fetchServer.fetch(new Request('http://127.0.0.1/mcp', { method, headers: { ...standardHeaders(message), ...headers }, body: method === 'POST' ? JSON.stringify(message) : null }));
    const text = await response.text();
    return { response, text };
  };

  it('serves calls, header rules and 405 like listen()', async () => {
    const ok = await send(call('calculate_sum', { a: 20, b: 22 }));
    assert.equal(ok.response.status, 200);
    const body = JSON.parse(ok.text) as Record<string, unknown>;
    assertServerMessage(body, 'tools/call');
    assert.deepEqual(resultOf(body).content, [{ type: 'text', text: '42' }]);
    const mismatch = await send(call('calculate_sum', { a: 1, b: 1 }), { 'mcp-name': 'other' });
    assert.equal(mismatch.response.status, 400);
    assert.equal(errorOf(JSON.parse(mismatch.text) as Record<string, unknown>).code, -32020);
    // Dual era by default: GET and DELETE belong to legacy sessions, so PUT is the method refused.
    const put = await send(rpc('tools/list'), {}, 'PUT');
    assert.equal(put.response.status, 405);
    assert.equal(put.response.headers.get('allow'), 'GET, POST, DELETE');
    const get = await send(rpc('tools/list'), {}, 'GET');
    assert.equal(get.response.status, 400);
  });

  it('switches to SSE when the call reports progress', async () => {
    const { response, text } = await send(call('slow_progress', { delayMs: 1 }, { ...META, progressToken: 9 }));
    assert.equal(response.headers.get('content-type'), 'text/event-stream');
    const events = parseSse(text);
    assert.deepEqual(events.map((e) => [e.event, e.id]), Array(4).fill(['message', undefined]));
    events.slice(0, 3).forEach((e) => assertServerMessage(e.data));
    assertServerMessage(events[3]!.data, 'tools/call');
  });

  it('treats any Origin as foreign when no address is known (no allow-list configured)', async () => {
    const { response } = await send(rpc('tools/list'), { origin: 'http://localhost:3000' });
    assert.equal(response.status, 403);
  });
});

describe('HTTP policy resolution', () => {
  const header = (values: Record<string, string>) => (name: string) => values[name];
  const json = { 'content-type': 'application/json' };

  it('on a non-loopback address accepts any Host and refuses every Origin unless allowed', () => {
    const policy = resolveHttpPolicy({}, '0.0.0.0');
    assert.equal(policy.preflight('POST', '/mcp', header({ ...json, host: 'api.example.com' })), undefined);
    assert.equal(policy.preflight('POST', '/mcp', header({ ...json, host: 'api.example.com', origin: 'http://localhost' }))?.status, 403);
    const allowing = resolveHttpPolicy({ allowedOrigins: ['https://app.example.com'] }, '0.0.0.0');
    assert.equal(allowing.preflight('POST', '/mcp', header({ ...json, origin: 'https://app.example.com/' })), undefined);
    assert.equal(allowing.preflight('POST', '/mcp', header({ ...json, origin: 'https://other.example.com' }))?.status, 403);
  });

  it('on loopback refuses a missing Host and honours a custom path and allowedHosts', () => {
    const policy = resolveHttpPolicy({ path: '/rpc', allowedHosts: ['robot.local'] }, '127.0.0.1');
    assert.equal(policy.preflight('POST', '/rpc', header({ ...json, host: 'robot.local:8080' })), undefined);
    assert.equal(policy.preflight('POST', '/rpc', header({ ...json, host: 'localhost' }))?.status, 403);
    assert.equal(policy.preflight('POST', '/mcp', header({ ...json, host: 'robot.local' }))?.status, 404);
    assert.equal(resolveHttpPolicy({}, '127.0.0.1').preflight('POST', '/mcp', header(json))?.status, 403);
  });

  it('judges every request on its own values: one that passed lets no later refused Host or Content-Type through', () => {
    // The policy remembers the last Host and Content-Type that passed (a client sends the same ones
    // every time); a value that was refused, or one after a passing one, is checked in full.
    const policy = resolveHttpPolicy({ allowedHosts: ['robot.local'] }, '127.0.0.1');
    const good = { ...json, host: 'robot.local:8080' };
    const verdicts = [
      json,
      { host: 'robot.local:8080' },
      good,
      { ...good, host: 'evil.example' },
      good,
      { ...good, host: 'robot.local:99999' },
      { ...good, host: 'robot.local, evil.example' },
      { host: 'robot.local:8080' },
      { ...good, 'content-type': 'text/plain' },
      good,
      { ...good, 'content-type': 'application/json; charset=utf-8' },
      { host: 'robot.local:8080' },
      { ...good, 'content-type': 'application/jsonx' },
      good,
    ].map((values) => policy.preflight('POST', '/mcp', header(values))?.status ?? 200);
    assert.deepEqual(verdicts, [403, 415, 200, 403, 200, 400, 400, 415, 415, 200, 200, 415, 415, 200]);
    // A Host header missing after a passing one is still refused (loopback requires one).
    assert.equal(policy.preflight('POST', '/mcp', header(json))?.status, 403);
  });
});
