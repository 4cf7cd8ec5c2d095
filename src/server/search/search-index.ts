/**
 * The ranked index of a catalog for `search_tools`: one MiniSearch document per tool (its name split
 * into words, title, description, and its parameters' names and descriptions), built once when the
 * server is created and searched per call. A caller's view is applied as a filter of the search,
 * so a tool hidden from the caller is never ranked, counted or returned.
 */
import { createRequire } from 'node:module';
import type MiniSearchClass from 'minisearch';
import type { Query } from 'minisearch';

// Loaded when the first index is built, not when the server module is imported: only servers in
// search mode need it, and every other server's cold start should not pay for it (issue 31 item 4).
const requireLazily = createRequire(import.meta.url);
let miniSearch: typeof MiniSearchClass | undefined;
const loadMiniSearch = (): typeof MiniSearchClass => (miniSearch ??= requireLazily('minisearch') as typeof MiniSearchClass);
import { isJsonObject } from '../../protocol/json-rpc.js';
import type { RegisteredTool } from '../tools/tool-registry.js';

// Words that say nothing about which tool is meant ("list the issues of my repo"): left out of the
// index and of queries, so they neither cost search time nor rank tools whose prose is wordy.
const STOP_WORDS = new Set(('a an and any are as at be by can do does for from get has have how i in into is it its me my of on or our '
  + 'please show so some that the their them there these this those to up us using via want was we what when which who will with you your').split(' '));

// Long forms of words that API names usually abbreviate, so "repository" meets `repos_get`.
const CANONICAL: ReadonlyMap<string, string> = new Map([
  ['repository', 'repo'], ['organization', 'org'], ['organisation', 'org'], ['configuration', 'config'],
  ['environment', 'env'], ['authentication', 'auth'], ['authorization', 'auth'], ['application', 'app'],
]);

/**
 * One term as indexed and searched: lower-cased, stop words dropped, a light stemming (plurals,
 * "-ed" and "-ing": "repositories" and "repository", "starred" and "star" meet) and the long forms
 * of common abbreviations, so a request's wording need not match the catalog's.
 */
export function searchTerm(term: string): string | null {
  let word = term.toLowerCase();
  if (word.length < 2 || STOP_WORDS.has(word)) return null;
  if (word.length > 4 && word.endsWith('ies')) word = `${word.slice(0, -3)}y`;
  else if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) word = word.slice(0, -1);
  else if (word.length > 5 && word.endsWith('ing')) word = word.slice(0, -3);
  else if (word.length > 4 && word.endsWith('ed')) word = word.slice(0, -2);
  // "starr" (from "starred"), "shipp": a doubled final consonant goes back to one.
  if (word.length > 3 && word.at(-1) === word.at(-2) && !'aeiousl'.includes(word.at(-1)!)) word = word.slice(0, -1);
  return CANONICAL.get(word) ?? word;
}

/**
 * What separates words: minisearch's default (spaces and punctuation) and symbols too. API prose
 * writes names in backticks and media types with `+` ("`repo`", "application/vnd.github+json"),
 * and the backtick is a symbol, not punctuation: with the default, "`repo`" indexed as "repo`",
 * which a search for "repo" met only as a prefix, at a third of the weight, and one more term to
 * expand. Measured on GitHub's catalog (bench/search.bench.ts): top-5 91.9% -> 93.3%, mean search
 * 0.66 -> 0.59 ms.
 */
const WORD_SEPARATORS = /[\n\r\p{Z}\p{P}\p{S}]+/u;

/** What is indexed of one tool. */
interface ToolDocument {
  readonly id: number;
  readonly name: string;
  readonly title: string;
  /** The description's first paragraph: what the tool does. */
  readonly summary: string;
  /** The rest of the description, links removed, cut at {@link DETAIL_CHARS}. */
  readonly details: string;
  readonly parameters: string;
}

/** How much of a description past its first paragraph, and of each parameter's description, is indexed. */
const DETAIL_CHARS = 600;
const PARAMETER_CHARS = 120;
const LINK = /\]\([^)]*\)|https?:\/\/\S+/g;

/** The text of a tool's top-level parameters: each name (split into words) and the start of its description. */
function parameterText(inputSchema: unknown): string {
  if (!isJsonObject(inputSchema) || !isJsonObject(inputSchema.properties)) return '';
  const parts: string[] = [];
  for (const [name, schema] of Object.entries(inputSchema.properties)) {
    parts.push(name);
    if (isJsonObject(schema) && typeof schema.description === 'string') parts.push(schema.description.replace(LINK, ' ').slice(0, PARAMETER_CHARS));
  }
  return parts.join('\n');
}

function documentOf(tool: RegisteredTool, id: number): ToolDocument {
  const d = tool.descriptor;
  const description = (d.description ?? '').trim();
  const cut = description.search(/\n\s*\n/);
  return {
    id,
    name: d.name,
    title: typeof d.title === 'string' ? d.title : typeof d.annotations?.title === 'string' ? d.annotations.title : '',
    summary: cut === -1 ? description : description.slice(0, cut),
    details: cut === -1 ? '' : description.slice(cut).replace(LINK, ' ').slice(0, DETAIL_CHARS),
    parameters: parameterText(d.inputSchema),
  };
}

/** Each indexed field and its weight; the fields weighing under 1 are the low-weight ones. */
const BOOST = { name: 3, title: 2, summary: 2, details: 0.5, parameters: 0.5 } as const;
type Field = keyof typeof BOOST;
const FIELDS = Object.keys(BOOST) as Field[];
const LOW_FIELDS = FIELDS.filter((field) => BOOST[field] < 1);

/** Splits text into words, for the index and for a query alike. */
const words = (text: string): string[] => text.split(WORD_SEPARATORS);

/**
 * A word found in the details or parameters of more than this share of the tools is searched
 * without that field. It says little there (BM25 gives it about the same small weight on every
 * tool that has it: in GitHub's catalog `repo` is a parameter of most tools), yet scoring it there
 * was most of a search's time. Its matches in the name, title and summary count in full. Measured
 * on GitHub's catalog (bench/search.bench.ts, 2026-12-07): the slowest requests, all about
 * repositories, took 1.1-1.2 ms instead of 3.0 (median per request); top-1 65.1% -> 67.8%, top-5
 * 93.3% -> 92.6% (one request), the label in the real answer 81.9% -> 80.5%. Shares of 0.05-0.25
 * gave top-5 91.3-92.6%.
 */
const COMMON_SHARE = 0.1;

/** The low-weight fields in which each term occurs in more than `limit` documents. */
function commonTerms(documents: readonly ToolDocument[], limit: number): Map<string, Field[]> {
  const common = new Map<string, Field[]>();
  for (const field of LOW_FIELDS) {
    const counts = new Map<string, number>();
    for (const document of documents) {
      const seen = new Set<string>();
      for (const word of words(document[field])) {
        const term = searchTerm(word);
        if (term !== null) seen.add(term);
      }
      for (const term of seen) counts.set(term, (counts.get(term) ?? 0) + 1);
    }
    for (const [term, count] of counts) if (count > limit) common.set(term, [...(common.get(term) ?? []), field]);
  }
  return common;
}

/** A catalog's search index. */
export class ToolSearchIndex {
  readonly #tools: readonly RegisteredTool[];
  readonly #index: MiniSearchClass<ToolDocument>;
  /** Terms found in the low-weight fields of more than COMMON_SHARE of the tools, per field. */
  readonly #common: ReadonlyMap<string, readonly Field[]>;

  constructor(tools: readonly RegisteredTool[]) {
    this.#tools = tools;
    const MiniSearch = loadMiniSearch();
    this.#index = new MiniSearch<ToolDocument>({
      fields: FIELDS,
      processTerm: searchTerm,
      tokenize: words,
      searchOptions: { boost: BOOST, prefix: (term) => term.length >= 4, fuzzy: false },
    });
    const documents = tools.map(documentOf);
    this.#index.addAll(documents);
    this.#common = commonTerms(documents, tools.length * COMMON_SHARE);
  }

  /** How many tools are indexed. */
  get size(): number {
    return this.#tools.length;
  }

  /**
   * The query as MiniSearch runs it: as written, unless a word is common in a low-weight field, in
   * which case that word is searched without it (see {@link COMMON_SHARE}).
   */
  #plan(query: string): Query {
    if (this.#common.size === 0) return query;
    let narrowed = false;
    const queries: Query[] = words(query).filter((word) => word !== '').map((word) => {
      const term = searchTerm(word);
      const skip = term === null ? undefined : this.#common.get(term);
      if (skip === undefined) return word;
      narrowed = true;
      return { queries: [word], fields: FIELDS.filter((field) => !skip.includes(field)) };
    });
    return narrowed ? { combineWith: 'OR', queries } : query;
  }

  /** The tools matching `query`, best first, among those `accept` lets through (at most `max`). */
  search(query: string, accept: (tool: RegisteredTool) => boolean, max: number): RegisteredTool[] {
    const filter = (hit: { id: unknown }): boolean => accept(this.#tools[hit.id as number]!);
    const planned = this.#plan(query);
    let hits = this.#index.search(planned, { filter });
    // Fewer matches than asked for: the common words' low-weight matches may be all there is.
    if (hits.length < max && planned !== query) hits = this.#index.search(query, { filter });
    return hits.slice(0, max).map((hit) => this.#tools[hit.id as number]!);
  }
}
