/**
 * `createServer({ search })`: the options of the search surface (docs/compose.md, "Large catalogs:
 * search"), checked and resolved once with the rest of the configuration.
 */

/** Options of the search surface: `tools/list` shows `search_tools` and `call_tool` instead of the catalog. */
export interface SearchOptions {
  /**
   * Tokens the definitions in one `search_tools` answer may take when the caller names no
   * `budgetTokens` (default 8000), counted as the o200k_base tokens of each definition's compact
   * JSON (the project's one counter, `host/token-estimate.ts`).
   */
  budgetTokens?: number;
  /** The largest `budgetTokens` a caller may ask for (default 32000). */
  maxBudgetTokens?: number;
  /** Definitions in one answer when the caller names no `limit` (default 5). */
  results?: number;
  /** The largest `limit` a caller may ask for (default 20). */
  maxResults?: number;
}

/** The search options, settled. */
export interface ResolvedSearchOptions {
  readonly budgetTokens: number;
  readonly maxBudgetTokens: number;
  readonly results: number;
  readonly maxResults: number;
}

/** The longest query `search_tools` accepts, in characters (a longer one is refused by its input schema). */
export const MAX_QUERY_LENGTH = 500;

function positive(value: unknown, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) throw new TypeError(`createServer: search.${name} must be a positive integer, got ${JSON.stringify(value)}`);
  return value;
}

/**
 * Checks `search` (undefined or false: no search surface; true: the defaults).
 * @throws TypeError naming the option.
 */
export function resolveSearchOptions(search: SearchOptions | boolean | undefined): ResolvedSearchOptions | undefined {
  if (search === undefined || search === false) return undefined;
  const given: SearchOptions = search === true ? {} : search;
  if (typeof given !== 'object' || given === null || Array.isArray(given)) throw new TypeError('createServer: search must be true, false or an object { budgetTokens?, maxBudgetTokens?, results?, maxResults? }');
  const known = new Set(['budgetTokens', 'maxBudgetTokens', 'results', 'maxResults']);
  const unknown = Object.keys(given).filter((key) => !known.has(key));
  if (unknown.length > 0) throw new TypeError(`createServer: search has unknown option${unknown.length === 1 ? '' : 's'} ${unknown.map((k) => JSON.stringify(k)).join(', ')} (known: ${[...known].join(', ')})`);
  const maxBudgetTokens = positive(given.maxBudgetTokens, 'maxBudgetTokens', Math.max(32_000, given.budgetTokens ?? 0));
  const budgetTokens = positive(given.budgetTokens, 'budgetTokens', Math.min(8000, maxBudgetTokens));
  if (budgetTokens > maxBudgetTokens) throw new TypeError(`createServer: search.budgetTokens (${budgetTokens}) is larger than search.maxBudgetTokens (${maxBudgetTokens})`);
  const maxResults = positive(given.maxResults, 'maxResults', Math.max(20, given.results ?? 0));
  const results = positive(given.results, 'results', Math.min(5, maxResults));
  if (results > maxResults) throw new TypeError(`createServer: search.results (${results}) is larger than search.maxResults (${maxResults})`);
  return Object.freeze({ budgetTokens, maxBudgetTokens, results, maxResults });
}
