/**
 * An OAuth upstream in the proxy configuration (issue 32: "the upstream with its own credentials
 * (the identity issue's OAuth client for OAuth upstreams); tokens are never passed through"): a
 * Toolwright server guarded by a real OpenID provider (oidc-provider, test/support/oidc-issuer.ts)
 * behind `createProxyServer`, whose front authenticates its own callers with a static token. The
 * proxy gets its own token by client credentials; the upstream never sees the caller's.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { connect } from '../../../src/client/index.js';
import { createProxyServer, ProxyError } from '../../../src/compose/index.js';
import type { ProxyServer } from '../../../src/compose/index.js';
import { createServer, defineTool, jwtAuthorizer, staticTokenAuthorizer } from '../../../src/index.js';
import type { McpServer } from '../../../src/index.js';
import { MACHINE_CLIENT, startOidcIssuer } from '../../support/oidc-issuer.js';
import type { OidcIssuer } from '../../support/oidc-issuer.js';
import { serveFetchHandler } from '../../support/serve-fetch-handler.js';
import type { ServedFetchHandler } from '../../support/serve-fetch-handler.js';

const FRONT_TOKEN = 'front-caller-token-0123456789abcdef0123456789';

let issuer: OidcIssuer;
let upstreamHttp: ServedFetchHandler;
let upstream: McpServer;
const upstreamRuns: { subject?: string; clientId?: string }[] = [];
/** Every Authorization header the upstream received, in order. */
const upstreamAuthorizations: string[] = [];
const dir = mkdtempSync(join(tmpdir(), 'tw-oauth-upstream-'));

before(async () => {
  upstreamHttp = await serveFetchHandler((request) => {
    upstreamAuthorizations.push(request.headers.get('authorization') ?? '(none)');
    return upstream.fetch(request);
  });
  issuer = await startOidcIssuer(upstreamHttp.url);
  const status = defineTool({ name: 'status', inputSchema: { type: 'object' }, scopes: ['arm:read'], run: (_a, ctx) => {
    upstreamRuns.push({ subject: ctx.auth?.subject, clientId: ctx.auth?.clientId });
    return 'idle';
  } });
  upstream = createServer({
    name: 'guarded-upstream',
    version: '1',
    tools: [status],
    logger: { error: () => undefined },
    authorize: jwtAuthorizer({ resource: upstreamHttp.url, issuer: issuer.url, scopesSupported: ['arm:read', 'arm:move'], jwksCooldownMs: 0 }),
  });
});
after(async () => {
  await upstream.close();
  await upstreamHttp.close();
  await issuer.close();
  rmSync(dir, { recursive: true, force: true });
});

const oauthConfig = (secretEnv: string, tokenCache?: string) => ({
  upstreams: [{ prefix: 'arm', http: { url: upstreamHttp.url, oauth: { clientId: MACHINE_CLIENT.clientId, clientSecretEnv: secretEnv, scopes: ['arm:read'], ...(tokenCache !== undefined ? { tokenCache } : {}) } } }],
});

describe('proxy: an OAuth upstream (client credentials)', () => {
  it('the proxy lists and calls with its own token; the upstream sees the proxy, never the caller or its token', async () => {
    const proxy: ProxyServer = await createProxyServer(oauthConfig('ARM_SECRET', 'tokens.json'), {
      baseDir: dir,
      env: { ARM_SECRET: MACHINE_CLIENT.clientSecret },
      server: { authorize: staticTokenAuthorizer({ token: FRONT_TOKEN, auth: { subject: 'caller-1', clientId: 'caller-app', scopes: [] } }) },
    });
    const front = await serveFetchHandler((request) => proxy.server.fetch(request));
    try {
      // The front still authenticates its own callers: no token, no call (and nothing upstream).
      const before = upstreamRuns.length;
      const anonymous = await fetch(front.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'arm__status' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'arm__status', arguments: {}, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } } }) });
      assert.equal(anonymous.status, 401);
      assert.equal(upstreamRuns.length, before);

      const caller = connect({ url: front.url, headers: { authorization: `Bearer ${FRONT_TOKEN}` } });
      try {
        assert.deepEqual((await caller.listTools()).tools.map((t) => t.name), ['arm__status']);
        const result = await caller.callTool('arm__status', {});
        assert.equal(result.isError, undefined, JSON.stringify(result));
        assert.deepEqual(result.content, [{ type: 'text', text: 'idle' }]);
      } finally {
        await caller.close();
      }
      // oidc-provider names the client as the subject of a client-credentials token.
      assert.deepEqual(upstreamRuns.at(-1), { subject: MACHINE_CLIENT.clientId, clientId: MACHINE_CLIENT.clientId });
      const bearers = upstreamAuthorizations.filter((a) => a.startsWith('Bearer '));
      assert.ok(bearers.length > 0, 'the proxy sent its token');
      assert.ok(bearers.every((a) => a.split(' ')[1]!.split('.').length === 3), 'every bearer the upstream saw is a JWT from the issuer');
      assert.ok(upstreamAuthorizations.every((a) => !a.includes(FRONT_TOKEN)), "the caller's token never reached the upstream");
      // The token cache the configuration named holds the proxy's token, readable by its owner only.
      assert.equal(statSync(join(dir, 'tokens.json')).mode & 0o777, 0o600);
    } finally {
      await front.close();
      await proxy.close();
    }
  });

  it('a wrong client secret: the proxy does not start, and says the upstream refused its credentials', async () => {
    await assert.rejects(
      createProxyServer(oauthConfig('ARM_SECRET'), { baseDir: dir, env: { ARM_SECRET: 'not-the-secret-of-the-machine-client' } }),
      (error: unknown) => {
        assert.ok(error instanceof ProxyError, String(error));
        assert.equal(error.code, 'upstream_unavailable');
        assert.match(error.message, /^upstream arm: tools\/list failed: .*invalid_client/);
        return true;
      },
    );
  });
});
