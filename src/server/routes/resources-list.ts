/** `resources/list`: one page, when the server has resources (one per view where some has `visibleTo`). */
import type { CatalogViews } from '../catalog/catalog-view.js';
import type { FeatureCatalog, FeatureRouteEnv } from './feature-env.js';
import type { Route } from './route.js';
import { singlePageList } from './view-pages.js';

export function resourcesList(catalog: FeatureCatalog, env: FeatureRouteEnv, views: CatalogViews): Route {
  return singlePageList({
    method: 'resources/list', kind: 'resources', field: 'resources', items: [...catalog.resources.values()],
    label: (r) => `resource ${(r.descriptor as { uri: string }).uri}`, ttlMs: env.ttlMs, cacheScope: env.cacheScope,
  }, views);
}
