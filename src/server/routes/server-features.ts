/**
 * Everything a server offers besides tools: resources, prompts, completion and subscriptions.
 * `createServer` resolves these options once, here, into a catalog and capabilities; the methods
 * that serve them are routes (src/server/routes/).
 */
import type { ServerCapabilities } from '../../protocol/wire-types.js';
import type { Prompt } from '../features/prompts.js';
import type { Resource, ResourceTemplate } from '../features/resources.js';
import type { FeatureCatalog } from './feature-env.js';
import { CatalogViews, defaultTenantOf } from '../catalog/catalog-view.js';
import type { GatedEntry, TenantOf } from '../catalog/catalog-view.js';
import type { ServerLogger } from '../stages/pipeline-env.js';
import { scopesWithoutAuthorize } from '../auth/scope-refusal.js';
import { SubscriptionHub } from '../catalog/subscriptions.js';
import type { RegisteredTool } from '../tools/tool-registry.js';
import type { ListChangedKind, SubscriptionSupport } from '../catalog/subscriptions.js';

/** Server options for resources, prompts and change notifications (part of `ServerOptions`). */
export interface ServerFeatureOptions {
  /** Resources and resource templates (`defineResource`, `defineResourceTemplate`). */
  resources?: readonly (Resource | ResourceTemplate)[];
  /** Prompts (`definePrompt`). */
  prompts?: readonly Prompt[];
  /**
   * Lists whose changes this server announces with `server.notifyListChanged()`; declared as
   * `listChanged: true` and delivered on `subscriptions/listen` streams that opt in.
   */
  listChanged?: readonly ListChangedKind[];
  /** Declare `resources.subscribe`: the server calls `server.notifyResourceUpdated(uri)`. */
  resourceUpdates?: boolean;
}

/** The feature options, checked and indexed. */
export interface ResolvedServerFeatures {
  readonly catalog: FeatureCatalog;
  /** Whether the server serves resources / prompts (the option was given, even empty). */
  readonly servesResources: boolean;
  readonly servesPrompts: boolean;
  readonly capabilities: ServerCapabilities;
  /** What change notifications the server announces (what a `subscriptions/listen` may ask for). */
  readonly announced: SubscriptionSupport;
  readonly hub: SubscriptionHub;
  /** Every entry's `visibleTo`, by list kind (tools included): how each caller's view is judged. */
  readonly views: CatalogViews;
}

/** What the catalog is resolved with besides the feature options. */
export interface FeatureEnv {
  /** The server's tools, checked, in list order. */
  readonly tools: readonly RegisteredTool[];
  /** Whether the server runs tasks (subscriptions accept `taskIds`). */
  readonly hasTasks: boolean;
  readonly tenantOf: TenantOf | undefined;
  readonly logger: ServerLogger;
  /** Whether the server has an `authorize` option (else no entry may require `scopes`, as for tools). */
  readonly canAuthorize: boolean;
}

const LIST_KINDS: readonly ListChangedKind[] = ['tools', 'prompts', 'resources'];

/**
 * Validates `options` into the catalog, capabilities and views.
 * @throws TypeError on duplicate URIs/names, entries that were not made by the define* helpers, or an
 *   entry requiring `scopes` on a server without `authorize`.
 */
export function resolveServerFeatures(options: ServerFeatureOptions, env: FeatureEnv): ResolvedServerFeatures {
  if (env.tenantOf !== undefined && typeof env.tenantOf !== 'function') throw new TypeError('createServer: tenantOf must be a function (auth) => string | undefined');
  const capabilities: ServerCapabilities = {};
  const listChanged = new Set<ListChangedKind>();
  for (const kind of options.listChanged ?? []) {
    if (!LIST_KINDS.includes(kind)) throw new TypeError(`createServer: listChanged entries must be one of ${LIST_KINDS.join(', ')}, got ${JSON.stringify(kind)}`);
    listChanged.add(kind);
  }
  const announced: SubscriptionSupport = { listChanged, resourceUpdates: options.resourceUpdates === true, tasks: env.hasTasks };
  if (env.tools.length > 0 || listChanged.has('tools')) capabilities.tools = listChanged.has('tools') ? { listChanged: true } : {};

  const resources = new Map<string, Resource>();
  const templates: ResourceTemplate[] = [];
  if (options.resources !== undefined) {
    for (const [index, entry] of options.resources.entries()) {
      if (entry?.kind === 'resource') {
        if (resources.has(entry.descriptor.uri)) throw new TypeError(`createServer: resource ${entry.descriptor.uri} is defined twice`);
        resources.set(entry.descriptor.uri, entry);
      } else if (entry?.kind === 'resource-template') {
        if (templates.some((t) => t.descriptor.uriTemplate === entry.descriptor.uriTemplate)) throw new TypeError(`createServer: resource template ${entry.descriptor.uriTemplate} is defined twice`);
        templates.push(entry);
      } else throw new TypeError(`createServer: resources[${index}] was not made by defineResource() or defineResourceTemplate()`);
    }
    capabilities.resources = {};
    if (listChanged.has('resources')) capabilities.resources.listChanged = true;
    if (announced.resourceUpdates) capabilities.resources.subscribe = true;
  }

  const prompts = new Map<string, Prompt>();
  if (options.prompts !== undefined) {
    for (const [index, prompt] of options.prompts.entries()) {
      if (prompt?.kind !== 'prompt') throw new TypeError(`createServer: prompts[${index}] was not made by definePrompt()`);
      if (prompts.has(prompt.name)) throw new TypeError(`createServer: prompt ${prompt.name} is defined twice`);
      prompts.set(prompt.name, prompt);
    }
    capabilities.prompts = listChanged.has('prompts') ? { listChanged: true } : {};
  }
  if (prompts.size > 0 || templates.length > 0) capabilities.completions = {};
  if (!env.canAuthorize) {
    const scoped = [
      ...[...resources.values()].map((r) => ({ what: `resource ${r.descriptor.uri}`, scopes: r.scopes })),
      ...templates.map((t) => ({ what: `resource template ${t.descriptor.uriTemplate}`, scopes: t.scopes })),
      ...[...prompts.values()].map((p) => ({ what: `prompt ${p.name}`, scopes: p.scopes })),
    ].find((entry) => entry.scopes.length > 0);
    if (scoped !== undefined) throw new TypeError(`createServer: ${scoped.what} ${scopesWithoutAuthorize(scoped.scopes)}`);
  }

  const gated = (entries: readonly { label: string; visibleTo: GatedEntry['visibleTo'] | undefined }[]): GatedEntry[] =>
    entries.filter((e): e is GatedEntry => e.visibleTo !== undefined).map((e) => ({ label: e.label, visibleTo: e.visibleTo }));
  const views = new CatalogViews({
    tools: gated(env.tools.map((t) => ({ label: `tool ${t.name}`, visibleTo: t.tool.visibleTo }))),
    resources: gated([
      ...[...resources.values()].map((r) => ({ label: `resource ${r.descriptor.uri}`, visibleTo: r.visibleTo })),
      ...templates.map((t) => ({ label: `resource template ${t.descriptor.uriTemplate}`, visibleTo: t.visibleTo })),
    ]),
    prompts: gated([...prompts.values()].map((p) => ({ label: `prompt ${p.name}`, visibleTo: p.visibleTo }))),
  }, env.tenantOf ?? defaultTenantOf, env.logger);

  return {
    catalog: { resources, templates, prompts },
    servesResources: options.resources !== undefined,
    servesPrompts: options.prompts !== undefined,
    capabilities,
    announced,
    hub: new SubscriptionHub(views),
    views,
  };
}
