/** The `authenticate` stage: who is calling, and every way it refuses (RFC 6750). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BearerTokenError } from '../../../src/server/auth/bearer-challenge.js';
import { vouchFor } from '../../../src/server/auth/vouched.js';
import type { Authorizer, AuthorizeRequest } from '../../../src/server/stages/pipeline-env.js';
import { authenticate } from '../../../src/server/stages/authenticate.js';
import { assertPassed, assertRefused, received, settle, stageEnv } from '../../support/stage-fixture.js';

const ALICE = { subject: 'alice', scopes: ['read'] };

function withAuthorizer(authorize: Authorizer) {
  const seen: AuthorizeRequest[] = [];
  const env = stageEnv({ authorize: (request) => { seen.push(request); return authorize(request); }, resourceMetadataUrl: 'https://rs.example/.well-known/oauth-protected-resource' });
  return { env, seen };
}

describe('authenticate stage', () => {
  it('passes at once without an authorizer; the caller stays anonymous', () => {
    const s = received({ headers: { authorization: 'Bearer t' } });
    assertPassed(authenticate.run(s, stageEnv()), s);
    assert.equal(s.auth, undefined);
  });

  it('records what the authorizer returns, handing it the bearer token and the headers', async () => {
    const { env, seen } = withAuthorizer(() => ALICE);
    const s = received({ headers: { Authorization: 'bearer  tok-1 ', 'X-Extra': 'x' } });
    assertPassed(await settle(authenticate.run(s, env)), s);
    assert.deepEqual(s.auth, ALICE);
    assert.equal(seen.length, 1);
    assert.equal(seen[0]!.transport, 'http');
    assert.equal(seen[0]!.bearerToken, 'tok-1');
    assert.equal(seen[0]!.header('x-extra'), 'x');
  });

  it('answers at once (no promise) when the authorizer answers synchronously, and waits for one that does not', async () => {
    const sync = withAuthorizer(() => ALICE);
    const s = received({ headers: { authorization: 'Bearer tok-1' } });
    const outcome = authenticate.run(s, sync.env);
    assert.equal(outcome instanceof Promise, false, 'a synchronous authorizer must not make the request asynchronous');
    assertPassed(outcome, s);
    const later = withAuthorizer(() => Promise.resolve(ALICE));
    const t = received({ headers: { authorization: 'Bearer tok-1' } });
    const pending = authenticate.run(t, later.env);
    assert.equal(pending instanceof Promise, true);
    assertPassed(await pending, t);
    assert.deepEqual(t.auth, ALICE);
  });

  it('takes a caller the era router vouched for without asking the authorizer again', async () => {
    const { env, seen } = withAuthorizer(() => null);
    const s = received({ headers: {} });
    vouchFor(s.message, ALICE);
    assertPassed(await settle(authenticate.run(s, env)), s);
    assert.equal(s.auth, ALICE);
    assert.equal(seen.length, 0);
  });

  it('refuses with 401 and a challenge without an error code when no token came', async () => {
    const { env } = withAuthorizer(() => null);
    assertRefused(await settle(authenticate.run(received({ headers: {} }), env)), 'unauthenticated', 'Unauthorized: a valid bearer token is required', {
      headers: { 'WWW-Authenticate': 'Bearer resource_metadata="https://rs.example/.well-known/oauth-protected-resource"' },
    });
  });

  it('refuses a token the authorizer rejects with invalid_token', async () => {
    const { env } = withAuthorizer(() => null);
    assertRefused(await settle(authenticate.run(received({ headers: { authorization: 'Bearer bad' } }), env)), 'unauthenticated', 'Unauthorized: a valid bearer token is required', {
      headers: { 'WWW-Authenticate': 'Bearer error="invalid_token", error_description="the token was refused", resource_metadata=\"https://rs.example/.well-known/oauth-protected-resource\"' },
    });
  });

  it("says the authorizer's reason when it throws a BearerTokenError", async () => {
    const { env } = withAuthorizer(() => { throw new BearerTokenError('invalid_token', 'token expired'); });
    assertRefused(await settle(authenticate.run(received({ headers: { authorization: 'Bearer old' } }), env)), 'unauthenticated', 'Unauthorized: token expired', {
      headers: { 'WWW-Authenticate': 'Bearer error="invalid_token", error_description="token expired", resource_metadata=\"https://rs.example/.well-known/oauth-protected-resource\"' },
    });
  });

  it('refuses an unusable Authorization header with 400 invalid_request', async () => {
    const { env } = withAuthorizer(() => Promise.reject(new BearerTokenError('invalid_request', 'more than one credential')));
    assertRefused(await settle(authenticate.run(received({ headers: { authorization: 'Bearer a' } }), env)), 'authorizationMalformed', 'Bad request: more than one credential', {
      headers: { 'WWW-Authenticate': 'Bearer error="invalid_request", error_description="more than one credential", resource_metadata=\"https://rs.example/.well-known/oauth-protected-resource\"' },
    });
  });

  it('fails closed with 503 and Retry-After when the issuer cannot be asked, and logs it', async () => {
    const { env } = withAuthorizer(() => { throw new BearerTokenError('unavailable', 'jwks timed out'); });
    assertRefused(await settle(authenticate.run(received({ headers: { authorization: 'Bearer a' } }), env)), 'authorizationUnavailable',
      'Service unavailable: the bearer token cannot be checked (jwks timed out); retry later', { headers: { 'Retry-After': '5' } });
    assert.deepEqual(env.logged, [{ message: 'bearer token not checked: the issuer cannot be reached; request refused', detail: { reason: 'jwks timed out' } }]);
  });

  it('refuses with a plain 401 when the authorizer throws anything else, and logs the fault', async () => {
    const { env } = withAuthorizer(() => { throw new Error('db down'); });
    assertRefused(await settle(authenticate.run(received({ headers: { authorization: 'Bearer a' } }), env)), 'unauthenticated', 'Unauthorized: a valid bearer token is required', {
      headers: { 'WWW-Authenticate': 'Bearer error="invalid_token", error_description="the token was refused", resource_metadata=\"https://rs.example/.well-known/oauth-protected-resource\"' },
    });
    assert.deepEqual(env.logged, [{ message: 'authorize() threw; request refused', detail: { error: 'db down' } }]);
  });

  it('sends no HTTP headers with a refusal on stdio', async () => {
    const { env, seen } = withAuthorizer(() => null);
    assertRefused(await settle(authenticate.run(received(), env)), 'unauthenticated', 'Unauthorized: a valid bearer token is required', { headers: undefined });
    assert.equal(seen[0]!.transport, 'stdio');
    assert.equal(seen[0]!.bearerToken, undefined);
    assert.equal(seen[0]!.header('authorization'), undefined);
  });
});
