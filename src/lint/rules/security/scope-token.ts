import { scopeListProblems } from '../../../protocol/scope-token.js';
import type { LintRule } from '../../types.js';
import { declaredScopesValue, SCOPES_POINTER } from './declared-scopes.js';

/**
 * The scopes a tool requires must be distinct RFC 6749 scope tokens, checked by the same checker
 * `defineTool` uses: a token with a space is silently two scopes on the wire, a quote or backslash
 * breaks the `WWW-Authenticate` challenge that names it, and an issuer refuses non-ASCII.
 * Catches descriptors written by hand or by another toolkit.
 */
export const scopeToken: LintRule = {
  id: 'security/scope-token',
  family: 'security',
  defaultSeverity: 'error',
  summary: 'The scopes a tool requires (_meta "dev.toolwright/scopes") are an array of distinct RFC 6749 scope tokens.',
  checkTool(tool, ctx) {
    for (const problem of scopeListProblems(declaredScopesValue(tool))) {
      ctx.report({
        pointer: problem.index === undefined ? SCOPES_POINTER : `${SCOPES_POINTER}/${problem.index}`,
        message: problem.message.replace(/(^|repeats )scopes/g, '$1_meta "dev.toolwright/scopes"'),
        fix: problem.index === undefined
          ? 'list the required scopes as an array of strings, e.g. ["arm:move"]'
          : 'use one scope per entry, each printable ASCII without spaces, double quotes or backslashes, and list each once',
      });
    }
  },
};
