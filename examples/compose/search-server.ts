/**
 * docs/compose.md's "Large catalogs: search" example, compiled by the typecheck and served by
 * test/compose/search-docs-example.test.ts: an OpenAPI-sized catalog behind the search surface, so
 * `tools/list` shows `search_tools` and `call_tool` only, with approval on the destructive tool
 * and an audit log naming the tools that really ran.
 */
import { auditLog, createServer, defineTool } from '../../src/index.js';
import type { Tool } from '../../src/index.js';

// Stand-ins for a large imported catalog (e.g. `(await toolsFromOpenApi('github.json')).tools`).
const catalog: Tool[] = [
  defineTool({
    name: 'issues_create',
    description: 'Create an issue in a repository.',
    inputSchema: { type: 'object', properties: { repo: { type: 'string' }, title: { type: 'string' } }, required: ['repo', 'title'], additionalProperties: false } as const,
    run: ({ repo, title }) => `opened "${title}" in ${repo}`,
  }) as Tool,
  defineTool({
    name: 'repos_delete',
    description: 'Delete a repository.',
    annotations: { destructiveHint: true },
    inputSchema: { type: 'object', properties: { repo: { type: 'string' } }, required: ['repo'], additionalProperties: false } as const,
    approval: ({ repo }) => ({ message: `Delete ${repo}?` }),
    run: ({ repo }) => `deleted ${repo}`,
  }) as Tool,
];

export function searchServer(auditPath: string) {
  return createServer({
    name: 'github-front',
    version: '1.0.0',
    tools: catalog,
    // tools/list: search_tools and call_tool; answers of at most 8000 tokens of definitions.
    search: { budgetTokens: 8000, results: 5 },
    // call_tool's calls are audited under the inner tool's name (issues_create, repos_delete).
    use: [auditLog({ path: auditPath, fsync: 'never' })],
  });
}
