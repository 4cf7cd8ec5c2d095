/** `resources/templates/list`: one page, when the server has resources (one per view where some template has `visibleTo`). */
import type { CatalogViews } from '../catalog/catalog-view.js';
import type { FeatureCatalog, FeatureRouteEnv } from './feature-env.js';
import type { Route } from './route.js';
import { singlePageList } from './view-pages.js';

export function resourcesTemplatesList(catalog: FeatureCatalog, env: FeatureRouteEnv, views: CatalogViews): Route {
  return singlePageList({
    method: 'resources/templates/list', kind: 'resources', field: 'resourceTemplates', items: catalog.templates,
    label: (t) => `resource template ${(t.descriptor as { uriTemplate: string }).uriTemplate}`, ttlMs: env.ttlMs, cacheScope: env.cacheScope,
  }, views);
}
