/**
 * The OAuth flow of an MCP client, as hosts run it (MCP authorization, 2025-06-18 onward and
 * 2026-07-28): on a 401 (or a 403 `insufficient_scope`) it discovers the server's protected
 * resource metadata (RFC 9728: the challenge's `resource_metadata`, else the well-known forms),
 * checks that the metadata's `resource` covers the server, reads the issuer's metadata (RFC 8414 /
 * OpenID, issuer compared exactly), picks a client (pre-registered, kept, client ID metadata
 * document, or dynamic registration), selects scopes (challenge, else `scopes_supported`, else
 * none; step-up adds to what was asked before), and gets a token by authorization code with PKCE
 * (S256, `resource`, `state`, RFC 9207 `iss` checked) or by client credentials. Tokens are
 * refreshed before they expire and after a 401; authorizations per request are bounded.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { checkProtectedResourceMetadata, fetchAuthorizationServerMetadata, fetchJsonObject, OAuthMetadataError, protectedResourceMetadataUrls } from '../../protocol/oauth-metadata.js';
import type { AuthorizationServerMetadata, ProtectedResourceMetadata } from '../../protocol/oauth-metadata.js';
import { McpClientError } from '../client-error.js';
import { parseBearerChallenge } from './bearer-challenge.js';
import type { BearerChallenge } from './bearer-challenge.js';
import { clientFor } from './client-registration.js';
import type { ClientIdentity } from './client-registration.js';
import { pkcePair, requestToken } from './token-endpoint.js';
import type { ClientAuthentication, TokenResponse } from './token-endpoint.js';
import { memoryTokenStore } from './token-store.js';
import type { StoredClient, StoredToken, TokenStore } from './token-store.js';

/** What the user (or a test standing in for one) is shown, and where the answer comes back. */
export interface AuthorizationRequest {
  /** The authorization URL to open in a browser. */
  url: URL;
  /** The redirect URI the authorization server will send the browser to. */
  redirectUri: string;
  signal: AbortSignal;
}

/** The client-credentials extension (io.modelcontextprotocol/oauth-client-credentials): no user involved. */
export type ClientCredentials =
  | { clientId: string; clientSecret: string }
  | { clientId: string; privateKeyPem: string; /** Default ES256. */ algorithm?: string };

/** Options of {@link createOAuthClient}. */
export interface OAuthClientOptions extends ClientIdentity {
  /**
   * Shows the authorization URL to the user and resolves to the URL the authorization server
   * redirected to (with `code`, `state`, maybe `iss`). Needed for the authorization code flow.
   */
  authorize?: (request: AuthorizationRequest) => Promise<string | URL>;
  /** Where the authorization server sends the browser back (default `http://127.0.0.1/callback`). */
  redirectUri?: string;
  /** Machine-to-machine: get tokens with the client credentials grant instead of a user's approval. */
  clientCredentials?: ClientCredentials;
  /** Scopes to ask for, replacing the spec's selection (challenge, then `scopes_supported`); a 403 step-up still adds its scope. */
  scopes?: readonly string[];
  /** Ask for `offline_access` (a refresh token) where the issuer lists it (default true). */
  offlineAccess?: boolean;
  /** Where registrations and tokens are kept (default: in memory). */
  store?: TokenStore;
  /** Used for metadata, registration and token requests (default: the global fetch). */
  fetch?: typeof fetch;
  /** Per request to the authorization server (default 10 s). */
  timeoutMs?: number;
  /** Most authorizations for one MCP request (a server that keeps refusing stops there; default 3). */
  maxAuthorizations?: number;
  /** Told of each step (for `--verbose` output); never given a token. */
  onStep?: (step: string) => void;
}

/** An OAuth client for MCP servers; give it to `connect({ url, oauth })`. */
export interface OAuthClient {
  /** Identifies this client's tokens in list caches (`authContext`). */
  readonly id: string;
  /** `baseFetch` with bearer tokens added, and the flow run on a 401 / 403 insufficient_scope. */
  wrapFetch(baseFetch: typeof fetch): typeof fetch;
  /** The store behind it. */
  readonly store: TokenStore;
}

const REFRESH_MARGIN_MS = 30_000;
const DEFAULT_REDIRECT = 'http://127.0.0.1/callback';

/** The server a request goes to: origin and path, no query or fragment. */
function serverKey(url: URL): string {
  return `${url.origin}${url.pathname}`;
}

function authError(message: string, cause?: unknown): McpClientError {
  return new McpClientError('auth', message, cause === undefined ? {} : { cause });
}

function metadataError(error: unknown): never {
  if (error instanceof OAuthMetadataError) throw authError(error.message, error);
  throw error;
}

/** True when `resource` (the metadata's) covers `server`: same origin, and the server's path at or under the resource's. */
export function resourceCovers(resource: string, server: string): boolean {
  const r = new URL(resource);
  const s = new URL(server);
  if (r.origin !== s.origin) return false;
  const path = r.pathname.replace(/\/+$/, '');
  return path === '' || s.pathname === path || s.pathname === `${path}/` || s.pathname.startsWith(`${path}/`);
}

function union(first: readonly string[], second: readonly string[]): string[] {
  return [...new Set([...first, ...second])];
}

/** Creates an OAuth client; one per user or service identity (its tokens are kept in `store`). */
export function createOAuthClient(options: OAuthClientOptions = {}): OAuthClient {
  const store = options.store ?? memoryTokenStore();
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const maxAuthorizations = options.maxAuthorizations ?? 3;
  const redirectUri = options.redirectUri ?? DEFAULT_REDIRECT;
  const step = options.onStep ?? (() => undefined);
  const http = { fetch: doFetch, timeoutMs };
  const metadataOptions = { fetch: doFetch, timeoutMs };
  const pending = new Map<string, Promise<StoredToken>>();

  async function discoverResource(server: string, challenge: BearerChallenge | undefined): Promise<ProtectedResourceMetadata> {
    const candidates = challenge?.resourceMetadata !== undefined ? [challenge.resourceMetadata] : protectedResourceMetadataUrls(server);
    for (const url of candidates) {
      const document = await fetchJsonObject(url, metadataOptions, 'protected resource metadata').catch(metadataError);
      if (document === undefined) continue;
      const metadata = (() => {
        try {
          return checkProtectedResourceMetadata(document, url);
        } catch (error) {
          return metadataError(error);
        }
      })();
      if (!resourceCovers(metadata.resource, server)) {
        throw authError(`the protected resource metadata at ${url} is for ${metadata.resource}, which does not cover ${server}: refused (a token for it must not be sent here)`);
      }
      step(`protected resource metadata: ${url}`);
      return metadata;
    }
    throw authError(`${server} asks for authorization but publishes no protected resource metadata (tried ${candidates.join(', ')})`);
  }

  function selectScopes(challenge: BearerChallenge | undefined, resource: ProtectedResourceMetadata, issuer: AuthorizationServerMetadata, previous: StoredToken | undefined, interactive: boolean): string[] {
    let scopes: string[];
    const challenged = challenge?.scope?.split(' ').filter(Boolean) ?? [];
    // Given scopes replace the selection, but a step-up challenge still adds what it names.
    if (options.scopes !== undefined) scopes = union(options.scopes, challenge?.error === 'insufficient_scope' ? challenged : []);
    else if (challenge?.scope !== undefined && challenge.scope.trim() !== '') scopes = challenge.scope.split(' ').filter(Boolean);
    else if (resource.scopes_supported !== undefined) scopes = [...resource.scopes_supported];
    else scopes = [];
    // Step-up keeps what was granted before (SEP-2350), at the same issuer only.
    if (previous !== undefined && previous.issuer === issuer.issuer) scopes = union(previous.scopes.filter((s) => s !== 'offline_access'), scopes);
    if (interactive && options.offlineAccess !== false && issuer.scopes_supported?.includes('offline_access') === true && !scopes.includes('offline_access')) scopes.push('offline_access');
    return scopes;
  }

  function authenticationOf(client: StoredClient): ClientAuthentication {
    return client.authMethod === 'none'
      ? { method: 'none', clientId: client.clientId }
      : { method: client.authMethod, clientId: client.clientId, clientSecret: client.clientSecret ?? '' };
  }

  function save(server: string, resource: string, issuer: string, clientId: string, scopes: string[], token: TokenResponse, previous?: StoredToken): Promise<StoredToken> {
    const stored: StoredToken = {
      server, resource, issuer, clientId,
      accessToken: token.accessToken,
      scopes,
      obtainedAt: Date.now(),
    };
    const refresh = token.refreshToken ?? (previous?.issuer === issuer ? previous.refreshToken : undefined);
    if (refresh !== undefined) stored.refreshToken = refresh;
    if (token.expiresIn !== undefined) stored.expiresAt = Date.now() + token.expiresIn * 1000;
    return store.saveToken(stored).then(() => stored);
  }

  async function refresh(token: StoredToken): Promise<StoredToken | undefined> {
    if (token.refreshToken === undefined) return undefined;
    try {
      const metadata = await fetchAuthorizationServerMetadata(token.issuer, metadataOptions);
      if (metadata.token_endpoint === undefined) return undefined;
      const client = options.clientId !== undefined && (options.clientIdIssuer ?? token.issuer) === token.issuer && options.clientId === token.clientId
        ? { issuer: token.issuer, clientId: options.clientId, ...(options.clientSecret !== undefined ? { clientSecret: options.clientSecret } : {}), authMethod: options.clientSecret === undefined ? 'none' as const : 'client_secret_basic' as const }
        : await store.client(token.issuer);
      const auth: ClientAuthentication = client !== undefined && client.clientId === token.clientId ? authenticationOf(client) : { method: 'none', clientId: token.clientId };
      const answer = await requestToken(metadata.token_endpoint, { grant_type: 'refresh_token', refresh_token: token.refreshToken, resource: token.resource }, auth, http);
      step(`refreshed the token for ${token.server}`);
      return await save(token.server, token.resource, token.issuer, token.clientId, token.scopes, answer, token);
    } catch (error) {
      step(`refresh failed: ${error instanceof Error ? error.message : String(error)}`);
      return undefined;
    }
  }

  async function tokenFor(server: string): Promise<StoredToken | undefined> {
    const token = await store.token(server);
    if (token === undefined) return undefined;
    if (token.expiresAt === undefined || token.expiresAt - REFRESH_MARGIN_MS > Date.now()) return token;
    return refresh(token);
  }

  async function viaClientCredentials(credentials: ClientCredentials, server: string, resource: ProtectedResourceMetadata, metadata: AuthorizationServerMetadata, scopes: string[]): Promise<StoredToken> {
    if (metadata.token_endpoint === undefined) throw authError(`the authorization server ${metadata.issuer} has no token_endpoint`);
    const auth: ClientAuthentication = 'privateKeyPem' in credentials
      ? { method: 'private_key_jwt', clientId: credentials.clientId, privateKeyPem: credentials.privateKeyPem, algorithm: credentials.algorithm ?? 'ES256', audience: metadata.issuer }
      : { method: (metadata.token_endpoint_auth_methods_supported ?? ['client_secret_basic']).includes('client_secret_basic') ? 'client_secret_basic' : 'client_secret_post', clientId: credentials.clientId, clientSecret: credentials.clientSecret };
    const grant: Record<string, string> = { grant_type: 'client_credentials', resource: resource.resource };
    if (scopes.length > 0) grant.scope = scopes.join(' ');
    step(`client credentials grant at ${metadata.token_endpoint}`);
    const token = await requestToken(metadata.token_endpoint, grant, auth, http);
    return save(server, resource.resource, metadata.issuer, credentials.clientId, scopes, token);
  }

  async function viaAuthorizationCode(server: string, resource: ProtectedResourceMetadata, metadata: AuthorizationServerMetadata, scopes: string[], signal: AbortSignal): Promise<StoredToken> {
    const issuer = metadata.issuer;
    if (metadata.authorization_endpoint === undefined || metadata.token_endpoint === undefined) throw authError(`the authorization server ${issuer} has no authorization_endpoint or token_endpoint`);
    if (!(metadata.code_challenge_methods_supported ?? []).includes('S256')) {
      throw authError(`the authorization server ${issuer} does not advertise PKCE with S256 (code_challenge_methods_supported): refused, as the MCP authorization spec requires`);
    }
    if (options.authorize === undefined) throw authError(`${server} needs a user's authorization at ${issuer}; give an authorize function (CLI: --oauth) or client credentials`);
    const client = await clientFor(issuer, metadata, options, redirectUri, ['authorization_code', 'refresh_token'], store, http);
    const state = randomBytes(16).toString('base64url');
    const pkce = pkcePair();
    const url = new URL(metadata.authorization_endpoint);
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('client_id', client.clientId);
    url.searchParams.set('redirect_uri', redirectUri);
    url.searchParams.set('state', state);
    url.searchParams.set('code_challenge', pkce.challenge);
    url.searchParams.set('code_challenge_method', 'S256');
    if (scopes.length > 0) url.searchParams.set('scope', scopes.join(' '));
    url.searchParams.set('resource', resource.resource);
    step(`authorization request to ${metadata.authorization_endpoint} (scope: ${scopes.join(' ') || 'none'})`);
    const returned = await options.authorize({ url, redirectUri, signal });
    let callback: URL;
    try {
      callback = new URL(String(returned), redirectUri);
    } catch {
      throw authError(`the authorization did not come back as a URL: ${JSON.stringify(String(returned).slice(0, 200))}`);
    }
    const params = callback.searchParams;
    const iss = params.get('iss');
    // RFC 9207: a present iss must be exactly the issuer; one the issuer promised must be present.
    if (iss !== null && iss !== issuer) throw authError(`the authorization response names issuer ${JSON.stringify(iss)}, not ${JSON.stringify(issuer)} (RFC 9207): refused (mix-up attack?)`);
    if (iss === null && metadata.authorization_response_iss_parameter_supported === true) throw authError(`the authorization response lacks the iss parameter that ${issuer} promises (RFC 9207): refused`);
    if (params.get('state') !== state) throw authError('the authorization response does not carry the state this client sent: refused (CSRF?)');
    const refusal = params.get('error');
    if (refusal !== null) throw authError(`the authorization server refused: ${refusal}${params.get('error_description') !== null ? ` (${params.get('error_description')})` : ''}`);
    const code = params.get('code');
    if (code === null || code === '') throw authError('the authorization response carries no code');
    const token = await requestToken(metadata.token_endpoint, { grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: pkce.verifier, resource: resource.resource }, authenticationOf(client), http);
    step(`token obtained from ${issuer}`);
    return save(server, resource.resource, issuer, client.clientId, scopes, token);
  }

  async function obtain(server: string, challenge: BearerChallenge | undefined, previous: StoredToken | undefined, status: number, signal: AbortSignal): Promise<StoredToken> {
    const resource = await discoverResource(server, challenge);
    const issuer = resource.authorization_servers?.[0];
    if (issuer === undefined) throw authError(`the protected resource metadata of ${server} names no authorization server`);
    const metadata = await fetchAuthorizationServerMetadata(issuer, metadataOptions).catch(metadataError);
    step(`authorization server: ${issuer}`);
    // A refused token from the same issuer may only have expired: a refresh token is tried first.
    if (status === 401 && previous?.refreshToken !== undefined && previous.issuer === issuer) {
      const refreshed = await refresh(previous);
      if (refreshed !== undefined && refreshed.accessToken !== previous.accessToken) return refreshed;
    }
    const credentials = options.clientCredentials;
    const scopes = selectScopes(challenge, resource, metadata, previous, credentials === undefined);
    return credentials !== undefined ? viaClientCredentials(credentials, server, resource, metadata, scopes) : viaAuthorizationCode(server, resource, metadata, scopes, signal);
  }

  /** One flow per server at a time: concurrent refusals wait for the same token. */
  function obtainOnce(server: string, challenge: BearerChallenge | undefined, previous: StoredToken | undefined, status: number, signal: AbortSignal): Promise<StoredToken> {
    let running = pending.get(server);
    if (running === undefined) {
      running = obtain(server, challenge, previous, status, signal).finally(() => pending.delete(server));
      pending.set(server, running);
    }
    return running;
  }

  return {
    id: randomUUID(),
    store,
    wrapFetch(baseFetch) {
      return async (input, init) => {
        const target = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
        const server = serverKey(target);
        const signal = init?.signal ?? new AbortController().signal;
        let authorizations = 0;
        for (;;) {
          const token = await tokenFor(server);
          const headers = new Headers(init?.headers);
          if (token !== undefined) headers.set('authorization', `Bearer ${token.accessToken}`);
          const response = await baseFetch(input, { ...init, headers });
          if (response.status !== 401 && response.status !== 403) return response;
          const challenge = parseBearerChallenge(response.headers.get('www-authenticate'));
          if (response.status === 403 && challenge?.error !== 'insufficient_scope') return response;
          if (authorizations >= maxAuthorizations) {
            step(`giving up after ${authorizations} authorizations for one request`);
            return response;
          }
          authorizations++;
          await response.body?.cancel().catch(() => undefined);
          await obtainOnce(server, challenge, token, response.status, signal);
        }
      };
    },
  };
}
