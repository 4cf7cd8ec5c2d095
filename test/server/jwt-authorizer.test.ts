import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { createServer, defineTool, jwtAuthorizer } from '../../src/index.js';
import { rpc, standardHeaders } from '../fixtures/servers/raw-http.js';
import { assertServerMessage } from '../fixtures/servers/wire-schema.js';

const SECRET = 'a-test-secret-of-at-least-32-bytes!!';
const AUDIENCE = 'https://robot.example.test/mcp';

function token(claims: Record<string, unknown>, options: { secret?: string; audience?: string; expiresIn?: string | number } = {}): Promise<string> {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuer('https://auth.example.test')
    .setAudience(options.audience ?? AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(options.expiresIn ?? '5m')
    .sign(new TextEncoder().encode(options.secret ?? SECRET));
}

const move = defineTool({ name: 'move', inputSchema: { type: 'object' }, scopes: ['arm:move'], run: (_a, ctx) => `moved by ${ctx.auth?.subject}` });
const server = createServer({
  name: 'jwt',
  version: '1',
  tools: [move],
  authorize: jwtAuthorizer({ secret: SECRET, audience: AUDIENCE, issuer: 'https://auth.example.test' }),
  resourceMetadataUrl: 'https://robot.example.test/.well-known/oauth-protected-resource/mcp',
});

async function callWith(authorization: string | undefined) {
  const message = rpc('tools/call', { name: 'move', arguments: {} });
  const headers: Record<string, string> = standardHeaders(message);
  if (authorization !== undefined) headers.authorization = authorization;
  const response = await server.fetch(new Request('http://127.0.0.1/mcp', { method: 'POST', headers, body: JSON.stringify(message) }));
  const body = JSON.parse(await response.text()) as Record<string, unknown>;
  assertServerMessage(body, 'tools/call');
  return { status: response.status, challenge: response.headers.get('www-authenticate'), body };
}

describe('jwtAuthorizer', () => {
  it('accepts a valid token, taking scopes from "scope" and the subject from "sub"', async () => {
    const res = await callWith(`Bearer ${await token({ sub: 'operator-7', scope: 'arm:read arm:move' })}`);
    assert.equal(res.status, 200);
    assert.deepEqual((res.body.result as Record<string, unknown>).content, [{ type: 'text', text: 'moved by operator-7' }]);
  });

  it('reads scp arrays too, and answers 403 insufficient_scope when the scope is missing', async () => {
    const ok = await callWith(`Bearer ${await token({ sub: 'a', scp: ['arm:move'] })}`);
    assert.equal(ok.status, 200);
    const denied = await callWith(`Bearer ${await token({ sub: 'b', scope: 'arm:read' })}`);
    assert.equal(denied.status, 403);
    assert.match(denied.challenge ?? '', /^Bearer error="insufficient_scope", scope="arm:move", resource_metadata="https:\/\/robot\.example\.test/);
  });

  it('refuses (401) missing, malformed, foreign-audience, expired and wrongly signed tokens', async () => {
    const cases = [
      undefined,
      'Bearer not.a.jwt',
      `Basic ${Buffer.from('u:p').toString('base64')}`,
      `Bearer ${await token({ sub: 'x', scope: 'arm:move' }, { audience: 'https://other.example.test/mcp' })}`,
      `Bearer ${await token({ sub: 'x', scope: 'arm:move' }, { expiresIn: Math.floor(Date.now() / 1000) - 60 })}`,
      `Bearer ${await token({ sub: 'x', scope: 'arm:move' }, { secret: 'another-secret-of-at-least-32-bytes!' })}`,
    ];
    for (const authorization of cases) {
      const res = await callWith(authorization);
      assert.equal(res.status, 401, String(authorization));
      assert.equal(res.challenge, 'Bearer resource_metadata="https://robot.example.test/.well-known/oauth-protected-resource/mcp"');
      assert.deepEqual(res.body.error, { code: -31401, message: 'Unauthorized: a valid bearer token is required' });
    }
  });

  it('verifies RS256 tokens against a local JWK Set', async () => {
    const { publicKey, privateKey } = await generateKeyPair('RS256');
    const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256' };
    const authorize = jwtAuthorizer({ jwks: { keys: [jwk] }, audience: AUDIENCE });
    const signed = await new SignJWT({ scope: 'x' }).setProtectedHeader({ alg: 'RS256', kid: 'k1' }).setAudience(AUDIENCE).setExpirationTime('1m').sign(privateKey);
    assert.deepEqual(await authorize({ transport: 'http', header: () => undefined, bearerToken: signed }), { scopes: ['x'], extra: { scope: 'x', aud: AUDIENCE, exp: JSON.parse(Buffer.from(signed.split('.')[1]!, 'base64url').toString()).exp } });
  });

  it('uses the configured identity on stdio and refuses by default', async () => {
    const none = jwtAuthorizer({ secret: SECRET, audience: AUDIENCE });
    assert.equal(await none({ transport: 'stdio', header: () => undefined, bearerToken: undefined }), null);
    const local = jwtAuthorizer({ secret: SECRET, audience: AUDIENCE, stdio: { scopes: ['arm:move'], subject: 'local' } });
    assert.deepEqual(await local({ transport: 'stdio', header: () => undefined, bearerToken: undefined }), { scopes: ['arm:move'], subject: 'local' });
  });

  it('rejects ambiguous configuration', () => {
    assert.throws(() => jwtAuthorizer({ audience: AUDIENCE }), { message: 'jwtAuthorizer: give exactly one of secret, jwks or jwksUrl' });
    assert.throws(() => jwtAuthorizer({ secret: SECRET, jwksUrl: 'https://x', audience: AUDIENCE }), { message: 'jwtAuthorizer: give exactly one of secret, jwks or jwksUrl' });
    assert.throws(() => jwtAuthorizer({ secret: SECRET, audience: [] }), { message: 'jwtAuthorizer: audience is required (tokens must be issued for this server)' });
  });
});
