/**
 * The client's side of the authorization server's token endpoint: authorization code (with PKCE),
 * refresh token and client credentials grants, with the client authentications the MCP
 * authorization spec and its client-credentials extension use (none, client_secret_basic,
 * client_secret_post, private_key_jwt).
 */
import { createHash, createPrivateKey, randomBytes, randomUUID } from 'node:crypto';
import { McpClientError } from '../client-error.js';
import { jsonObjectOf } from '../../protocol/bounded-body.js';

/** How the client proves who it is at the token endpoint. */
export type ClientAuthentication =
  | { method: 'none' | 'client_secret_basic' | 'client_secret_post'; clientId: string; clientSecret?: string }
  | { method: 'private_key_jwt'; clientId: string; privateKeyPem: string; algorithm: string; audience: string };

/** A successful token response. */
export interface TokenResponse {
  accessToken: string;
  refreshToken?: string;
  expiresIn?: number;
  /** Granted scopes when the server said (else as asked). */
  scope?: string;
}

/** The OAuth error of a refused token request (RFC 6749 §5.2), for callers that react to it. */
export class TokenEndpointError extends McpClientError {
  constructor(readonly oauthError: string, message: string, httpStatus: number) {
    super('auth', message, { httpStatus, data: { error: oauthError } });
  }
}

/** PKCE (RFC 7636): a 43-character verifier and its S256 challenge. */
export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** application/x-www-form-urlencoded encoding of one value (RFC 6749 Appendix B, for Basic credentials). */
function formEncode(value: string): string {
  return encodeURIComponent(value).replace(/%20/g, '+');
}

async function clientAssertion(auth: Extract<ClientAuthentication, { method: 'private_key_jwt' }>): Promise<string> {
  const { SignJWT, importPKCS8 } = await import('jose');
  let key;
  try {
    key = await importPKCS8(auth.privateKeyPem, auth.algorithm);
  } catch (error) {
    // createPrivateKey gives the clearer reason for a PEM that is not a key at all.
    try {
      createPrivateKey(auth.privateKeyPem);
    } catch (pemError) {
      throw new McpClientError('auth', `the client's private key is not a PKCS#8 PEM key: ${pemError instanceof Error ? pemError.message : String(pemError)}`);
    }
    throw new McpClientError('auth', `the client's private key does not fit ${auth.algorithm}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg: auth.algorithm })
    .setIssuer(auth.clientId)
    .setSubject(auth.clientId)
    .setAudience(auth.audience)
    .setIssuedAt(now)
    .setExpirationTime(now + 300)
    .setJti(randomUUID())
    .sign(key);
}

/** POSTs a grant to the token endpoint; resolves to the token or throws McpClientError kind `auth`. */
export async function requestToken(
  endpoint: string,
  grant: Record<string, string>,
  auth: ClientAuthentication,
  options: { fetch: typeof fetch; timeoutMs: number },
): Promise<TokenResponse> {
  const body = new URLSearchParams(grant);
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
  switch (auth.method) {
    case 'client_secret_basic':
      headers.authorization = `Basic ${Buffer.from(`${formEncode(auth.clientId)}:${formEncode(auth.clientSecret ?? '')}`).toString('base64')}`;
      break;
    case 'client_secret_post':
      body.set('client_id', auth.clientId);
      body.set('client_secret', auth.clientSecret ?? '');
      break;
    case 'private_key_jwt':
      body.set('client_id', auth.clientId);
      body.set('client_assertion_type', 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer');
      body.set('client_assertion', await clientAssertion(auth));
      break;
    default:
      body.set('client_id', auth.clientId);
  }
  const grantType = grant.grant_type ?? '?';
  let response: Response;
  let text: string;
  try {
    response = await options.fetch(endpoint, { method: 'POST', headers, body: body.toString(), redirect: 'error', signal: AbortSignal.timeout(options.timeoutMs) });
    text = await response.text();
  } catch (error) {
    throw new McpClientError('auth', `the token endpoint ${endpoint} did not answer the ${grantType} request: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  const parsed = jsonObjectOf(text);
  if (!response.ok) {
    const error = typeof parsed?.error === 'string' ? parsed.error : 'http_error';
    const description = typeof parsed?.error_description === 'string' ? `: ${parsed.error_description}` : '';
    throw new TokenEndpointError(error, `the token endpoint refused the ${grantType} request (HTTP ${response.status}, ${error}${description})`, response.status);
  }
  if (parsed === undefined || typeof parsed.access_token !== 'string' || parsed.access_token === '') {
    throw new McpClientError('auth', `the token endpoint ${endpoint} answered without an access_token`, { httpStatus: response.status });
  }
  if (typeof parsed.token_type !== 'string' || parsed.token_type.toLowerCase() !== 'bearer') {
    throw new McpClientError('auth', `the token endpoint issued a ${JSON.stringify(parsed.token_type)} token; this client uses Bearer tokens only`, { httpStatus: response.status });
  }
  const token: TokenResponse = { accessToken: parsed.access_token };
  if (typeof parsed.refresh_token === 'string' && parsed.refresh_token !== '') token.refreshToken = parsed.refresh_token;
  if (typeof parsed.expires_in === 'number' && Number.isFinite(parsed.expires_in) && parsed.expires_in > 0) token.expiresIn = parsed.expires_in;
  if (typeof parsed.scope === 'string') token.scope = parsed.scope;
  return token;
}
