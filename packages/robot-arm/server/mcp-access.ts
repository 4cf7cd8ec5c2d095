/**
 * Who may call the robot's /mcp endpoint when main.ts serves it over HTTP. By default one bearer
 * token, kept 0600 in the user's Toolwright state folder: whoever can read that file (the user who
 * started the server, and root) is the local operator, and may approve a motion by elicitation
 * (the approver scope). A second token file is the desktop bridge's (`toolwright bridge`, which a
 * desktop host starts): its holder may call every tool but holds no approver scope, so a desktop
 * host's motions wait for the operator at the console like those of any client that cannot elicit.
 * Any other process on the machine, another Unix user's included, gets 401 and nothing runs. `--no-auth` turns this off for local development, loudly; a non-loopback
 * `--host` without authorization is refused unless `--allow-unauthenticated` says so.
 */
import { join } from 'node:path';
import { BearerTokenError, isLoopbackHost, jwtAuthorizer, loadOrCreateBearerTokenFile, staticTokenAuthorizer, toolwrightStateDir, type Authorizer, type AuthInfo, type BearerTokenFile } from 'toolwright';

/** The scope that lets a caller approve a motion by answering an elicitation (a host trusted to ask a person). */
export const APPROVER_SCOPE = 'toolwright:approve';

/** Who a caller holding the token file's token is. */
export const TOKEN_HOLDER: AuthInfo = { subject: 'local-operator', clientId: 'robot-arm-token-file', scopes: [APPROVER_SCOPE] };

/**
 * Who a caller holding the bridge's token file is: a desktop host relayed by `toolwright bridge`.
 * No approver scope: an elicitation answer relayed from a desktop app approves nothing here, the
 * operator at the console does.
 */
export const BRIDGE_HOLDER: AuthInfo = { subject: 'desktop-bridge', clientId: 'robot-arm-bridge-token', scopes: [] };

/** Who a call made from the operator console's workbench is (the console checks its own token first). */
export const CONSOLE_CALLER: AuthInfo = { subject: 'console-operator', clientId: 'robot-arm-console', scopes: [] };

/** The token file of the robot's /mcp endpoint: `<state folder>/robot-arm-mcp.token`. */
export function robotTokenPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(toolwrightStateDir(env), 'robot-arm-mcp.token');
}

/** The desktop bridge's token file: `<state folder>/robot-arm-bridge.token`. */
export function robotBridgeTokenPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(toolwrightStateDir(env), 'robot-arm-bridge.token');
}

/** How /mcp is guarded: the token files' tokens (the operator's and the bridge's), an OAuth issuer's tokens (`--issuer`), or nothing (`--no-auth`). */
export type McpAccess =
  | { readonly kind: 'token'; readonly file: BearerTokenFile; readonly bridgeFile: BearerTokenFile; readonly authorize: Authorizer }
  | { readonly kind: 'issuer'; readonly issuer: string; readonly resource: string; readonly authorize: Authorizer }
  | { readonly kind: 'none' };

/**
 * Loads (or creates) both token files and builds the authorizer that accepts their tokens: the
 * operator's as {@link TOKEN_HOLDER}, the bridge's as {@link BRIDGE_HOLDER}. A token that is
 * neither is refused as either one refuses it (401 `invalid_token`).
 */
export function tokenAccess(path: string = robotTokenPath(), bridgePath: string = robotBridgeTokenPath()): McpAccess {
  const file = loadOrCreateBearerTokenFile(path);
  const bridgeFile = loadOrCreateBearerTokenFile(bridgePath);
  const operator = staticTokenAuthorizer({ token: file.token, auth: TOKEN_HOLDER, console: CONSOLE_CALLER });
  const bridge = staticTokenAuthorizer({ token: bridgeFile.token, auth: BRIDGE_HOLDER, console: CONSOLE_CALLER });
  const authorize: Authorizer = (request) => {
    try {
      return operator(request);
    } catch (error) {
      // Not the operator's token: the bridge's, or refused as the bridge's authorizer refuses it (both compare in constant time).
      if (error instanceof BearerTokenError && error.kind === 'invalid_token') return bridge(request);
      throw error;
    }
  };
  return { kind: 'token', file, bridgeFile, authorize };
}

/**
 * Tokens from an OAuth issuer (`--issuer`, `--resource`): JWTs for `resource` verified against the
 * issuer's keys (toolkit `jwtAuthorizer`, which also serves the protected resource metadata). The
 * issuer grants the approver scope to the clients it trusts to ask a person. Throws a TypeError for
 * an unusable issuer or resource.
 */
export function issuerAccess(issuer: string, resource: string): McpAccess {
  // jwtAuthorizer's `stdio` answers console calls too (made in process behind the console's own token).
  const authorize = jwtAuthorizer({ issuer, resource, scopesSupported: [APPROVER_SCOPE], challengeScopes: [], stdio: CONSOLE_CALLER, resourceName: 'Toolwright robot arm' });
  return { kind: 'issuer', issuer, resource, authorize };
}

/**
 * Why serving on `host` without authorization is refused (undefined when it is not): a server that
 * others can reach and that asks nobody who they are moves the arm for anyone.
 */
export function exposureProblem(host: string, authorized: boolean, allowUnauthenticated: boolean): string | undefined {
  if (authorized || allowUnauthenticated || isLoopbackHost(host)) return undefined;
  return `refusing to serve /mcp on ${host} without authorization: anyone who can reach that address could move the arm. Drop --no-auth (the default bearer token guards /mcp), or add --allow-unauthenticated if the network itself is trusted`;
}

/** The loud warning of `--no-auth`. */
export function noAuthWarning(host: string): string {
  const bar = '!'.repeat(78);
  return [
    bar,
    `!! --no-auth: /mcp at ${host} asks NO caller who they are. Any process that can reach it (any`,
    '!! local user, any web page that gets past the Origin check) can call every tool, and a client',
    '!! that declares elicitation can approve its own motions. For local development only.',
    bar,
  ].join('\n');
}

/** A shell word: single-quoted unless it needs no quoting. */
function shellWord(text: string): string {
  return /^[A-Za-z0-9_./:@%+=-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/** `Authorization: Bearer $(cat <file>)`, double-quoted for a POSIX shell: the token is read when the command runs, never printed. */
export function authorizationHeaderArg(file: BearerTokenFile): string {
  return `"Authorization: Bearer $(cat ${shellWord(file.path)})"`;
}

/** The banner's lines about /mcp access. */
export function accessBannerLines(access: McpAccess): string[] {
  if (access.kind === 'none') return ['  /mcp:       NO AUTHORIZATION (--no-auth): every caller is trusted'];
  if (access.kind === 'issuer') {
    return [
      `  /mcp:       OAuth bearer tokens from ${access.issuer} for ${access.resource} (metadata at /.well-known/oauth-protected-resource)`,
      `              a caller may approve motions by elicitation only if its token carries ${APPROVER_SCOPE}`,
    ];
  }
  const how = access.file.state === 'created' ? 'created now' : access.file.state === 'reused' ? 'reused; delete the file to get a new one at the next start' : `replaced: ${access.file.reason ?? ''}`;
  return [
    `  /mcp:       bearer token required; token file ${access.file.path} (0600, ${how})`,
    `              its holder is ${TOKEN_HOLDER.subject} and may approve motions by elicitation (${APPROVER_SCOPE})`,
    `              desktop bridge token ${access.bridgeFile.path} (0600): ${BRIDGE_HOLDER.subject}, no approver scope (motions wait for the console)`,
  ];
}
