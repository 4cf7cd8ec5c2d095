/**
 * Opaque access tokens checked by asking the issuer (RFC 7662 token introspection). The answer
 * must say `active: true`, name an accepted issuer when it names one, name this resource among its
 * audiences, and be within its validity (`exp`, `nbf`, with the same skew as JWTs).
 */
import { BearerTokenError } from './bearer-challenge.js';

/** How to reach the introspection endpoint. */
export interface IntrospectionOptions {
  /** The endpoint (default: the issuer metadata's `introspection_endpoint`). */
  endpoint?: string;
  /** This resource server's own client credentials at the issuer (client_secret_basic). */
  clientId: string;
  clientSecret: string;
  /** Per request (default: the authorizer's `timeoutMs`). */
  timeoutMs?: number;
}

/** The claims of an active token that the authorizer turns into AuthInfo. */
export type IntrospectedClaims = Record<string, unknown>;

const MAX_ANSWER_BYTES = 64 * 1024;

/** Asks `endpoint` about `token`; resolves to the active token's claims or throws BearerTokenError. */
export async function introspectToken(
  token: string,
  endpoint: string,
  options: IntrospectionOptions,
  expect: { issuers: readonly string[]; audience: readonly string[]; clockToleranceSec: number; timeoutMs: number; fetch: typeof fetch },
): Promise<IntrospectedClaims> {
  const timeoutMs = options.timeoutMs ?? expect.timeoutMs;
  const signal = AbortSignal.timeout(timeoutMs);
  const credentials = Buffer.from(`${encodeURIComponent(options.clientId)}:${encodeURIComponent(options.clientSecret)}`).toString('base64');
  let text: string;
  let status: number;
  try {
    const response = await expect.fetch(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json', authorization: `Basic ${credentials}` },
      body: new URLSearchParams({ token, token_type_hint: 'access_token' }).toString(),
      redirect: 'error',
      signal,
    });
    status = response.status;
    const length = Number(response.headers.get('content-length') ?? '0');
    if (length > MAX_ANSWER_BYTES) throw new Error(`answer of ${length} bytes`);
    text = await response.text();
  } catch (error) {
    throw new BearerTokenError('unavailable', `cannot introspect the token at ${endpoint}: ${signal.aborted ? `no answer within ${timeoutMs} ms` : error instanceof Error ? error.message : String(error)}`);
  }
  if (status !== 200) throw new BearerTokenError('unavailable', `the introspection endpoint ${endpoint} answered HTTP ${status}`);
  let claims: unknown;
  try {
    claims = JSON.parse(text);
  } catch {
    throw new BearerTokenError('unavailable', `the introspection endpoint ${endpoint} answered with something that is not JSON`);
  }
  if (typeof claims !== 'object' || claims === null || Array.isArray(claims) || typeof (claims as { active?: unknown }).active !== 'boolean') {
    throw new BearerTokenError('unavailable', `the introspection endpoint ${endpoint} answered without a boolean "active"`);
  }
  const c = claims as Record<string, unknown>;
  if (c.active !== true) throw new BearerTokenError('invalid_token', 'the token is not active (introspection)');
  if (c.iss !== undefined && !expect.issuers.includes(c.iss as string)) throw new BearerTokenError('invalid_token', 'the token was issued by another issuer (introspection)');
  const audiences = typeof c.aud === 'string' ? [c.aud] : Array.isArray(c.aud) ? c.aud : [];
  if (!audiences.some((a) => expect.audience.includes(a as string))) throw new BearerTokenError('invalid_token', 'the token was not issued for this resource (introspection "aud")');
  const now = Date.now() / 1000;
  if (typeof c.exp === 'number' && c.exp + expect.clockToleranceSec <= now) throw new BearerTokenError('invalid_token', 'the token has expired (introspection)');
  if (typeof c.nbf === 'number' && c.nbf - expect.clockToleranceSec > now) throw new BearerTokenError('invalid_token', 'the token is not valid yet (introspection)');
  return c;
}
