/**
 * The server as an RFC 9728 protected resource over real HTTP (`listen()` on 127.0.0.1 and the
 * fetch handler): the metadata document at both well-known forms, duplicated Authorization headers
 * on node:http, 2025 sessions authenticated per request (initialize, POST, GET, DELETE), and the
 * gateway's nginx config passing the metadata through.
 */
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { createServer, defineTool, jwtAuthorizer } from '../../src/index.js';
import type { McpServer } from '../../src/index.js';
import { nginxConfig } from '../../src/cli/gateway/nginx-config.js';
import { rpc, standardHeaders } from '../fixtures/servers/raw-http.js';
import { exchange } from '../support/legacy-session-client.js';
import { startLoopbackIssuer } from '../support/loopback-issuer.js';
import type { LoopbackIssuer } from '../support/loopback-issuer.js';

const RESOURCE = 'https://robot.example.test/tenant-a/mcp';
const METADATA_URL = 'https://robot.example.test/.well-known/oauth-protected-resource/tenant-a/mcp';
const CHALLENGE = `Bearer resource_metadata="${METADATA_URL}", scope="arm:read"`;

let issuer: LoopbackIssuer;
let server: McpServer;
let url: string;
let base: string;
const runs: string[] = [];

before(async () => {
  issuer = await startLoopbackIssuer();
  const read = defineTool({ name: 'read', inputSchema: { type: 'object' }, run: (_a, ctx) => {
    runs.push(ctx.auth?.subject ?? '?');
    return `read by ${ctx.auth?.subject}`;
  } });
  server = createServer({
    name: 'rs',
    version: '1',
    tools: [read],
    logger: { error: () => undefined },
    http: { path: '/tenant-a/mcp' },
    authorize: jwtAuthorizer({ resource: RESOURCE, issuer: issuer.url, scopesSupported: ['arm:read'], resourceName: 'Robot arm A', timeoutMs: 1000 }),
  });
  ({ url } = await server.listen({ port: 0 }));
  base = new URL(url).origin;
});
after(async () => {
  await server.close();
  await issuer.close();
});

const EXPECTED_METADATA = () => ({ resource: RESOURCE, authorization_servers: [issuer.url], bearer_methods_supported: ['header'], scopes_supported: ['arm:read'], resource_name: 'Robot arm A' });

describe('protected resource metadata (RFC 9728)', () => {
  it('is served at the path-suffixed and the root well-known forms, by listen() and by fetch()', async () => {
    for (const path of ['/.well-known/oauth-protected-resource/tenant-a/mcp', '/.well-known/oauth-protected-resource']) {
      const response = await fetch(`${base}${path}`, { headers: { origin: 'https://inspector.example.test' } });
      assert.equal(response.status, 200, path);
      assert.equal(response.headers.get('content-type'), 'application/json');
      assert.equal(response.headers.get('access-control-allow-origin'), '*');
      assert.deepEqual(await response.json(), EXPECTED_METADATA());
      const viaFetch = await server.fetch(new Request(`http://127.0.0.1${path}`));
      assert.equal(viaFetch.status, 200);
      assert.deepEqual(await viaFetch.json(), EXPECTED_METADATA());
    }
  });

  it('answers other methods 405 and a CORS preflight 204; other well-known paths stay 404', async () => {
    const post = await fetch(`${base}/.well-known/oauth-protected-resource/tenant-a/mcp`, { method: 'POST', body: '{}' });
    assert.equal(post.status, 405);
    assert.equal(post.headers.get('allow'), 'GET, HEAD, OPTIONS');
    const preflight = await fetch(`${base}/.well-known/oauth-protected-resource`, { method: 'OPTIONS' });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get('access-control-allow-methods'), 'GET');
    const other = await fetch(`${base}/.well-known/oauth-protected-resource/other`);
    assert.equal(other.status, 404);
  });

  it('is not served by a server without an OAuth authorizer', async () => {
    const plain = createServer({ name: 'plain', version: '1', tools: [] });
    const response = await plain.fetch(new Request('http://127.0.0.1/.well-known/oauth-protected-resource'));
    assert.equal(response.status, 404);
  });

  it('the 401 challenge points at it', async () => {
    const message = rpc('tools/call', { name: 'read', arguments: {} });
    const response = await fetch(url, { method: 'POST', headers: standardHeaders(message), body: JSON.stringify(message) });
    assert.equal(response.status, 401);
    assert.equal(response.headers.get('www-authenticate'), CHALLENGE);
  });

  it('the gateway passes the well-known paths to the pool', () => {
    const text = nginxConfig({ tools: [], pool: ['127.0.0.1:9001'] });
    assert.match(text, /location \^~ \/\.well-known\/oauth-protected-resource \{\n {6}limit_except GET \{ deny all; \}\n {6}error_page 502 504 = @toolwright_unavailable;\n {6}proxy_pass http:\/\/toolwright_pool;/);
  });
});

describe('Authorization headers on node:http', () => {
  it('two Authorization headers are refused with 400 invalid_request, even though node:http keeps only the first', async () => {
    const token = await issuer.sign({ sub: 'dup', aud: RESOURCE, scope: 'arm:read' });
    const message = rpc('tools/call', { name: 'read', arguments: {} });
    const body = JSON.stringify(message);
    const before = runs.length;
    const answer = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = request(url, { method: 'POST', headers: { ...standardHeaders(message), authorization: [`Bearer ${token}`, `Bearer ${token}`] as unknown as string, 'content-length': String(Buffer.byteLength(body)) } }, (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      });
      req.on('error', reject);
      req.end(body);
    });
    assert.equal(answer.status, 400);
    assert.deepEqual(JSON.parse(answer.text), { jsonrpc: '2.0', error: { code: -31401, message: 'Bad request: the request carries more than one Authorization credential' } });
    assert.equal(runs.length, before);
  });
});

describe('2025 sessions are authenticated per request', () => {
  const initialize = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } };

  it('initialize, POST, GET and DELETE without a valid token are refused 401; with one they work', async () => {
    const token = await issuer.sign({ sub: 'legacy-user', aud: RESOURCE, scope: 'arm:read' });
    const bearer = { authorization: `Bearer ${token}` };
    const refusedInit = await exchange(url, initialize, {});
    assert.equal(refusedInit.status, 401);
    assert.equal(refusedInit.headers.get('www-authenticate'), CHALLENGE);
    assert.equal(refusedInit.headers.get('mcp-session-id'), null);
    assert.deepEqual((refusedInit.messages[0] as { error: unknown }).error, { code: -31401, message: 'Unauthorized: a valid bearer token is required' });

    const opened = await exchange(url, initialize, bearer);
    assert.equal(opened.status, 200);
    const session = { 'mcp-session-id': opened.headers.get('mcp-session-id') as string, 'mcp-protocol-version': '2025-11-25' };
    assert.equal((await exchange(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, { ...session, ...bearer })).status, 202);

    const before = runs.length;
    const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'read', arguments: {} } };
    const noToken = await exchange(url, call, session);
    assert.equal(noToken.status, 401);
    const expired = await issuer.sign({ sub: 'legacy-user', aud: RESOURCE, scope: 'arm:read', exp: Math.floor(Date.now() / 1000) - 120 });
    const expiredCall = await exchange(url, call, { ...session, authorization: `Bearer ${expired}` });
    assert.equal(expiredCall.status, 401);
    assert.deepEqual((expiredCall.messages[0] as { error: unknown }).error, { code: -31401, message: 'Unauthorized: the token has expired' });
    assert.equal(runs.length, before, 'nothing ran without a valid token');

    const stream = await exchange(url, undefined, session, { method: 'GET', accept: 'text/event-stream' });
    assert.equal(stream.status, 401);
    const ended = await exchange(url, undefined, session, { method: 'DELETE' });
    assert.equal(ended.status, 401);

    const ok = await exchange(url, call, { ...session, ...bearer });
    assert.equal(ok.status, 200);
    assert.deepEqual(runs.slice(before), ['legacy-user']);
    assert.equal((await exchange(url, undefined, { ...session, ...bearer }, { method: 'DELETE' })).status, 200);
  });
});
