/**
 * `scopes` on resources, resource templates and prompts (issue 29, "a catalog per caller"): listed
 * for everyone, and a caller lacking a scope gets exactly the tools' step-up answer (-31403, HTTP
 * 403, `WWW-Authenticate: Bearer error="insufficient_scope", scope=...`, `data.requiredScopes`) from
 * `resources/read`, `prompts/get` and `completion/complete`, with nothing of the handler run; over
 * HTTP in both eras (2026-07-28 and a 2025-11-25 session) and over stdio (no header there).
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { createServer, definePrompt, defineResource, defineResourceTemplate, defineTool, text } from '../../src/index.js';
import type { AuthInfo, HttpListener, McpServer, ServerOptions } from '../../src/index.js';
import { createMemoryStore } from '../../src/server/store/memory-store.js';
import { post } from '../conformance/wire-client.js';
import { rpc } from '../fixtures/servers/raw-http.js';
import { bodyMessages } from '../support/sse-events.js';

type Json = Record<string, unknown>;

const PRM = 'https://rs.example/prm';
const TOKENS: Record<string, AuthInfo> = {
  nobody: { subject: 'nobody', scopes: [] },
  reader: { subject: 'reader', scopes: ['docs:read'] },
  keeper: { subject: 'keeper', scopes: ['vault:open', 'docs:read'] },
};
const authorize: ServerOptions['authorize'] = ({ bearerToken }) => (bearerToken === undefined ? { scopes: [] } : TOKENS[bearerToken] ?? null);
const as = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` });

const ran: string[] = [];
const guarded = defineTool({ name: 'guarded', inputSchema: { type: 'object' }, scopes: ['docs:read'], run: () => { ran.push('tool'); return 'ok'; } });
const secret = defineResource({ uri: 'doc://secret', name: 'secret', scopes: ['docs:read'], read: () => { ran.push('secret'); return 'classified'; } });
const vault = defineResourceTemplate({
  uriTemplate: 'vault://{id}', name: 'vault', scopes: ['docs:read', 'vault:open'],
  complete: { id: () => { ran.push('complete id'); return ['7']; } },
  read: (_uri, { id }) => { ran.push('vault'); return `item ${id}`; },
});
// An open template that finds nothing at mixed://none, then a scoped one that would read it.
const mixedOpen = defineResourceTemplate({ uriTemplate: 'mixed://{id}', name: 'mixed-open', read: (_uri, { id }) => { ran.push('mixed open'); return id === 'none' ? undefined : `open ${id}`; } });
const mixedScoped = defineResourceTemplate({ uriTemplate: 'mixed://{+rest}', name: 'mixed-scoped', scopes: ['vault:open'], read: (_uri, { rest }) => { ran.push('mixed scoped'); return `scoped ${rest}`; } });
const brief = definePrompt({
  name: 'brief', scopes: ['docs:read'],
  arguments: [{ name: 'topic', required: true, complete: () => { ran.push('complete topic'); return ['robots']; } }],
  get: ({ topic }) => { ran.push('brief'); return [{ role: 'user', content: text(`Brief on ${topic ?? ''}`) }]; },
});

const options: ServerOptions = {
  name: 'scoped', version: '1.0.0', tools: [guarded], authorize, resourceMetadataUrl: PRM, store: createMemoryStore(),
  resources: [secret, vault, mixedOpen, mixedScoped], prompts: [brief],
};

/** The tools' 403 for `what` needing `scopes`: status, challenge and JSON-RPC error. */
function refusal(what: string, scopes: string[]): { header: string; error: Json } {
  const message = `Insufficient scope: ${what} requires ${scopes.map((s) => JSON.stringify(s)).join(', ')}`;
  return {
    header: `Bearer error="insufficient_scope", scope="${scopes.join(' ')}", resource_metadata="${PRM}", error_description="${message.replaceAll('"', "'")}"`,
    error: { code: -31403, message, data: { requiredScopes: scopes } },
  };
}

/** Every refused request: method, params, token, and the entry and scopes the answer names. */
const REFUSED: readonly { method: string; params: Json; token: string; what: string; scopes: string[] }[] = [
  { method: 'resources/read', params: { uri: 'doc://secret' }, token: 'nobody', what: 'resource doc://secret', scopes: ['docs:read'] },
  { method: 'resources/read', params: { uri: 'vault://7' }, token: 'reader', what: 'resource template vault://{id}', scopes: ['docs:read', 'vault:open'] },
  // Missing its required argument too: the scope is checked first.
  { method: 'prompts/get', params: { name: 'brief' }, token: 'nobody', what: 'prompt brief', scopes: ['docs:read'] },
  { method: 'prompts/get', params: { name: 'brief', arguments: { topic: 'x' }, requestState: 'forged' }, token: 'nobody', what: 'prompt brief', scopes: ['docs:read'] },
  { method: 'completion/complete', params: { ref: { type: 'ref/prompt', name: 'brief' }, argument: { name: 'topic', value: 'r' } }, token: 'nobody', what: 'prompt brief', scopes: ['docs:read'] },
  { method: 'completion/complete', params: { ref: { type: 'ref/resource', uri: 'vault://{id}' }, argument: { name: 'id', value: '' } }, token: 'reader', what: 'resource template vault://{id}', scopes: ['docs:read', 'vault:open'] },
];

let server: McpServer;
let listener: HttpListener;
before(async () => {
  server = createServer(options);
  listener = await server.listen({ port: 0 });
});
after(async () => {
  await server.close();
});
beforeEach(() => {
  ran.length = 0;
});

describe('2026-07-28 over HTTP', () => {
  it('a scoped tool answers as before (the shape every entry below must match)', async () => {
    const res = await post(listener.url, rpc('tools/call', { name: 'guarded', arguments: {} }), as('nobody'));
    const expected = refusal('tool guarded', ['docs:read']);
    assert.equal(res.status, 403);
    assert.equal(res.headers.get('www-authenticate'), expected.header);
    assert.deepEqual(res.body?.error, expected.error);
    assert.deepEqual(ran, []);
  });

  for (const { method, params, token, what, scopes } of REFUSED) {
    it(`${method} ${JSON.stringify(params)} as ${token}: 403 insufficient_scope naming ${scopes.join(' ')}; nothing runs`, async () => {
      const res = await post(listener.url, rpc(method, params), as(token));
      const expected = refusal(what, scopes);
      assert.equal(res.status, 403);
      assert.equal(res.headers.get('www-authenticate'), expected.header);
      assert.deepEqual(res.body?.error, expected.error);
      assert.deepEqual(ran, []);
    });
  }

  it('an anonymous caller (no token) is refused the same way', async () => {
    const res = await post(listener.url, rpc('resources/read', { uri: 'doc://secret' }));
    assert.equal(res.status, 403);
    assert.deepEqual(res.body?.error, refusal('resource doc://secret', ['docs:read']).error);
    assert.deepEqual(ran, []);
  });

  it('the entry is the one a refusal names: the open template reads first, the scoped one that would serve is refused before it runs', async () => {
    const res = await post(listener.url, rpc('resources/read', { uri: 'mixed://none' }), as('reader'));
    const expected = refusal('resource template mixed://{+rest}', ['vault:open']);
    assert.equal(res.status, 403);
    assert.equal(res.headers.get('www-authenticate'), expected.header);
    assert.deepEqual(res.body?.error, expected.error);
    assert.deepEqual(ran, ['mixed open']);
    ran.length = 0;
    const open = await post(listener.url, rpc('resources/read', { uri: 'mixed://a' }), as('nobody'));
    assert.equal(((open.body?.result as Json).contents as Json[])[0]?.text, 'open a');
    assert.deepEqual(ran, ['mixed open']);
  });

  it('a caller holding the scopes reads, gets and completes', async () => {
    const read = await post(listener.url, rpc('resources/read', { uri: 'doc://secret' }), as('reader'));
    assert.equal(read.status, 200);
    assert.equal(((read.body?.result as Json).contents as Json[])[0]?.text, 'classified');
    const item = await post(listener.url, rpc('resources/read', { uri: 'vault://7' }), as('keeper'));
    assert.equal(((item.body?.result as Json).contents as Json[])[0]?.text, 'item 7');
    const mixed = await post(listener.url, rpc('resources/read', { uri: 'mixed://none' }), as('keeper'));
    assert.equal(((mixed.body?.result as Json).contents as Json[])[0]?.text, 'scoped none');
    const got = await post(listener.url, rpc('prompts/get', { name: 'brief', arguments: { topic: 'arms' } }), as('reader'));
    assert.deepEqual((got.body?.result as Json).messages, [{ role: 'user', content: { type: 'text', text: 'Brief on arms' } }]);
    const topic = await post(listener.url, rpc('completion/complete', { ref: { type: 'ref/prompt', name: 'brief' }, argument: { name: 'topic', value: 'r' } }), as('reader'));
    assert.deepEqual(((topic.body?.result as Json).completion as Json).values, ['robots']);
    const id = await post(listener.url, rpc('completion/complete', { ref: { type: 'ref/resource', uri: 'vault://{id}' }, argument: { name: 'id', value: '' } }), as('keeper'));
    assert.deepEqual(((id.body?.result as Json).completion as Json).values, ['7']);
    assert.deepEqual(ran, ['secret', 'vault', 'mixed open', 'mixed scoped', 'brief', 'complete topic', 'complete id']);
  });

  it('a holder still gets the usual answer to bad input (the scope check adds nothing else)', async () => {
    const missing = await post(listener.url, rpc('prompts/get', { name: 'brief' }), as('reader'));
    assert.deepEqual(missing.body?.error, { code: -32602, message: 'Invalid params: prompt brief is missing required argument topic' });
    assert.deepEqual(ran, []);
  });

  it('scoped entries stay listed for everyone, and nothing about scopes goes on the wire', async () => {
    const list = async (method: string): Promise<Json> => (await post(listener.url, rpc(method, {}), as('nobody'))).body?.result as Json;
    assert.deepEqual(((await list('resources/list')).resources as Json[]).map((r) => r.uri), ['doc://secret']);
    assert.deepEqual(((await list('resources/templates/list')).resourceTemplates as Json[]).map((t) => t.uriTemplate), ['vault://{id}', 'mixed://{id}', 'mixed://{+rest}']);
    const prompts = (await list('prompts/list')).prompts as Json[];
    assert.deepEqual(prompts.map((p) => p.name), ['brief']);
    assert.equal(JSON.stringify(prompts).includes('docs:read'), false);
    assert.equal((await list('prompts/list')).cacheScope, 'public');
  });
});

describe('a 2025-11-25 session', () => {
  async function send(token: string, body: Json, session?: string): Promise<{ status: number; headers: Headers; body: Json | undefined }> {
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...as(token) };
    if (session !== undefined) Object.assign(headers, { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' });
    const response = await fetch(listener.url, { method: 'POST', headers, body: JSON.stringify(body), signal: AbortSignal.timeout(10_000) });
    const raw = await response.text();
    return { status: response.status, headers: response.headers, body: bodyMessages(raw)[0] };
  }
  async function open(token: string): Promise<string> {
    const init = await send(token, { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } });
    assert.equal(init.status, 200);
    const session = init.headers.get('mcp-session-id') as string;
    assert.equal((await send(token, { jsonrpc: '2.0', method: 'notifications/initialized' }, session)).status, 202);
    return session;
  }

  it('resources/read, prompts/get and completion/complete answer the same 403; nothing runs', async () => {
    const sessions: Record<string, string> = { nobody: await open('nobody'), reader: await open('reader') };
    for (const [index, { method, params, token, what, scopes }] of REFUSED.entries()) {
      const res = await send(token, { jsonrpc: '2.0', id: index + 1, method, params }, sessions[token]);
      const expected = refusal(what, scopes);
      assert.equal(res.status, 403, `${method} ${JSON.stringify(params)}`);
      assert.equal(res.headers.get('www-authenticate'), expected.header);
      assert.deepEqual(res.body, { jsonrpc: '2.0', id: index + 1, error: expected.error });
    }
    assert.deepEqual(ran, []);
  });

  it('a caller holding the scopes is served', async () => {
    const session = await open('keeper');
    const read = await send('keeper', { jsonrpc: '2.0', id: 1, method: 'resources/read', params: { uri: 'vault://9' } }, session);
    assert.equal(read.status, 200);
    assert.equal(((read.body?.result as Json).contents as Json[])[0]?.text, 'item 9');
    const got = await send('keeper', { jsonrpc: '2.0', id: 2, method: 'prompts/get', params: { name: 'brief', arguments: { topic: 't' } } }, session);
    assert.deepEqual((got.body?.result as Json).messages, [{ role: 'user', content: { type: 'text', text: 'Brief on t' } }]);
    assert.deepEqual(ran, ['vault', 'brief']);
  });
});

describe('stdio', () => {
  it('with authorize, a caller lacking the scope gets the same JSON-RPC error, without a challenge header', async () => {
    const signal = new AbortController().signal;
    const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
    const reply = await server.handleMessage({
      body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'prompts/get', params: { name: 'brief', arguments: { topic: 'x' }, _meta: meta } }),
      transport: 'stdio', header: undefined, signal, isAborted: () => false, notify: () => undefined,
    });
    assert.equal(reply.headers?.['WWW-Authenticate'], undefined);
    assert.deepEqual(JSON.parse(reply.body ?? 'null'), { jsonrpc: '2.0', id: 3, error: refusal('prompt brief', ['docs:read']).error });
    assert.deepEqual(ran, []);
  });
});

describe('definitions', () => {
  it('scopes must be an array of scope tokens', () => {
    const read = (): string => '';
    assert.throws(() => defineResource({ uri: 'a://b', name: 'b', scopes: 'docs:read' as never, read }), { name: 'TypeError', message: 'defineResource(a://b): scopes must be an array of scope tokens, got string' });
    assert.throws(() => defineResource({ uri: 'a://b', name: 'b', scopes: null as never, read }), { name: 'TypeError', message: 'defineResource(a://b): scopes must be an array of scope tokens, got null' });
    assert.throws(() => defineResourceTemplate({ uriTemplate: 'a://{x}', name: 'x', scopes: ['ok', ''], read }), { name: 'TypeError', message: 'defineResourceTemplate(a://{x}): scopes[1] "" is not a scope token (RFC 6749 section 3.3): it is empty' });
    assert.throws(() => definePrompt({ name: 'p', scopes: ['docs:read vault:open'], get: () => [] }), { name: 'TypeError', message: 'definePrompt(p): scopes[0] "docs:read vault:open" is not a scope token (RFC 6749 section 3.3): it contains a space (a scope list is space-separated, so this would be several scopes)' });
    assert.throws(() => definePrompt({ name: 'p', scopes: [7 as never], get: () => [] }), { name: 'TypeError', message: 'definePrompt(p): scopes[0] 7 is not a scope token (RFC 6749 section 3.3): it is a number, not a string' });
    assert.deepEqual(definePrompt({ name: 'p', get: () => [] }).scopes, []);
    assert.equal(Object.isFrozen(secret.scopes), true);
  });

  it('a server without authorize refuses scoped entries, as it refuses scoped tools (stdio included)', () => {
    const base = { name: 's', version: '1', tools: [] };
    assert.throws(() => createServer({ ...base, tools: [guarded] }), { name: 'ServerDefinitionError', message: 'Invalid tool definition; the server was not created:\n- tool "guarded": requires scopes "docs:read" but the server has no authorize option, so no caller could ever hold them' });
    assert.throws(() => createServer({ ...base, resources: [secret] }), { name: 'TypeError', message: 'createServer: resource doc://secret requires scopes "docs:read" but the server has no authorize option, so no caller could ever hold them' });
    assert.throws(() => createServer({ ...base, resources: [vault] }), { name: 'TypeError', message: 'createServer: resource template vault://{id} requires scopes "docs:read", "vault:open" but the server has no authorize option, so no caller could ever hold them' });
    assert.throws(() => createServer({ ...base, prompts: [brief] }), { name: 'TypeError', message: 'createServer: prompt brief requires scopes "docs:read" but the server has no authorize option, so no caller could ever hold them' });
  });
});
