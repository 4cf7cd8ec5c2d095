import { proseText } from './model-facing-text.js';
import type { LintRule } from '../../types.js';

const TOOL_REFERENCE = /\b(?:the |a )?[`'"]?([a-z][a-z0-9]*(?:[_.-][a-z0-9]+)+)[`'"]? (?:tool|function|server)\b|\b(?:tool|function) [`'"]?([a-z][a-z0-9]*(?:[_.-][a-z0-9]+)+)[`'"]?/gi;
const HIJACK_VERBS = /\b(?:when|whenever|every time|before|instead of)\b.{0,40}\b(?:call|calling|use|using|invoke|invoking)\b|\b(?:must|always|also|never)\b.{0,30}\b(?:call|use|invoke|send|pass|add|include)\b/i;

/**
 * A description that refers to a tool this server does not have, together with instructions about
 * when or how to use it, is trying to steer another server's tools (tool shadowing, mcp-scan E002).
 * Mentions of this server's own tools ("after move_arm_to_pose") are fine.
 */
export const crossToolReference: LintRule = {
  id: 'security/cross-tool-reference',
  family: 'security',
  defaultSeverity: 'error',
  summary: 'Descriptions do not instruct the model about tools of other servers (tool shadowing).',
  checkCatalog(catalog, ctx) {
    const own = new Set(catalog.tools.map((t) => t.name.toLowerCase()));
    for (const tool of catalog.tools) {
      for (const site of proseText(tool.descriptor)) {
        if (!HIJACK_VERBS.test(site.text)) continue;
        for (const match of site.text.matchAll(TOOL_REFERENCE)) {
          const name = (match[1] ?? match[2] ?? '').toLowerCase();
          if (name === '' || own.has(name)) continue;
          ctx.report({
            tool,
            pointer: site.pointer,
            message: `refers to "${name}", which is not a tool of this server, and tells the model how to use tools`,
            fix: 'describe only this server\'s tools; instructions about other servers\' tools are a shadowing attack',
          });
          break;
        }
      }
    }
  },
};
