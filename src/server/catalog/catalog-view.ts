/**
 * A catalog per caller. Tools, resources, resource templates and prompts may declare `visibleTo`,
 * a predicate over the caller (its `AuthInfo` and tenant). Where it is false the entry is absent
 * from its list and answers as unknown. A predicate that throws hides its entry (fail closed) and
 * is logged once per entry. A caller's *view key* of a list kind is the string of its gated
 * entries' results ('1' visible, '0' hidden), in catalog order: callers with the same key see the
 * same list, so pages are serialized once per key (routes/view-pages.ts) and a listener is told of
 * a change only when its key changes (subscriptions.ts).
 */
import { isDestructive, isOpenWorld, missingScopes } from '../../protocol/tool-risk.js';
import type { ToolAnnotations } from '../../protocol/wire-types.js';
import type { ListChangedKind } from './subscriptions.js';
import type { AuthInfo } from '../contract/tool-types.js';
import type { TenantOf, Viewer, VisibleTo } from '../contract/visibility.js';

export type { TenantOf, Viewer, VisibleTo } from '../contract/visibility.js';

/** The default `tenantOf`: a string `tenant` in `auth.extra` (e.g. a verified JWT claim), else none. */
export const defaultTenantOf: TenantOf = (auth) => {
  const tenant = auth?.extra?.tenant;
  return typeof tenant === 'string' ? tenant : undefined;
};

/** One gated entry: a label for the log ("tool x", "prompt y") and its predicate. */
export interface GatedEntry {
  readonly label: string;
  readonly visibleTo: VisibleTo;
}

/** How many distinct views of one list keep their serialized pages (least recently used go first). */
export const VIEW_CACHE_LIMIT = 256;

type Logger = { error(message: string, detail?: Record<string, unknown>): void };

/** The server's gated entries by list kind, and how to judge them for one caller. */
export class CatalogViews {
  readonly #tenantOf: TenantOf;
  readonly #logger: Logger;
  readonly #gated: Readonly<Record<ListChangedKind, readonly GatedEntry[]>>;
  readonly #logged = new Set<string>();

  constructor(gated: Readonly<Record<ListChangedKind, readonly GatedEntry[]>>, tenantOf: TenantOf, logger: Logger) {
    this.#gated = gated;
    this.#tenantOf = tenantOf;
    this.#logger = logger;
  }

  /** Whether some entry of `kind` has `visibleTo` (else every caller sees the same list). */
  gates(kind: ListChangedKind): boolean {
    return this.#gated[kind].length > 0;
  }

  viewerOf(auth: AuthInfo | undefined): Viewer {
    let tenant: string | undefined;
    try {
      tenant = this.#tenantOf(auth);
    } catch (error) {
      this.#logOnce('tenantOf', 'tenantOf threw; the caller has no tenant', error);
    }
    return { auth, tenant: typeof tenant === 'string' ? tenant : undefined };
  }

  /** Runs one predicate; a throw or a non-boolean-true answer hides. */
  sees(entry: GatedEntry, viewer: Viewer): boolean {
    try {
      return entry.visibleTo(viewer) === true;
    } catch (error) {
      this.#logOnce(entry.label, `visibleTo of ${entry.label} threw; the entry is hidden`, error);
      return false;
    }
  }

  /** The view key of `kind` for `viewer` ('' when nothing of that kind is gated). */
  keyOf(kind: ListChangedKind, viewer: Viewer): string {
    let key = '';
    for (const entry of this.#gated[kind]) key += this.sees(entry, viewer) ? '1' : '0';
    return key;
  }

  #logOnce(label: string, message: string, error: unknown): void {
    if (this.#logged.has(label)) return;
    this.#logged.add(label);
    this.#logger.error(message, { error: error instanceof Error ? error.message : String(error) });
  }
}

/** Whether an entry with `visibleTo` (or none) is visible to `viewer`, labelled for the log. */
export function visibleFor(views: CatalogViews, label: string, visibleTo: VisibleTo | undefined, viewer: Viewer): boolean {
  return visibleTo === undefined || views.sees({ label, visibleTo }, viewer);
}

/** Rules `visibleWhen` turns into a predicate; every rule given must hold. */
export interface VisibilityRules {
  /** Visible only to callers holding every one of these scopes (exact match). */
  scopes?: readonly string[];
  /** Visible only to callers whose tenant is one of these. */
  tenants?: readonly string[];
  /**
   * Risk by the tool's annotations, read with the spec's defaults (src/protocol/tool-risk.ts, the
   * same reading as the host's `selectTools`): a destructive (or open-world) tool is visible only
   * to callers holding the scope named here.
   */
  risk?: { annotations: ToolAnnotations | undefined; destructive?: string; openWorld?: string };
}

/**
 * Builds a `visibleTo` predicate from scope, tenant and risk rules.
 * @example
 * ```ts
 * import { defineTool, visibleWhen } from 'toolwright';
 *
 * const annotations = { destructiveHint: true };
 * const wipe = defineTool({
 *   name: 'wipe',
 *   inputSchema: { type: 'object' },
 *   annotations,
 *   // Listed only for tenant acme, and only to callers holding the admin scope (it is destructive).
 *   visibleTo: visibleWhen({ tenants: ['acme'], risk: { annotations, destructive: 'admin' } }),
 *   run: () => 'wiped',
 * });
 * ```
 */
export function visibleWhen(rules: VisibilityRules): VisibleTo {
  const needed = [...(rules.scopes ?? [])];
  const risk = rules.risk;
  if (risk?.destructive !== undefined && isDestructive(risk.annotations)) needed.push(risk.destructive);
  if (risk?.openWorld !== undefined && isOpenWorld(risk.annotations)) needed.push(risk.openWorld);
  const tenants = rules.tenants === undefined ? undefined : new Set(rules.tenants);
  return (viewer) => {
    if (tenants !== undefined && (viewer.tenant === undefined || !tenants.has(viewer.tenant))) return false;
    return needed.length === 0 || missingScopes(needed, viewer.auth?.scopes ?? []).length === 0;
  };
}
