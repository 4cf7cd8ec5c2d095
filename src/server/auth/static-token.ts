/**
 * One bearer token, known in advance, as the server's `authorize` option: what `npm start` guards
 * `/mcp` with when no issuer is configured. The token lives in a 0600 file (see
 * {@link loadOrCreateBearerTokenFile}); whoever can read that file is the one caller this server
 * knows. Compared in constant time; a missing token answers 401 with the RFC 6750 `Bearer`
 * challenge, a wrong one 401 `invalid_token` (bearer-challenge.ts), and nothing runs.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { AuthInfo } from '../contract/tool-types.js';
import type { Authorizer } from './authorizer.js';
import { BearerTokenError } from './bearer-challenge.js';
import { createPrivateFileOnce, openToOthers, replacePrivateFile } from '../files/private-file.js';

/** Options of {@link staticTokenAuthorizer}. */
export interface StaticTokenAuthorizerOptions {
  /** The token callers must present as `Authorization: Bearer <token>` (32-512 characters of A-Z a-z 0-9 - . _ ~ + /). */
  readonly token: string;
  /** Who a caller holding the token is: subject, client id and scopes (e.g. an approver scope). */
  readonly auth: AuthInfo;
  /** Who a console call is (made in process by the operator holding the console's own token); null refuses them. Default null. */
  readonly console?: AuthInfo | null;
  /** Who a stdio caller is (the process that started this one); null refuses them. Default null. */
  readonly stdio?: AuthInfo | null;
}

// RFC 6750 token68 characters, with at least 256 bits' worth of length for a guessed token to be hopeless.
const TOKEN_TEXT = /^[A-Za-z0-9\-._~+/]{32,512}=*$/;

/** Throws a TypeError unless `token` can be a static bearer token. */
export function assertBearerToken(token: string): void {
  if (typeof token !== 'string' || !TOKEN_TEXT.test(token)) throw new TypeError('a bearer token must be 32-512 characters of A-Z a-z 0-9 - . _ ~ + / (RFC 6750)');
}

/** A fresh 256-bit token, base64url (43 characters). */
export function createBearerToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * An `authorize` option accepting exactly one bearer token.
 *
 * @example
 * ```ts
 * import { createServer, loadOrCreateBearerTokenFile, staticTokenAuthorizer } from 'toolwright';
 *
 * const { token } = loadOrCreateBearerTokenFile('.toolwright/mcp-token');
 * const server = createServer({
 *   name: 'arm', version: '1.0.0', tools: [],
 *   authorize: staticTokenAuthorizer({ token, auth: { subject: 'local-operator', clientId: 'local', scopes: [] } }),
 * });
 * ```
 */
export function staticTokenAuthorizer(options: StaticTokenAuthorizerOptions): Authorizer {
  assertBearerToken(options.token);
  // The bytes themselves, compared in constant time: no digest per request (a SHA-256 cost more than
  // the rest of this check). The time says whether the lengths matched; the length of a random
  // token is no secret worth keeping (generated tokens are always 43 characters).
  const expected = Buffer.from(options.token, 'utf8');
  const auth: AuthInfo = { ...options.auth, scopes: [...options.auth.scopes] };
  const consoleAuth = options.console ?? null;
  const stdioAuth = options.stdio ?? null;
  return ({ transport, bearerToken }) => {
    if (transport === 'console') return consoleAuth;
    if (transport === 'stdio') return stdioAuth;
    if (bearerToken === undefined || bearerToken === '') return null;
    if (bearerToken.includes(',')) throw new BearerTokenError('invalid_request', 'the request carries more than one Authorization credential');
    const presented = Buffer.from(bearerToken, 'utf8');
    if (presented.length !== expected.length || !timingSafeEqual(presented, expected)) throw new BearerTokenError('invalid_token', 'the token is not the one this server accepts');
    return auth;
  };
}

/** What {@link loadOrCreateBearerTokenFile} found. */
export interface BearerTokenFile {
  /** The token file, absolute. */
  readonly path: string;
  readonly token: string;
  /** `created`: there was none; `reused`: a valid one was there; `replaced`: the old one was unusable (see `reason`). */
  readonly state: 'created' | 'reused' | 'replaced';
  /** Why an old file was replaced (readable by others, or not a token). */
  readonly reason?: string;
}

/**
 * The bearer token kept at `path`: the one already there when it is valid and only its owner can
 * read it, else a new one (the file created 0600, its folder 0700). A file that group or others can
 * read, or that holds no valid token, is replaced: such a token may be known to others. Several
 * processes starting at once all end up with the same token.
 */
export function loadOrCreateBearerTokenFile(givenPath: string): BearerTokenFile {
  const path = resolve(givenPath);
  if (createPrivateFileOnce(path, `${createBearerToken()}\n`)) return { path, token: readToken(path), state: 'created' };
  const mode = openToOthers(path);
  const found = readFileSync(path, 'utf8').trim();
  const reason = mode !== undefined
    ? `it could be read by others (mode ${mode.toString(8).padStart(4, '0')})`
    : TOKEN_TEXT.test(found) ? undefined : 'it did not hold a token';
  if (reason === undefined) return { path, token: found, state: 'reused' };
  replacePrivateFile(path, `${createBearerToken()}\n`);
  return { path, token: readToken(path), state: 'replaced', reason };
}

function readToken(path: string): string {
  const token = readFileSync(path, 'utf8').trim();
  assertBearerToken(token);
  return token;
}
