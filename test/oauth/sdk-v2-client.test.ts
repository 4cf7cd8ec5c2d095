/**
 * The official SDK v2 client (@modelcontextprotocol/client) runs its OAuth flow against a
 * Toolwright server guarded by a real OpenID provider (oidc-provider, test/support/oidc-issuer.ts),
 * all on 127.0.0.1: a 401 challenge leads it to the protected resource metadata (RFC 9728), then
 * to the issuer. Both flows the SDK v2 ships run: its ClientCredentialsProvider gets a token for a
 * machine client, and an OAuthClientProvider of our own drives the authorization-code flow (dynamic
 * registration, PKCE, `resource`, a login played by `browse`, `finishAuth` with the callback's
 * `iss`); the tool call then runs as that client or user. A token of that issuer for another
 * resource (wrong audience) is refused with the exact 401.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client, ClientCredentialsProvider, StreamableHTTPClientTransport, UnauthorizedError } from '@modelcontextprotocol/client';
import type { FetchLike, OAuthClientMetadata, OAuthClientProvider, StoredOAuthClientInformation, StoredOAuthTokens } from '@modelcontextprotocol/client';
import { createServer, defineTool, jwtAuthorizer } from '../../src/index.js';
import type { McpServer } from '../../src/index.js';
import { serveFetchHandler } from '../support/serve-fetch-handler.js';
import type { ServedFetchHandler } from '../support/serve-fetch-handler.js';
import { browse, MACHINE_CLIENT, startOidcIssuer } from '../support/oidc-issuer.js';
import type { OidcIssuer } from '../support/oidc-issuer.js';

let issuer: OidcIssuer;
let guarded: ServedFetchHandler;
let elsewhere: ServedFetchHandler;
let server: McpServer;
let other: McpServer;
const runs: { server: string; subject?: string; clientId?: string }[] = [];

function statusTool(serverName: string) {
  return defineTool({ name: 'status', inputSchema: { type: 'object' }, scopes: ['arm:read'], run: (_a, ctx) => {
    runs.push({ server: serverName, subject: ctx.auth?.subject, clientId: ctx.auth?.clientId });
    return 'idle';
  } });
}

before(async () => {
  guarded = await serveFetchHandler((request) => server.fetch(request));
  elsewhere = await serveFetchHandler((request) => other.fetch(request));
  issuer = await startOidcIssuer(guarded.url);
  const base = { version: '1', logger: { error: () => undefined } };
  server = createServer({ ...base, name: 'guarded', tools: [statusTool('guarded')], authorize: jwtAuthorizer({ resource: guarded.url, issuer: issuer.url, scopesSupported: ['arm:read', 'arm:move'] }) });
  // Trusts the same issuer, but is another resource: tokens minted for `guarded` are not for it.
  other = createServer({ ...base, name: 'elsewhere', tools: [statusTool('elsewhere')], authorize: jwtAuthorizer({ resource: elsewhere.url, issuer: issuer.url, scopesSupported: ['arm:read', 'arm:move'] }) });
});
after(async () => {
  await server.close();
  await other.close();
  await guarded.close();
  await elsewhere.close();
  await issuer.close();
});

/** Every request the SDK makes, in order (method and URL without the query). */
function recordingFetch(seen: string[]): FetchLike {
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    seen.push(`${init?.method ?? 'GET'} ${url.origin}${url.pathname}`);
    return fetch(input, init);
  };
}

/** An SDK v2 client connected to `guarded` with the machine client's credentials (the flow runs on connect). */
async function connectSdk(seen: string[]): Promise<{ client: Client; provider: ClientCredentialsProvider }> {
  const provider = new ClientCredentialsProvider({ ...MACHINE_CLIENT, scope: 'arm:read', expectedIssuer: issuer.url });
  const transport = new StreamableHTTPClientTransport(new URL(guarded.url), { authProvider: provider, fetch: recordingFetch(seen) });
  const client = new Client({ name: 'sdk-v2-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, provider };
}

describe('official SDK v2 client OAuth against oidc-provider', () => {
  it('client credentials: discovers the metadata from the 401, gets a token from the issuer, calls the tool', async () => {
    const seen: string[] = [];
    const { client, provider } = await connectSdk(seen);
    try {
      const result = await client.callTool({ name: 'status', arguments: {} });
      assert.deepEqual(result.content, [{ type: 'text', text: 'idle' }]);
      assert.equal(result.isError, undefined);
    } finally {
      await client.close();
    }
    // oidc-provider names the client as the subject of a client-credentials token.
    assert.deepEqual(runs.at(-1), { server: 'guarded', subject: 'machine', clientId: 'machine' });
    const guardedOrigin = new URL(guarded.url).origin;
    const metadataAt = seen.findIndex((s) => s.startsWith(`GET ${guardedOrigin}/.well-known/oauth-protected-resource`));
    const tokenAt = seen.findIndex((s) => s.startsWith(`POST ${issuer.url.replace(/\/$/, '')}`) && s.endsWith('/token'));
    assert.ok(seen[0]?.startsWith(`POST ${guarded.url}`), `first request is the unauthenticated POST: ${seen.join('\n')}`);
    assert.ok(metadataAt > 0, `protected resource metadata fetched after the 401: ${seen.join('\n')}`);
    assert.ok(tokenAt > metadataAt, `token requested from the issuer after discovery: ${seen.join('\n')}`);
    const token = provider.tokens()?.access_token ?? '';
    const claims = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as { aud?: unknown; iss?: unknown };
    assert.equal(claims.aud, guarded.url);
  });

  it('authorization code + PKCE: dynamic registration, the user logs in and consents, finishAuth, the call runs as that user', async () => {
    const redirect = 'http://127.0.0.1:49153/callback';
    let information: StoredOAuthClientInformation | undefined;
    let tokens: StoredOAuthTokens | undefined;
    let verifier = '';
    let redirected: URL | undefined;
    const provider: OAuthClientProvider = {
      get redirectUrl() { return redirect; },
      get clientMetadata(): OAuthClientMetadata {
        return { client_name: 'sdk-v2-test', redirect_uris: [redirect], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none', scope: 'arm:read' } as OAuthClientMetadata;
      },
      clientInformation: () => information,
      saveClientInformation: (info) => { information = info; },
      tokens: () => tokens,
      saveTokens: (saved) => { tokens = saved; },
      redirectToAuthorization: (url) => { redirected = url; },
      saveCodeVerifier: (saved) => { verifier = saved; },
      codeVerifier: () => verifier,
    };
    const url = new URL(guarded.url);
    const first = new StreamableHTTPClientTransport(url, { authProvider: provider });
    await new Client({ name: 'sdk-v2-test', version: '1.0.0' }).connect(first).then(
      () => assert.fail('connected without a token'),
      (error: unknown) => assert.ok(error instanceof UnauthorizedError, String(error)),
    );
    assert.ok(redirected !== undefined, 'the SDK asked the user to authorize');
    assert.equal(redirected.searchParams.get('resource'), guarded.url);
    assert.equal(redirected.searchParams.get('code_challenge_method'), 'S256');
    assert.ok(information?.client_id !== undefined, 'the SDK registered itself with the issuer');
    const before = runs.length;
    const callback = new URL(await browse(redirected, redirect, 'sdk-v2-user'));
    await first.finishAuth(callback.searchParams);
    assert.equal(runs.length, before, 'nothing ran before the token');
    const client = new Client({ name: 'sdk-v2-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(url, { authProvider: provider }));
    try {
      const result = await client.callTool({ name: 'status', arguments: {} });
      assert.deepEqual(result.content, [{ type: 'text', text: 'idle' }]);
    } finally {
      await client.close();
    }
    assert.deepEqual(runs.at(-1), { server: 'guarded', subject: 'sdk-v2-user', clientId: information.client_id });
    const claims = JSON.parse(Buffer.from((tokens?.access_token ?? '').split('.')[1] ?? '', 'base64url').toString()) as { aud?: unknown; scope?: unknown };
    assert.equal(claims.aud, guarded.url);
    assert.match(String(claims.scope), /\barm:read\b/);
  });

  it('the same real token at another resource (wrong audience): the exact 401, and nothing ran', async () => {
    const { client, provider } = await connectSdk([]);
    await client.close();
    const token = provider.tokens()?.access_token ?? '';
    assert.ok(token !== '', 'the SDK obtained a token from the issuer');
    const before = runs.length;
    const message = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'status', arguments: {}, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } } };
    const response = await fetch(elsewhere.url, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'status' },
      body: JSON.stringify(message),
      signal: AbortSignal.timeout(10_000),
    });
    const description = 'the token was not issued for this resource ("aud")';
    assert.equal(response.status, 401);
    const metadataUrl = `${new URL(elsewhere.url).origin}/.well-known/oauth-protected-resource${new URL(elsewhere.url).pathname}`;
    assert.equal(response.headers.get('www-authenticate'), `Bearer error="invalid_token", error_description="${description.replace(/"/g, "'")}", resource_metadata="${metadataUrl}", scope="arm:read arm:move"`);
    const body = JSON.parse(await response.text()) as { error?: unknown };
    assert.deepEqual(body.error, { code: -31401, message: `Unauthorized: ${description}` });
    assert.equal(runs.length, before, 'the tool must not run');
  });
});
