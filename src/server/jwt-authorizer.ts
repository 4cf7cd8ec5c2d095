import type { Authorizer } from './call-pipeline.js';
import type { AuthInfo } from './tool-types.js';

/** Options of {@link jwtAuthorizer}. Exactly one of `secret`, `jwks`, `jwksUrl`. */
export interface JwtAuthorizerOptions {
  /** Shared secret for HS256/HS384/HS512 tokens. */
  secret?: string | Uint8Array;
  /** Public keys as a JWK Set, verified locally. */
  jwks?: { keys: Record<string, unknown>[] };
  /** URL of the authorization server's JWK Set (fetched and cached by jose). */
  jwksUrl?: string | URL;
  /** Tokens must be issued for this resource (RFC 8707 audience binding, digest R-102). */
  audience: string | readonly string[];
  /** Accepted issuer(s); unchecked when omitted. */
  issuer?: string | readonly string[];
  /** Accepted algorithms (default: whatever the key type allows, never `none`). */
  algorithms?: readonly string[];
  /** Clock skew tolerated for `exp`/`nbf`, in seconds (default 5). */
  clockToleranceSec?: number;
  /** Who a stdio caller (or a console workbench call, made in process) is: neither has an Authorization header (digest R-96). Default: refused. */
  stdio?: AuthInfo | null;
}

interface JoseModule {
  jwtVerify(token: string, key: unknown, options: Record<string, unknown>): Promise<{ payload: Record<string, unknown> }>;
  createLocalJWKSet(jwks: unknown): unknown;
  createRemoteJWKSet(url: URL): unknown;
}

function scopesOf(payload: Record<string, unknown>): string[] {
  const { scope, scp } = payload;
  if (typeof scope === 'string') return scope.split(' ').filter(Boolean);
  if (Array.isArray(scp)) return scp.filter((s): s is string => typeof s === 'string');
  if (typeof scp === 'string') return scp.split(' ').filter(Boolean);
  return [];
}

/**
 * An `authorize` option that accepts `Authorization: Bearer <JWT>` tokens verified with jose:
 * signature, expiry, audience (required) and issuer. Scopes come from the `scope` claim (space
 * separated) or `scp` (array or string); `subject` from `sub`. Any failure refuses the request (401).
 * jose is loaded on first use, so servers without JWTs never load it.
 *
 * @example
 * createServer({ ..., authorize: jwtAuthorizer({ jwksUrl: 'https://auth.example.com/jwks.json', audience: 'https://robot.example.com/mcp' }) })
 */
export function jwtAuthorizer(options: JwtAuthorizerOptions): Authorizer {
  const sources = [options.secret, options.jwks, options.jwksUrl].filter((s) => s !== undefined).length;
  if (sources !== 1) throw new TypeError('jwtAuthorizer: give exactly one of secret, jwks or jwksUrl');
  const audience = typeof options.audience === 'string' ? options.audience : [...options.audience];
  if (audience.length === 0) throw new TypeError('jwtAuthorizer: audience is required (tokens must be issued for this server)');
  const verifyOptions: Record<string, unknown> = { audience, clockTolerance: options.clockToleranceSec ?? 5 };
  if (options.issuer !== undefined) verifyOptions.issuer = typeof options.issuer === 'string' ? options.issuer : [...options.issuer];
  if (options.algorithms !== undefined) verifyOptions.algorithms = [...options.algorithms];
  const stdio = options.stdio ?? null;

  let ready: Promise<{ jose: JoseModule; key: unknown }> | undefined;
  const load = async (): Promise<{ jose: JoseModule; key: unknown }> => {
    let jose: JoseModule;
    try {
      jose = (await import('jose')) as unknown as JoseModule;
    } catch {
      throw new Error('jwtAuthorizer needs the "jose" package: npm install jose');
    }
    let key: unknown;
    if (options.secret !== undefined) key = typeof options.secret === 'string' ? new TextEncoder().encode(options.secret) : options.secret;
    else if (options.jwks !== undefined) key = jose.createLocalJWKSet(options.jwks);
    else key = jose.createRemoteJWKSet(new URL(String(options.jwksUrl)));
    return { jose, key };
  };

  return async ({ transport, bearerToken }) => {
    // A console call is made in process by the operator holding the console token: no header, like stdio.
    if (transport === 'stdio' || transport === 'console') return stdio;
    if (bearerToken === undefined || bearerToken === '') return null;
    const { jose, key } = await (ready ??= load());
    try {
      const { payload } = await jose.jwtVerify(bearerToken, key, verifyOptions);
      const auth: AuthInfo = { scopes: scopesOf(payload), extra: payload };
      if (typeof payload.sub === 'string') auth.subject = payload.sub;
      return auth;
    } catch {
      return null;
    }
  };
}
