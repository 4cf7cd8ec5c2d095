/**
 * The OAuth client's parsing and its refusals without a network: WWW-Authenticate challenges,
 * resource coverage, and a flow that refuses a mismatched state, a wrong iss and a foreign
 * resource before any token is asked for (against scripted issuer answers on 127.0.0.1).
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { connect, createOAuthClient, McpClientError, parseBearerChallenge } from '../../src/client/index.js';
import { resourceCovers } from '../../src/client/oauth/oauth-client.js';

describe('parseBearerChallenge', () => {
  it('reads quoted and token parameters, and the Bearer challenge among several schemes', () => {
    assert.deepEqual(parseBearerChallenge('Bearer resource_metadata="https://a.test/.well-known/oauth-protected-resource/mcp", scope="x y"'), { scope: 'x y', resourceMetadata: 'https://a.test/.well-known/oauth-protected-resource/mcp' });
    assert.deepEqual(parseBearerChallenge('Basic realm="r", Bearer error=insufficient_scope, scope="w", error_description="needs \\"w\\""'), { error: 'insufficient_scope', errorDescription: 'needs "w"', scope: 'w' });
    assert.deepEqual(parseBearerChallenge('Bearer'), {});
    assert.equal(parseBearerChallenge('Basic realm="r"'), undefined);
    assert.equal(parseBearerChallenge(null), undefined);
  });
});

describe('resourceCovers', () => {
  it('same origin, and the server at or under the resource path, on segment boundaries', () => {
    assert.equal(resourceCovers('https://a.test/mcp', 'https://a.test/mcp'), true);
    assert.equal(resourceCovers('https://a.test', 'https://a.test/mcp'), true);
    assert.equal(resourceCovers('https://a.test/tenant', 'https://a.test/tenant/mcp'), true);
    assert.equal(resourceCovers('https://a.test/mcp', 'https://a.test/mcp-admin'), false);
    assert.equal(resourceCovers('https://evil.test/mcp', 'https://a.test/mcp'), false);
    assert.equal(resourceCovers('http://a.test/mcp', 'https://a.test/mcp'), false);
  });
});

describe('the flow refuses before asking for a token', () => {
  let base = '';
  let tokenRequests = 0;
  let prmResource = '';
  let issInRedirect: 'correct' | 'wrong' | 'none' = 'correct';
  let stateInRedirect: 'echo' | 'other' = 'echo';
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', base);
    const json = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(body));
    };
    if (url.pathname === '/mcp') return json(401, { error: 'invalid_token' }, { 'www-authenticate': `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"` });
    if (url.pathname === '/.well-known/oauth-protected-resource/mcp') return json(200, { resource: prmResource, authorization_servers: [`${base}/as`] });
    if (url.pathname === '/.well-known/oauth-authorization-server/as') {
      return json(200, { issuer: `${base}/as`, authorization_endpoint: `${base}/as/authorize`, token_endpoint: `${base}/as/token`, code_challenge_methods_supported: ['S256'], token_endpoint_auth_methods_supported: ['none'], authorization_response_iss_parameter_supported: true });
    }
    if (url.pathname === '/as/token') {
      tokenRequests++;
      return json(200, { access_token: 't', token_type: 'Bearer' });
    }
    json(404, {});
  });
  before(async () => {
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((done) => server.close(() => done())));

  async function attempt(): Promise<McpClientError> {
    const oauth = createOAuthClient({
      clientId: 'pre-registered',
      authorize: async ({ url, redirectUri }) => {
        const back = new URL(redirectUri);
        back.searchParams.set('code', 'c');
        back.searchParams.set('state', stateInRedirect === 'echo' ? url.searchParams.get('state') as string : 'forged');
        if (issInRedirect !== 'none') back.searchParams.set('iss', issInRedirect === 'correct' ? `${base}/as` : 'https://evil.test');
        return back;
      },
    });
    const client = connect({ url: `${base}/mcp`, oauth }, { era: 'modern' });
    try {
      await client.listTools();
      assert.fail('listed without authorization');
    } catch (error) {
      assert.ok(error instanceof McpClientError, String(error));
      return error;
    } finally {
      await client.close();
    }
  }

  it('a resource that does not cover the server, a forged state, a wrong or missing iss: kind auth, no token request', async () => {
    const cases: [() => void, string][] = [
      [() => { prmResource = 'https://evil.test/mcp'; }, `tools/list: the protected resource metadata at ${base}/.well-known/oauth-protected-resource/mcp is for https://evil.test/mcp, which does not cover ${base}/mcp: refused (a token for it must not be sent here)`],
      [() => { prmResource = `${base}/mcp`; stateInRedirect = 'other'; }, 'tools/list: the authorization response does not carry the state this client sent: refused (CSRF?)'],
      [() => { stateInRedirect = 'echo'; issInRedirect = 'wrong'; }, `tools/list: the authorization response names issuer "https://evil.test", not "${base}/as" (RFC 9207): refused (mix-up attack?)`],
      [() => { issInRedirect = 'none'; }, `tools/list: the authorization response lacks the iss parameter that ${base}/as promises (RFC 9207): refused`],
    ];
    for (const [arrange, message] of cases) {
      arrange();
      const error = await attempt();
      assert.equal(error.kind, 'auth');
      assert.equal(error.message, message);
    }
    assert.equal(tokenRequests, 0);
  });
});
