/**
 * List pages per view (catalog-view.ts): the pages of one list, serialized once per distinct view
 * key and kept in a bounded least-recently-used cache (`VIEW_CACHE_LIMIT` views; an evicted view
 * is rebuilt, identically, on its next request). A cursor is looked up in its own view's pages
 * only, so a cursor issued to another view is refused as invalid.
 */
import type { JsonObject } from '../../protocol/json-rpc.js';
import { VIEW_CACHE_LIMIT } from '../catalog/catalog-view.js';
import type { CatalogViews, GatedEntry, Viewer, VisibleTo } from '../catalog/catalog-view.js';
import { rpcError } from '../outcomes.js';
import { fail, respond } from '../stages/stage.js';
import type { RequestState, Stop } from '../stages/stage.js';
import type { ListChangedKind } from '../catalog/subscriptions.js';
import type { MethodRoute } from '../stages/pipeline-env.js';
import type { Route } from './route.js';

/** One view's pages: the first, and the rest by cursor. */
export interface PageSet {
  readonly first: Stop;
  readonly byCursor: ReadonlyMap<string, Stop>;
}

/** The answer to a cursor this view never issued. */
export function invalidCursor(): Stop {
  return fail(rpcError('invalidCursor', 'Invalid cursor'));
}

/** Serves `pages` (any cursor not among them is invalid). */
export function servePages(pages: PageSet, s: RequestState): Stop {
  const cursor = s.params.cursor;
  if (cursor === undefined) return pages.first;
  return (typeof cursor === 'string' ? pages.byCursor.get(cursor) : undefined) ?? invalidCursor();
}

/** An entry of a list, with its predicate when it has one. */
export interface ListEntry<T> {
  readonly item: T;
  readonly gate: GatedEntry | undefined;
}

/**
 * A list route whose pages depend on the caller's view of `kind`. `build` makes the pages of the
 * visible items (and the view key, for cursors).
 */
export function viewedPages<T>(kind: ListChangedKind, entries: readonly ListEntry<T>[], views: CatalogViews, build: (visible: T[], key: string) => PageSet): MethodRoute {
  const cache = new Map<string, PageSet>();
  const pagesFor = (viewer: Viewer): PageSet => {
    const key = views.keyOf(kind, viewer);
    let pages = cache.get(key);
    if (pages !== undefined) {
      cache.delete(key); // re-insert: the Map's order is the recency order
      cache.set(key, pages);
      return pages;
    }
    // A miss runs the predicates once more, synchronously, so the pages match the key just computed.
    const visible = entries.filter((entry) => entry.gate === undefined || views.sees(entry.gate, viewer)).map((entry) => entry.item);
    pages = build(visible, key);
    cache.set(key, pages);
    if (cache.size > VIEW_CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
    return pages;
  };
  return (s) => servePages(pagesFor(views.viewerOf(s.auth)), s);
}

/** An entry of a one-page list (resources, templates, prompts). */
export interface ListedEntry {
  readonly descriptor: object;
  readonly visibleTo: VisibleTo | undefined;
}

/** What a one-page list route needs to know. */
export interface SinglePageList {
  readonly method: string;
  readonly kind: ListChangedKind;
  /** The result's array field (`resources`, `resourceTemplates`, `prompts`). */
  readonly field: string;
  readonly items: readonly ListedEntry[];
  /** The entry as named in the log ("prompt greet"). */
  label(entry: ListedEntry): string;
  readonly ttlMs: number;
  readonly cacheScope: 'public' | 'private';
}

/**
 * A list served as one page; any cursor is one this server never issued. Without `visibleTo` on
 * any entry the page is fixed; with it, one page per view, `cacheScope: private`.
 */
export function singlePageList(list: SinglePageList, views: CatalogViews): Route {
  const { method, field, ttlMs } = list;
  const page = (descriptors: readonly object[], cacheScope: 'public' | 'private'): PageSet => ({
    first: respond({ resultType: 'complete', [field]: descriptors, ttlMs, cacheScope } as JsonObject),
    byCursor: new Map(),
  });
  if (!list.items.some((i) => i.visibleTo !== undefined)) {
    const pages = page(list.items.map((i) => i.descriptor), list.cacheScope);
    return { method, handle: (s) => servePages(pages, s) };
  }
  const entries = list.items.map((i) => ({ item: i.descriptor, gate: i.visibleTo === undefined ? undefined : { label: list.label(i), visibleTo: i.visibleTo } }));
  return { method, handle: viewedPages(list.kind, entries, views, (visible) => page(visible, 'private')) };
}
