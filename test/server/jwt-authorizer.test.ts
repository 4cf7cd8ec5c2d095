/**
 * jwtAuthorizer as an OAuth 2.1 resource server against a loopback issuer (test/support/loopback-issuer.ts):
 * every refusal answers with its exact status, JSON-RPC error and challenge, and no tool runs.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { createServer, defineTool, jwtAuthorizer } from '../../src/index.js';
import type { McpServer } from '../../src/index.js';
import { rpc, standardHeaders } from '../fixtures/servers/raw-http.js';
import { assertServerMessage } from '../fixtures/servers/wire-schema.js';
import { INTROSPECTION_CLIENT, startLoopbackIssuer } from '../support/loopback-issuer.js';
import type { LoopbackIssuer } from '../support/loopback-issuer.js';

const RESOURCE = 'https://robot.example.test/mcp';
const METADATA_URL = 'https://robot.example.test/.well-known/oauth-protected-resource/mcp';
const CHALLENGE_401 = `Bearer resource_metadata="${METADATA_URL}", scope="arm:read arm:move"`;

let issuer: LoopbackIssuer;
const runs: string[] = [];

function serverFor(options: Partial<Parameters<typeof jwtAuthorizer>[0]> = {}): McpServer {
  const move = defineTool({ name: 'move', inputSchema: { type: 'object' }, scopes: ['arm:move'], run: (_a, ctx) => {
    runs.push(`move:${ctx.auth?.subject}`);
    return `moved by ${ctx.auth?.subject} via ${ctx.auth?.clientId}`;
  } });
  return createServer({
    name: 'jwt',
    version: '1',
    tools: [move],
    logger: { error: () => undefined },
    authorize: jwtAuthorizer({
      resource: RESOURCE,
      issuer: issuer.url,
      scopesSupported: ['arm:read', 'arm:move'],
      jwksCooldownMs: 0,
      timeoutMs: 400,
      ...options,
    }),
  });
}

async function call(server: McpServer, authorization: string | string[] | undefined) {
  const message = rpc('tools/call', { name: 'move', arguments: {} });
  const headers = new Headers(standardHeaders(message));
  for (const value of typeof authorization === 'string' ? [authorization] : authorization ?? []) headers.append('authorization', value);
  const response = await server.fetch(new Request('http://127.0.0.1/mcp', { method: 'POST', headers, body: JSON.stringify(message) }));
  const body = JSON.parse(await response.text()) as Record<string, unknown>;
  assertServerMessage(body, 'tools/call');
  return { status: response.status, challenge: response.headers.get('www-authenticate'), body };
}

/** Asserts a refusal and that the tool never ran. */
async function refused(server: McpServer, authorization: string | string[] | undefined, expected: { status: number; code: number; message: string; challenge?: string | null }) {
  const before = runs.length;
  const res = await call(server, authorization);
  assert.equal(res.status, expected.status);
  assert.deepEqual(res.body.error, { code: expected.code, message: expected.message });
  if (expected.challenge !== undefined) assert.equal(res.challenge, expected.challenge);
  assert.equal(runs.length, before, 'the tool must not run');
}

function invalidToken(description: string) {
  return { status: 401, code: -31401, message: `Unauthorized: ${description}`, challenge: `Bearer error="invalid_token", error_description="${description.replace(/"/g, "'")}", resource_metadata="${METADATA_URL}", scope="arm:read arm:move"` };
}

before(async () => {
  issuer = await startLoopbackIssuer();
});
after(async () => {
  await issuer.close();
});

describe('jwtAuthorizer: tokens', () => {
  let server: McpServer;
  before(() => {
    server = serverFor();
  });

  it('accepts a token for this resource from this issuer; ctx.auth carries subject, scopes and client id', async () => {
    const token = await issuer.sign({ sub: 'operator-7', aud: RESOURCE, scope: 'arm:read arm:move', client_id: 'desk-app' });
    const res = await call(server, `Bearer ${token}`);
    assert.equal(res.status, 200);
    assert.deepEqual((res.body.result as Record<string, unknown>).content, [{ type: 'text', text: 'moved by operator-7 via desk-app' }]);
  });

  it('answers a request without a token 401 with the metadata URL and the scope to ask for (no error code)', async () => {
    await refused(server, undefined, { status: 401, code: -31401, message: 'Unauthorized: a valid bearer token is required', challenge: CHALLENGE_401 });
    await refused(server, `Basic ${Buffer.from('u:p').toString('base64')}`, { status: 401, code: -31401, message: 'Unauthorized: a valid bearer token is required', challenge: CHALLENGE_401 });
  });

  it('refuses malformed, expired, not-yet-valid, wrong-audience and wrong-issuer tokens with the reason', async () => {
    const now = Math.floor(Date.now() / 1000);
    await refused(server, 'Bearer not.a.jwt', invalidToken('the token is malformed'));
    await refused(server, 'Bearer opaque-token-without-introspection', invalidToken('the token is malformed (not a JWT, and this server does not introspect opaque tokens)'));
    await refused(server, 'Bearer ab cd', invalidToken('the token is malformed (not an RFC 6750 bearer token)'));
    await refused(server, `Bearer ${await issuer.sign({ sub: 'x', aud: RESOURCE, scope: 'arm:move', exp: now - 120 })}`, invalidToken('the token has expired'));
    await refused(server, `Bearer ${await issuer.sign({ sub: 'x', aud: RESOURCE, scope: 'arm:move', nbf: now + 600 })}`, invalidToken('the token is not valid yet ("nbf")'));
    await refused(server, `Bearer ${await issuer.sign({ sub: 'x', aud: 'https://other.example.test/mcp', scope: 'arm:move' })}`, invalidToken('the token was not issued for this resource ("aud")'));
    await refused(server, `Bearer ${await issuer.sign({ sub: 'x', aud: RESOURCE, scope: 'arm:move', iss: 'https://evil.example.test' })}`, invalidToken('the token was issued by an issuer this server does not accept ("iss")'));
    await refused(server, `Bearer ${await issuer.sign({ sub: 'x', scope: 'arm:move' })}`, invalidToken('the token was not issued for this resource ("aud")'));
  });

  it('tolerates a small clock skew (exp 10 s ago, nbf 10 s ahead, skew 30 s)', async () => {
    const now = Math.floor(Date.now() / 1000);
    const res = await call(server, `Bearer ${await issuer.sign({ sub: 'skewed', aud: RESOURCE, scope: 'arm:move', exp: now - 10, nbf: now + 10 })}`);
    assert.equal(res.status, 200);
  });

  it('refuses alg none and an HS256 token keyed with the public key (key confusion)', async () => {
    const unsigned = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${Buffer.from(JSON.stringify({ iss: issuer.url, aud: RESOURCE, sub: 'x', scope: 'arm:move', exp: Math.floor(Date.now() / 1000) + 60 })).toString('base64url')}.`;
    await refused(server, `Bearer ${unsigned}`, invalidToken('the token is signed with algorithm "none", which this server does not accept'));
    const jwks = (await (await fetch(`${issuer.url}/jwks`)).json()) as { keys: Record<string, unknown>[] };
    const confused = await new SignJWT({ sub: 'x', aud: RESOURCE, iss: issuer.url, scope: 'arm:move' }).setProtectedHeader({ alg: 'HS256', kid: 'k1' }).setExpirationTime('1m').sign(new TextEncoder().encode(JSON.stringify(jwks.keys[0])));
    await refused(server, `Bearer ${confused}`, invalidToken('the token is signed with algorithm "HS256", which this server does not accept'));
  });

  it('refuses a token signed by a key the issuer does not publish, and accepts a rotated-in key after refetching', async () => {
    const { privateKey } = await generateKeyPair('ES256');
    const fetchesBefore = issuer.hits.get('/jwks') ?? 0;
    await refused(server, `Bearer ${await issuer.sign({ sub: 'x', aud: RESOURCE, scope: 'arm:move' }, { kid: 'stranger', key: privateKey })}`, invalidToken('the token is signed with a key the issuer does not publish (unknown "kid")'));
    assert.ok((issuer.hits.get('/jwks') ?? 0) > fetchesBefore, 'an unknown kid refetches the JWK Set');
    const kid = await issuer.rotate();
    const res = await call(server, `Bearer ${await issuer.sign({ sub: 'rotated', aud: RESOURCE, scope: 'arm:move' }, { kid })}`);
    assert.equal(res.status, 200);
  });

  it('bounds refetching: within the cooldown an unknown kid does not fetch the JWK Set again', async () => {
    const bounded = serverFor({ jwksCooldownMs: 60_000 });
    const good = await issuer.sign({ sub: 'a', aud: RESOURCE, scope: 'arm:move' });
    assert.equal((await call(bounded, `Bearer ${good}`)).status, 200);
    const fetches = issuer.hits.get('/jwks') ?? 0;
    const { privateKey } = await generateKeyPair('ES256');
    for (let i = 0; i < 5; i++) {
      await refused(bounded, `Bearer ${await issuer.sign({ sub: `x${i}`, aud: RESOURCE, scope: 'arm:move' }, { kid: `stranger-${i}`, key: privateKey })}`, invalidToken('the token is signed with a key the issuer does not publish (unknown "kid")'));
    }
    assert.equal(issuer.hits.get('/jwks') ?? 0, fetches);
  });

  it('answers 400 invalid_request to an oversized token and to duplicated Authorization headers', async () => {
    const challenge = (d: string) => `Bearer error="invalid_request", error_description="${d}", resource_metadata="${METADATA_URL}", scope="arm:read arm:move"`;
    await refused(server, `Bearer ${'a'.repeat(8193)}`, { status: 400, code: -31401, message: 'Bad request: the bearer token exceeds 8192 bytes', challenge: challenge('the bearer token exceeds 8192 bytes') });
    const token = await issuer.sign({ sub: 'x', aud: RESOURCE, scope: 'arm:move' });
    await refused(server, [`Bearer ${token}`, `Bearer ${token}`], { status: 400, code: -31401, message: 'Bad request: the request carries more than one Authorization credential', challenge: challenge('the request carries more than one Authorization credential') });
  });

  it('keeps the 403 insufficient_scope step-up answer', async () => {
    const token = await issuer.sign({ sub: 'reader', aud: RESOURCE, scope: 'arm:read' });
    const before = runs.length;
    const res = await call(server, `Bearer ${token}`);
    assert.equal(res.status, 403);
    assert.equal(res.challenge, `Bearer error="insufficient_scope", scope="arm:move", resource_metadata="${METADATA_URL}", error_description="Insufficient scope: tool move requires 'arm:move'"`);
    assert.deepEqual(res.body.error, { code: -31403, message: 'Insufficient scope: tool move requires "arm:move"', data: { requiredScopes: ['arm:move'] } });
    assert.equal(runs.length, before);
  });
});

describe('jwtAuthorizer: an issuer that cannot be asked fails closed (503, nothing runs)', () => {
  const unavailable = (reason: RegExp) => async (server: McpServer, token: string) => {
    const before = runs.length;
    const res = await call(server, `Bearer ${token}`);
    assert.equal(res.status, 503);
    const error = res.body.error as { code: number; message: string };
    assert.equal(error.code, -31503);
    assert.match(error.message, /^Service unavailable: the bearer token cannot be checked \(/);
    assert.match(error.message, reason);
    assert.equal(runs.length, before);
  };

  for (const [mode, reason] of [
    ['hang', /did not answer in time/],
    ['junk-json', /is not a valid JWK Set/],
    ['not-json', /cannot read the issuer's JWK Set at http:\/\/127\.0\.0\.1:\d+\/jwks/],
    ['http-500', /cannot read the issuer's JWK Set at http:\/\/127\.0\.0\.1:\d+\/jwks/],
  ] as const) {
    it(`a JWKS endpoint that ${mode === 'hang' ? 'hangs' : `answers ${mode}`}`, async () => {
      issuer.jwksMode = mode;
      try {
        await unavailable(reason)(serverFor(), await issuer.sign({ sub: 'x', aud: RESOURCE, scope: 'arm:move' }));
      } finally {
        issuer.jwksMode = 'ok';
      }
    });
  }

  it('an issuer whose metadata cannot be fetched (nothing listens)', async () => {
    const gone = await startLoopbackIssuer();
    const token = await gone.sign({ sub: 'x', aud: RESOURCE, scope: 'arm:move' });
    await gone.close();
    await unavailable(/cannot read the issuer's metadata: cannot fetch the authorization server metadata at http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-authorization-server: ECONNREFUSED/)(serverFor({ issuer: gone.url }), token);
  });
});

describe('jwtAuthorizer: opaque tokens through introspection (RFC 7662)', () => {
  let server: McpServer;
  before(() => {
    server = serverFor({ introspection: { ...INTROSPECTION_CLIENT } });
  });

  it('accepts an active token for this resource and takes the client id from the answer', async () => {
    issuer.introspection.set('opaque-1', { active: true, sub: 'svc', client_id: 'batch-job', scope: 'arm:move', aud: RESOURCE, iss: issuer.url, exp: Math.floor(Date.now() / 1000) + 60 });
    const res = await call(server, 'Bearer opaque-1');
    assert.equal(res.status, 200);
    assert.deepEqual((res.body.result as Record<string, unknown>).content, [{ type: 'text', text: 'moved by svc via batch-job' }]);
  });

  it('refuses inactive, foreign-audience and foreign-issuer tokens', async () => {
    issuer.introspection.set('opaque-aud', { active: true, sub: 'svc', scope: 'arm:move', aud: 'https://other.example.test' });
    issuer.introspection.set('opaque-iss', { active: true, sub: 'svc', scope: 'arm:move', aud: RESOURCE, iss: 'https://evil.example.test' });
    await refused(server, 'Bearer opaque-unknown', invalidToken('the token is not active (introspection)'));
    await refused(server, 'Bearer opaque-aud', invalidToken('the token was not issued for this resource (introspection "aud")'));
    await refused(server, 'Bearer opaque-iss', invalidToken('the token was issued by another issuer (introspection)'));
  });

  it('an introspection endpoint that hangs fails closed (503)', async () => {
    issuer.introspectionHangs = true;
    try {
      const before = runs.length;
      const res = await call(server, 'Bearer opaque-hang');
      assert.equal(res.status, 503);
      assert.match((res.body.error as { message: string }).message, /^Service unavailable: the bearer token cannot be checked \(cannot introspect the token at http:\/\/127\.0\.0\.1:\d+\/introspect: no answer within 400 ms\); retry later$/);
      assert.equal(runs.length, before);
    } finally {
      issuer.introspectionHangs = false;
    }
  });
});

describe('jwtAuthorizer: configuration', () => {
  it('verifies RS256 tokens against a local JWK Set, and HS256 with a shared secret', async () => {
    const { publicKey, privateKey } = await generateKeyPair('RS256');
    const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256' };
    const authorize = jwtAuthorizer({ jwks: { keys: [jwk] }, audience: RESOURCE, issuer: 'https://auth.example.test' });
    const signed = await new SignJWT({ scope: 'x', azp: 'cli' }).setProtectedHeader({ alg: 'RS256', kid: 'k1' }).setIssuer('https://auth.example.test').setAudience(RESOURCE).setExpirationTime('1m').sign(privateKey);
    const auth = await authorize({ transport: 'http', header: () => undefined, bearerToken: signed });
    assert.deepEqual({ scopes: auth?.scopes, clientId: auth?.clientId }, { scopes: ['x'], clientId: 'cli' });
    const secret = 'a-test-secret-of-at-least-32-bytes!!';
    const hs = jwtAuthorizer({ secret, audience: RESOURCE, issuer: 'https://auth.example.test' });
    const hsToken = await new SignJWT({ sub: 's' }).setProtectedHeader({ alg: 'HS256' }).setIssuer('https://auth.example.test').setAudience(RESOURCE).setExpirationTime('1m').sign(new TextEncoder().encode(secret));
    assert.equal((await hs({ transport: 'http', header: () => undefined, bearerToken: hsToken }))?.subject, 's');
  });

  it('answers a token it verified already synchronously (no promise), with the same caller; a new token is verified asynchronously', async () => {
    const secret = 'a-test-secret-of-at-least-32-bytes!!';
    const hs = jwtAuthorizer({ secret, audience: RESOURCE, issuer: 'https://auth.example.test' });
    const sign = (sub: string) => new SignJWT({ sub, scope: 'read' }).setProtectedHeader({ alg: 'HS256' }).setIssuer('https://auth.example.test').setAudience(RESOURCE).setExpirationTime('1m').sign(new TextEncoder().encode(secret));
    const token = await sign('first');
    const request = { transport: 'http' as const, header: () => undefined, bearerToken: token };
    const first = hs(request);
    assert.equal(first instanceof Promise, true, 'the first sight of a token is verified (asynchronously)');
    const auth = await first;
    const again = hs(request);
    assert.equal(again instanceof Promise, false, 'a verified token is answered from the cache at once');
    assert.equal(again, auth);
    const other = hs({ ...request, bearerToken: await sign('second') });
    assert.equal(other instanceof Promise, true);
    assert.equal((await other)?.subject, 'second');
  });

  it('uses the configured identity on stdio and refuses by default', async () => {
    const none = jwtAuthorizer({ secret: 'x'.repeat(32), audience: RESOURCE, issuer: 'https://auth.example.test' });
    assert.equal(await none({ transport: 'stdio', header: () => undefined, bearerToken: undefined }), null);
    const local = jwtAuthorizer({ secret: 'x'.repeat(32), audience: RESOURCE, issuer: 'https://auth.example.test', stdio: { scopes: ['arm:move'], subject: 'local' } });
    assert.deepEqual(await local({ transport: 'stdio', header: () => undefined, bearerToken: undefined }), { scopes: ['arm:move'], subject: 'local' });
  });

  it('refuses unsafe or ambiguous configuration at creation', () => {
    const base = { issuer: 'https://auth.example.test', resource: RESOURCE };
    assert.throws(() => jwtAuthorizer({ ...base, issuer: [] }), { message: 'jwtAuthorizer: issuer is required (the issuer(s) whose tokens this server accepts)' });
    assert.throws(() => jwtAuthorizer({ ...base, issuer: undefined as unknown as string }), { message: 'jwtAuthorizer: issuer is required (the issuer(s) whose tokens this server accepts)' });
    assert.throws(() => jwtAuthorizer({ issuer: 'https://a.test' }), { message: 'jwtAuthorizer: resource (or audience) is required (tokens must be issued for this server)' });
    assert.throws(() => jwtAuthorizer({ ...base, secret: 'x'.repeat(32), jwksUrl: 'https://x' }), { message: 'jwtAuthorizer: give at most one of secret, jwks or jwksUrl' });
    assert.throws(() => jwtAuthorizer({ ...base, algorithms: ['ES256', 'none'] }), { message: 'jwtAuthorizer: algorithm "none" is never accepted (unsigned tokens)' });
    assert.throws(() => jwtAuthorizer({ ...base, jwksUrl: 'https://x/jwks', algorithms: ['HS256'] }), { message: 'jwtAuthorizer: HS256 needs a shared secret; with public keys it would let anyone holding the public key sign tokens' });
    assert.throws(() => jwtAuthorizer({ ...base, secret: 'x'.repeat(32), algorithms: ['RS256'] }), { message: 'jwtAuthorizer: RS256 is a public-key algorithm; a shared secret verifies HS256/HS384/HS512 only' });
    assert.throws(() => jwtAuthorizer({ ...base, issuer: ['https://a.test', 'https://b.test'] }), { message: 'jwtAuthorizer: with several issuers, give jwks or jwksUrl (keys are discovered for a single issuer only)' });
    for (const [resource, why] of [
      ['/mcp', 'is not an absolute URI'],
      ['https://robot.example.test/mcp#x', 'must not have a fragment (RFC 8707)'],
      ['https://robot.example.test/mcp?tenant=1', 'must not have a query'],
      ['https://Robot.example.test/mcp', 'must be written with a lower-case scheme and host (canonical form)'],
      ['ftp://robot.example.test/mcp', 'must be an http(s) URI'],
    ]) {
      assert.throws(() => jwtAuthorizer({ ...base, resource }), { message: `jwtAuthorizer: resource ${JSON.stringify(resource)} ${why}` });
    }
  });
});
