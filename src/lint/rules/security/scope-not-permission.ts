import { DEFAULT_APPROVER_SCOPE } from '../../../protocol/scope-token.js';
import { optionsOfDefaults } from '../../rule-options.js';
import type { LintRule } from '../../types.js';
import { requiredScopes, SCOPES_POINTER } from './declared-scopes.js';

const NOT_PERMISSION_OPTIONS: { notPermissions: readonly string[] } = {
  notPermissions: ['openid', 'profile', 'email', 'address', 'phone', 'offline_access', DEFAULT_APPROVER_SCOPE],
};

/**
 * Scopes that say who the caller is or how the token behaves, not what it may do: the OpenID
 * Connect request scopes (every signed-in caller's token carries them, so requiring only those
 * guards nothing) and Toolwright's approver scope (it marks a host trusted to show approval
 * questions to a person, issue 29; requiring it to *call* a tool confuses who may approve with
 * who may act). A tool guarded only by such scopes is reported.
 */
export const scopeNotPermission: LintRule<ReadonlySet<string>> = {
  id: 'security/scope-not-permission',
  family: 'security',
  defaultSeverity: 'warning',
  summary: 'A tool is not guarded only by scopes that grant no permission (openid, profile, email, offline_access, the approver scope).',
  defaultOptions: NOT_PERMISSION_OPTIONS,
  prepare: (options) => new Set(optionsOfDefaults(NOT_PERMISSION_OPTIONS, options).notPermissions),
  checkTool(tool, ctx) {
    const scopes = requiredScopes(tool);
    if (scopes.length === 0 || !scopes.every((scope) => ctx.prepared.has(scope))) return;
    ctx.report({
      pointer: SCOPES_POINTER,
      message: `${tool.name} is guarded only by ${scopes.map((s) => JSON.stringify(s)).join(', ')}, which ${scopes.length === 1 ? 'grants' : 'grant'} no permission: they say who the caller is or which host may approve, so any signed-in caller (or any approver host) can run it`,
      fix: 'require a scope that names what the tool does (e.g. "arm:move"), issued only to callers allowed to do it',
    });
  },
};
