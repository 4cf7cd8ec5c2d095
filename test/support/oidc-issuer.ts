/**
 * A real OpenID provider on 127.0.0.1 for the OAuth tests: `oidc-provider` (a certified
 * implementation, installed on demand in test-deps/oidc), issuing JWT access tokens for one MCP
 * resource by authorization code + PKCE (dynamic registration open) and by client credentials
 * (the pre-registered client `machine`), with RFC 8707 resource indicators and key rotation. Its
 * login and consent pages are small JSON endpoints that {@link browse} drives with fetch, cookies
 * and redirects, as a browser would: no browser is started.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import type { JWK } from 'jose';
import { testDeps } from './test-deps.js';

export const MACHINE_CLIENT = { clientId: 'machine', clientSecret: 'machine-secret-of-enough-length' } as const;
export const RESOURCE_SCOPES = 'arm:read arm:move';

export interface OidcIssuer {
  readonly url: string;
  /** Publishes a new signing key first (tokens are signed with it from now on); the old one stays published. */
  rotate(): Promise<string>;
  /** Current kids, signing key first. */
  kids(): string[];
  close(): Promise<void>;
}

/* The few parts of oidc-provider's API used here (the package ships no TypeScript types). */
interface Interaction { uid: string; prompt: { name: string; details: { missingOIDCScope?: string[]; missingResourceScopes?: Record<string, string[]> } }; params: Record<string, string>; session?: { accountId?: string }; grantId?: string }
interface GrantInstance { addOIDCScope(scope: string): void; addResourceScope(resource: string, scope: string): void; save(): Promise<string> }
interface ProviderInstance {
  callback(): (req: IncomingMessage, res: ServerResponse) => void;
  interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<Interaction>;
  interactionFinished(req: IncomingMessage, res: ServerResponse, result: Record<string, unknown>, options?: { mergeWithLastSubmission?: boolean }): Promise<void>;
  Grant: { new (init: { accountId: string; clientId: string }): GrantInstance; find(id: string): Promise<GrantInstance | undefined> };
}
type ProviderClass = new (issuer: string, configuration: Record<string, unknown>) => ProviderInstance;

async function newKey(kid: string): Promise<JWK> {
  const { privateKey } = await generateKeyPair('ES256', { extractable: true });
  return { ...(await exportJWK(privateKey)), kid, alg: 'ES256', use: 'sig' };
}

function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  return new Promise((done, fail) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    req.on('end', () => done(new URLSearchParams(text)));
    req.on('error', fail);
  });
}

/** Starts the provider for `resource` (the MCP server URL tokens are issued for). */
export async function startOidcIssuer(resource: string): Promise<OidcIssuer> {
  const { default: Provider, errors } = await testDeps('oidc').import<{ default: ProviderClass; errors: { InvalidTarget: new () => Error } }>('oidc-provider');
  const keys: JWK[] = [await newKey('k1')];
  let provider: ProviderInstance;
  let url = '';
  const configure = (): ProviderInstance => new Provider(url, {
    clients: [{ client_id: MACHINE_CLIENT.clientId, client_secret: MACHINE_CLIENT.clientSecret, grant_types: ['client_credentials'], redirect_uris: [], response_types: [], token_endpoint_auth_method: 'client_secret_basic' }],
    jwks: { keys },
    // The resource's scopes are listed too: clients (the SDK v1 among them) send them in dynamic registration's `scope`.
    scopes: ['openid', 'offline_access', ...RESOURCE_SCOPES.split(' ')],
    cookies: { keys: ['oidc-test-cookie-key-0123456789'] },
    clientDefaults: { id_token_signed_response_alg: 'ES256', grant_types: ['authorization_code'], response_types: ['code'] },
    findAccount: (_ctx: unknown, id: string) => ({ accountId: id, claims: () => ({ sub: id }) }),
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    pkce: { required: () => true },
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true },
      clientCredentials: { enabled: true },
      introspection: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => resource,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: unknown, indicator: string) => {
          if (indicator !== resource) throw new errors.InvalidTarget();
          return { scope: RESOURCE_SCOPES, audience: resource, accessTokenTTL: 300, accessTokenFormat: 'jwt', jwt: { sign: { alg: 'ES256' } } };
        },
      },
    },
  });

  async function interaction(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const details = await provider.interactionDetails(req, res);
    if (req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ uid: details.uid, prompt: details.prompt.name, client: details.params.client_id, scope: details.params.scope ?? '' }));
      return;
    }
    if (path.endsWith('/login')) {
      const form = await readForm(req);
      await provider.interactionFinished(req, res, { login: { accountId: form.get('login') ?? 'nobody' } }, { mergeWithLastSubmission: false });
      return;
    }
    // Consent: grant what the prompt says is missing.
    await readForm(req);
    const grant = details.grantId !== undefined ? await provider.Grant.find(details.grantId) : new provider.Grant({ accountId: details.session?.accountId ?? 'nobody', clientId: details.params.client_id as string });
    if (grant === undefined) throw new Error('grant not found');
    const missing = details.prompt.details;
    if (missing.missingOIDCScope !== undefined) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
    for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {})) grant.addResourceScope(indicator, scopes.join(' '));
    await provider.interactionFinished(req, res, { consent: { grantId: await grant.save() } }, { mergeWithLastSubmission: true });
  }

  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path.startsWith('/interaction/')) {
      interaction(req, res, path).catch((error: unknown) => {
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(String(error));
      });
      return;
    }
    provider.callback()(req, res);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  provider = configure();
  let counter = 1;
  return {
    url,
    async rotate() {
      const kid = `k${++counter}`;
      keys.unshift(await newKey(kid));
      // oidc-provider reads its keys once: a new instance on the same listener publishes and signs with the new set.
      provider = configure();
      return kid;
    },
    kids: () => keys.map((k) => k.kid as string),
    close: () => new Promise<void>((done) => {
      server.close(() => done());
      server.closeAllConnections();
    }),
  };
}

/**
 * Plays the browser: opens `start` (an authorization URL), keeps cookies, follows redirects, logs
 * in as `account` and consents; resolves to the URL the provider sends back to `redirectUri`.
 */
export async function browse(start: URL | string, redirectUri: string, account: string): Promise<string> {
  const jar = new Map<string, string>();
  let url = String(start);
  let post: string | undefined;
  for (let hop = 0; hop < 20; hop++) {
    const response = await fetch(url, {
      method: post === undefined ? 'GET' : 'POST',
      headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '), ...(post === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded' }) },
      body: post,
      redirect: 'manual',
      signal: AbortSignal.timeout(10_000),
    });
    for (const cookie of response.headers.getSetCookie()) {
      const pair = cookie.split(';')[0] as string;
      const eq = pair.indexOf('=');
      const value = pair.slice(eq + 1);
      if (value === '') jar.delete(pair.slice(0, eq));
      else jar.set(pair.slice(0, eq), value);
    }
    post = undefined;
    if (response.status >= 300 && response.status < 400) {
      await response.body?.cancel();
      const next = new URL(response.headers.get('location') as string, url).href;
      if (next.startsWith(redirectUri)) return next;
      url = next;
      continue;
    }
    if (response.status === 200 && new URL(url).pathname.startsWith('/interaction/')) {
      const page = (await response.json()) as { uid: string; prompt: string };
      const base = new URL(`/interaction/${page.uid}`, url).href;
      if (page.prompt === 'login') {
        url = `${base}/login`;
        post = `login=${encodeURIComponent(account)}`;
      } else {
        url = `${base}/confirm`;
        post = '';
      }
      continue;
    }
    throw new Error(`the provider answered HTTP ${response.status} at ${url}: ${(await response.text()).slice(0, 300)}`);
  }
  throw new Error('more than 20 hops without coming back to the redirect URI');
}
