/**
 * Who sees what: the predicate a tool, resource or prompt declares (`visibleTo`) and the caller it
 * is asked about. Declared here, below the catalog that applies it, because a tool definition
 * names it (contract/tool-types.ts) and the catalog (catalog/catalog-view.ts) evaluates it.
 */
import type { AuthInfo } from './tool-types.js';

/** Who is looking: the caller's authorization (undefined: anonymous) and its tenant. */
export interface Viewer {
  readonly auth: AuthInfo | undefined;
  readonly tenant: string | undefined;
}

/** Whether `viewer` may see an entry. Must be cheap and synchronous: it runs on every list and lookup. */
export type VisibleTo = (viewer: Viewer) => boolean;

/** Where a caller's tenant comes from (server option `tenantOf`). */
export type TenantOf = (auth: AuthInfo | undefined) => string | undefined;
