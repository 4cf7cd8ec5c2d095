import { WireError } from '../../errors/toolwright-error.js';

/**
 * RFC 6750 bearer-token refusals: what an authorizer throws to say why a token was refused, and the
 * `WWW-Authenticate` challenges the authenticate and authorize stages send (with RFC 9728's
 * `resource_metadata` and the scope the client should ask for).
 */

/**
 * Thrown by an `authorize` function to refuse a request with a reason the client may read:
 * - `invalid_token` (401): the token is malformed, expired, not yet valid, for another audience or
 *   issuer, signed with an unknown key or algorithm, or inactive;
 * - `invalid_request` (400): the Authorization header itself is unusable (too long, duplicated);
 * - `unavailable` (503): the issuer could not be asked (JWKS, metadata or introspection endpoint
 *   unreachable, hanging or answering junk). The request is refused: fail closed.
 * Returning null still refuses with a plain 401.
 */
export class BearerTokenError extends WireError {
  readonly errorCode = 'bearer-token' as const;
  constructor(readonly kind: 'invalid_token' | 'invalid_request' | 'unavailable', message: string) {
    super(message);
    this.name = 'BearerTokenError';
  }
}

/** What a challenge advertises, resolved once per server. */
export interface ChallengeParams {
  /** RFC 9728 metadata URL, if any. */
  readonly resourceMetadataUrl: string | undefined;
  /** Scopes a client should ask for on a 401 (space-joined in `scope`), possibly none. */
  readonly scopes: readonly string[];
}

function quoted(value: string): string {
  // Challenge parameters are quoted-strings: no quote or backslash inside, and no control characters.
  return `"${value.replace(/["\\]/g, "'").replace(/[\u0000-\u001f\u007f]/g, ' ')}"`;
}

/**
 * `Bearer resource_metadata="…", scope="…"` for a request without a token, with
 * `error="invalid_token", error_description="…"` (or `invalid_request`) first when one was given.
 */
export function unauthorizedChallenge(params: ChallengeParams, error?: { code: 'invalid_token' | 'invalid_request'; description: string }): string {
  const parts: string[] = [];
  if (error !== undefined) parts.push(`error=${quoted(error.code)}`, `error_description=${quoted(error.description)}`);
  if (params.resourceMetadataUrl !== undefined) parts.push(`resource_metadata=${quoted(params.resourceMetadataUrl)}`);
  if (params.scopes.length > 0) parts.push(`scope=${quoted(params.scopes.join(' '))}`);
  return parts.length === 0 ? 'Bearer' : `Bearer ${parts.join(', ')}`;
}

/** The 403 step-up challenge: `error="insufficient_scope"` naming the scopes the call needs. */
export function insufficientScopeChallenge(params: ChallengeParams, needed: readonly string[], description: string): string {
  const metadata = params.resourceMetadataUrl === undefined ? '' : `, resource_metadata=${quoted(params.resourceMetadataUrl)}`;
  return `Bearer error="insufficient_scope", scope=${quoted(needed.join(' '))}${metadata}, error_description=${quoted(description)}`;
}
