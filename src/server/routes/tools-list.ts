/**
 * `tools/list`: pages of the tool descriptors. Without `visibleTo` on any tool they are fixed for the
 * server's lifetime, so each page is serialized once. With it, pages are serialized once per view
 * (view-pages.ts) and are `cacheScope: private`. Cursors carry a fingerprint of the tool set (and
 * the view), so a cursor from another server, version or view is refused.
 */
import { createHash } from 'node:crypto';
import type { JsonObject } from '../../protocol/json-rpc.js';
import type { ToolDescriptor } from '../../protocol/wire-types.js';
import type { CatalogViews } from '../catalog/catalog-view.js';
import type { RegisteredTool } from '../tools/tool-registry.js';
import type { Stop } from '../stages/stage.js';
import { precomputed } from './precomputed.js';
import type { Route } from './route.js';
import { servePages, viewedPages } from './view-pages.js';
import type { PageSet } from './view-pages.js';

/** How the pages look: their size and the caching hints and `_meta` every list result carries. */
export interface ToolListSettings {
  readonly pageSize: number;
  readonly ttlMs: number;
  readonly cacheScope: 'public' | 'private';
  readonly resultMeta: JsonObject;
}

function paginate(descriptors: readonly Readonly<ToolDescriptor>[], settings: ToolListSettings, salt: string): PageSet {
  const { pageSize, ttlMs, cacheScope, resultMeta } = settings;
  const fingerprint = createHash('sha256').update(salt).update(descriptors.map((d) => d.name).join('\n')).digest('base64url').slice(0, 8);
  const byCursor = new Map<string, Stop>();
  let first: Stop | undefined;
  for (let offset = 0; offset < Math.max(descriptors.length, 1); offset += pageSize) {
    const page: JsonObject = { resultType: 'complete', tools: descriptors.slice(offset, offset + pageSize), ttlMs, cacheScope, _meta: resultMeta };
    if (offset + pageSize < descriptors.length) page.nextCursor = Buffer.from(`${fingerprint}:${offset + pageSize}`).toString('base64url');
    const stop = precomputed(page);
    if (offset === 0) first = stop;
    else byCursor.set(Buffer.from(`${fingerprint}:${offset}`).toString('base64url'), stop);
  }
  return { first: first as Stop, byCursor };
}

/** A `tools/list` that is the same for every caller (the search surface's two tools). */
export function fixedToolsList(descriptors: readonly Readonly<ToolDescriptor>[], settings: ToolListSettings): Route {
  const pages = paginate(descriptors, settings, 'search\n');
  return { method: 'tools/list', handle: (s) => servePages(pages, s) };
}

export function toolsList(tools: readonly RegisteredTool[], settings: ToolListSettings, views: CatalogViews): Route {
  if (!views.gates('tools')) {
    const pages = paginate(tools.map((t) => t.descriptor), settings, '');
    return { method: 'tools/list', handle: (s) => servePages(pages, s) };
  }
  const entries = tools.map((t) => ({ item: t.descriptor, gate: t.tool.visibleTo === undefined ? undefined : { label: `tool ${t.name}`, visibleTo: t.tool.visibleTo } }));
  const viewed = { ...settings, cacheScope: 'private' as const };
  return { method: 'tools/list', handle: viewedPages('tools', entries, views, (visible, key) => paginate(visible, viewed, `${key}\n`)) };
}
