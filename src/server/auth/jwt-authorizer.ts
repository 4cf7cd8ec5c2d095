import type { Authorizer } from './authorizer.js';
import type { AuthInfo } from '../contract/tool-types.js';
import { BearerTokenError } from './bearer-challenge.js';
import { protectedResourceDocument } from './protected-resource.js';
import type { ProtectedResourceDocument } from './protected-resource.js';
import { introspectToken } from './token-introspection.js';
import type { IntrospectionOptions } from './token-introspection.js';
import { fetchAuthorizationServerMetadata, OAuthMetadataError } from '../../protocol/oauth-metadata.js';
import type { AuthorizationServerMetadata } from '../../protocol/oauth-metadata.js';

/**
 * Options of {@link jwtAuthorizer}. Keys: at most one of `secret`, `jwks`, `jwksUrl`; with none,
 * the issuer's `jwks_uri` is read from its metadata (RFC 8414 / OpenID discovery).
 */
export interface JwtAuthorizerOptions {
  /**
   * This server's canonical URI (absolute, e.g. `https://robot.example.com/mcp`; never derived
   * from `Host`). Tokens must name it in `aud` (RFC 8707); it is served as RFC 9728 protected
   * resource metadata at `/.well-known/oauth-protected-resource<path>` and the root form.
   */
  resource?: string;
  /** Further accepted audiences (besides `resource`). One of the two is required. */
  audience?: string | readonly string[];
  /** Accepted issuer(s), compared exactly with `iss`. Required. */
  issuer: string | readonly string[];
  /** Shared secret for HS256/HS384/HS512 tokens. */
  secret?: string | Uint8Array;
  /** Public keys as a JWK Set, verified locally. */
  jwks?: { keys: Record<string, unknown>[] };
  /** URL of the issuer's JWK Set (default: its metadata's `jwks_uri`). */
  jwksUrl?: string | URL;
  /**
   * Accepted algorithms. Default: RS/PS/ES 256-512 and EdDSA for public keys, HS256-512 for a
   * secret. `none` is refused, and so is any HS* algorithm with public keys (key confusion).
   */
  algorithms?: readonly string[];
  /** Clock skew tolerated for `exp`/`nbf`, in seconds (default 30). */
  clockToleranceSec?: number;
  /** Opaque (non-JWT) tokens are checked at the issuer's RFC 7662 introspection endpoint. */
  introspection?: IntrospectionOptions;
  /** Advertised in the metadata; the 401 challenge's `scope` unless `challengeScopes` is given. */
  scopesSupported?: readonly string[];
  /** The scope a 401 challenge names (default `scopesSupported`). */
  challengeScopes?: readonly string[];
  /** `resource_name` of the metadata. */
  resourceName?: string;
  /** `resource_documentation` of the metadata. */
  resourceDocumentation?: string;
  /** Time allowed for one request to the issuer (JWKS, metadata, introspection; default 5000 ms). */
  timeoutMs?: number;
  /** An unknown `kid` refetches the JWK Set at most this often (ms, default 30000). */
  jwksCooldownMs?: number;
  /** Longest bearer token accepted (bytes, default 8192); a longer one is refused with 400. */
  maxTokenBytes?: number;
  /** The fetch used to reach the issuer (default: the global one). */
  fetch?: typeof fetch;
  /** Who a stdio caller is (stdio has no Authorization header; digest R-96). Default: refused. */
  stdio?: AuthInfo | null;
}

/** An Authorizer that also describes the protected resource (served by `listen()` and `fetch()`). */
export type OAuthAuthorizer = Authorizer & { readonly protectedResource?: ProtectedResourceDocument };

type JoseModule = typeof import('jose');

const PUBLIC_KEY_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519'];
const SECRET_ALGORITHMS = ['HS256', 'HS384', 'HS512'];
/** RFC 6750 token68: what a bearer credential may hold. */
const TOKEN68 = /^[A-Za-z0-9\-._~+/]+=*$/;
/** Verified tokens kept (each until its expiry, at most VERIFIED_TTL_MS). */
const VERIFIED_CACHE_SIZE = 1024;
const VERIFIED_TTL_MS = 60_000;

function scopesOf(payload: Record<string, unknown>): string[] {
  const { scope, scp } = payload;
  if (typeof scope === 'string') return scope.split(' ').filter(Boolean);
  if (Array.isArray(scp)) return scp.filter((s): s is string => typeof s === 'string');
  if (typeof scp === 'string') return scp.split(' ').filter(Boolean);
  return [];
}

/** AuthInfo from verified claims: scopes, `sub`, and the client (`client_id`, RFC 9068, else `azp`). */
function authOf(claims: Record<string, unknown>): AuthInfo {
  const auth: AuthInfo = { scopes: scopesOf(claims), extra: claims };
  if (typeof claims.sub === 'string') auth.subject = claims.sub;
  const clientId = typeof claims.client_id === 'string' ? claims.client_id : typeof claims.azp === 'string' ? claims.azp : undefined;
  if (clientId !== undefined) auth.clientId = clientId;
  return auth;
}

function listOf(value: string | readonly string[] | undefined): string[] {
  return value === undefined ? [] : typeof value === 'string' ? [value] : [...value];
}

function checkAlgorithms(options: JwtAuthorizerOptions): string[] {
  const symmetric = options.secret !== undefined;
  const algorithms = options.algorithms === undefined ? (symmetric ? SECRET_ALGORITHMS : PUBLIC_KEY_ALGORITHMS) : [...options.algorithms];
  if (algorithms.length === 0) throw new TypeError('jwtAuthorizer: algorithms must not be empty');
  for (const alg of algorithms) {
    if (alg.toLowerCase() === 'none') throw new TypeError('jwtAuthorizer: algorithm "none" is never accepted (unsigned tokens)');
    if (!symmetric && alg.startsWith('HS')) throw new TypeError(`jwtAuthorizer: ${alg} needs a shared secret; with public keys it would let anyone holding the public key sign tokens`);
    if (symmetric && !alg.startsWith('HS')) throw new TypeError(`jwtAuthorizer: ${alg} is a public-key algorithm; a shared secret verifies HS256/HS384/HS512 only`);
  }
  return algorithms;
}

/** jose's refusals, as the client is told them (401), or as the issuer being unreachable (503). */
function explain(error: unknown, jwksUrl: string | undefined): BearerTokenError {
  if (error instanceof BearerTokenError) return error;
  const code = (error as { code?: string }).code;
  const claim = (error as { claim?: string }).claim;
  switch (code) {
    case 'ERR_JWT_EXPIRED':
      return new BearerTokenError('invalid_token', 'the token has expired');
    case 'ERR_JWT_CLAIM_VALIDATION_FAILED':
      if (claim === 'aud') return new BearerTokenError('invalid_token', 'the token was not issued for this resource ("aud")');
      if (claim === 'iss') return new BearerTokenError('invalid_token', 'the token was issued by an issuer this server does not accept ("iss")');
      if (claim === 'nbf') return new BearerTokenError('invalid_token', 'the token is not valid yet ("nbf")');
      return new BearerTokenError('invalid_token', `the token's "${claim ?? '?'}" claim is invalid`);
    case 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED':
      return new BearerTokenError('invalid_token', 'the token signature does not verify');
    case 'ERR_JOSE_ALG_NOT_ALLOWED':
    case 'ERR_JOSE_NOT_SUPPORTED':
      return new BearerTokenError('invalid_token', 'the token is signed with an algorithm this server does not accept');
    case 'ERR_JWKS_NO_MATCHING_KEY':
    case 'ERR_JWKS_MULTIPLE_MATCHING_KEYS':
      return new BearerTokenError('invalid_token', "the token is signed with a key the issuer does not publish (unknown \"kid\")");
    case 'ERR_JWS_INVALID':
    case 'ERR_JWT_INVALID':
      return new BearerTokenError('invalid_token', 'the token is malformed');
    case 'ERR_JWKS_TIMEOUT':
      return new BearerTokenError('unavailable', `the issuer's JWK Set at ${jwksUrl ?? '?'} did not answer in time`);
    case 'ERR_JWKS_INVALID':
      return new BearerTokenError('unavailable', `the issuer's JWK Set at ${jwksUrl ?? '?'} is not a valid JWK Set`);
    default:
      // Anything else is the key source failing (network error, HTTP error, junk): fail closed.
      return new BearerTokenError('unavailable', `cannot read the issuer's JWK Set${jwksUrl === undefined ? '' : ` at ${jwksUrl}`}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * An `authorize` option for an OAuth 2.1 resource server (MCP authorization, 2025-06-18 onward):
 * `Authorization: Bearer` JWTs verified with jose against the issuer's keys (signature, `iss`,
 * `aud` = the resource, `exp`/`nbf` with skew, algorithm allow-list), opaque tokens through RFC
 * 7662 introspection when configured. A refused token answers 401 `invalid_token` with the reason;
 * an issuer that cannot be reached answers 503 and nothing runs. Verified tokens are cached (until
 * their expiry, at most a minute, 1024 tokens). With `resource`, the server serves RFC 9728
 * metadata and its 401 challenge points at it.
 *
 * @example
 * ```ts
 * import { createServer, jwtAuthorizer } from 'toolwright';
 *
 * const server = createServer({
 *   name: 'arm', version: '1.0.0', tools: [],
 *   authorize: jwtAuthorizer({ resource: 'https://robot.example.com/mcp', issuer: 'https://auth.example.com', scopesSupported: ['arm:read', 'arm:move'] }),
 * });
 * ```
 */
export function jwtAuthorizer(options: JwtAuthorizerOptions): OAuthAuthorizer {
  const sources = [options.secret, options.jwks, options.jwksUrl].filter((s) => s !== undefined).length;
  if (sources > 1) throw new TypeError('jwtAuthorizer: give at most one of secret, jwks or jwksUrl');
  const issuers = listOf(options.issuer);
  if (issuers.length === 0 || issuers.some((i) => typeof i !== 'string' || i === '')) throw new TypeError('jwtAuthorizer: issuer is required (the issuer(s) whose tokens this server accepts)');
  const audience = [...(options.resource === undefined ? [] : [options.resource]), ...listOf(options.audience)];
  if (audience.length === 0) throw new TypeError('jwtAuthorizer: resource (or audience) is required (tokens must be issued for this server)');
  if (sources === 0 && issuers.length > 1) throw new TypeError('jwtAuthorizer: with several issuers, give jwks or jwksUrl (keys are discovered for a single issuer only)');
  const algorithms = checkAlgorithms(options);
  const clockToleranceSec = options.clockToleranceSec ?? 30;
  const timeoutMs = options.timeoutMs ?? 5000;
  const maxTokenBytes = options.maxTokenBytes ?? 8192;
  const doFetch = options.fetch ?? fetch;
  const stdio = options.stdio ?? null;
  const protectedResource = options.resource === undefined
    ? undefined
    : protectedResourceDocument({
      resource: options.resource,
      authorizationServers: issuers,
      scopesSupported: options.scopesSupported,
      challengeScopes: options.challengeScopes,
      resourceName: options.resourceName,
      resourceDocumentation: options.resourceDocumentation,
    });
  const verifyOptions = { issuer: issuers, audience, clockTolerance: clockToleranceSec, algorithms };

  let jose: Promise<JoseModule> | undefined;
  const loadJose = (): Promise<JoseModule> => (jose ??= import('jose').catch(() => {
    throw new Error('jwtAuthorizer needs the "jose" package: npm install jose');
  }));

  // The issuer's metadata, read once it is first needed; a failure is not kept (the next request asks again).
  let metadata: Promise<AuthorizationServerMetadata> | undefined;
  const issuerMetadata = (): Promise<AuthorizationServerMetadata> => {
    metadata ??= fetchAuthorizationServerMetadata(issuers[0] as string, { fetch: doFetch, timeoutMs }).catch((error: unknown) => {
      metadata = undefined;
      const reason = error instanceof OAuthMetadataError ? error.message : String(error);
      throw new BearerTokenError('unavailable', `cannot read the issuer's metadata: ${reason}`);
    });
    return metadata;
  };

  let keySource: Promise<{ key: unknown; jwksUrl: string | undefined }> | undefined;
  const keys = (): Promise<{ key: unknown; jwksUrl: string | undefined }> => {
    keySource ??= (async () => {
      const j = await loadJose();
      if (options.secret !== undefined) return { key: typeof options.secret === 'string' ? new TextEncoder().encode(options.secret) : options.secret, jwksUrl: undefined };
      if (options.jwks !== undefined) return { key: j.createLocalJWKSet(options.jwks as Parameters<JoseModule['createLocalJWKSet']>[0]), jwksUrl: undefined };
      const url = options.jwksUrl !== undefined ? String(options.jwksUrl) : (await issuerMetadata()).jwks_uri;
      if (url === undefined) throw new BearerTokenError('unavailable', `the issuer ${issuers[0]} publishes no jwks_uri; give jwksUrl`);
      const key = j.createRemoteJWKSet(new URL(url), {
        timeoutDuration: timeoutMs,
        cooldownDuration: options.jwksCooldownMs ?? 30_000,
        [j.customFetch]: (input: string | URL | Request, init?: RequestInit) => doFetch(input, { ...init, redirect: 'error' }),
      });
      return { key, jwksUrl: url };
    })().catch((error: unknown) => {
      keySource = undefined;
      throw error;
    });
    return keySource;
  };

  const verified = new Map<string, { auth: AuthInfo; until: number }>();
  const remember = (token: string, auth: AuthInfo, exp: unknown): void => {
    const until = Math.min(typeof exp === 'number' ? exp * 1000 : Infinity, Date.now() + VERIFIED_TTL_MS);
    if (verified.size >= VERIFIED_CACHE_SIZE) verified.delete(verified.keys().next().value as string);
    verified.set(token, { auth, until });
  };

  async function verifyJwt(token: string): Promise<AuthInfo> {
    const j = await loadJose();
    let header: { alg?: unknown };
    try {
      header = j.decodeProtectedHeader(token);
    } catch {
      throw new BearerTokenError('invalid_token', 'the token is malformed');
    }
    if (typeof header.alg !== 'string' || !algorithms.includes(header.alg)) {
      throw new BearerTokenError('invalid_token', `the token is signed with algorithm ${JSON.stringify(header.alg ?? null)}, which this server does not accept`);
    }
    const source = await keys();
    try {
      const { payload } = await j.jwtVerify(token, source.key as Parameters<JoseModule['jwtVerify']>[1], verifyOptions);
      const auth = authOf(payload as Record<string, unknown>);
      remember(token, auth, payload.exp);
      return auth;
    } catch (error) {
      throw explain(error, source.jwksUrl);
    }
  }

  async function introspect(token: string): Promise<AuthInfo> {
    const config = options.introspection;
    if (config === undefined) throw new BearerTokenError('invalid_token', 'the token is malformed (not a JWT, and this server does not introspect opaque tokens)');
    const endpoint = config.endpoint ?? (await issuerMetadata()).introspection_endpoint;
    if (endpoint === undefined) throw new BearerTokenError('unavailable', `the issuer ${issuers[0]} publishes no introspection_endpoint; give introspection.endpoint`);
    return authOf(await introspectToken(token, endpoint, config, { issuers, audience, clockToleranceSec, timeoutMs, fetch: doFetch }));
  }

  const check = async ({ transport, bearerToken }: Parameters<Authorizer>[0]): Promise<AuthInfo | null> => {
    // A console call is made in process by the operator holding the console token: no header, like stdio.
    if (transport === 'stdio' || transport === 'console') return stdio;
    if (bearerToken === undefined || bearerToken === '') return null;
    if (Buffer.byteLength(bearerToken) > maxTokenBytes) throw new BearerTokenError('invalid_request', `the bearer token exceeds ${maxTokenBytes} bytes`);
    if (!TOKEN68.test(bearerToken)) {
      throw bearerToken.includes(',')
        ? new BearerTokenError('invalid_request', 'the request carries more than one Authorization credential')
        : new BearerTokenError('invalid_token', 'the token is malformed (not an RFC 6750 bearer token)');
    }
    const known = verified.get(bearerToken);
    if (known !== undefined) {
      if (known.until > Date.now()) return known.auth;
      verified.delete(bearerToken);
    }
    return bearerToken.split('.').length === 3 ? verifyJwt(bearerToken) : introspect(bearerToken);
  };
  // A token verified recently is answered synchronously (no promise: the request stays synchronous,
  // stages/authenticate.ts); only tokens that passed every check above are in `verified`.
  const authorizer: Authorizer = (request) => {
    const token = request.bearerToken;
    if (token !== undefined && request.transport === 'http') {
      const known = verified.get(token);
      if (known !== undefined && known.until > Date.now()) return known.auth;
    }
    return check(request);
  };
  return Object.assign(authorizer, protectedResource === undefined ? {} : { protectedResource });
}
