/**
 * Scopes an entry requires (a tool, a resource, a resource template, a prompt): checked when it is
 * defined, and refused with one step-up answer when a caller lacks any of them. Such an entry is
 * listed for everyone (unlike `visibleTo`); a caller without the scopes gets -31403 / HTTP 403
 * with `WWW-Authenticate: Bearer error="insufficient_scope", scope="<every required scope>"`
 * (RFC 6750 step-up) and `data.requiredScopes`, and nothing of the entry's handler runs.
 */
import type { ProtocolError } from '../../protocol/protocol-error.js';
import { missingScopes } from '../../protocol/tool-risk.js';
import { scopeListProblems } from '../../protocol/scope-token.js';
import { insufficientScopeChallenge } from './bearer-challenge.js';
import type { ChallengeParams } from './bearer-challenge.js';
import { rpcError } from '../outcomes.js';
import type { TransportKind } from '../../transport/message-dispatcher.js';
import type { AuthInfo } from '../contract/tool-types.js';

/**
 * The refusal of a caller lacking a scope `what` requires (e.g. `tool move_arm`, `prompt brief`),
 * or undefined when it holds them all (or none is required). The message and `data` name every
 * required scope, as the challenge's `scope` does; the header is sent on HTTP only.
 */
export function insufficientScope(
  what: string,
  needed: readonly string[],
  auth: AuthInfo | undefined,
  transport: TransportKind,
  challenge: ChallengeParams,
): ProtocolError | undefined {
  if (needed.length === 0 || missingScopes(needed, auth?.scopes ?? []).length === 0) return undefined;
  const message = `Insufficient scope: ${what} requires ${needed.map((x) => JSON.stringify(x)).join(', ')}`;
  return rpcError('insufficientScope', message, {
    data: { requiredScopes: [...needed] },
    headers: transport === 'http' ? { 'WWW-Authenticate': insufficientScopeChallenge(challenge, needed, message) } : undefined,
  });
}

/**
 * Checks a definition's `scopes` (`where` names it, e.g. `definePrompt(brief)`): absent, or an
 * array of distinct RFC 6749 scope tokens ({@link scopeListProblems}). Returns a frozen copy.
 * @throws TypeError naming the definition, the entry and the offending value (the first problem).
 */
export function checkScopes(where: string, scopes: unknown): readonly string[] {
  const problem = scopeListProblems(scopes)[0];
  if (problem !== undefined) throw new TypeError(`${where}: ${problem.message}`);
  return Object.freeze(scopes === undefined ? [] : [...(scopes as string[])]);
}

/**
 * Why `createServer` refuses an entry requiring scopes when the server has no `authorize` option
 * (no caller could ever hold them): the words of tools' `scopes-without-authorize` problem.
 */
export function scopesWithoutAuthorize(scopes: readonly string[]): string {
  return `requires scopes ${scopes.map((s) => JSON.stringify(s)).join(', ')} but the server has no authorize option, so no caller could ever hold them`;
}
