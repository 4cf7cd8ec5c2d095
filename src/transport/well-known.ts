/**
 * The RFC 9728 protected resource metadata document, served beside the MCP endpoint by both HTTP
 * transports (node:http `listen()` and the `fetch` handler). It is public and read by browser-based
 * hosts too, so it is answered to any Origin (CORS `*`) without the endpoint's Host/Origin rules:
 * it holds nothing but what the deployment chose to advertise.
 */
import type { ProtectedResourceMetadata } from '../protocol/oauth-metadata.js';
import { protectedResourceMetadataUrls } from '../protocol/oauth-metadata.js';
import type { Reply } from './message-dispatcher.js';

const CORS = { 'Access-Control-Allow-Origin': '*' } as const;

/** Answers GET (and CORS preflight) on the metadata's well-known paths; undefined for any other path. */
export type WellKnownRoute = (method: string | undefined, pathname: string) => Reply | undefined;

/** The route for `metadata` (path-suffixed and root forms), or one that never matches. */
export function protectedResourceRoute(metadata: ProtectedResourceMetadata | undefined): WellKnownRoute {
  if (metadata === undefined) return () => undefined;
  const paths = new Set(protectedResourceMetadataUrls(metadata.resource).map((url) => new URL(url).pathname));
  const body = JSON.stringify(metadata);
  return (method, pathname) => {
    if (!paths.has(pathname)) return undefined;
    if (method === 'GET' || method === 'HEAD') return { status: 200, body: method === 'GET' ? body : undefined, headers: { ...CORS, 'Cache-Control': 'public, max-age=300', ...(method === 'HEAD' ? { 'Content-Type': 'application/json' } : {}) } };
    if (method === 'OPTIONS') return { status: 204, body: undefined, headers: { ...CORS, 'Access-Control-Allow-Methods': 'GET', 'Access-Control-Allow-Headers': 'mcp-protocol-version', 'Access-Control-Max-Age': '600' } };
    return { status: 405, body: JSON.stringify({ error: 'method_not_allowed', error_description: `${method ?? '?'} is not allowed here; the metadata is read with GET` }), headers: { ...CORS, Allow: 'GET, HEAD, OPTIONS' } };
  };
}
