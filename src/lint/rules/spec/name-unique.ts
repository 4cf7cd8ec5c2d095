import type { LintRule } from '../../types.js';

/** Tool names must be unique within a server; a duplicate makes one of the tools unreachable. */
export const nameUnique: LintRule = {
  id: 'spec/name-unique',
  family: 'spec',
  defaultSeverity: 'error',
  summary: 'Tool names are unique within the server.',
  checkCatalog(catalog, ctx) {
    const first = new Map<string, number>();
    for (const tool of catalog.tools) {
      if (typeof tool.descriptor.name !== 'string') continue;
      const earlier = first.get(tool.name);
      if (earlier === undefined) {
        first.set(tool.name, tool.index);
        continue;
      }
      ctx.report({
        tool,
        pointer: '/name',
        message: `tool #${tool.index} repeats the name "${tool.name}" already used by tool #${earlier}`,
        fix: 'give every tool its own name; clients route calls by name alone',
      });
    }
  },
};
