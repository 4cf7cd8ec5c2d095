/**
 * `search_tools`: the ranked full definitions of the caller's catalog matching a query, as many as
 * fit in a token budget. A tool served by the server's pipeline like any other (authorization,
 * server-wide middleware, audit), whose answer depends only on the query and the caller's view.
 */
import type { ToolDescriptor } from '../../protocol/wire-types.js';
import { estimateTokens } from '../../host/token-estimate.js';
import { visibleFor } from '../catalog/catalog-view.js';
import type { CatalogViews } from '../catalog/catalog-view.js';
import { defineTool } from '../tools/define-tool.js';
import { toolError } from '../outcomes.js';
import type { RegisteredTool } from '../tools/tool-registry.js';
import type { Tool } from '../contract/tool-types.js';
import type { ToolSearchIndex } from './search-index.js';
import { MAX_QUERY_LENGTH } from './search-options.js';
import type { ResolvedSearchOptions } from './search-options.js';

/** The name `tools/list` shows for the search tool. */
export const SEARCH_TOOLS = 'search_tools';

/** What one `search_tools` answer holds (its text is this object as JSON). */
export interface SearchAnswer {
  /** The matching definitions, best first, exactly as a full `tools/list` would show them. */
  readonly tools: readonly Readonly<ToolDescriptor>[];
  /** Matches among the first `limit` left out because they did not fit in the budget, with their size. */
  readonly omitted: readonly { readonly name: string; readonly tokens: number }[];
  /** Tokens the returned definitions take, and the budget they had. */
  readonly tokens: number;
  readonly budgetTokens: number;
}

/** A definition's size in tokens: its compact JSON under o200k_base, counted once per tool. */
function sizer(): (tool: RegisteredTool) => number {
  const sizes = new WeakMap<RegisteredTool, number>();
  return (tool) => {
    let size = sizes.get(tool);
    if (size === undefined) {
      size = estimateTokens(tool.descriptor);
      sizes.set(tool, size);
    }
    return size;
  };
}

/**
 * Packs ranked matches into a budget, best first: a definition that does not fit is skipped (and
 * named in `omitted`) while later, smaller ones may still fit. Undefined when none fits.
 */
export function packWithinBudget(ranked: readonly RegisteredTool[], budgetTokens: number, sizeOf: (tool: RegisteredTool) => number): SearchAnswer | undefined {
  const tools: Readonly<ToolDescriptor>[] = [];
  const omitted: { name: string; tokens: number }[] = [];
  let tokens = 0;
  for (const tool of ranked) {
    const size = sizeOf(tool);
    if (tokens + size <= budgetTokens) {
      tools.push(tool.descriptor);
      tokens += size;
    } else omitted.push({ name: tool.name, tokens: size });
  }
  return tools.length === 0 && ranked.length > 0 ? undefined : { tools, omitted, tokens, budgetTokens };
}

/** Makes the `search_tools` tool over `index`, filtered by each caller's view. */
export function searchToolsTool(index: ToolSearchIndex, views: CatalogViews, options: ResolvedSearchOptions): Tool {
  const sizeOf = sizer();
  return defineTool({
    name: SEARCH_TOOLS,
    title: 'Search tools',
    description: `Find tools of this server by what they do. Returns the full definitions (name, description, inputSchema) of the best matches, best first, within a token budget. Run one with call_tool {name, arguments}. The server has ${index.size} tools; they are not listed otherwise.`,
    inputSchema: {
      type: 'object',
      properties: {
        query: { type: 'string', minLength: 1, maxLength: MAX_QUERY_LENGTH, pattern: '\\S', description: 'What you want to do, in words (e.g. "open an issue", "list pull request files").' },
        limit: { type: 'integer', minimum: 1, maximum: options.maxResults, description: `Most definitions to return (default ${options.results}).` },
        budgetTokens: { type: 'integer', minimum: 1, maximum: options.maxBudgetTokens, description: `Most tokens the definitions may take (default ${options.budgetTokens}).` },
      },
      required: ['query'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    run(args, ctx) {
      const viewer = views.viewerOf(ctx.auth);
      const limit = args.limit ?? options.results;
      const budgetTokens = args.budgetTokens ?? options.budgetTokens;
      const ranked = index.search(args.query, (tool) => tool.tool.visibleTo === undefined || visibleFor(views, `tool ${tool.name}`, tool.tool.visibleTo, viewer), limit);
      const answer = packWithinBudget(ranked, budgetTokens, sizeOf);
      if (answer === undefined) {
        const smallest = Math.min(...ranked.map(sizeOf));
        return toolError('searchBudgetTooSmall', `search_tools: no matching definition fits in ${budgetTokens} tokens (the best match, ${ranked[0]!.name}, takes ${sizeOf(ranked[0]!)}; the smallest of the first ${ranked.length}, ${smallest}). Ask again with a larger budgetTokens (at most ${options.maxBudgetTokens}) or a more precise query.`);
      }
      return { content: [{ type: 'text', text: JSON.stringify(answer) }] };
    },
  }) as Tool;
}
