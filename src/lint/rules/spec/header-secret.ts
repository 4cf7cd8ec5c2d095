import { scanHeaderAnnotations } from '../../../protocol/x-mcp-header.js';
import { SECRET_NAME } from '../../text-signals.js';
import type { LintRule } from '../../types.js';

/**
 * Mirrored headers are visible to every proxy and log on the way, so a parameter that looks
 * like a secret must not carry `x-mcp-header`. Validity of the annotation itself is
 * `spec/x-mcp-header`; this rule only judges what is mirrored.
 */
export const headerSecret: LintRule = {
  id: 'spec/x-mcp-header-secret',
  family: 'spec',
  defaultSeverity: 'error',
  summary: 'x-mcp-header is not placed on parameters that look like secrets (password, token, key, secret...).',
  checkTool(tool, ctx) {
    const { annotations } = scanHeaderAnnotations(tool.descriptor.inputSchema);
    for (const annotation of annotations) {
      const leaf = annotation.path[annotation.path.length - 1] ?? '';
      if (!SECRET_NAME.test(leaf) && !SECRET_NAME.test(annotation.name)) continue;
      ctx.report({
        pointer: `/inputSchema${annotation.pointer}/x-mcp-header`,
        message: `"${annotation.path.join('.')}" looks like a secret but is mirrored into the ${annotation.headerName} header, which intermediaries can see and log`,
        fix: 'remove x-mcp-header from this parameter; send credentials in Authorization or keep them server-side',
      });
    }
  },
};
