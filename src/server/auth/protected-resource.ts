/**
 * This server as an OAuth protected resource (RFC 9728): its canonical resource URI, given by the
 * deployment and never derived from the request's `Host`, and the metadata document served at
 * `/.well-known/oauth-protected-resource<path>` and at the root form.
 */
import type { ProtectedResourceMetadata } from '../../protocol/oauth-metadata.js';
import { protectedResourceMetadataUrls } from '../../protocol/oauth-metadata.js';
import type { ChallengeParams } from './bearer-challenge.js';

/** What the HTTP transports serve, resolved once. */
export interface ProtectedResourceDocument {
  /** The canonical resource URI (the tokens' audience). */
  readonly resource: string;
  /** The metadata as served. */
  readonly metadata: ProtectedResourceMetadata;
  /** Where the 401 challenge points: the path-suffixed form for a resource with a path. */
  readonly metadataUrl: string;
  /** The URL paths that answer with the metadata (path-suffixed first, then the root form). */
  readonly paths: readonly string[];
  /** Scopes named in the 401 challenge. */
  readonly challengeScopes: readonly string[];
}

/** Options that describe the resource (a subset of `jwtAuthorizer`'s). */
export interface ProtectedResourceOptions {
  /** The canonical URI of this MCP endpoint, e.g. `https://robot.example.com/mcp`. */
  resource: string;
  /** Issuers whose tokens are accepted (listed as `authorization_servers`). */
  authorizationServers: readonly string[];
  /** Advertised as `scopes_supported`; also the 401 challenge's `scope` unless `challengeScopes` is given. */
  scopesSupported?: readonly string[];
  /** The scope a 401 challenge asks for (default `scopesSupported`; `[]` sends none). */
  challengeScopes?: readonly string[];
  resourceName?: string;
  resourceDocumentation?: string;
}

/**
 * Refuses a resource URI that cannot be canonical (MCP authorization, "Canonical Server URI"):
 * absolute http(s), no fragment, no query, no user info, lower-case scheme and host.
 */
export function checkResourceUri(resource: unknown, who: string): string {
  if (typeof resource !== 'string' || resource === '') throw new TypeError(`${who}: resource must be this server's canonical URI, e.g. "https://robot.example.com/mcp"`);
  let url: URL;
  try {
    url = new URL(resource);
  } catch {
    throw new TypeError(`${who}: resource ${JSON.stringify(resource)} is not an absolute URI`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new TypeError(`${who}: resource ${JSON.stringify(resource)} must be an http(s) URI`);
  if (resource.includes('#')) throw new TypeError(`${who}: resource ${JSON.stringify(resource)} must not have a fragment (RFC 8707)`);
  if (url.search !== '' || resource.includes('?')) throw new TypeError(`${who}: resource ${JSON.stringify(resource)} must not have a query`);
  if (url.username !== '' || url.password !== '') throw new TypeError(`${who}: resource ${JSON.stringify(resource)} must not carry user info`);
  const schemeAndHost = /^([a-z][a-z0-9+.-]*):\/\/([^/]*)/i.exec(resource);
  if (schemeAndHost !== null && (schemeAndHost[1] !== schemeAndHost[1]!.toLowerCase() || schemeAndHost[2] !== schemeAndHost[2]!.toLowerCase())) {
    throw new TypeError(`${who}: resource ${JSON.stringify(resource)} must be written with a lower-case scheme and host (canonical form)`);
  }
  return resource;
}

/** The metadata document and where it is served. */
export function protectedResourceDocument(options: ProtectedResourceOptions): ProtectedResourceDocument {
  const resource = checkResourceUri(options.resource, 'jwtAuthorizer');
  const metadata: Record<string, unknown> = {
    resource,
    authorization_servers: [...options.authorizationServers],
    bearer_methods_supported: ['header'],
  };
  if (options.scopesSupported !== undefined) metadata.scopes_supported = [...options.scopesSupported];
  if (options.resourceName !== undefined) metadata.resource_name = options.resourceName;
  if (options.resourceDocumentation !== undefined) metadata.resource_documentation = options.resourceDocumentation;
  const urls = protectedResourceMetadataUrls(resource);
  return {
    resource,
    metadata: metadata as ProtectedResourceMetadata,
    metadataUrl: urls[0] as string,
    paths: urls.map((u) => new URL(u).pathname),
    challengeScopes: [...(options.challengeScopes ?? options.scopesSupported ?? [])],
  };
}

/** The protected resource an `authorize` function describes (`jwtAuthorizer({ resource })`), if any. */
export function protectedResourceOf(authorize: unknown): ProtectedResourceDocument | undefined {
  if (typeof authorize !== 'function') return undefined;
  const found = (authorize as { protectedResource?: ProtectedResourceDocument }).protectedResource;
  return typeof found === 'object' && found !== null && typeof found.resource === 'string' ? found : undefined;
}

/** What challenges advertise: the explicit `resourceMetadataUrl`, else the described resource's. */
export function challengeParamsFor(authorize: unknown, resourceMetadataUrl: string | undefined): ChallengeParams {
  const described = protectedResourceOf(authorize);
  return { resourceMetadataUrl: resourceMetadataUrl ?? described?.metadataUrl, scopes: described?.challengeScopes ?? [] };
}
