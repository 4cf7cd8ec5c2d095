/**
 * The search surface of a server (`createServer({ search })`), resolved once with its config: the
 * index of the whole catalog, the `search_tools` tool registered like any tool (so the server's
 * `authorize` and middleware apply to it), and the two descriptors `tools/list` shows instead of
 * the catalog. `call_tool` is routed by the `find-tool` stage (stages/find-tool.ts).
 */
import type { ToolDescriptor } from '../../protocol/wire-types.js';
import type { CatalogViews } from '../catalog/catalog-view.js';
import type { Middleware } from '../middleware/middleware.js';
import { registerTools } from '../tools/tool-registry.js';
import type { RegisteredTool } from '../tools/tool-registry.js';
import { CALL_TOOL, CALL_TOOL_DESCRIPTOR } from './call-tool.js';
import { ToolSearchIndex } from './search-index.js';
import { resolveSearchOptions } from './search-options.js';
import type { ResolvedSearchOptions, SearchOptions } from './search-options.js';
import { SEARCH_TOOLS, searchToolsTool } from './search-tools.js';

/** The resolved search surface. */
export interface SearchSurface {
  readonly options: ResolvedSearchOptions;
  readonly index: ToolSearchIndex;
  /** `search_tools`, registered (compiled schema, the server's middleware layers). */
  readonly searchTool: RegisteredTool;
  /** The name `call_tool` is called by. */
  readonly callTool: string;
  /** What `tools/list` shows: `search_tools`, then `call_tool`. */
  readonly listed: readonly Readonly<ToolDescriptor>[];
}

/**
 * Resolves `createServer({ search })` over the registered catalog (undefined when search is off).
 * @throws TypeError for a bad option, or a catalog tool already named `search_tools` or `call_tool`.
 */
export function resolveSearchSurface(
  search: SearchOptions | boolean | undefined,
  catalog: readonly RegisteredTool[],
  views: CatalogViews,
  registration: { canAuthorize: boolean; use: readonly Middleware[] | undefined },
): SearchSurface | undefined {
  const options = resolveSearchOptions(search);
  if (options === undefined) return undefined;
  for (const taken of [SEARCH_TOOLS, CALL_TOOL]) {
    if (catalog.some((tool) => tool.name === taken)) throw new TypeError(`createServer: search: the catalog has a tool named "${taken}", which the search surface lists; rename it (compose's rename) or serve without search`);
  }
  const index = new ToolSearchIndex(catalog);
  const [searchTool] = registerTools([searchToolsTool(index, views, options)], registration);
  return Object.freeze({ options, index, searchTool: searchTool!, callTool: CALL_TOOL, listed: Object.freeze([searchTool!.descriptor, CALL_TOOL_DESCRIPTOR]) });
}
