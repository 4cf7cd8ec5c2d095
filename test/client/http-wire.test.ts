/** The client's wire behaviour and every error path, against scripted answers from a real HTTP server on 127.0.0.1. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { connect, createListCache } from '../../src/client/index.js';
import type { ClientWarning } from '../../src/client/index.js';
import { replyError, replyResult } from './scripted-http-server.js';
import type { RecordedRequest } from './scripted-http-server.js';
import { useScriptedServerForFile } from './scripted-server-per-file.js';
import { rejectsWith } from './rejects-with.js';

const { server, client, closeAfterFile } = useScriptedServerForFile();


const list = (tools: unknown[], extra: Record<string, unknown> = {}) => ({ resultType: 'complete', tools, ttlMs: 60_000, cacheScope: 'public', ...extra });
const REGION_TOOL = {
  name: 'route',
  inputSchema: {
    type: 'object',
    properties: {
      region: { type: 'string', 'x-mcp-header': 'Region' },
      count: { type: 'integer', 'x-mcp-header': 'Count' },
      dry: { type: 'boolean', 'x-mcp-header': 'Dry' },
      target: { type: 'object', properties: { zone: { type: 'string', 'x-mcp-header': 'Zone' } } },
    },
  },
};
const OUTPUT_TOOL = { name: 'measure', inputSchema: { type: 'object' }, outputSchema: { type: 'object', properties: { mm: { type: 'number' } }, required: ['mm'] } };
const text = (t: string) => ({ resultType: 'complete', content: [{ type: 'text', text: t }] });

/** Answers tools/list with `tools` and tools/call with `call(request)`. */
function serve(tools: unknown[], call: (request: RecordedRequest) => Record<string, unknown> = () => text('ok')): void {
  server.script = (request, res) => {
    if (request.body.method === 'tools/list') replyResult(res, request, list(tools));
    else replyResult(res, request, call(request));
  };
}
const calls = () => server.requests.filter((r) => r.body.method === 'tools/call');

describe('request shape', () => {
  it('sends _meta, the standard headers and Mcp-Param-* (sentinel where needed, omitted for null and absent)', async () => {
    serve([REGION_TOOL]);
    await client({ clientInfo: { name: 'probe', version: '9' }, capabilities: { elicitation: {} } }).callTool('route', { region: 'Zürich', count: 42, dry: null, target: { zone: 'b' } });
    const [call] = calls();
    assert.ok(call);
    assert.equal(call.headers['mcp-protocol-version'], '2026-07-28');
    assert.equal(call.headers['mcp-method'], 'tools/call');
    assert.equal(call.headers['mcp-name'], 'route');
    assert.equal(call.headers['mcp-param-region'], `=?base64?${Buffer.from('Zürich').toString('base64')}?=`);
    assert.equal(call.headers['mcp-param-count'], '42');
    assert.equal(call.headers['mcp-param-zone'], 'b');
    assert.equal('mcp-param-dry' in call.headers, false, 'null is not mirrored');
    assert.match(String(call.headers.accept), /application\/json/);
    assert.match(String(call.headers.accept), /text\/event-stream/);
    const params = call.body.params as Record<string, unknown>;
    assert.deepEqual(params._meta, {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
      'io.modelcontextprotocol/clientInfo': { name: 'probe', version: '9' },
    });
    assert.deepEqual(params.arguments, { region: 'Zürich', count: 42, dry: null, target: { zone: 'b' } });
    const listed = server.requests.find((r) => r.body.method === 'tools/list');
    assert.equal(listed?.headers['mcp-method'], 'tools/list');
    assert.equal(listed?.headers['mcp-name'], undefined);
  });

  it('a client whose tool list came from a shared cache still mirrors the headers', async () => {
    serve([REGION_TOOL]);
    const cache = createListCache();
    await client({ cache }).listTools();
    await client({ cache }).callTool('route', { region: 'eu' });
    assert.deepEqual(server.requests.map((r) => r.body.method), ['tools/list', 'tools/call']);
    assert.equal(calls()[0]?.headers['mcp-param-region'], 'eu');
  });

  it('encodes a tool name outside the header-safe set in Mcp-Name with the sentinel', async () => {
    serve([{ name: 'météo', inputSchema: { type: 'object' } }]);
    await client().callTool('météo', {});
    assert.equal(calls()[0]?.headers['mcp-name'], `=?base64?${Buffer.from('météo').toString('base64')}?=`);
  });
});

describe('tools with invalid x-mcp-header annotations', () => {
  const BAD = [
    { name: 'float_header', inputSchema: { type: 'object', properties: { n: { type: 'number', 'x-mcp-header': 'N' } } } },
    { name: 'in_array', inputSchema: { type: 'object', properties: { xs: { type: 'array', items: { type: 'string', 'x-mcp-header': 'X' } } } } },
    { name: 'dupe', inputSchema: { type: 'object', properties: { a: { type: 'string', 'x-mcp-header': 'Id' }, b: { type: 'string', 'x-mcp-header': 'ID' } } } },
  ];

  it('are excluded from listTools with a warning naming the tool and the reason; malformed entries too', async () => {
    serve([REGION_TOOL, ...BAD, { name: 'no_schema' }, 42]);
    const warnings: ClientWarning[] = [];
    const listing = await client({ onWarning: (w) => warnings.push(w) }).listTools();
    assert.deepEqual(listing.tools.map((t) => t.name), ['route']);
    assert.equal(listing.raw.length, 6);
    assert.deepEqual(listing.excluded.map((e) => e.name), ['float_header', 'in_array', 'dupe', 'no_schema', undefined]);
    assert.deepEqual(warnings.map((w) => [w.code, w.tool]), [
      ['tool-excluded', 'float_header'], ['tool-excluded', 'in_array'], ['tool-excluded', 'dupe'], ['tool-excluded', 'no_schema'], ['tool-excluded', undefined],
    ]);
    assert.equal(warnings[0]?.message, 'toolwright client: excluded tool "float_header": x-mcp-header "N" at /properties/n is on a property of type "number"; only "string", "integer" or "boolean" may be mirrored');
    assert.equal(warnings[1]?.problems?.[0]?.code, 'not-statically-reachable');
    assert.equal(warnings[2]?.problems?.[0]?.code, 'duplicate');
    assert.equal(warnings[3]?.message, 'toolwright client: excluded tool "no_schema" inputSchema is missing or not an object');
    assert.equal(warnings[4]?.message, 'toolwright client: excluded tool (unnamed) entry is number, not a tool object');
  });

  it('cannot be called: tool_excluded, and nothing is sent', async () => {
    serve(BAD);
    await rejectsWith(client().callTool('float_header', { n: 1.5 }), {
      kind: 'tool_excluded',
      message: 'tool "float_header" was excluded: x-mcp-header "N" at /properties/n is on a property of type "number"; only "string", "integer" or "boolean" may be mirrored',
    });
    assert.equal(calls().length, 0);
  });

  it('the default warning goes to process warnings', async () => {
    serve([BAD[0]]);
    const seen: Error[] = [];
    const onWarning = (w: Error) => seen.push(w);
    process.on('warning', onWarning);
    try {
      const c = closeAfterFile(connect(server.url));
      await c.listTools();
      await new Promise((r) => setImmediate(r));
    } finally {
      process.off('warning', onWarning);
    }
    assert.equal(seen.length, 1);
    assert.equal((seen[0] as Error & { code?: string }).code, 'TOOLWRIGHT_TOOL_EXCLUDED');
    assert.match(seen[0]?.message ?? '', /^toolwright client: excluded tool "float_header": /);
  });
});

describe('structuredContent against outputSchema', () => {
  it('a violation is an output_invalid error carrying the schema errors and the result', async () => {
    serve([OUTPUT_TOOL], () => ({ resultType: 'complete', content: [], structuredContent: { mm: 'far' } }));
    const error = await rejectsWith(client().callTool('measure'), { kind: 'output_invalid' });
    assert.match(error.message, /^tool "measure" returned structuredContent that breaks its outputSchema: /);
    assert.equal(error.errors[0]?.instancePath, '/mm');
    assert.equal(error.errors[0]?.keyword, 'type');
    assert.deepEqual((error.data as Record<string, unknown>).structuredContent, { mm: 'far' });
  });

  it('missing structuredContent is output_invalid; an isError result is passed through unchecked; valid passes', async () => {
    serve([OUTPUT_TOOL], () => text('no structure'));
    await rejectsWith(client().callTool('measure'), { kind: 'output_invalid', message: 'tool "measure" declares an outputSchema but returned no structuredContent' });
    serve([OUTPUT_TOOL], () => ({ ...text('failed'), isError: true }));
    assert.equal((await client().callTool('measure')).isError, true);
    serve([OUTPUT_TOOL], () => ({ resultType: 'complete', content: [], structuredContent: { mm: 2.5 } }));
    assert.deepEqual((await client().callTool('measure')).structuredContent, { mm: 2.5 });
  });

  it('validateOutput: false skips the check', async () => {
    serve([OUTPUT_TOOL], () => ({ resultType: 'complete', content: [], structuredContent: { mm: 'far' } }));
    assert.deepEqual((await client({ validateOutput: false }).callTool('measure')).structuredContent, { mm: 'far' });
  });
});

describe('HTTP and protocol failures', () => {
  it('HTTP error without a JSON-RPC body is kind http with the status', async () => {
    server.script = (_req, res) => {
      res.writeHead(502, { 'content-type': 'text/plain' });
      res.end('bad gateway');
    };
    await rejectsWith(client().discover(), { kind: 'http', httpStatus: 502, message: 'server/discover: HTTP 502: bad gateway' });
    server.script = (_req, res) => {
      res.writeHead(500);
      res.end();
    };
    await rejectsWith(client().discover(), { kind: 'http', httpStatus: 500, message: 'server/discover: HTTP 500 with an empty body' });
  });

  it('a JSON-RPC error keeps code, message, data and HTTP status', async () => {
    server.script = (req, res) => replyError(res, req, { code: -32022, message: 'Unsupported protocol version: 2026-07-28', data: { supported: ['2027-01-01'], requested: '2026-07-28' } }, 400);
    const error = await rejectsWith(client().listTools(), { kind: 'rpc', code: -32022, httpStatus: 400, method: 'tools/list' });
    assert.equal(error.message, 'tools/list failed: Unsupported protocol version: 2026-07-28 (JSON-RPC -32022, HTTP 400)');
    assert.deepEqual(error.data, { supported: ['2027-01-01'], requested: '2026-07-28' });
  });

  it('a 200 without JSON, an unknown resultType, and a result without content are protocol errors', async () => {
    server.script = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>');
    };
    await rejectsWith(client().discover(), { kind: 'protocol', httpStatus: 200, message: 'server/discover: HTTP 200 answered with text/html and no JSON-RPC response: <html>' });
    serve([{ name: 't', inputSchema: { type: 'object' } }], () => ({ resultType: 'task', content: [] }));
    await rejectsWith(client().callTool('t'), { kind: 'protocol', message: 'tools/call: unexpected resultType "task"' });
    serve([{ name: 't', inputSchema: { type: 'object' } }], () => ({ resultType: 'complete' }));
    await rejectsWith(client().callTool('t'), { kind: 'protocol', message: 'tools/call t: result has no "content" array' });
  });

  it('a missing resultType (pre-2026 server) means complete', async () => {
    serve([{ name: 't', inputSchema: { type: 'object' } }], () => ({ content: [{ type: 'text', text: 'legacy' }] }));
    assert.deepEqual((await client().callTool('t')).content, [{ type: 'text', text: 'legacy' }]);
  });
});

describe('size limits', () => {
  it('a JSON body or an SSE event over maxMessageBytes is a protocol error', async () => {
    const small = client({}, { maxMessageBytes: 1000 });
    server.script = (req, res) => replyResult(res, req, { resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: {}, ttlMs: 0, cacheScope: 'public', instructions: 'x'.repeat(2000) });
    await rejectsWith(small.discover(), { kind: 'protocol', message: 'server/discover: the response body exceeds 1000 bytes' });
    server.script = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(`data: ${'x'.repeat(2000)}`);
    };
    await rejectsWith(small.discover(), { kind: 'protocol', message: 'server/discover: an event on the stream exceeds 1000 bytes' });
  });
});

describe('SSE responses', () => {
  it('reads notifications then the response, across chunk boundaries and CRLF line ends', async () => {
    server.script = (req, res) => {
      if (req.body.method === 'tools/list') return replyResult(res, req, list([{ name: 't', inputSchema: { type: 'object' } }]));
      const token = ((req.body.params as Record<string, unknown>)._meta as Record<string, unknown>).progressToken;
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const progress = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: token, progress: 1, total: 2 } });
      const log = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'hi' } });
      const final = JSON.stringify({ jsonrpc: '2.0', id: req.body.id, result: text('streamed') });
      const wire = `: comment\r\nevent: message\r\ndata: ${progress}\r\n\r\ndata: ${log}\n\nevent: message\ndata: ${final}\n\n`;
      const cut = Math.floor(wire.length / 3);
      res.write(wire.slice(0, cut));
      setTimeout(() => {
        res.write(wire.slice(cut, cut * 2));
        res.end(wire.slice(cut * 2));
      }, 5);
    };
    const progress: unknown[] = [];
    const other: unknown[] = [];
    const result = await client().callTool('t', {}, { onProgress: (p) => progress.push(p), onNotification: (n) => other.push(n.method) });
    assert.deepEqual(result.content, [{ type: 'text', text: 'streamed' }]);
    assert.deepEqual(progress, [{ progress: 1, total: 2 }]);
    assert.deepEqual(other, ['notifications/message']);
  });

  it('a stream that ends before the response is a transport error', async () => {
    server.script = (req, res) => {
      if (req.body.method === 'tools/list') return replyResult(res, req, list([{ name: 't', inputSchema: { type: 'object' } }]));
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(`data: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'x', progress: 1 } })}\n\n`);
    };
    await rejectsWith(client().callTool('t'), { kind: 'transport', httpStatus: 200, message: 'tools/call: the event stream ended before the response (re-issue the request with a new id)' });
  });

  it('an event that is not JSON is a protocol error', async () => {
    server.script = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end('data: {oops\n\n');
    };
    await rejectsWith(client().discover(), { kind: 'protocol', message: 'server/discover: an event on the stream is not JSON: {oops' });
  });
});

describe('pagination and caching', () => {
  function pagedServer(pages: Record<string, Record<string, unknown>>, failOnce?: string): void {
    let failed = false;
    server.script = (req, res) => {
      const cursor = (req.body.params as Record<string, unknown>).cursor;
      const key = cursor === undefined ? 'first' : String(cursor);
      if (key === failOnce && !failed) {
        failed = true;
        return replyError(res, req, { code: -32602, message: 'Invalid cursor' });
      }
      const page = pages[key];
      if (page === undefined) return replyError(res, req, { code: -32602, message: 'Invalid cursor' });
      replyResult(res, req, page);
    };
  }
  const tool = (name: string) => ({ name, inputSchema: { type: 'object' } });

  it('follows nextCursor (an empty-string cursor is a real cursor) and takes the smallest ttlMs', async () => {
    pagedServer({ first: list([tool('a')], { nextCursor: '', ttlMs: 5000 }), '': list([tool('b')], { nextCursor: 'c2', ttlMs: 100 }), c2: list([tool('c')]) });
    const listing = await client().listTools();
    assert.deepEqual(listing.tools.map((t) => t.name), ['a', 'b', 'c']);
    assert.equal(listing.pages, 3);
    assert.equal(listing.ttlMs, 100);
  });

  it('restarts once from the first page when a cursor turns invalid', async () => {
    pagedServer({ first: list([tool('a')], { nextCursor: 'c1' }), c1: list([tool('b')]) }, 'c1');
    const listing = await client().listTools();
    assert.deepEqual(listing.tools.map((t) => t.name), ['a', 'b']);
    assert.deepEqual(server.requests.map((r) => (r.body.params as Record<string, unknown>).cursor), [undefined, 'c1', undefined, 'c1']);
  });

  it('a cursor seen twice and a non-string cursor are protocol errors, never loops', async () => {
    pagedServer({ first: list([tool('a')], { nextCursor: 'x' }), x: list([tool('b')], { nextCursor: 'x' }) });
    await rejectsWith(client().listTools(), { kind: 'protocol', message: 'tools/list: the server returned cursor "x" twice; stopping' });
    pagedServer({ first: list([tool('a')], { nextCursor: 7 }) });
    await rejectsWith(client().listTools(), { kind: 'protocol', message: 'tools/list: nextCursor must be a string, got number' });
  });

  it('concurrent listTools share one request; invalidateCache forces the next one to ask again', async () => {
    pagedServer({ first: list([tool('a')]) });
    const c = client();
    const [one, two] = await Promise.all([c.listTools(), c.listTools()]);
    assert.deepEqual([one.tools.length, two.tools.length], [1, 1]);
    assert.equal(server.requests.length, 1);
    assert.equal((await c.listTools()).fromCache, true);
    c.invalidateCache();
    assert.equal((await c.listTools()).fromCache, false);
    assert.equal(server.requests.length, 2);
  });

  it('ttlMs 0, negative or absent is never cached', async () => {
    for (const ttl of [{ ttlMs: 0 }, { ttlMs: -5 }, { ttlMs: undefined }]) {
      server.requests.length = 0;
      pagedServer({ first: list([tool('a')], ttl) });
      const c = client();
      await c.listTools();
      assert.equal((await c.listTools()).fromCache, false, JSON.stringify(ttl));
      assert.equal(server.requests.length, 2);
    }
  });

  it('a shared cache shares public lists between clients but never private ones across authorization contexts', async () => {
    const cache = createListCache();
    pagedServer({ first: list([tool('a')], { cacheScope: 'public' }) });
    await client({ cache }, { headers: { authorization: 'Bearer alice' } }).listTools();
    assert.equal((await client({ cache }, { headers: { authorization: 'Bearer bob' } }).listTools()).fromCache, true);

    const privateCache = createListCache();
    pagedServer({ first: list([tool('a')], { cacheScope: 'private' }) });
    server.requests.length = 0;
    await client({ cache: privateCache }, { headers: { authorization: 'Bearer alice' } }).listTools();
    assert.equal((await client({ cache: privateCache }, { headers: { authorization: 'Bearer alice' } }).listTools()).fromCache, true, 'same token shares');
    assert.equal((await client({ cache: privateCache }, { headers: { authorization: 'Bearer bob' } }).listTools()).fromCache, false, 'another token does not');
    assert.equal(server.requests.length, 2);
  });

  it('pages that disagree on cacheScope are treated as private, with a warning; a bad cacheScope is a protocol error', async () => {
    pagedServer({ first: list([tool('a')], { nextCursor: 'p' }), p: list([tool('b')], { cacheScope: 'private' }) });
    const warnings: ClientWarning[] = [];
    assert.equal((await client({ onWarning: (w) => warnings.push(w) }).listTools()).cacheScope, 'private');
    assert.deepEqual(warnings.map((w) => w.code), ['mixed-cache-scope']);
    pagedServer({ first: list([tool('a')], { cacheScope: 'everyone' }) });
    await rejectsWith(client().listTools(), { kind: 'protocol', message: 'tools/list: cacheScope must be "public" or "private", got "everyone"' });
  });
});

describe('header mismatch retry', () => {
  it('on -32020 re-fetches tools/list and retries once with headers from the fresh schema', async () => {
    let annotated = false;
    server.script = (req, res) => {
      if (req.body.method === 'tools/list') {
        const schema = annotated ? REGION_TOOL.inputSchema : { type: 'object' };
        return replyResult(res, req, list([{ name: 'route', inputSchema: schema }]));
      }
      if (req.headers['mcp-param-region'] === undefined) {
        annotated = true;
        return replyError(res, req, { code: -32020, message: 'Header mismatch: Mcp-Param-Region is required' }, 400);
      }
      replyResult(res, req, text('routed'));
    };
    assert.deepEqual((await client().callTool('route', { region: 'eu' })).content, [{ type: 'text', text: 'routed' }]);
    assert.deepEqual(server.requests.map((r) => r.body.method), ['tools/list', 'tools/call', 'tools/list', 'tools/call']);
    const ids = calls().map((r) => r.body.id);
    assert.notEqual(ids[0], ids[1]);
  });

  it('a second -32020 is surfaced', async () => {
    serve([{ name: 'route', inputSchema: { type: 'object' } }]);
    server.script = (req, res) => {
      if (req.body.method === 'tools/list') return replyResult(res, req, list([{ name: 'route', inputSchema: { type: 'object' } }]));
      replyError(res, req, { code: -32020, message: 'Header mismatch: Mcp-Name missing' }, 400);
    };
    await rejectsWith(client().callTool('route'), { kind: 'rpc', code: -32020, httpStatus: 400 });
    assert.equal(calls().length, 2);
  });
});

describe('input-required rounds', () => {
  it('echoes requestState byte for byte with the answers, a new id each round, and retries state-only results without asking', async () => {
    const state1 = 'opaque+/=state 1 ü';
    server.script = (req, res) => {
      if (req.body.method === 'tools/list') return replyResult(res, req, list([{ name: 'ask', inputSchema: { type: 'object' } }]));
      const params = req.body.params as Record<string, unknown>;
      if (params.requestState === undefined) {
        return replyResult(res, req, { resultType: 'input_required', requestState: state1, inputRequests: { q: { method: 'elicitation/create', params: { mode: 'form', message: 'OK?', requestedSchema: { type: 'object' } } } } });
      }
      if (params.requestState === state1) return replyResult(res, req, { resultType: 'input_required', requestState: 'state-2' });
      replyResult(res, req, text(`done ${JSON.stringify(params.inputResponses ?? null)}`));
    };
    let asked = 0;
    const result = await client().callTool('ask', { x: 1 }, { onInputRequired: () => { asked++; return { q: { action: 'accept', content: {} } }; } });
    assert.equal(asked, 1);
    assert.deepEqual(result.content, [{ type: 'text', text: 'done null' }]);
    const params = calls().map((r) => r.body.params as Record<string, unknown>);
    assert.deepEqual(params.map((p) => p.requestState), [undefined, state1, 'state-2']);
    assert.deepEqual(params[1]?.inputResponses, { q: { action: 'accept', content: {} } });
    assert.equal(params[2]?.inputResponses, undefined, 'answers are not carried into a later round');
    assert.deepEqual(params.map((p) => p.arguments), [{ x: 1 }, { x: 1 }, { x: 1 }]);
    assert.equal(new Set(calls().map((r) => r.body.id)).size, 3);
  });

  it('a handler that skips a key, throws, or a server that never stops asking are input_required errors', async () => {
    server.script = (req, res) => {
      if (req.body.method === 'tools/list') return replyResult(res, req, list([{ name: 'ask', inputSchema: { type: 'object' } }]));
      replyResult(res, req, { resultType: 'input_required', requestState: 's', inputRequests: { a: { method: 'roots/list' }, b: { method: 'roots/list' } } });
    };
    await rejectsWith(client().callTool('ask', {}, { onInputRequired: () => ({ a: { roots: [] } }) }), { kind: 'input_required', message: 'onInputRequired did not answer "b"; every input request needs a response' });
    await rejectsWith(client().callTool('ask', {}, { onInputRequired: () => { throw new Error('user declined'); } }), { kind: 'input_required', message: 'onInputRequired failed: user declined' });
    server.requests.length = 0;
    await rejectsWith(client({ maxInputRounds: 3 }).callTool('ask', {}, { onInputRequired: () => ({ a: { roots: [] }, b: { roots: [] } }) }), {
      kind: 'input_required',
      message: 'tool "ask" still asks for input after 3 rounds; giving up',
    });
    assert.equal(calls().length, 4);
  });
});
