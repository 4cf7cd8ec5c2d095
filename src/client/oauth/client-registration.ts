/**
 * Which client id to use at an issuer, in the order the MCP authorization spec (2025-11-25 onward)
 * gives: a pre-registered client, one registered before at this same issuer (a registration is
 * never shown to another issuer), a client ID metadata document URL when the issuer supports them,
 * else dynamic client registration (RFC 7591).
 */
import type { AuthorizationServerMetadata } from '../../protocol/oauth-metadata.js';
import { McpClientError } from '../client-error.js';
import { jsonObjectOf } from '../../protocol/bounded-body.js';
import type { StoredClient, TokenStore } from './token-store.js';

/** How the client is known to issuers. */
export interface ClientIdentity {
  /** A client registered beforehand (pre-registration). */
  clientId?: string;
  clientSecret?: string;
  /** The issuer `clientId` belongs to; it is used at no other issuer. Default: any issuer. */
  clientIdIssuer?: string;
  /** An https URL serving this client's metadata document, used as client_id where supported. */
  clientMetadataUrl?: string;
  /** `client_name` in dynamic registration (default `Toolwright`). */
  clientName?: string;
}

type SecretMethod = StoredClient['authMethod'];

function supportedMethods(metadata: AuthorizationServerMetadata): readonly string[] {
  // RFC 8414 §2: absent means client_secret_basic.
  return metadata.token_endpoint_auth_methods_supported ?? ['client_secret_basic'];
}

function secretMethod(metadata: AuthorizationServerMetadata): SecretMethod {
  const supported = supportedMethods(metadata);
  return supported.includes('client_secret_basic') || !supported.includes('client_secret_post') ? 'client_secret_basic' : 'client_secret_post';
}

/** What to ask for in dynamic registration: a public client where allowed, else a secret sent as the server prefers. */
function registrationMethod(metadata: AuthorizationServerMetadata, issuer: string): SecretMethod {
  const supported = supportedMethods(metadata);
  for (const method of ['none', 'client_secret_basic', 'client_secret_post'] as const) if (supported.includes(method)) return method;
  throw new McpClientError('auth', `the authorization server ${issuer} supports none of the token endpoint authentications this client has (none, client_secret_basic, client_secret_post): ${supported.join(', ')}`);
}

/** The client to use at `issuer`; registers one when needed and keeps it in `store`. */
export async function clientFor(
  issuer: string,
  metadata: AuthorizationServerMetadata,
  identity: ClientIdentity,
  redirectUri: string,
  grantTypes: readonly string[],
  store: TokenStore,
  options: { fetch: typeof fetch; timeoutMs: number },
): Promise<StoredClient> {
  if (identity.clientId !== undefined && (identity.clientIdIssuer === undefined || identity.clientIdIssuer === issuer)) {
    return identity.clientSecret === undefined
      ? { issuer, clientId: identity.clientId, authMethod: 'none' }
      : { issuer, clientId: identity.clientId, clientSecret: identity.clientSecret, authMethod: secretMethod(metadata) };
  }
  const known = await store.client(issuer);
  if (known !== undefined && known.issuer === issuer && (known.redirectUri === undefined || known.redirectUri === redirectUri)) return known;
  if (metadata.client_id_metadata_document_supported === true && identity.clientMetadataUrl !== undefined) {
    return { issuer, clientId: identity.clientMetadataUrl, authMethod: 'none' };
  }
  const endpoint = metadata.registration_endpoint;
  if (endpoint === undefined) {
    throw new McpClientError('auth', `the authorization server ${issuer} offers no dynamic client registration${metadata.client_id_metadata_document_supported === true ? ' and this client has no client metadata document URL' : ''}; give a pre-registered client id (--client-id)`);
  }
  const method = registrationMethod(metadata, issuer);
  const request = {
    client_name: identity.clientName ?? 'Toolwright',
    redirect_uris: [redirectUri],
    grant_types: [...grantTypes],
    response_types: ['code'],
    token_endpoint_auth_method: method,
    application_type: 'native',
  };
  let response: Response;
  let text: string;
  try {
    response = await options.fetch(endpoint, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(request), redirect: 'error', signal: AbortSignal.timeout(options.timeoutMs) });
    text = await response.text();
  } catch (error) {
    throw new McpClientError('auth', `dynamic client registration at ${endpoint} did not answer: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  const answer = jsonObjectOf(text);
  if (!response.ok || answer === undefined || typeof answer.client_id !== 'string' || answer.client_id === '') {
    const why = typeof answer?.error === 'string' ? `${answer.error}${typeof answer.error_description === 'string' ? `: ${answer.error_description}` : ''}` : `HTTP ${response.status}`;
    throw new McpClientError('auth', `dynamic client registration at ${endpoint} failed (${why})`, { httpStatus: response.status });
  }
  const granted = answer.token_endpoint_auth_method;
  const authMethod: SecretMethod = granted === 'none' || granted === 'client_secret_basic' || granted === 'client_secret_post' ? granted : typeof answer.client_secret === 'string' ? (method === 'none' ? secretMethod(metadata) : method) : 'none';
  const client: StoredClient = { issuer, clientId: answer.client_id, authMethod, redirectUri };
  if (typeof answer.client_secret === 'string') client.clientSecret = answer.client_secret;
  await store.saveClient(client);
  return client;
}
