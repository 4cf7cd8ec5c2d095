/**
 * What the server offers: `server/discover` and every page of `tools/list`, cached as the server
 * says (modern: `ttlMs` and `cacheScope`; legacy: for the session, until `list_changed`), and the
 * per-tool index that calls use (header annotations, compiled output schemas, exclusions).
 */
import { ErrorCode, isJsonObject, META, scanHeaderAnnotations } from '../protocol/index.js';
import type { HeaderAnnotation, Implementation, JsonObject, ServerCapabilities, ToolDescriptor } from '../protocol/index.js';
import type { CompiledSchema } from '../schema/index.js';
import { checkInstanceBudget } from '../schema/instance-budget.js';
import { McpClientError } from './client-error.js';
import type { Connection } from './connection.js';
import type { Exchange } from './exchange.js';
import { listCacheKey, readTtl } from './list-cache.js';
import type { ListCache, ListCacheEntry } from './list-cache.js';
import type { ClientWarning, DiscoverInfo, ExcludedTool, ToolListing } from './types.js';

/** A listed tool as calls need it. */
export interface KnownTool {
  descriptor: ToolDescriptor;
  annotations: readonly HeaderAnnotation[];
  excluded?: ExcludedTool;
  /** The compiled `outputSchema`, or why it cannot be compiled (filled on first call). */
  output?: CompiledSchema | McpClientError;
}

/** What the catalog needs from the client. */
export interface CatalogSettings {
  cache: ListCache;
  now: () => number;
  warn: (warning: ClientWarning) => void;
  maxPages: number;
  /** One deadline for all pages of a listing. */
  timeoutMs: number;
  /** Least time a tools/list result is reused, whatever its ttlMs (ClientOptions.minListTtlMs). */
  minListTtlMs: number;
}

const CACHED_METHODS = ['tools/list', 'server/discover'] as const;
/** A private entry is looked for before a public one. */
const SCOPES = ['private', 'public'] as const;

function describeShape(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;
}

/** Why a `tools/list` entry cannot be used at all, or null. */
function malformedReason(entry: unknown): string | null {
  if (!isJsonObject(entry)) return `entry is ${describeShape(entry)}, not a tool object`;
  if (typeof entry.name !== 'string' || entry.name === '') return 'has no name';
  if (!isJsonObject(entry.inputSchema)) return 'inputSchema is missing or not an object';
  if (entry.outputSchema !== undefined && !isJsonObject(entry.outputSchema) && typeof entry.outputSchema !== 'boolean') return 'outputSchema is not a schema';
  return null;
}

function scopeOf(value: unknown, method: string): 'public' | 'private' {
  if (value === 'public' || value === 'private') return value;
  throw new McpClientError('protocol', `${method}: cacheScope must be "public" or "private", got ${JSON.stringify(value)}`, { method });
}

/** `resultType` as the client reads it; a missing one comes from a pre-2026 server and means complete (C-02). */
export function resultTypeOf(result: JsonObject, method: string): 'complete' | 'input_required' {
  const type = result.resultType ?? 'complete';
  if (type === 'complete' || (type === 'input_required' && ['tools/call', 'prompts/get', 'resources/read'].includes(method))) return type;
  throw new McpClientError('protocol', `${method}: unexpected resultType ${JSON.stringify(type)}`, { method, data: result });
}

/** The server's discovery and tool catalog for one client. */
/**
 * What one tools/list entry may hold. Every consumer (lint, preview, diff, lowering, validation)
 * walks the schemas, several of them recursively; a hostile server's 100,000-level schema would
 * overflow the stack or exhaust the heap there. Real tools sit far inside: the schema engine itself
 * accepts 64 schema levels (about 130 JSON levels) and 20,000 schema nodes.
 */
const TOOL_ENTRY_BUDGET = { maxDepth: 256, maxNodes: 200_000 } as const;

/** Refuses the listing when an entry is over {@link TOOL_ENTRY_BUDGET}, naming it; one iterative pass per entry. */
function checkToolEntries(tools: readonly unknown[], page: number): void {
  for (let i = 0; i < tools.length; i++) {
    const refused = checkInstanceBudget(tools[i], TOOL_ENTRY_BUDGET);
    if (refused === undefined || refused.keyword !== 'budget') continue;
    const name = isJsonObject(tools[i]) && typeof (tools[i] as JsonObject).name === 'string' ? ` ${JSON.stringify(((tools[i] as JsonObject).name as string).slice(0, 60))}` : '';
    const why = refused.message.replace(/^\/: value /, '').replace(/: too (deep|large) to validate within the budget$/, '');
    throw new McpClientError('protocol', `tools/list: tool${name} (page ${page}, entry ${i}) ${why} (limits: ${TOOL_ENTRY_BUDGET.maxDepth} levels, ${TOOL_ENTRY_BUDGET.maxNodes} values per tool); stopping`, { method: 'tools/list' });
  }
}

export class Catalog {
  readonly #connection: Connection;
  readonly #exchange: Exchange;
  readonly #settings: CatalogSettings;
  #known = new Map<string, KnownTool>();
  #knownSource: ToolListing | undefined;
  #listing: Promise<ToolListing> | undefined;
  /** A legacy session's tool list: it has no ttlMs, so it lives until the session ends or the list changes. */
  #sessionListing: ToolListing | undefined;

  constructor(connection: Connection, exchange: Exchange, settings: CatalogSettings) {
    this.#connection = connection;
    this.#exchange = exchange;
    this.#settings = settings;
  }

  /** Forgets everything cached for this server (shared cache entries and the session's list). */
  invalidate(): void {
    this.#sessionListing = undefined;
    for (const method of CACHED_METHODS) {
      for (const scope of SCOPES) this.#settings.cache.delete(this.#key(method, scope));
    }
  }

  /** A legacy server said its tool list changed, or a new session began. */
  forgetSessionListing(): void {
    this.#sessionListing = undefined;
  }

  async discover(options: { refresh?: boolean; signal?: AbortSignal } = {}): Promise<DiscoverInfo> {
    if (options.refresh !== true) {
      const hit = this.#readCached<DiscoverInfo>('server/discover');
      if (hit !== undefined) return { ...hit.value, fromCache: true };
    }
    // The stdio probe's answer or the legacy handshake may already hold what discover asks.
    const known = this.#exchange.state;
    let result: JsonObject;
    if (known?.era === 'legacy' && known.initialize !== undefined) return this.#fromInitialize(known.initialize, known.protocolVersion);
    if (known?.probe !== undefined && options.refresh !== true) {
      result = known.probe;
      known.probe = undefined;
    } else {
      const answered = await this.#exchange.sendModern('server/discover', {}, options.signal === undefined ? {} : { signal: options.signal });
      const now = this.#exchange.state;
      if (answered === undefined) {
        if (now?.initialize === undefined) throw new McpClientError('protocol', 'server/discover: the server speaks a legacy revision but its initialize result is missing', { method: 'server/discover' });
        return this.#fromInitialize(now.initialize, now.protocolVersion);
      }
      result = answered;
    }
    resultTypeOf(result, 'server/discover');
    if (!Array.isArray(result.supportedVersions) || !isJsonObject(result.capabilities)) {
      throw new McpClientError('protocol', 'server/discover: result lacks supportedVersions or capabilities', { method: 'server/discover', data: result });
    }
    const meta = isJsonObject(result._meta) ? result._meta : {};
    const serverInfo = meta[META.serverInfo];
    const info: DiscoverInfo = {
      supportedVersions: result.supportedVersions.filter((v): v is string => typeof v === 'string'),
      capabilities: result.capabilities as ServerCapabilities,
      ttlMs: readTtl(result.ttlMs),
      cacheScope: scopeOf(result.cacheScope ?? 'private', 'server/discover'),
      fromCache: false,
      ...(typeof result.instructions === 'string' ? { instructions: result.instructions } : {}),
      ...(isJsonObject(serverInfo) ? { serverInfo: serverInfo as unknown as Implementation } : {}),
    };
    this.#store('server/discover', info, info.ttlMs, info.cacheScope);
    return info;
  }

  #fromInitialize(result: JsonObject, version: string): DiscoverInfo {
    return {
      supportedVersions: [version],
      capabilities: result.capabilities as ServerCapabilities,
      ttlMs: 0,
      cacheScope: 'private',
      fromCache: false,
      ...(typeof result.instructions === 'string' ? { instructions: result.instructions } : {}),
      ...(isJsonObject(result.serverInfo) ? { serverInfo: result.serverInfo as unknown as Implementation } : {}),
    };
  }

  async listTools(options: { refresh?: boolean; signal?: AbortSignal } = {}): Promise<ToolListing> {
    if (options.refresh !== true) {
      if (this.#sessionListing !== undefined && this.#exchange.state?.era === 'legacy') return { ...this.#sessionListing, fromCache: true };
      const hit = this.#readCached<ToolListing>('tools/list');
      if (hit !== undefined) {
        this.#adopt(hit.value);
        return { ...hit.value, fromCache: true };
      }
      // Concurrent callers share one listing in flight.
      if (this.#listing !== undefined) return this.#listing;
    }
    const deadline = AbortSignal.timeout(this.#settings.timeoutMs);
    const signal = options.signal === undefined ? deadline : AbortSignal.any([options.signal, deadline]);
    const pending = this.#fetchAllPages(signal, false)
      .catch((error: unknown) => {
        if (deadline.aborted && !(options.signal?.aborted ?? false) && error instanceof McpClientError && error.kind === 'aborted') {
          throw new McpClientError('timeout', `tools/list: the listing did not finish within ${this.#settings.timeoutMs} ms; stopped`, { method: 'tools/list' });
        }
        throw error;
      })
      .then((result) => {
        if (this.#exchange.state?.era === 'legacy') this.#sessionListing = result;
        else this.#store('tools/list', result, Math.max(result.ttlMs, this.#settings.minListTtlMs), result.cacheScope);
        return result;
      });
    this.#listing = pending;
    try {
      return await pending;
    } finally {
      if (this.#listing === pending) this.#listing = undefined;
    }
  }

  /** The tool's entry, listing first when this client has not listed yet (or `refresh`). */
  async knownTool(name: string, refresh: boolean, signal: AbortSignal | undefined): Promise<KnownTool | undefined> {
    await this.listTools({ refresh, ...(signal !== undefined ? { signal } : {}) });
    return this.#known.get(name);
  }

  /**
   * The tool's entry when the listing `listTools()` would reuse is at hand now (the same rules:
   * a legacy session's list, else a fresh cache entry), without a promise; `listed: false` when
   * a listing is needed first (then `knownTool`). Every call asks this first: nearly always the list is cached.
   */
  knownToolNow(name: string): { listed: true; tool: KnownTool | undefined } | { listed: false } {
    if (this.#sessionListing !== undefined && this.#exchange.state?.era === 'legacy') return { listed: true, tool: this.#known.get(name) };
    const hit = this.#readCached<ToolListing>('tools/list');
    if (hit === undefined) return { listed: false };
    this.#adopt(hit.value);
    return { listed: true, tool: this.#known.get(name) };
  }

  /** Cache keys of this connection by method and scope, made once (its identity and authorization context do not change). */
  readonly #keys = new Map<string, { readonly public: string; readonly private: string }>();

  #key(method: string, scope: 'public' | 'private'): string {
    let keys = this.#keys.get(method);
    if (keys === undefined) {
      const { identity, authContext } = this.#connection;
      keys = { public: listCacheKey(method, identity, 'public', authContext), private: listCacheKey(method, identity, 'private', authContext) };
      this.#keys.set(method, keys);
    }
    return keys[scope];
  }

  #readCached<T>(method: string): ListCacheEntry<T> | undefined {
    for (const scope of SCOPES) {
      const key = this.#key(method, scope);
      const entry = this.#settings.cache.get(key);
      if (entry === undefined) continue;
      if (entry.expiresAt > this.#settings.now()) return entry as ListCacheEntry<T>;
      this.#settings.cache.delete(key);
    }
    return undefined;
  }

  #store(method: string, value: unknown, ttlMs: number, cacheScope: 'public' | 'private'): void {
    if (ttlMs <= 0) return;
    this.#settings.cache.set(this.#key(method, cacheScope), { value, expiresAt: this.#settings.now() + ttlMs, cacheScope });
  }

  async #fetchAllPages(signal: AbortSignal, restarted: boolean): Promise<ToolListing> {
    const raw: unknown[] = [];
    const seen = new Set<string>();
    let cursor: string | undefined;
    let ttlMs = Number.POSITIVE_INFINITY;
    const scopes = new Set<'public' | 'private'>();
    let pages = 0;
    for (;;) {
      if (pages >= this.#settings.maxPages) throw new McpClientError('protocol', `tools/list: more than ${this.#settings.maxPages} pages; stopping`, { method: 'tools/list' });
      let result: JsonObject;
      try {
        result = await this.#exchange.send('tools/list', cursor === undefined ? {} : { cursor }, { signal });
      } catch (error) {
        // An expired cursor invalidates the pages read so far (C-08): start over once.
        if (!restarted && cursor !== undefined && error instanceof McpClientError && error.code === ErrorCode.InvalidParams) return this.#fetchAllPages(signal, true);
        throw error;
      }
      pages++;
      resultTypeOf(result, 'tools/list');
      if (!Array.isArray(result.tools)) throw new McpClientError('protocol', `tools/list: result has no "tools" array (page ${pages})`, { method: 'tools/list' });
      checkToolEntries(result.tools, pages);
      raw.push(...result.tools);
      ttlMs = Math.min(ttlMs, readTtl(result.ttlMs));
      scopes.add(scopeOf(result.cacheScope ?? 'private', 'tools/list'));
      const next = result.nextCursor;
      // Only an absent nextCursor ends the list; "" is a real cursor (C-09).
      if (next === undefined || next === null) break;
      if (typeof next !== 'string') throw new McpClientError('protocol', `tools/list: nextCursor must be a string, got ${describeShape(next)}`, { method: 'tools/list' });
      if (seen.has(next)) throw new McpClientError('protocol', `tools/list: the server returned cursor ${JSON.stringify(next)} twice; stopping`, { method: 'tools/list' });
      seen.add(next);
      cursor = next;
    }
    if (scopes.size > 1) this.#settings.warn({ code: 'mixed-cache-scope', message: 'tools/list pages disagree on cacheScope; the list is treated as private' });
    const cacheScope = scopes.has('private') ? 'private' : 'public';
    return this.#classify(raw, ttlMs === Number.POSITIVE_INFINITY ? 0 : ttlMs, cacheScope, pages);
  }

  /** Header annotations only matter on modern HTTP; stdio and legacy sessions have no `Mcp-Param-*` headers. */
  #headersApply(): boolean {
    return this.#connection.kind === 'http' && this.#exchange.state?.era !== 'legacy';
  }

  #classify(raw: unknown[], ttlMs: number, cacheScope: 'public' | 'private', pages: number): ToolListing {
    const tools: ToolDescriptor[] = [];
    const excluded: ExcludedTool[] = [];
    const next = new Map<string, KnownTool>();
    const headersApply = this.#headersApply();
    for (const entry of raw) {
      const malformed = malformedReason(entry);
      if (malformed !== null) {
        const name = isJsonObject(entry) && typeof entry.name === 'string' ? entry.name : undefined;
        const tool: ExcludedTool = { name, reason: `tool ${name === undefined ? '(unnamed)' : JSON.stringify(name)} ${malformed}`, problems: [], raw: entry };
        excluded.push(tool);
        this.#settings.warn({ code: 'tool-excluded', message: `toolwright client: excluded ${tool.reason}`, ...(name !== undefined ? { tool: name } : {}) });
        continue;
      }
      const descriptor = entry as unknown as ToolDescriptor;
      const scan = scanHeaderAnnotations(descriptor.inputSchema);
      if (headersApply && scan.problems.length > 0) {
        const reason = scan.problems.map((p) => p.message).join('; ');
        const tool: ExcludedTool = { name: descriptor.name, reason, problems: scan.problems, raw: entry };
        excluded.push(tool);
        next.set(descriptor.name, { descriptor, annotations: [], excluded: tool });
        this.#settings.warn({ code: 'tool-excluded', tool: descriptor.name, problems: scan.problems, message: `toolwright client: excluded tool ${JSON.stringify(descriptor.name)}: ${reason}` });
        continue;
      }
      tools.push(descriptor);
      next.set(descriptor.name, { descriptor, annotations: headersApply ? scan.annotations : [] });
    }
    const result: ToolListing = { tools, excluded, raw, ttlMs, cacheScope, pages, fromCache: false };
    this.#known = next;
    this.#knownSource = result;
    return result;
  }

  /** Rebuilds the per-tool index from a listing another client put into a shared cache. */
  #adopt(result: ToolListing): void {
    if (this.#knownSource === result) return;
    const next = new Map<string, KnownTool>();
    const headersApply = this.#headersApply();
    for (const tool of result.excluded) if (tool.name !== undefined && tool.problems.length > 0) next.set(tool.name, { descriptor: tool.raw as ToolDescriptor, annotations: [], excluded: tool });
    for (const descriptor of result.tools) next.set(descriptor.name, { descriptor, annotations: headersApply ? scanHeaderAnnotations(descriptor.inputSchema).annotations : [] });
    this.#known = next;
    this.#knownSource = result;
  }
}
