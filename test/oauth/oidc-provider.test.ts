/**
 * A Toolwright server guarded by a real OpenID provider (oidc-provider, test/support/oidc-issuer.ts),
 * all on 127.0.0.1: Toolwright's own OAuth client (authorization code + PKCE with dynamic
 * registration; client credentials), key rotation at the issuer, the official SDK v1 client's OAuth
 * flow, MCP Inspector's CLI with an Authorization header, and the CLI (`--client-credentials`,
 * `--oauth` with its loopback redirect, the 0600 token cache, `toolwright auth list | clear`).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { connect, createOAuthClient, McpClientError } from '../../src/client/index.js';
import { createServer, defineTool, jwtAuthorizer } from '../../src/index.js';
import type { McpServer } from '../../src/index.js';
import { serveFetchHandler } from '../support/serve-fetch-handler.js';
import type { ServedFetchHandler } from '../support/serve-fetch-handler.js';
import { browse, MACHINE_CLIENT, startOidcIssuer } from '../support/oidc-issuer.js';
import type { OidcIssuer } from '../support/oidc-issuer.js';
import { runToEnd } from '../interop/child-process.js';
import { REPO_ROOT } from '../support/repo-paths.js';
import { thirdPartyFile } from '../support/test-deps.js';

const REDIRECT = 'http://127.0.0.1:49152/callback';

let issuer: OidcIssuer;
let served: ServedFetchHandler;
let server: McpServer;
const runs: { tool: string; subject?: string; clientId?: string }[] = [];

before(async () => {
  served = await serveFetchHandler((request) => server.fetch(request));
  issuer = await startOidcIssuer(served.url);
  const status = defineTool({ name: 'status', inputSchema: { type: 'object' }, scopes: ['arm:read'], run: (_a, ctx) => {
    runs.push({ tool: 'status', subject: ctx.auth?.subject, clientId: ctx.auth?.clientId });
    return 'idle';
  } });
  const move = defineTool({ name: 'move', inputSchema: { type: 'object' }, scopes: ['arm:move'], run: (_a, ctx) => {
    runs.push({ tool: 'move', subject: ctx.auth?.subject, clientId: ctx.auth?.clientId });
    return 'moved';
  } });
  server = createServer({
    name: 'guarded',
    version: '1',
    tools: [status, move],
    logger: { error: () => undefined },
    authorize: jwtAuthorizer({ resource: served.url, issuer: issuer.url, scopesSupported: ['arm:read', 'arm:move'], jwksCooldownMs: 0 }),
  });
});
after(async () => {
  await server.close();
  await served.close();
  await issuer.close();
});

describe('Toolwright client against oidc-provider', () => {
  it('authorization code + PKCE with dynamic registration: the user logs in and consents, the call runs as that user and client', async () => {
    const steps: string[] = [];
    const oauth = createOAuthClient({ redirectUri: REDIRECT, authorize: ({ url, redirectUri }) => browse(url, redirectUri, 'operator-7'), onStep: (s) => steps.push(s) });
    const client = connect({ url: served.url, oauth });
    try {
      const listing = await client.listTools();
      assert.deepEqual(listing.tools.map((t) => t.name), ['status', 'move']);
      const result = await client.callTool('move', {});
      assert.equal(result.isError, undefined);
      const last = runs.at(-1);
      assert.equal(last?.subject, 'operator-7');
      const { clients, tokens } = await oauth.store.list();
      assert.equal(clients.length, 1, 'registered once, dynamically');
      assert.equal(last?.clientId, clients[0]?.clientId);
      assert.equal(tokens[0]?.resource, served.url);
      assert.ok(steps.some((s) => s.startsWith('protected resource metadata: ')), steps.join('\n'));
    } finally {
      await client.close();
    }
  });

  it('client credentials (pre-registered machine client), and tokens signed with a rotated-in key are accepted', async () => {
    const oauth = createOAuthClient({ clientCredentials: { ...MACHINE_CLIENT }, scopes: ['arm:read'] });
    const client = connect({ url: served.url, oauth });
    try {
      await client.callTool('status', {});
      // oidc-provider names the client as the subject of a client-credentials token.
      assert.deepEqual(runs.at(-1), { tool: 'status', subject: 'machine', clientId: 'machine' });
      const kid = await issuer.rotate();
      await oauth.store.clear();
      await client.callTool('status', {});
      const token = (await oauth.store.list()).tokens[0]?.accessToken ?? '';
      assert.equal(JSON.parse(Buffer.from(token.split('.')[0] as string, 'base64url').toString()).kid, kid);
      assert.equal(runs.at(-1)?.clientId, 'machine');
    } finally {
      await client.close();
    }
  });

  it('a step-up to a scope the issuer grants: status with arm:read, then move asks again for arm:read arm:move', async () => {
    let authorizations = 0;
    const asked: string[] = [];
    const oauth = createOAuthClient({ redirectUri: REDIRECT, scopes: ['arm:read'], authorize: ({ url, redirectUri }) => {
      asked.push(url.searchParams.get('scope') ?? '');
      authorizations++;
      return browse(url, redirectUri, 'operator-8');
    } });
    const client = connect({ url: served.url, oauth });
    try {
      await client.callTool('status', {});
      await client.callTool('move', {});
      assert.equal(runs.at(-1)?.subject, 'operator-8');
      assert.equal(authorizations, 2);
      // oidc-provider lists offline_access, so the client asks for a refresh token too.
      assert.deepEqual(asked, ['arm:read offline_access', 'arm:read arm:move offline_access']);
    } finally {
      await client.close();
    }
  });

  it('a client that cannot authorize reports kind auth, and nothing runs', async () => {
    const before = runs.length;
    const client = connect({ url: served.url, oauth: createOAuthClient({}) });
    try {
      await assert.rejects(client.callTool('status', {}), (error: unknown) => {
        assert.ok(error instanceof McpClientError);
        assert.equal(error.kind, 'auth');
        assert.match(error.message, /needs a user's authorization at http:\/\/127\.0\.0\.1:\d+; give an authorize function \(CLI: --oauth\) or client credentials$/);
        return true;
      });
      assert.equal(runs.length, before);
    } finally {
      await client.close();
    }
  });
});

describe('other clients against the same issuer', () => {
  it('the official SDK v1 client completes its OAuth flow (dynamic registration, PKCE, resource) and calls a tool', async () => {
    let clientInformation: OAuthClientInformationMixed | undefined;
    let tokens: OAuthTokens | undefined;
    let verifier = '';
    let redirected: URL | undefined;
    const provider: OAuthClientProvider = {
      get redirectUrl() { return REDIRECT; },
      get clientMetadata(): OAuthClientMetadata {
        return { client_name: 'sdk-v1-test', redirect_uris: [REDIRECT], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none', application_type: 'native' } as OAuthClientMetadata;
      },
      clientInformation: () => clientInformation,
      saveClientInformation: (info) => { clientInformation = info; },
      tokens: () => tokens,
      saveTokens: (t) => { tokens = t; },
      redirectToAuthorization: (url) => { redirected = url; },
      saveCodeVerifier: (v) => { verifier = v; },
      codeVerifier: () => verifier,
    };
    const url = new URL(served.url);
    const first = new StreamableHTTPClientTransport(url, { authProvider: provider });
    const sdk = new Client({ name: 'sdk-v1-test', version: '1.0.0' });
    await sdk.connect(first).then(() => assert.fail('connected without a token'), (error: unknown) => {
      assert.ok(error instanceof UnauthorizedError, String(error));
    });
    assert.ok(redirected !== undefined, 'the SDK asked the user to authorize');
    assert.equal(redirected.searchParams.get('resource'), served.url);
    const callback = new URL(await browse(redirected, REDIRECT, 'sdk-user'));
    await first.finishAuth(callback.searchParams.get('code') as string);
    const second = new StreamableHTTPClientTransport(url, { authProvider: provider });
    const connected = new Client({ name: 'sdk-v1-test', version: '1.0.0' });
    await connected.connect(second);
    try {
      const result = await connected.callTool({ name: 'status', arguments: {} });
      assert.deepEqual(result.content, [{ type: 'text', text: 'idle' }]);
      assert.equal(runs.at(-1)?.subject, 'sdk-user');
    } finally {
      await connected.close();
    }
  });

  it("MCP Inspector's CLI lists and calls tools with an Authorization header", async () => {
    const oauth = createOAuthClient({ clientCredentials: { ...MACHINE_CLIENT }, scopes: ['arm:read'] });
    const probe = connect({ url: served.url, oauth });
    await probe.listTools();
    await probe.close();
    const token = (await oauth.store.list()).tokens[0]?.accessToken as string;
    const launcher = thirdPartyFile('@modelcontextprotocol/inspector', 'clients/launcher/build/index.js');
    const env = { MCP_CATALOG_PATH: join(REPO_ROOT, '.scratch', `inspector-catalog-${process.pid}.json`), MCP_INSPECTOR_SECRET_STORE: 'memory' };
    // --header takes several values: the target comes first.
    const run = (args: string[], authorization = `Bearer ${token}`) => runToEnd({ command: process.execPath, args: [launcher, '--cli', served.url, '--format', 'json', ...args, '--header', `Authorization: ${authorization}`], env, cwd: REPO_ROOT }, 60_000);
    const list = await run(['--method', 'tools/list']);
    const listed = JSON.parse(list.stdout.split('\n').find((l) => l.startsWith('{"result"')) ?? '{}') as { result?: { tools?: { name: string }[] } };
    assert.deepEqual(listed.result?.tools?.map((t) => t.name), ['status', 'move'], list.stderr);
    const before = runs.length;
    const call = await run(['--method', 'tools/call', '--tool-name', 'status']);
    assert.match(call.stdout, /"idle"/, call.stderr);
    assert.equal(runs.length, before + 1);
    const refused = await run(['--method', 'tools/call', '--tool-name', 'status'], 'Bearer forged.token.value');
    assert.notEqual(refused.code, 0);
    assert.equal(runs.length, before + 1, 'a forged token runs nothing');
  });
});

describe('toolwright call | lint and the token cache', () => {
  const cli = (args: string[], extraEnv: Record<string, string> = {}) => runToEnd({ command: process.execPath, args: ['--import', 'tsx', join(REPO_ROOT, 'src/cli/main.ts'), ...args], env: extraEnv, cwd: REPO_ROOT }, 60_000);
  let dir: string;
  let cache: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'toolwright-oauth-'));
    cache = join(dir, 'cache', 'tokens.json');
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('call --client-credentials gets a token, keeps it in a 0600 cache that auth list shows (never the token) and auth clear empties', async () => {
    const secretFree = ['--client-credentials', '--client-id', MACHINE_CLIENT.clientId, '--scope', 'arm:read', '--token-cache', cache];
    const called = await cli(['call', served.url, 'status', ...secretFree, '--json'], { TOOLWRIGHT_CLIENT_SECRET: MACHINE_CLIENT.clientSecret });
    assert.equal(called.code, 0, called.stderr);
    assert.deepEqual((JSON.parse(called.stdout) as { result: { content: unknown } }).result.content, [{ type: 'text', text: 'idle' }]);
    assert.equal((await stat(cache)).mode & 0o777, 0o600);
    assert.equal((await stat(join(dir, 'cache'))).mode & 0o777, 0o700);
    // lint reads the catalogue with the cached token (no second token request needed).
    const linted = await cli(['lint', served.url, ...secretFree, '--format', 'json'], { TOOLWRIGHT_CLIENT_SECRET: MACHINE_CLIENT.clientSecret });
    assert.ok(linted.code === 0 || linted.code === 1, linted.stderr);
    assert.match(linted.stdout, /"status"/);
    const listed = await cli(['auth', 'list', '--token-cache', cache, '--json']);
    assert.equal(listed.code, 0, listed.stderr);
    const listing = JSON.parse(listed.stdout) as { tokens: { server: string; issuer: string; clientId: string; scopes: string[] }[] };
    assert.deepEqual(listing.tokens.map((t) => [t.server, t.issuer, t.clientId, t.scopes]), [[served.url, issuer.url, 'machine', ['arm:read']]]);
    const token = (JSON.parse(await readFile(cache, 'utf8')) as { tokens: Record<string, { accessToken: string }> }).tokens[served.url]?.accessToken as string;
    assert.ok(!listed.stdout.includes(token), 'auth list never prints a token');
    const cleared = await cli(['auth', 'clear', served.url, '--token-cache', cache]);
    assert.equal(cleared.stdout, `cleared the tokens for ${served.url}\n`);
    assert.deepEqual((JSON.parse((await cli(['auth', 'list', '--token-cache', cache, '--json'])).stdout) as { tokens: unknown[] }).tokens, []);
  });

  it('a token cache that others can read is refused, not used', async () => {
    await writeFile(join(dir, 'open.json'), JSON.stringify({ version: 1, tokens: {}, clients: {} }), { mode: 0o644 });
    await chmod(join(dir, 'open.json'), 0o644);
    const listed = await cli(['auth', 'list', '--token-cache', join(dir, 'open.json')]);
    assert.equal(listed.code, 1);
    assert.equal(listed.stderr, `toolwright auth: the token cache ${join(dir, 'open.json')} is readable by other users (mode 644); run: chmod 600 ${join(dir, 'open.json')}\n`);
  });

  it('bad OAuth options exit 2 with a specific message', async () => {
    for (const [args, message] of [
      [['--scope', 'x'], '--scope needs --oauth or --client-credentials'],
      [['--client-credentials'], '--client-credentials needs --client-id'],
      [['--client-credentials', '--client-id', 'm'], '--client-credentials needs --client-secret (or env TOOLWRIGHT_CLIENT_SECRET) or --client-key <file>'],
      [['--oauth', '--oauth-port', 'http'], '--oauth-port must be a port number, got "http"'],
    ] as const) {
      const out = await cli(['call', served.url, 'status', ...args], { TOOLWRIGHT_CLIENT_SECRET: '' });
      assert.equal(out.code, 2, out.stderr);
      assert.ok(out.stderr.startsWith(`toolwright call: ${message}\n`), out.stderr);
    }
  });

  it('call --oauth: the URL is printed, the browser (driven by fetch) logs in and comes back to the loopback listener', async () => {
    const port = 40000 + (process.pid % 20000);
    const child = spawn(process.execPath, ['--import', 'tsx', join(REPO_ROOT, 'src/cli/main.ts'), 'call', served.url, 'status', '--oauth', '--oauth-port', String(port), '--token-cache', join(dir, 'user.json'), '--json'], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no authorization URL printed: ${stderr}`)), 30_000);
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString('utf8');
        const found = /^(http:\/\/127\.0\.0\.1:\d+\/auth\?\S+)$/m.exec(stderr);
        if (found !== null) {
          clearTimeout(timer);
          resolve(found[1] as string);
        }
      });
    });
    const back = await browse(url, `http://127.0.0.1:${port}/callback`, 'cli-user');
    const landed = await fetch(back);
    assert.equal(await landed.text(), 'toolwright call: authorization received; you can close this window.\n');
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    assert.equal(code, 0, stderr);
    assert.equal(runs.at(-1)?.subject, 'cli-user');
    assert.match(stdout, /"idle"/);
  });
});
