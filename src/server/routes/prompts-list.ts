/** `prompts/list`: one page, when the server has prompts (one per view where some prompt has `visibleTo`). */
import type { CatalogViews } from '../catalog/catalog-view.js';
import type { FeatureCatalog, FeatureRouteEnv } from './feature-env.js';
import type { Route } from './route.js';
import { singlePageList } from './view-pages.js';

export function promptsList(catalog: FeatureCatalog, env: FeatureRouteEnv, views: CatalogViews): Route {
  return singlePageList({
    method: 'prompts/list', kind: 'prompts', field: 'prompts', items: [...catalog.prompts.values()],
    label: (p) => `prompt ${(p.descriptor as { name: string }).name}`, ttlMs: env.ttlMs, cacheScope: env.cacheScope,
  }, views);
}
