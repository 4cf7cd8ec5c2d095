/**
 * Who may approve a call by answering an elicitation question. An elicitation answer comes from the
 * client, so it is a human's approval only when the deployment trusts that client to show the
 * question to a person: the caller holds the approver scope (`toolwright:approve` by default, granted
 * by the authorizer), or it is the host that launched this process over stdio (or the operator's own
 * console workbench), which is trusted unless `trustStdioApprover: false`. An HTTP caller without an
 * `authorize` option holds no scope: anyone who can reach the port could answer its own question, so
 * its answers never approve; such calls go to the operator (`approver: 'either'`) or are refused.
 */
import type { ProtocolError } from '../../protocol/protocol-error.js';
import { insufficientScopeChallenge } from '../auth/bearer-challenge.js';
import type { ChallengeParams } from '../auth/bearer-challenge.js';
import { rpcError } from '../outcomes.js';
import type { AuthInfo } from '../contract/tool-types.js';

// Defined beside the scope-token rules, so that the linter (which may not import server/) names it too.
export { DEFAULT_APPROVER_SCOPE } from '../../protocol/scope-token.js';

/** The server's rule, resolved once by createServer. */
export interface ApproverTrust {
  /** The scope that makes a caller's elicitation answer an approval. */
  readonly scope: string;
  /** Whether a stdio (or in-process console) caller approves without the scope. */
  readonly trustStdio: boolean;
  /** What 403 challenges advertise (RFC 9728 metadata URL). */
  readonly challenge: ChallengeParams;
}

/** Whether this caller's own elicitation answer may approve a call. */
export function callerMayApprove(trust: ApproverTrust, transport: 'http' | 'stdio' | 'console', auth: AuthInfo | undefined): boolean {
  if (auth !== undefined && auth.scopes.includes(trust.scope)) return true;
  return transport !== 'http' && trust.trustStdio;
}

/** The refusal of an elicitation approval from a caller without the scope: 403 `insufficient_scope` naming it. */
export function approverScopeError(trust: ApproverTrust, transport: 'http' | 'stdio' | 'console', toolName: string): ProtocolError {
  const message = `Insufficient scope: approving ${toolName} by elicitation needs the approver scope ${JSON.stringify(trust.scope)}, which this caller does not hold; nothing was executed`;
  return rpcError('insufficientScope', message, {
    data: { requiredScopes: [trust.scope] },
    headers: transport === 'http' ? { 'WWW-Authenticate': insufficientScopeChallenge(trust.challenge, [trust.scope], message) } : undefined,
  });
}

/** The approver part of an input flow's scope for one request (input-flow.ts). */
export function approverOf(trust: ApproverTrust, transport: 'http' | 'stdio' | 'console', auth: AuthInfo | undefined, what: string): { readonly trusted: boolean; refuse(): ProtocolError } {
  return { trusted: callerMayApprove(trust, transport, auth), refuse: () => approverScopeError(trust, transport, what) };
}
