/**
 * Resources: fixed URIs (`defineResource`) and RFC 6570 templates (`defineResourceTemplate`),
 * served by `resources/list`, `resources/templates/list` and `resources/read`. Every list and read
 * result is cacheable (`ttlMs`, `cacheScope`, digest R-30). An unknown URI is -32602 with
 * `data.uri` (SEP-2164; -32002 is retired).
 */
import type { JsonObject } from '../../protocol/json-rpc.js';
import type { ContentAnnotations, Icon, ResourceContents } from '../../protocol/wire-types.js';
import type { ResourceDescriptor, ResourceTemplateDescriptor } from '../../protocol/feature-wire-types.js';
import type { ClientCapabilities } from '../../protocol/wire-types.js';
import { resourceContents } from '../tools/content.js';
import type { ResourceContentsInit } from '../tools/content.js';
import { compileUriTemplate } from './uri-template.js';
import type { UriTemplate } from './uri-template.js';
import type { AuthInfo } from '../contract/tool-types.js';
import type { VisibleTo } from '../contract/visibility.js';
import type { Completer } from './completion.js';
import { checkScopes } from '../auth/scope-refusal.js';
import type { InputFlow } from '../approvals/input-flow.js';
import type { InputRequiredInit } from '../contract/tool-types.js';

/** What `read` handlers receive. */
export interface ResourceContext {
  /** Aborted when the client cancels. */
  readonly signal: AbortSignal;
  readonly clientCapabilities: ClientCapabilities;
  readonly auth: AuthInfo | undefined;
  readonly requestMeta: Readonly<JsonObject>;
  /** Multi round-trip input: a read may ask the client for elicitation, sampling or roots first. */
  readonly inputs: InputFlow;
}

/**
 * What a `read` handler returns: a string (text), bytes (blob), one contents object, or a list of
 * them. `uri` and `mimeType` default to the resource's own.
 */
export type ResourceReadValue =
  | InputRequiredInit
  | string
  | Uint8Array
  | (Partial<Pick<ResourceContentsInit, 'uri' | 'mimeType'>> & ({ text: string } | { blob: string | Uint8Array }) & { _meta?: JsonObject })
  | ReadonlyArray<ResourceContentsInit>;

/** Who sees a resource or template, and who may read it. */
export interface ResourceVisibility {
  /** Who sees it (see `VisibleTo`): where false it is absent from lists and reads as unknown. */
  visibleTo?: VisibleTo;
  /**
   * Scopes the caller must hold (all of them; scope tokens, no spaces) to read it (`resources/read`)
   * or, for a template, to complete its variables (`completion/complete`). Requires the server's
   * `authorize` option, as tools' `scopes` do (without one `createServer` refuses the server, on
   * stdio too). Unlike `visibleTo`, the entry stays listed for everyone; a caller lacking a scope
   * gets the tools' step-up answer: -31403 / HTTP 403 `insufficient_scope` naming the scopes (the
   * `WWW-Authenticate` challenge on HTTP only), and `read` does not run.
   */
  scopes?: readonly string[];
}

/** Caching hints of a resource's `resources/read` results. */
export interface ResourceCaching {
  /** Default 0 (read again every time): contents may change. */
  ttlMs?: number;
  /** Default: the server's `cacheScope`. */
  cacheScope?: 'public' | 'private';
}

/** Options of {@link defineResource}. */
export interface ResourceDefinitionInit extends ResourceCaching, ResourceVisibility, ResourceDescriptor {
  /** Reads the resource for one `resources/read` (after visibility and scopes were checked). */
  read(ctx: ResourceContext): ResourceReadValue | Promise<ResourceReadValue>;
}

/** Options of {@link defineResourceTemplate}. */
export interface ResourceTemplateDefinitionInit extends ResourceCaching, ResourceVisibility {
  /** RFC 6570 template; `{name}` matches one path segment, `{+name}` anything. */
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  icons?: Icon[];
  annotations?: ContentAnnotations;
  _meta?: JsonObject;
  /** Completions for template variables, by variable name (`completion/complete` with `ref/resource`). */
  complete?: Readonly<Record<string, Completer>>;
  /** Reads a matching URI; return undefined when no resource exists there (the client gets -32602). */
  read(uri: string, variables: Readonly<Record<string, string>>, ctx: ResourceContext): ResourceReadValue | undefined | Promise<ResourceReadValue | undefined>;
}

/** A resource with a fixed URI. */
export interface Resource {
  readonly kind: 'resource';
  readonly descriptor: Readonly<ResourceDescriptor>;
  readonly caching: ResourceCaching;
  readonly visibleTo: VisibleTo | undefined;
  /** `defineResource({ scopes })` (empty: none required). */
  readonly scopes: readonly string[];
  /** The definition's `read` handler, as given. */
  readonly read: ResourceDefinitionInit['read'];
}

/** A family of resources addressed by a URI template. */
export interface ResourceTemplate {
  readonly kind: 'resource-template';
  readonly descriptor: Readonly<ResourceTemplateDescriptor>;
  readonly caching: ResourceCaching;
  readonly template: UriTemplate;
  readonly complete: Readonly<Record<string, Completer>>;
  readonly visibleTo: VisibleTo | undefined;
  /** `defineResourceTemplate({ scopes })` (empty: none required). */
  readonly scopes: readonly string[];
  /** The definition's `read` handler, as given. */
  readonly read: ResourceTemplateDefinitionInit['read'];
}

function checkCaching(where: string, caching: ResourceCaching): ResourceCaching {
  if (caching.ttlMs !== undefined && !(Number.isInteger(caching.ttlMs) && caching.ttlMs >= 0)) throw new TypeError(`${where}: ttlMs must be a non-negative integer`);
  if (caching.cacheScope !== undefined && caching.cacheScope !== 'public' && caching.cacheScope !== 'private') throw new TypeError(`${where}: cacheScope must be "public" or "private"`);
  return { ttlMs: caching.ttlMs, cacheScope: caching.cacheScope };
}

function checkVisibleTo(where: string, visibleTo: unknown): VisibleTo | undefined {
  if (visibleTo !== undefined && typeof visibleTo !== 'function') throw new TypeError(`${where}: visibleTo must be a function (viewer) => boolean`);
  return visibleTo as VisibleTo | undefined;
}

function copyOptional<T extends object>(target: T, source: object, keys: readonly string[]): T {
  for (const key of keys) {
    const value = (source as Record<string, unknown>)[key];
    if (value !== undefined) (target as Record<string, unknown>)[key] = value;
  }
  return target;
}

/**
 * Defines a resource with a fixed URI.
 * @example
 * ```ts
 * import { defineResource } from 'toolwright';
 *
 * const hello = defineResource({ uri: 'test://static-text', name: 'static-text', mimeType: 'text/plain', read: () => 'hello' });
 * ```
 */
export function defineResource(init: ResourceDefinitionInit): Resource {
  if (typeof init.uri !== 'string' || !/^[A-Za-z][A-Za-z0-9+.-]*:/.test(init.uri)) throw new TypeError(`defineResource: uri must be an absolute URI, got ${JSON.stringify(init.uri)}`);
  if (typeof init.name !== 'string' || init.name === '') throw new TypeError(`defineResource(${init.uri}): name must be a non-empty string`);
  if (typeof init.read !== 'function') throw new TypeError(`defineResource(${init.uri}): read must be a function`);
  const descriptor = copyOptional({ uri: init.uri, name: init.name } as ResourceDescriptor, init, ['title', 'description', 'mimeType', 'size', 'icons', 'annotations', '_meta']);
  const where = `defineResource(${init.uri})`;
  return Object.freeze({
    kind: 'resource', descriptor: Object.freeze(descriptor), caching: checkCaching(where, init), visibleTo: checkVisibleTo(where, init.visibleTo),
    scopes: checkScopes(where, init.scopes), read: init.read,
  });
}

/**
 * Defines resources addressed by a URI template.
 * @example
 * ```ts
 * import { defineResourceTemplate } from 'toolwright';
 *
 * const data = defineResourceTemplate({ uriTemplate: 'test://template/{id}/data', name: 'data', read: (_uri, { id }) => JSON.stringify({ id }) });
 * ```
 */
export function defineResourceTemplate(init: ResourceTemplateDefinitionInit): ResourceTemplate {
  const template = compileUriTemplate(init.uriTemplate);
  if (typeof init.name !== 'string' || init.name === '') throw new TypeError(`defineResourceTemplate(${init.uriTemplate}): name must be a non-empty string`);
  if (typeof init.read !== 'function') throw new TypeError(`defineResourceTemplate(${init.uriTemplate}): read must be a function`);
  for (const variable of Object.keys(init.complete ?? {})) {
    if (!template.variables.includes(variable)) throw new TypeError(`defineResourceTemplate(${init.uriTemplate}): complete.${variable} names no template variable`);
  }
  const descriptor = copyOptional({ uriTemplate: init.uriTemplate, name: init.name } as ResourceTemplateDescriptor, init, ['title', 'description', 'mimeType', 'icons', 'annotations', '_meta']);
  return Object.freeze({
    kind: 'resource-template',
    descriptor: Object.freeze(descriptor),
    caching: checkCaching(`defineResourceTemplate(${init.uriTemplate})`, init),
    template,
    complete: Object.freeze({ ...(init.complete ?? {}) }),
    visibleTo: checkVisibleTo(`defineResourceTemplate(${init.uriTemplate})`, init.visibleTo),
    scopes: checkScopes(`defineResourceTemplate(${init.uriTemplate})`, init.scopes),
    read: init.read,
  });
}

/**
 * Turns what a `read` handler returned into wire contents.
 * @throws TypeError when the value is not one of the accepted shapes.
 */
export function toResourceContents(value: unknown, uri: string, mimeType: string | undefined): ResourceContents[] {
  if (typeof value === 'string') return [resourceContents(mimeType === undefined ? { uri, text: value } : { uri, mimeType, text: value })];
  if (value instanceof Uint8Array) return [resourceContents(mimeType === undefined ? { uri, blob: value } : { uri, mimeType, blob: value })];
  const list = Array.isArray(value) ? value : [value];
  if (list.length === 0) throw new TypeError(`read() of ${uri} returned no contents`);
  return list.map((item: unknown) => {
    if (typeof item !== 'object' || item === null) throw new TypeError(`read() of ${uri} returned ${item === null ? 'null' : typeof item} contents`);
    const init = { uri, ...(mimeType === undefined ? {} : { mimeType }), ...item } as ResourceContentsInit;
    return resourceContents(init);
  });
}
