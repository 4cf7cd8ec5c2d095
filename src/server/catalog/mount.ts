/**
 * The `mount` option: another Toolwright server's tools, resources and prompts served by this one,
 * in process. Tool and prompt names get the mount's prefix (`<prefix>__<name>`, the rule of
 * protocol/prefixed-name.ts); resource URIs are kept (a URI already names its origin). Mounted tools
 * are registered like this server's own, so every call runs THIS server's pipeline (its `authorize`,
 * views, approval, middleware, store) and then the mounted tool's handlers. The mounted server is
 * reached only through its public `mountable` surface.
 */
import { PREFIX_SEPARATOR, prefixedName } from '../../protocol/prefixed-name.js';
import type { Prompt } from '../features/prompts.js';
import type { Resource, ResourceTemplate } from '../features/resources.js';
import type { ListChangedKind } from './subscriptions.js';
import { deriveTool } from '../tools/derive-tool.js';
import type { Tool } from '../contract/tool-types.js';
import { DefinitionError } from '../../errors/toolwright-error.js';

/** What a server offers to a server that mounts it (`McpServer.mountable`). */
export interface MountableCatalog {
  /** Its tools as defined (mounted ones included, already prefixed), in list order. */
  readonly tools: readonly Tool[];
  readonly resources: readonly (Resource | ResourceTemplate)[];
  readonly prompts: readonly Prompt[];
  /** The lists whose changes it announces (`listChanged` option). */
  readonly listChanged: readonly ListChangedKind[];
  /** Called on each `notifyListChanged(kind)` of that server. Returns the unsubscribe function. */
  onListChanged(listener: (kind: ListChangedKind) => void): () => void;
}

/** One entry of `createServer({ mount })`. */
export interface MountOption {
  /** Put before each tool and prompt name with `__`: 1-64 of `[A-Za-z0-9_.-]`, no `__` inside, not ending in `_`. */
  readonly prefix: string;
  /** The server to mount (any `createServer` result). */
  readonly server: { readonly name: string; readonly mountable: MountableCatalog };
  /**
   * Reshapes the mounted tools before the prefix is put on, e.g. `(tools) => transformTools(tools,
   * [...])` from `toolwright/compose`; names in it are the mounted server's own.
   */
  readonly transform?: (tools: readonly Tool[]) => readonly Tool[];
  /** Least time between two forwarded `list_changed` of one kind from this mount (default 250 ms). */
  readonly minChangeIntervalMs?: number;
  /**
   * Told of each tool of this mount left out when its tool list changes after start (a name another
   * source already serves, or one the prefix makes invalid); the rest of the new list is served.
   * Default: the server's `logger.error`.
   */
  readonly onRefused?: (refusal: MountRefusal) => void;
}

/** A mounted tool left out when its mount's tool list changed (see `MountOption.onRefused`). */
export interface MountRefusal {
  /** The name it would have had on this server (`*`: all of the mount's tools, when its transform threw). */
  readonly tool: string;
  /** Why, e.g. `the name is already served by this server`. */
  readonly reason: string;
}

/**
 * Marks a mount whose tools and prompts already carry their names on this server (a proxied
 * upstream, src/compose/proxy/): no prefix is put on, and its `prefix` only names it in messages.
 * Internal: set only by `toolsFromUpstream`.
 */
export const NAMED_MOUNT: unique symbol = Symbol('toolwright.namedMount');

function isNamedMount(entry: MountOption): boolean {
  return (entry as { [NAMED_MOUNT]?: unknown })[NAMED_MOUNT] === true;
}

/** The mounts, resolved: what joins this server's catalog, and where changes come from. */
export interface ResolvedMounts {
  readonly tools: readonly Tool[];
  readonly resources: readonly (Resource | ResourceTemplate)[];
  readonly prompts: readonly Prompt[];
  readonly listChanged: ReadonlySet<ListChangedKind>;
  readonly sources: readonly MountSource[];
}

/** One resolved mount, read again when its tools change. */
export interface MountSource {
  readonly prefix: string;
  readonly catalog: MountableCatalog;
  readonly minIntervalMs: number;
  /** Names the mount in messages. */
  readonly owner: string;
  /** Its tools as this server serves them (the catalog's current tools, transformed and prefixed), each with its name before the prefix. */
  shapeTools(): readonly { readonly original: string; readonly tool: Tool }[];
  /** Where a tool left out at a list change is reported (`onRefused`), when given. */
  readonly onRefused: ((refusal: MountRefusal) => void) | undefined;
}

/** Thrown by `createServer` for a bad mount: its position, prefix and the problem (both sides of a collision). */
export class MountError extends DefinitionError {
  readonly errorCode = 'mount' as const;
  constructor(message: string) {
    super(`createServer: ${message}`);
    this.name = 'MountError';
  }
}

const PREFIX = /^[A-Za-z0-9.-](?:[A-Za-z0-9_.-]{0,62}[A-Za-z0-9.-])?$/;

/** A usable prefix (mounts and proxies): 1-64 of `[A-Za-z0-9_.-]`, no `__` inside, not beginning or ending with `_`. */
export function isValidPrefix(prefix: unknown): prefix is string {
  return typeof prefix === 'string' && PREFIX.test(prefix) && !prefix.includes(PREFIX_SEPARATOR);
}
const NAME = /^[A-Za-z0-9_.-]{1,128}$/;

function checkPrefix(prefix: unknown, at: string): string {
  if (!isValidPrefix(prefix)) {
    throw new MountError(`${at}: prefix must be 1-64 of [A-Za-z0-9_.-], not contain "${PREFIX_SEPARATOR}" and not begin or end with "_", got ${JSON.stringify(prefix)}`);
  }
  return prefix;
}

/** Names taken so far, with who took them (for a collision message naming both). */
class Owners {
  readonly #owners = new Map<string, string>();
  claim(key: string, owner: string, what: string): void {
    const first = this.#owners.get(key);
    // Duplicates within this server's own catalog are the registry's to report (duplicate-name).
    if (first === owner) return;
    if (first !== undefined) throw new MountError(`${what} ${JSON.stringify(key)} of ${owner} collides with the one of ${first}`);
    this.#owners.set(key, owner);
  }
}

/**
 * Resolves `mount` against this server's own catalog.
 * @throws MountError for a bad entry or prefix, a name the prefix makes invalid, or a collision.
 */
export function resolveMounts(
  mounts: readonly MountOption[] | undefined,
  own: { readonly tools: readonly unknown[]; readonly resources: readonly unknown[]; readonly prompts: readonly unknown[] },
): ResolvedMounts {
  const result = { tools: [] as Tool[], resources: [] as (Resource | ResourceTemplate)[], prompts: [] as Prompt[], listChanged: new Set<ListChangedKind>(), sources: [] as ResolvedMounts['sources'][number][] };
  if (mounts === undefined) return result;
  if (!Array.isArray(mounts)) throw new MountError('mount must be an array of { prefix, server }');
  const tools = new Owners();
  const prompts = new Owners();
  const uris = new Owners();
  for (const t of own.tools) if (typeof t === 'object' && t !== null && typeof (t as Tool).name === 'string') tools.claim((t as Tool).name, 'this server', 'tool');
  for (const p of own.prompts) if ((p as Prompt | undefined)?.kind === 'prompt') prompts.claim((p as Prompt).name, 'this server', 'prompt');
  for (const r of own.resources) claimResource(uris, r as Resource | ResourceTemplate, 'this server');
  const prefixes = new Map<string, number>();
  mounts.forEach((entry: MountOption, index) => {
    const at = `mount[${index}]`;
    const catalog = (entry as Partial<MountOption> | undefined)?.server?.mountable;
    if (catalog === undefined || !Array.isArray(catalog.tools)) throw new MountError(`${at}: server must be a Toolwright server (createServer)`);
    const named = isNamedMount(entry);
    const prefix = named ? String(entry.prefix) : checkPrefix(entry.prefix, at);
    const earlier = prefixes.get(prefix);
    if (!named && earlier !== undefined) throw new MountError(`${at}: prefix ${JSON.stringify(prefix)} is already used by mount[${earlier}]`);
    if (!named) prefixes.set(prefix, index);
    const owner = named ? `mount[${index}] (upstream ${JSON.stringify(entry.server.name)})` : `mount[${index}] (prefix ${JSON.stringify(prefix)}, server ${JSON.stringify(entry.server.name)})`;
    const minIntervalMs = entry.minChangeIntervalMs ?? 250;
    if (!Number.isInteger(minIntervalMs) || minIntervalMs < 0) throw new MountError(`${at}: minChangeIntervalMs must be a non-negative integer`);
    if (entry.transform !== undefined && typeof entry.transform !== 'function') throw new MountError(`${at}: transform must be a function (tools) => tools`);
    if (entry.onRefused !== undefined && typeof entry.onRefused !== 'function') throw new MountError(`${at}: onRefused must be a function`);
    const nameOf = (name: string): string => (named ? name : prefixedName(prefix, name));
    // The same source tool gets the same prefixed tool object at every re-read, so a remount keeps its
    // compiled validators (remount.ts matches registered tools by object) instead of compiling it again.
    const prefixed = new WeakMap<Tool, Tool>();
    const shapeTools = (): { original: string; tool: Tool }[] => {
      const shaped = entry.transform === undefined ? catalog.tools : entry.transform(catalog.tools);
      return shaped.map((tool) => {
        const name = nameOf(tool.name);
        if (name === tool.name) return { original: tool.name, tool };
        let renamed = prefixed.get(tool);
        if (renamed === undefined || renamed.name !== name) {
          renamed = deriveTool(tool, { descriptor: { ...tool.descriptor, name } });
          prefixed.set(tool, renamed);
        }
        return { original: tool.name, tool: renamed };
      });
    };
    for (const { original, tool } of shapeTools()) {
      if (!NAME.test(tool.name)) throw new MountError(`${at}: tool ${JSON.stringify(original)} would be named ${JSON.stringify(tool.name)} (${tool.name.length} characters), which breaks the tool-name rule (1 to 128 of A-Z a-z 0-9 _ . -)`);
      tools.claim(tool.name, owner, 'tool');
      result.tools.push(tool);
    }
    for (const prompt of catalog.prompts) {
      const name = nameOf(prompt.name);
      if (!NAME.test(name)) throw new MountError(`${at}: prompt ${JSON.stringify(prompt.name)} would be named ${JSON.stringify(name)}, which breaks the prompt-name rule (1 to 128 of A-Z a-z 0-9 _ . -)`);
      prompts.claim(name, owner, 'prompt');
      result.prompts.push(Object.freeze({ ...prompt, name, descriptor: Object.freeze({ ...prompt.descriptor, name }) }));
    }
    for (const resource of catalog.resources) {
      claimResource(uris, resource, owner);
      result.resources.push(resource);
    }
    for (const kind of catalog.listChanged) result.listChanged.add(kind);
    result.sources.push({ prefix, catalog, minIntervalMs, owner, shapeTools, onRefused: entry.onRefused });
  });
  return result;
}

/**
 * The mounted tools after a mount's list changed: every mount's current tools, transformed and
 * prefixed, in mount order. Unlike at start, nothing throws: a tool whose name breaks the rule or
 * is already taken (by this server's own tools or an earlier mount) is left out and reported to
 * `refuse`, so one upstream's new list can never take the server down.
 */
export function remountTools(sources: readonly MountSource[], ownNames: Iterable<string>, refuse: (source: MountSource, refusal: MountRefusal) => void): { source: MountSource; tool: Tool }[] {
  const taken = new Map<string, string>();
  for (const name of ownNames) taken.set(name, 'this server');
  const tools: { source: MountSource; tool: Tool }[] = [];
  for (const source of sources) {
    let shaped: readonly { readonly tool: Tool }[];
    try {
      shaped = source.shapeTools();
    } catch (error) {
      refuse(source, { tool: '*', reason: `its tools could not be shaped (transform failed: ${error instanceof Error ? error.message : String(error)}); none of them is served` });
      continue;
    }
    for (const { tool } of shaped) {
      const first = taken.get(tool.name);
      if (!NAME.test(tool.name)) refuse(source, { tool: tool.name, reason: `the name breaks the tool-name rule (1 to 128 of A-Z a-z 0-9 _ . -)` });
      else if (first !== undefined) refuse(source, { tool: tool.name, reason: `the name is already served by ${first}` });
      else {
        taken.set(tool.name, source.owner);
        tools.push({ source, tool });
      }
    }
  }
  return tools;
}

function claimResource(uris: Owners, entry: Resource | ResourceTemplate | undefined, owner: string): void {
  if (entry?.kind === 'resource') uris.claim(entry.descriptor.uri, owner, 'resource');
  else if (entry?.kind === 'resource-template') uris.claim(entry.descriptor.uriTemplate, owner, 'resource template');
}

/**
 * Forwards each mounted server's `list_changed` to `notify`, at most once per `minIntervalMs` per
 * mount and kind: a burst becomes one notification now and one at the end of the interval.
 * Returns the function that stops forwarding (unsubscribes, drops pending notifications).
 */
export function forwardListChanges(sources: readonly MountSource[], notify: (kind: ListChangedKind) => void): () => void {
  const stops: (() => void)[] = [];
  for (const source of sources) {
    const last = new Map<ListChangedKind, number>();
    const pending = new Map<ListChangedKind, NodeJS.Timeout>();
    const send = (kind: ListChangedKind): void => {
      last.set(kind, performance.now());
      notify(kind);
    };
    const unsubscribe = source.catalog.onListChanged((kind) => {
      if (pending.has(kind)) return;
      const wait = (last.get(kind) ?? -Infinity) + source.minIntervalMs - performance.now();
      if (wait <= 0) return send(kind);
      const timer = setTimeout(() => {
        pending.delete(kind);
        send(kind);
      }, wait);
      timer.unref();
      pending.set(kind, timer);
    });
    stops.push(() => {
      unsubscribe();
      for (const timer of pending.values()) clearTimeout(timer);
      pending.clear();
    });
  }
  return () => { for (const stop of stops) stop(); };
}
