import { rpcError } from '../outcomes.js';
import type { AuthInfo } from '../contract/tool-types.js';
import { BearerTokenError, unauthorizedChallenge } from '../auth/bearer-challenge.js';
import { vouchedAuth } from '../auth/vouched.js';
import { errorMessage, fail, isThenable } from './stage.js';
import type { Received, Stage, Stop } from './stage.js';
import type { PipelineEnv } from './pipeline-env.js';

const NO_HEADER = (): undefined => undefined;
const BEARER_SCHEME = /^bearer\s+/i;


/**
 * Who is calling. Runs for every message (2025 session messages too: authorization is checked per
 * request, never remembered per session; the era router checks those in front, once, and this stage
 * takes its answer, auth/vouched.ts); without an `authorize` option it passes at once and the
 * caller stays anonymous (`auth` undefined). A refusal says why (RFC 6750): 401 `invalid_token`
 * with the authorizer's reason, 400 `invalid_request` for an unusable header, 503 when the issuer
 * cannot be asked; an authorizer that throws anything else refuses with a plain 401 (logged).
 */
export const authenticate: Stage<'authenticate', Received> = {
  name: 'authenticate',
  run(s, env) {
    const authorizer = env.authorize;
    if (authorizer === undefined) return s;
    // A 2025 session's request, authenticated by the era router before the legacy wire (auth/vouched.ts).
    const known = vouchedAuth(s.message);
    if (known !== undefined) {
      s.auth = known;
      return s;
    }
    const header = s.message.header ?? NO_HEADER;
    const authorization = header('authorization');
    const scheme = authorization === undefined ? null : BEARER_SCHEME.exec(authorization);
    const bearer = scheme === null || authorization === undefined ? undefined : authorization.slice(scheme[0].length).trim();
    // An authorizer that answers synchronously (a static token, a cached JWT) keeps the request
    // synchronous: no promise, no microtask hop for every stage after this one.
    let answer: AuthInfo | null | PromiseLike<AuthInfo | null>;
    try {
      answer = authorizer({ transport: s.message.transport, header, bearerToken: bearer });
    } catch (error) {
      return threw(s, env, bearer, error);
    }
    if (!isThenable(answer)) return decided(s, env, bearer, answer);
    return Promise.resolve(answer).then((auth) => decided(s, env, bearer, auth), (error: unknown) => threw(s, env, bearer, error));
  },
};

function decided(s: Received, env: PipelineEnv, bearer: string | undefined, auth: AuthInfo | null): Received | Stop {
  if (auth === null) return refuse(s, env, bearer);
  s.auth = auth;
  return s;
}

function threw(s: Received, env: PipelineEnv, bearer: string | undefined, error: unknown): Stop {
  if (error instanceof BearerTokenError) return refuse(s, env, bearer, error);
  env.logger.error('authorize() threw; request refused', { error: errorMessage(error) });
  return refuse(s, env, bearer);
}

function refuse(s: Received, env: PipelineEnv, bearer: string | undefined, error?: BearerTokenError): Stop {
  const http = s.message.transport === 'http';
  if (error?.kind === 'unavailable') {
    env.logger.error('bearer token not checked: the issuer cannot be reached; request refused', { reason: error.message });
    return fail(rpcError('authorizationUnavailable', `Service unavailable: the bearer token cannot be checked (${error.message}); retry later`, { headers: http ? { 'Retry-After': '5' } : undefined }));
  }
  const code: 'invalid_request' | 'invalid_token' = error?.kind === 'invalid_request' ? 'invalid_request' : 'invalid_token';
  // No error code when no bearer token came at all (RFC 6750 §3.1).
  const detail = error === undefined ? (bearer === undefined || bearer === '' ? undefined : { code, description: 'the token was refused' }) : { code, description: error.message };
  const headers = http ? { 'WWW-Authenticate': unauthorizedChallenge(env.challenge, detail) } : undefined;
  if (error?.kind === 'invalid_request') return fail(rpcError('authorizationMalformed', `Bad request: ${error.message}`, { headers }));
  const message = error === undefined ? 'Unauthorized: a valid bearer token is required' : `Unauthorized: ${error.message}`;
  return fail(rpcError('unauthenticated', message, { headers }));
}
