/**
 * A small OAuth issuer on 127.0.0.1 for resource-server tests: RFC 8414 metadata, a JWK Set whose
 * keys the test rotates and whose behaviour it breaks on purpose (hang, junk), an RFC 7662
 * introspection endpoint, and the signing of tokens. It is not an authorization server (the real
 * one, oidc-provider, is in test/oauth/); it exists to drive every refusal of `jwtAuthorizer`.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import type { CryptoKey, JWK } from 'jose';

export type JwksMode = 'ok' | 'hang' | 'junk-json' | 'not-json' | 'http-500';

export interface LoopbackIssuer {
  readonly url: string;
  /** How the JWKS endpoint answers from now on. */
  jwksMode: JwksMode;
  /** How often each path was requested. */
  readonly hits: Map<string, number>;
  /** Opaque token → introspection answer. */
  readonly introspection: Map<string, Record<string, unknown>>;
  /** Introspection hangs instead of answering. */
  introspectionHangs: boolean;
  /** Signs a token with a published key (`kid`), or with `key` (unpublished). */
  sign(claims: Record<string, unknown>, options?: { kid?: string; key?: CryptoKey; alg?: string; header?: Record<string, unknown> }): Promise<string>;
  /** Publishes a new key and returns its kid (rotation). */
  rotate(): Promise<string>;
  /** Keys currently published. */
  publishedKids(): string[];
  close(): Promise<void>;
}

export const INTROSPECTION_CLIENT = { clientId: 'robot-rs', clientSecret: 'robot-rs-secret' } as const;

export async function startLoopbackIssuer(): Promise<LoopbackIssuer> {
  const keys = new Map<string, { privateKey: CryptoKey; jwk: JWK }>();
  const hanging = new Set<ServerResponse>();
  let counter = 0;
  const addKey = async (): Promise<string> => {
    const kid = `k${++counter}`;
    const { publicKey, privateKey } = await generateKeyPair('ES256');
    keys.set(kid, { privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' } });
    return kid;
  };
  await addKey();
  let url = '';
  const state = { jwksMode: 'ok' as JwksMode, introspectionHangs: false };
  const hits = new Map<string, number>();
  const introspection = new Map<string, Record<string, unknown>>();

  const json = (res: ServerResponse, status: number, body: unknown): void => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const hang = (res: ServerResponse): void => {
    hanging.add(res);
    res.once('close', () => hanging.delete(res));
  };
  const readBody = (req: IncomingMessage): Promise<string> => new Promise((done) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    req.on('end', () => done(text));
  });

  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    if (path === '/.well-known/oauth-authorization-server') {
      json(res, 200, { issuer: url, jwks_uri: `${url}/jwks`, introspection_endpoint: `${url}/introspect`, token_endpoint: `${url}/token`, response_types_supported: ['code'] });
      return;
    }
    if (path === '/jwks') {
      switch (state.jwksMode) {
        case 'hang': return hang(res);
        case 'junk-json': return json(res, 200, { keys: 'not a list' });
        case 'not-json': res.writeHead(200, { 'content-type': 'application/json' }); res.end('<html>gateway</html>'); return;
        case 'http-500': return json(res, 500, { error: 'down' });
        default: return json(res, 200, { keys: [...keys.values()].map((k) => k.jwk) });
      }
    }
    if (path === '/introspect' && req.method === 'POST') {
      if (state.introspectionHangs) return hang(res);
      const expected = `Basic ${Buffer.from(`${INTROSPECTION_CLIENT.clientId}:${INTROSPECTION_CLIENT.clientSecret}`).toString('base64')}`;
      void readBody(req).then((text) => {
        if (req.headers.authorization !== expected) return json(res, 401, { error: 'invalid_client' });
        const token = new URLSearchParams(text).get('token') ?? '';
        json(res, 200, introspection.get(token) ?? { active: false });
      });
      return;
    }
    json(res, 404, { error: 'not_found' });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    get jwksMode() { return state.jwksMode; },
    set jwksMode(mode) { state.jwksMode = mode; },
    get introspectionHangs() { return state.introspectionHangs; },
    set introspectionHangs(value) { state.introspectionHangs = value; },
    hits,
    introspection,
    async sign(claims, options = {}) {
      const kid = options.kid ?? [...keys.keys()][0]!;
      const key = options.key ?? keys.get(kid)?.privateKey;
      if (key === undefined) throw new Error(`no key ${kid}`);
      const jwt = new SignJWT({ iss: url, iat: Math.floor(Date.now() / 1000), exp: Math.floor(Date.now() / 1000) + 300, ...claims })
        .setProtectedHeader({ alg: options.alg ?? 'ES256', kid, typ: 'at+jwt', ...options.header });
      return jwt.sign(key);
    },
    rotate: addKey,
    publishedKids: () => [...keys.keys()],
    close: () => new Promise<void>((done) => {
      for (const res of hanging) res.destroy();
      server.close(() => done());
      server.closeAllConnections();
    }),
  };
}
