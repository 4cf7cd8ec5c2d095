/**
 * The OAuth options `toolwright call | lint | diff | eval` share, and the CLI's user flow: the
 * authorization URL is printed on stderr, the browser comes back to a listener on
 * 127.0.0.1:<--oauth-port>/callback (RFC 8252 loopback redirect), and tokens and registrations
 * are kept in the 0600 token cache that `toolwright auth list | clear` shows and empties.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { ParseArgsConfig } from 'node:util';
// The OAuth modules themselves, not the client's index: every command that takes these options
// would otherwise load the whole MCP client (connections, SSE, tasks) at start-up, used or not.
import { createOAuthClient } from '../client/oauth/oauth-client.js';
import { defaultTokenCachePath, fileTokenStore } from '../client/oauth/token-store.js';
import type { AuthorizationRequest, OAuthClient } from '../client/index.js';
import { UsageError } from './usage-error.js';

export const OAUTH_OPTIONS = {
  oauth: { type: 'boolean' },
  'client-id': { type: 'string' },
  'client-secret': { type: 'string' },
  'client-key': { type: 'string' },
  'client-metadata-url': { type: 'string' },
  'client-credentials': { type: 'boolean' },
  scope: { type: 'string' },
  'oauth-port': { type: 'string' },
  'token-cache': { type: 'string' },
} as const satisfies NonNullable<ParseArgsConfig['options']>;

export const OAUTH_USAGE = `OAuth (URL targets; see docs/auth.md):
  --oauth                  when the server asks for authorization, run the OAuth flow: the
                           authorization URL is printed, the browser returns to
                           http://127.0.0.1:<--oauth-port>/callback (default port 33418)
  --client-credentials     get tokens with the client credentials grant (no user), with
                           --client-id and --client-secret (or --client-key <PKCS#8 PEM file>)
  --client-id <id>         a pre-registered client (else: client metadata document or dynamic
                           registration); --client-secret, or env TOOLWRIGHT_CLIENT_SECRET
  --client-metadata-url <url>  this client's metadata document URL, used where the issuer supports it
  --scope "<scopes>"       scopes to ask for (default: what the server's challenge or metadata names)
  --token-cache <file>     where tokens are kept (default ${defaultTokenCachePath().replace(process.env.HOME ?? '\u0000', '~')}, mode 0600)`;

/** Values as parsed by parseArgs with OAUTH_OPTIONS. */
type OAuthValues = Partial<Record<keyof typeof OAUTH_OPTIONS, string | boolean | undefined>>;

const AUTHORIZE_TIMEOUT_MS = 300_000;

/** Waits for the browser at the redirect URI (loopback only), then answers it with a short page. */
function loopbackAuthorize(command: string): (request: AuthorizationRequest) => Promise<string> {
  return (request) => new Promise((resolve, reject) => {
    const redirect = new URL(request.redirectUri);
    const server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', request.redirectUri);
      if (url.pathname !== redirect.pathname) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
      res.end(`toolwright ${command}: authorization received; you can close this window.\n`);
      finish(() => resolve(url.href));
    });
    const timer = setTimeout(() => finish(() => reject(new Error(`no authorization came back within ${AUTHORIZE_TIMEOUT_MS / 1000} s`))), AUTHORIZE_TIMEOUT_MS);
    const onAbort = (): void => finish(() => reject(request.signal.reason));
    request.signal.addEventListener('abort', onAbort, { once: true });
    function finish(settle: () => void): void {
      clearTimeout(timer);
      request.signal.removeEventListener('abort', onAbort);
      server.close();
      server.closeAllConnections();
      settle();
    }
    server.once('error', (error) => finish(() => reject(new Error(`cannot listen on ${redirect.host} for the authorization redirect: ${error.message} (choose another --oauth-port)`))));
    server.listen(Number(redirect.port), '127.0.0.1', () => {
      process.stderr.write(`toolwright ${command}: open this URL to authorize (waiting for the redirect to ${request.redirectUri}):\n${request.url.href}\n`);
    });
  });
}

/** The OAuth client the options ask for, or undefined when none is asked for. */
export function oauthFromOptions(values: OAuthValues, command: string): OAuthClient | undefined {
  const wanted = values.oauth === true || values['client-credentials'] === true;
  const given = (['client-id', 'client-secret', 'client-key', 'client-metadata-url', 'scope', 'oauth-port'] as const).filter((name) => values[name] !== undefined);
  if (!wanted) {
    if (given.length > 0) throw new UsageError(`--${given[0]} needs --oauth or --client-credentials`);
    return undefined;
  }
  const clientId = values['client-id'] as string | undefined;
  const envSecret = process.env.TOOLWRIGHT_CLIENT_SECRET;
  const clientSecret = (values['client-secret'] as string | undefined) ?? (envSecret === '' ? undefined : envSecret);
  const port = values['oauth-port'] === undefined ? 33418 : Number(values['oauth-port']);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new UsageError(`--oauth-port must be a port number, got ${JSON.stringify(values['oauth-port'])}`);
  const scopes = typeof values.scope === 'string' ? values.scope.split(/\s+/).filter(Boolean) : undefined;
  const store = fileTokenStore((values['token-cache'] as string | undefined) ?? defaultTokenCachePath());
  const onStep = process.env.TOOLWRIGHT_OAUTH_DEBUG === '1' ? (step: string) => process.stderr.write(`toolwright ${command}: oauth: ${step}\n`) : undefined;
  if (values['client-credentials'] === true) {
    if (clientId === undefined) throw new UsageError('--client-credentials needs --client-id');
    const keyFile = values['client-key'] as string | undefined;
    if (keyFile === undefined && clientSecret === undefined) throw new UsageError('--client-credentials needs --client-secret (or env TOOLWRIGHT_CLIENT_SECRET) or --client-key <file>');
    let credentials;
    if (keyFile !== undefined) {
      try {
        credentials = { clientId, privateKeyPem: readFileSync(keyFile, 'utf8') };
      } catch (error) {
        throw new UsageError(`--client-key: cannot read ${keyFile}: ${(error as Error).message}`);
      }
    } else {
      credentials = { clientId, clientSecret: clientSecret as string };
    }
    return createOAuthClient({ clientCredentials: credentials, store, ...(scopes !== undefined ? { scopes } : {}), ...(onStep !== undefined ? { onStep } : {}) });
  }
  return createOAuthClient({
    store,
    redirectUri: `http://127.0.0.1:${port}/callback`,
    authorize: loopbackAuthorize(command),
    clientName: 'Toolwright CLI',
    ...(clientId !== undefined ? { clientId, ...(clientSecret !== undefined ? { clientSecret } : {}) } : {}),
    ...(values['client-metadata-url'] !== undefined ? { clientMetadataUrl: values['client-metadata-url'] as string } : {}),
    ...(scopes !== undefined ? { scopes } : {}),
    ...(onStep !== undefined ? { onStep } : {}),
  });
}
