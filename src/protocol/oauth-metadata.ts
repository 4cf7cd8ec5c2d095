/**
 * OAuth metadata documents both sides read: an authorization server's metadata (RFC 8414 and
 * OpenID Connect Discovery) and a protected resource's metadata (RFC 9728). The server reads the
 * first to find the issuer's JWKS and introspection endpoint; the client reads both to run a flow.
 * One fetcher, one set of checks: bounded in time and size, JSON objects only, and the `issuer`
 * compared by exact string equality with the issuer the well-known URL was built from (RFC 8414
 * §3.3; no URL normalisation, as RFC 9207 asks of `iss` too).
 */
import { readBodyText } from './bounded-body.js';
import { WireError } from '../errors/toolwright-error.js';

/** RFC 8414 / OpenID Connect Discovery fields that Toolwright reads (others are kept as they came). */
export interface AuthorizationServerMetadata {
  readonly issuer: string;
  readonly authorization_endpoint?: string;
  readonly token_endpoint?: string;
  readonly registration_endpoint?: string;
  readonly jwks_uri?: string;
  readonly introspection_endpoint?: string;
  readonly scopes_supported?: readonly string[];
  readonly grant_types_supported?: readonly string[];
  readonly code_challenge_methods_supported?: readonly string[];
  readonly token_endpoint_auth_methods_supported?: readonly string[];
  readonly token_endpoint_auth_signing_alg_values_supported?: readonly string[];
  readonly authorization_response_iss_parameter_supported?: boolean;
  readonly client_id_metadata_document_supported?: boolean;
  readonly [field: string]: unknown;
}

/** RFC 9728 protected resource metadata. */
export interface ProtectedResourceMetadata {
  /** The resource identifier: an absolute URI without fragment. */
  readonly resource: string;
  readonly authorization_servers?: readonly string[];
  readonly scopes_supported?: readonly string[];
  readonly bearer_methods_supported?: readonly string[];
  readonly resource_name?: string;
  readonly resource_documentation?: string;
  readonly [field: string]: unknown;
}

/** Why a metadata document could not be used. `unreachable`: no answer, or not a JSON object in time. */
export class OAuthMetadataError extends WireError {
  readonly errorCode = 'oauth-metadata' as const;
  constructor(readonly reason: 'unreachable' | 'not-found' | 'invalid' | 'issuer-mismatch', message: string) {
    super(message);
    this.name = 'OAuthMetadataError';
  }
}

/** Options shared by the metadata fetchers. */
export interface MetadataFetchOptions {
  fetch?: typeof fetch;
  /** Per document (default 5000 ms). */
  timeoutMs?: number;
  /** Largest document read (default 256 KiB). */
  maxBytes?: number;
  signal?: AbortSignal;
}

const DEFAULT_TIMEOUT_MS = 5000;
const DEFAULT_MAX_BYTES = 256 * 1024;

/**
 * GETs one JSON object. `undefined` for 404/410 (the caller tries the next location); an
 * OAuthMetadataError for anything else that is not a JSON object within the bounds.
 */
export async function fetchJsonObject(url: string | URL, options: MetadataFetchOptions = {}, what = 'metadata'): Promise<Record<string, unknown> | undefined> {
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const signal = options.signal === undefined ? AbortSignal.timeout(timeoutMs) : AbortSignal.any([options.signal, AbortSignal.timeout(timeoutMs)]);
  const href = String(url);
  let response: Response;
  try {
    response = await doFetch(href, { headers: { accept: 'application/json' }, redirect: 'error', signal });
  } catch (error) {
    const reason = signal.aborted ? `no answer within ${timeoutMs} ms` : causeOf(error);
    throw new OAuthMetadataError('unreachable', `cannot fetch the ${what} at ${href}: ${reason}`);
  }
  if (response.status === 404 || response.status === 410) {
    await response.body?.cancel().catch(() => {});
    return undefined;
  }
  let text: string | undefined;
  try {
    text = await readBodyText(response, maxBytes);
  } catch (error) {
    throw new OAuthMetadataError('unreachable', `the ${what} at ${href} broke off: ${signal.aborted ? `no complete answer within ${timeoutMs} ms` : causeOf(error)}`);
  }
  if (text === undefined) throw new OAuthMetadataError('invalid', `the ${what} at ${href} exceeds ${maxBytes} bytes`);
  if (!response.ok) throw new OAuthMetadataError('unreachable', `the ${what} at ${href} answered HTTP ${response.status}`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new OAuthMetadataError('invalid', `the ${what} at ${href} is not JSON: ${JSON.stringify(text.slice(0, 80))}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new OAuthMetadataError('invalid', `the ${what} at ${href} is not a JSON object`);
  return value as Record<string, unknown>;
}

function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}

/**
 * Where an issuer's metadata may be, in the order the MCP authorization spec (2025-11-25 onward)
 * gives: for an issuer with a path, RFC 8414 path insertion, OpenID path insertion, then OpenID
 * path appending; for one without, RFC 8414 then OpenID.
 */
export function authorizationServerMetadataUrls(issuer: string): string[] {
  const url = new URL(issuer);
  const path = url.pathname.replace(/\/+$/, '');
  const origin = url.origin;
  if (path === '') return [`${origin}/.well-known/oauth-authorization-server`, `${origin}/.well-known/openid-configuration`];
  return [`${origin}/.well-known/oauth-authorization-server${path}`, `${origin}/.well-known/openid-configuration${path}`, `${origin}${path}/.well-known/openid-configuration`];
}

function stringList(value: unknown): readonly string[] | undefined {
  return Array.isArray(value) && value.every((v) => typeof v === 'string') ? (value as string[]) : undefined;
}

/** Checks the fields Toolwright relies on; anything else is kept as it came. */
function checkAuthorizationServer(document: Record<string, unknown>, issuer: string, url: string): AuthorizationServerMetadata {
  if (document.issuer !== issuer) {
    throw new OAuthMetadataError('issuer-mismatch', `the authorization server metadata at ${url} names issuer ${JSON.stringify(document.issuer)}, not ${JSON.stringify(issuer)} (RFC 8414 §3.3: refused)`);
  }
  for (const field of ['authorization_endpoint', 'token_endpoint', 'registration_endpoint', 'jwks_uri', 'introspection_endpoint'] as const) {
    const value = document[field];
    if (value === undefined) continue;
    if (typeof value !== 'string' || !isHttpUrl(value)) throw new OAuthMetadataError('invalid', `the authorization server metadata at ${url} has a ${field} that is not an http(s) URL: ${JSON.stringify(value)}`);
  }
  for (const field of ['scopes_supported', 'grant_types_supported', 'code_challenge_methods_supported', 'token_endpoint_auth_methods_supported'] as const) {
    if (document[field] !== undefined && stringList(document[field]) === undefined) throw new OAuthMetadataError('invalid', `the authorization server metadata at ${url} has a ${field} that is not a list of strings`);
  }
  return document as AuthorizationServerMetadata;
}

/** True for an absolute http: or https: URL. */
export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

/**
 * The issuer's metadata from the first location that has it (see
 * {@link authorizationServerMetadataUrls}). Throws OAuthMetadataError: `not-found` when no location
 * has it, `issuer-mismatch` when a document names another issuer (never used), and `unreachable`
 * or `invalid` as {@link fetchJsonObject} does.
 */
export async function fetchAuthorizationServerMetadata(issuer: string, options: MetadataFetchOptions = {}): Promise<AuthorizationServerMetadata> {
  if (!isHttpUrl(issuer)) throw new OAuthMetadataError('invalid', `the issuer ${JSON.stringify(issuer)} is not an http(s) URL`);
  const urls = authorizationServerMetadataUrls(issuer);
  for (const url of urls) {
    const document = await fetchJsonObject(url, options, 'authorization server metadata');
    if (document !== undefined) return checkAuthorizationServer(document, issuer, url);
  }
  throw new OAuthMetadataError('not-found', `no authorization server metadata for ${issuer} (tried ${urls.join(', ')})`);
}

/** Checks an RFC 9728 document's shape. */
export function checkProtectedResourceMetadata(document: Record<string, unknown>, url: string): ProtectedResourceMetadata {
  const resource = document.resource;
  if (typeof resource !== 'string' || !isHttpUrl(resource) || resource.includes('#')) {
    throw new OAuthMetadataError('invalid', `the protected resource metadata at ${url} has no valid "resource" (an absolute http(s) URI without fragment): ${JSON.stringify(resource)}`);
  }
  const servers = document.authorization_servers;
  if (servers !== undefined && (stringList(servers) === undefined || !(servers as string[]).every(isHttpUrl))) {
    throw new OAuthMetadataError('invalid', `the protected resource metadata at ${url} has authorization_servers that are not http(s) URLs`);
  }
  if (document.scopes_supported !== undefined && stringList(document.scopes_supported) === undefined) {
    throw new OAuthMetadataError('invalid', `the protected resource metadata at ${url} has scopes_supported that is not a list of strings`);
  }
  return document as ProtectedResourceMetadata;
}

/**
 * The well-known locations of a resource's metadata (RFC 9728 §3.1): the path-suffixed form
 * first for a resource with a path, then the root form.
 */
export function protectedResourceMetadataUrls(resource: string | URL): string[] {
  const url = new URL(resource);
  const path = url.pathname.replace(/\/+$/, '');
  const root = `${url.origin}/.well-known/oauth-protected-resource`;
  return path === '' ? [root] : [`${root}${path}`, root];
}
