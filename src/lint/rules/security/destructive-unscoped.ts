import { isDestructive } from '../../../protocol/tool-risk.js';
import type { ToolAnnotations } from '../../../protocol/wire-types.js';
import type { LintRule } from '../../types.js';
import { requiredScopes } from './declared-scopes.js';

/**
 * When a catalog guards some tools with scopes, its author has decided callers differ in what they
 * may do; a destructive tool (spec defaults: not `readOnlyHint: true` and not
 * `destructiveHint: false`) that requires no scope is then open to every caller the server admits,
 * usually by oversight. A catalog without any scopes is not judged: it guards nothing per tool.
 */
export const destructiveUnscoped: LintRule = {
  id: 'security/destructive-unscoped',
  family: 'security',
  defaultSeverity: 'warning',
  summary: 'In a catalog where some tools require scopes, every destructive tool requires one too.',
  checkCatalog(catalog, ctx) {
    const scoped = catalog.tools.filter((tool) => requiredScopes(tool).length > 0);
    if (scoped.length === 0) return;
    const example = `${scoped[0]!.name} requires ${requiredScopes(scoped[0]!).map((s) => JSON.stringify(s)).join(', ')}`;
    for (const tool of catalog.tools) {
      if (requiredScopes(tool).length > 0 || !isDestructive(tool.descriptor.annotations as ToolAnnotations | undefined)) continue;
      ctx.report({
        tool,
        pointer: '',
        message: `${tool.name} may change or destroy state (not read-only, not destructiveHint: false) but requires no scope, while other tools of this server do (${example}): any admitted caller can run it`,
        fix: 'give it scopes (defineTool({ scopes: [...] })), or mark it readOnlyHint: true / destructiveHint: false if it really is harmless',
      });
    }
  },
};
