/**
 * staticTokenAuthorizer over real HTTP on loopback (both eras) and loadOrCreateBearerTokenFile on a
 * real folder: a missing, wrong or doubled token is refused with its exact status, error and
 * challenge and the tool never runs; the token file is 0600, reused while valid, replaced when
 * others can read it or it holds no token.
 */
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createServer, defineTool, ErrorCode, loadOrCreateBearerTokenFile, staticTokenAuthorizer } from '../../src/index.js';
import type { AuthInfo, HttpListener, McpServer } from '../../src/index.js';
import { post, rpc } from '../fixtures/servers/raw-http.js';

const TOKEN = 'A'.repeat(20) + 'b-c_d~e.f'.repeat(3);
const OPERATOR: AuthInfo = { subject: 'local-operator', clientId: 'robot-arm-token', scopes: ['toolwright:approve'] };
const runs: (AuthInfo | undefined)[] = [];

describe('staticTokenAuthorizer over HTTP', () => {
  let server: McpServer;
  let listener: HttpListener;
  let url: string;
  before(async () => {
    const whoami = defineTool({ name: 'whoami', inputSchema: { type: 'object' }, run: (_args, ctx) => {
      runs.push(ctx.auth);
      return `${ctx.auth?.subject} via ${ctx.auth?.clientId} with ${ctx.auth?.scopes.join(' ')}`;
    } });
    server = createServer({ name: 'static', version: '1', tools: [whoami], logger: { error: () => undefined }, authorize: staticTokenAuthorizer({ token: TOKEN, auth: OPERATOR }) });
    listener = await server.listen({ port: 0, host: '127.0.0.1' });
    url = String(listener.url);
  });
  after(() => server.close());

  const call = (headers: Record<string, string | null>) => post(url, rpc('tools/call', { name: 'whoami', arguments: {} }), headers);

  async function refused(headers: Record<string, string | null>, expected: { status: number; message: string; challenge: string }): Promise<void> {
    const before = runs.length;
    const res = await call(headers);
    assert.equal(res.status, expected.status);
    assert.deepEqual(res.body?.error, { code: ErrorCode.Unauthorized, message: expected.message });
    assert.equal(res.headers.get('www-authenticate'), expected.challenge);
    assert.equal(runs.length, before, 'the tool must not run');
  }

  it('the server says it authorizes', () => {
    assert.equal(server.authorizes, true);
    assert.equal(createServer({ name: 'open', version: '1', tools: [] }).authorizes, false);
  });

  it('no Authorization header: 401 with the plain Bearer challenge, nothing runs', async () => {
    await refused({}, { status: 401, message: 'Unauthorized: a valid bearer token is required', challenge: 'Bearer' });
  });

  it('a wrong token (same length, one character off): 401 invalid_token', async () => {
    await refused({ authorization: `Bearer ${TOKEN.slice(0, -1)}X` }, { status: 401, message: 'Unauthorized: the token is not the one this server accepts', challenge: 'Bearer error="invalid_token", error_description="the token is not the one this server accepts"' });
  });

  it('a prefix of the token, and the token with a suffix: 401 invalid_token', async () => {
    for (const token of [TOKEN.slice(0, 32), `${TOKEN}A`]) {
      await refused({ authorization: `Bearer ${token}` }, { status: 401, message: 'Unauthorized: the token is not the one this server accepts', challenge: 'Bearer error="invalid_token", error_description="the token is not the one this server accepts"' });
    }
  });

  it('the token twice in one header: 400 invalid_request', async () => {
    await refused({ authorization: `Bearer ${TOKEN}, Bearer ${TOKEN}` }, { status: 400, message: 'Bad request: the request carries more than one Authorization credential', challenge: 'Bearer error="invalid_request", error_description="the request carries more than one Authorization credential"' });
  });

  it('the right token: the tool runs and sees subject, client id and scopes', async () => {
    const res = await call({ authorization: `Bearer ${TOKEN}` });
    assert.equal(res.status, 200);
    const result = (res.body?.result ?? {}) as { content?: { text: string }[] };
    assert.equal(result.content?.[0]?.text, 'local-operator via robot-arm-token with toolwright:approve');
    assert.deepEqual(runs.at(-1), OPERATOR);
  });

  it('a 2025 client without the token cannot open a session (401)', async () => {
    const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } };
    const res = await post(url, init, { 'mcp-protocol-version': null, 'mcp-method': null });
    assert.equal(res.status, 401);
    assert.equal(res.headers.get('www-authenticate'), 'Bearer');
    assert.equal(res.headers.get('mcp-session-id'), null);
  });
});

describe('staticTokenAuthorizer options', () => {
  it('refuses a short or malformed token at construction', () => {
    for (const token of ['', 'short', 'x'.repeat(31), `${'x'.repeat(40)} y`]) {
      assert.throws(() => staticTokenAuthorizer({ token, auth: OPERATOR }), { name: 'TypeError', message: 'a bearer token must be 32-512 characters of A-Z a-z 0-9 - . _ ~ + / (RFC 6750)' });
    }
  });

  it('a token of the same length whose bytes differ (a non-ASCII character) is refused as invalid_token, not a crash', () => {
    const check = staticTokenAuthorizer({ token: TOKEN, auth: OPERATOR });
    const header = () => undefined;
    // 'é' is two bytes in UTF-8: same number of characters, different number of bytes.
    for (const token of [`${TOKEN.slice(0, -1)}é`, `${TOKEN.slice(0, -1)}\u0141`]) {
      assert.throws(() => check({ transport: 'http', header, bearerToken: token }), { name: 'BearerTokenError', message: 'the token is not the one this server accepts' });
    }
    assert.deepEqual(check({ transport: 'http', header, bearerToken: TOKEN }), OPERATOR);
  });

  it('console and stdio callers get the AuthInfo given for them, null by default', async () => {
    const header = () => undefined;
    const plain = staticTokenAuthorizer({ token: TOKEN, auth: OPERATOR });
    assert.equal(await plain({ transport: 'console', header, bearerToken: TOKEN }), null);
    assert.equal(await plain({ transport: 'stdio', header, bearerToken: undefined }), null);
    const consoleAuth: AuthInfo = { subject: 'console', scopes: [] };
    const withConsole = staticTokenAuthorizer({ token: TOKEN, auth: OPERATOR, console: consoleAuth });
    assert.deepEqual(await withConsole({ transport: 'console', header, bearerToken: undefined }), consoleAuth);
  });
});

describe('loadOrCreateBearerTokenFile', () => {
  const mode = (path: string) => statSync(path).mode & 0o777;

  it('creates the token 0600 in a folder it creates 0700, then reuses it', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'token-file-')), 'state', 'mcp.token');
    const first = loadOrCreateBearerTokenFile(path);
    assert.equal(first.state, 'created');
    assert.match(first.token, /^[A-Za-z0-9_-]{43}$/);
    assert.equal(readFileSync(path, 'utf8'), `${first.token}\n`);
    assert.equal(mode(path), 0o600);
    assert.equal(mode(join(path, '..')), 0o700);
    const again = loadOrCreateBearerTokenFile(path);
    assert.deepEqual(again, { path, token: first.token, state: 'reused' });
  });

  it('replaces a token others can read, and a file that holds no token, with a new 0600 one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'token-file-'));
    const path = join(dir, 'mcp.token');
    const old = loadOrCreateBearerTokenFile(path).token;
    chmodSync(path, 0o644);
    const replaced = loadOrCreateBearerTokenFile(path);
    assert.deepEqual({ state: replaced.state, reason: replaced.reason }, { state: 'replaced', reason: 'it could be read by others (mode 0644)' });
    assert.notEqual(replaced.token, old);
    assert.equal(mode(path), 0o600);
    writeFileSync(path, 'not a token\n', { mode: 0o600 });
    const fixed = loadOrCreateBearerTokenFile(path);
    assert.deepEqual({ state: fixed.state, reason: fixed.reason }, { state: 'replaced', reason: 'it did not hold a token' });
    assert.equal(readFileSync(path, 'utf8'), `${fixed.token}\n`);
  });
});
