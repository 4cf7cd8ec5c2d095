import { buildParamHeaders, encodeHeaderValue, ErrorCode, HEADER, isJsonObject, META, PROTOCOL_VERSION, scanHeaderAnnotations } from '../protocol/index.js';
import type {
  CallToolResult,
  ClientCapabilities,
  HeaderAnnotation,
  HeaderAnnotationProblem,
  Implementation,
  InputRequest,
  JsonObject,
  JsonRpcNotification,
  JsonRpcRequest,
  ServerCapabilities,
  ToolDescriptor,
} from '../protocol/index.js';
import { compileSchema } from '../schema/index.js';
import type { CompiledSchema } from '../schema/index.js';
import { McpClientError } from './client-error.js';
import type { Connection } from './connection.js';
import { createHttpConnection } from './http-connection.js';
import type { HttpTarget } from './http-connection.js';
import { createListCache, listCacheKey, readTtl } from './list-cache.js';
import type { ListCache, ListCacheEntry } from './list-cache.js';
import { createStdioConnection } from './stdio-connection.js';
import type { StdioConnection, StdioTarget } from './stdio-connection.js';

/** An `http(s)://` URL, an HTTP target with headers, or a stdio command to spawn. */
export type ConnectTarget = string | URL | HttpTarget | StdioTarget;

/** Something the client noticed but did not fail on. */
export interface ClientWarning {
  code: 'tool-excluded' | 'mixed-cache-scope';
  message: string;
  tool?: string;
  problems?: readonly HeaderAnnotationProblem[];
}

/** Options of {@link connect}. */
export interface ClientOptions {
  /** Sent as `_meta["io.modelcontextprotocol/clientInfo"]` (default `toolwright-client`); `false` sends none (it is optional). */
  clientInfo?: Implementation | false;
  /** Declared on every request; declare `elicitation`/`sampling`/`roots` to receive those input requests (default `{}`). */
  capabilities?: ClientCapabilities;
  /** Per-request timeout in ms (default 60,000); on expiry the request is cancelled. */
  timeoutMs?: number;
  /** Shared cache for list results (default: one per client). */
  cache?: ListCache;
  /** Clock for cache expiry (default `Date.now`). */
  now?: () => number;
  /** Receives warnings, e.g. tools excluded for invalid `x-mcp-header` (default: `process.emitWarning`). */
  onWarning?: (warning: ClientWarning) => void;
  /** Validate `structuredContent` against `outputSchema` (default true). */
  validateOutput?: boolean;
  /** Most `tools/list` pages to follow (default 1000). */
  maxPages?: number;
  /** Most input-required rounds for one call (default 10). */
  maxInputRounds?: number;
}

/** A tool left out of {@link ToolListing.tools}, and why. */
export interface ExcludedTool {
  /** The tool's name when it has one. */
  name: string | undefined;
  reason: string;
  problems: readonly HeaderAnnotationProblem[];
  /** The entry exactly as the server sent it. */
  raw: unknown;
}

/** The result of {@link McpClient.listTools}: every page put together. */
export interface ToolListing {
  /** Usable tools, in server order. */
  tools: ToolDescriptor[];
  /** Tools dropped: malformed entries, and over HTTP those with invalid `x-mcp-header` annotations (R-46). */
  excluded: ExcludedTool[];
  /** Every entry exactly as received, unfiltered (for linters). */
  raw: unknown[];
  /** Smallest `ttlMs` of the pages (0 when absent). */
  ttlMs: number;
  /** `private` if any page said so. */
  cacheScope: 'public' | 'private';
  pages: number;
  /** True when served from the cache without a request. */
  fromCache: boolean;
}

/** `server/discover`, as read by the client. */
export interface DiscoverInfo {
  supportedVersions: string[];
  capabilities: ServerCapabilities;
  instructions?: string;
  serverInfo?: Implementation;
  ttlMs: number;
  cacheScope: 'public' | 'private';
  fromCache: boolean;
}

/** A `notifications/progress` for the call. */
export interface ProgressUpdate {
  progress: number;
  total?: number;
  message?: string;
}

/** Context handed to {@link CallToolOptions.onInputRequired}. */
export interface InputRequiredContext {
  /** 1 for the first input-required result of the call. */
  round: number;
  /** The call's name and arguments, for display ("show inputs before sending", C-07). */
  tool: string;
  arguments: Record<string, unknown>;
  signal: AbortSignal;
}

/** Options of {@link McpClient.callTool}. */
export interface CallToolOptions {
  /** Cancels the call (HTTP: closes the stream; stdio: `notifications/cancelled`). */
  signal?: AbortSignal;
  timeoutMs?: number;
  /** Called for each progress notification; giving it makes the client send a `progressToken`. */
  onProgress?: (update: ProgressUpdate) => void;
  /** Any other notification on the call's stream (e.g. deprecated `notifications/message` logs). */
  onNotification?: (notification: JsonRpcNotification) => void;
  /**
   * Answers an `input_required` result: return one response per key of `inputRequests` (an
   * ElicitResult, CreateMessageResult or ListRootsResult). The client retries with them, the echoed
   * `requestState` and a new request id.
   */
  onInputRequired?: (requests: Record<string, InputRequest>, context: InputRequiredContext) => Promise<Record<string, unknown>> | Record<string, unknown>;
  /** Extra `_meta` keys (e.g. `traceparent`). */
  meta?: JsonObject;
}

/** Options of {@link McpClient.request}. */
export interface RequestOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  headers?: Record<string, string>;
  onNotification?: (notification: JsonRpcNotification) => void;
}

/** A connected MCP 2026-07-28 client. Requests are independent (no session); it may be used concurrently. */
export interface McpClient {
  /** `http` or `stdio`. */
  readonly transport: 'http' | 'stdio';
  /** stdio only: the child's captured stderr, stray stdout lines and exit status. */
  readonly stdio: Pick<StdioConnection, 'stderr' | 'strayLines' | 'exit'> | undefined;
  /** `server/discover` (cached for its `ttlMs`). */
  discover(options?: { refresh?: boolean; signal?: AbortSignal }): Promise<DiscoverInfo>;
  /** Every page of `tools/list`, cached for `ttlMs` honouring `cacheScope`. */
  listTools(options?: { refresh?: boolean; signal?: AbortSignal }): Promise<ToolListing>;
  /** Calls a tool; resolves to a complete, output-validated result, or rejects with McpClientError. */
  callTool(name: string, args?: Record<string, unknown>, options?: CallToolOptions): Promise<CallToolResult>;
  /** Any request with the standard `_meta` and headers; resolves to the raw `result`. */
  request(method: string, params?: JsonObject, options?: RequestOptions): Promise<JsonObject>;
  /** Forgets cached list results of this client's server. */
  invalidateCache(): void;
  /** Stops the stdio child / aborts open HTTP streams. Further calls reject with kind `closed`. */
  close(): Promise<void>;
}

interface KnownTool {
  descriptor: ToolDescriptor;
  annotations: readonly HeaderAnnotation[];
  excluded?: ExcludedTool;
  output?: CompiledSchema | McpClientError;
}

const DEFAULT_CLIENT_INFO: Implementation = { name: 'toolwright-client', version: '0.1.0' };

function toConnection(target: ConnectTarget): Connection {
  if (typeof target === 'string' || target instanceof URL) {
    const text = String(target);
    if (!/^https?:\/\//i.test(text)) throw new McpClientError('usage', `connect: ${JSON.stringify(text)} is not an http(s) URL; for a stdio server pass { command, args }`);
    return createHttpConnection({ url: text });
  }
  if (isJsonObject(target) && 'url' in target) return createHttpConnection(target as HttpTarget);
  if (isJsonObject(target) && 'command' in target) return createStdioConnection(target as StdioTarget);
  throw new McpClientError('usage', 'connect: target must be an http(s) URL, { url, headers? } or { command, args? }');
}

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

/**
 * Connects to an MCP 2026-07-28 server. Nothing is sent until the first call (there is no
 * handshake); a stdio target is spawned at once.
 */
export function connect(target: ConnectTarget, options: ClientOptions = {}): McpClient {
  const connection = toConnection(target);
  const clientInfo = options.clientInfo ?? DEFAULT_CLIENT_INFO;
  const capabilities = options.capabilities ?? {};
  const defaultTimeout = options.timeoutMs ?? 60_000;
  const cache = options.cache ?? createListCache();
  const now = options.now ?? Date.now;
  const warn = options.onWarning ?? ((w: ClientWarning) => process.emitWarning(w.message, { code: `TOOLWRIGHT_${w.code.toUpperCase().replace(/-/g, '_')}` }));
  const validateOutput = options.validateOutput ?? true;
  const maxPages = options.maxPages ?? 1000;
  const maxRounds = options.maxInputRounds ?? 10;
  let nextId = 1;
  let known = new Map<string, KnownTool>();
  let knownSource: ToolListing | undefined;
  let listing: Promise<ToolListing> | undefined;

  function baseMeta(extra?: JsonObject): JsonObject {
    const meta: JsonObject = { ...extra, [META.protocolVersion]: PROTOCOL_VERSION, [META.clientCapabilities]: capabilities };
    if (clientInfo !== false) meta[META.clientInfo] = clientInfo;
    return meta;
  }

  /** One request/response exchange; JSON-RPC errors become McpClientError kind `rpc`. */
  async function exchange(method: string, params: JsonObject, opts: RequestOptions & { meta?: JsonObject }): Promise<JsonObject> {
    const id = nextId++;
    const fullParams: JsonObject = { ...params, _meta: baseMeta({ ...(isJsonObject(params._meta) ? params._meta : {}), ...opts.meta }) };
    const request: JsonRpcRequest = { jsonrpc: '2.0', id, method, params: fullParams };
    const headers: Record<string, string> = { ...opts.headers };
    if (connection.kind === 'http') {
      headers['MCP-Protocol-Version'] = PROTOCOL_VERSION;
      headers['Mcp-Method'] = method;
      const name = method === 'resources/read' ? params.uri : method === 'tools/call' || method === 'prompts/get' ? params.name : undefined;
      if (typeof name === 'string') headers['Mcp-Name'] = encodeHeaderValue(name);
    }
    const timeoutMs = opts.timeoutMs ?? defaultTimeout;
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = opts.signal === undefined ? timeout : AbortSignal.any([opts.signal, timeout]);
    let received;
    try {
      received = await connection.send(request, { headers, signal, onNotification: opts.onNotification ?? (() => {}) });
    } catch (error) {
      if (error instanceof McpClientError) throw error;
      if (timeout.aborted && !(opts.signal?.aborted ?? false)) throw new McpClientError('timeout', `${method}: no response within ${timeoutMs} ms; the request was cancelled`, { method });
      if (opts.signal?.aborted) {
        const reason = opts.signal.reason;
        throw new McpClientError('aborted', `${method}: cancelled by the caller${reason instanceof Error && reason.message ? ` (${reason.message})` : ''}`, { method, cause: reason });
      }
      throw new McpClientError('transport', `${method}: ${error instanceof Error ? error.message : String(error)}`, { method, cause: error });
    }
    const { message, httpStatus } = received;
    if ('error' in message) {
      const err = message.error;
      if (!isJsonObject(err) || typeof err.code !== 'number' || typeof err.message !== 'string') {
        throw new McpClientError('protocol', `${method}: malformed JSON-RPC error ${JSON.stringify(err)}`, { method, ...(httpStatus !== undefined ? { httpStatus } : {}) });
      }
      throw new McpClientError('rpc', `${method} failed: ${err.message} (JSON-RPC ${err.code}${httpStatus !== undefined ? `, HTTP ${httpStatus}` : ''})`, {
        method,
        code: err.code,
        data: err.data,
        serverMessage: err.message,
        ...(httpStatus !== undefined ? { httpStatus } : {}),
      });
    }
    if (!isJsonObject(message.result)) throw new McpClientError('protocol', `${method}: result is ${describeShape(message.result)}, not an object`, { method });
    return message.result;
  }

  function resultTypeOf(result: JsonObject, method: string): 'complete' | 'input_required' {
    // A missing resultType comes from a pre-2026 server and means complete (C-02).
    const type = result.resultType ?? 'complete';
    if (type === 'complete' || (type === 'input_required' && ['tools/call', 'prompts/get', 'resources/read'].includes(method))) return type;
    throw new McpClientError('protocol', `${method}: unexpected resultType ${JSON.stringify(type)}`, { method, data: result });
  }

  function readCached<T>(method: string): ListCacheEntry<T> | undefined {
    for (const scope of ['private', 'public'] as const) {
      const key = listCacheKey(method, connection.identity, scope, connection.authContext);
      const entry = cache.get(key);
      if (entry === undefined) continue;
      if (entry.expiresAt > now()) return entry as ListCacheEntry<T>;
      cache.delete(key);
    }
    return undefined;
  }

  function store(method: string, value: unknown, ttlMs: number, cacheScope: 'public' | 'private'): void {
    if (ttlMs <= 0) return;
    cache.set(listCacheKey(method, connection.identity, cacheScope, connection.authContext), { value, expiresAt: now() + ttlMs, cacheScope });
  }

  function scopeOf(value: unknown, method: string): 'public' | 'private' {
    if (value === 'public' || value === 'private') return value;
    throw new McpClientError('protocol', `${method}: cacheScope must be "public" or "private", got ${JSON.stringify(value)}`, { method });
  }

  async function discover(opts: { refresh?: boolean; signal?: AbortSignal } = {}): Promise<DiscoverInfo> {
    if (opts.refresh !== true) {
      const hit = readCached<DiscoverInfo>('server/discover');
      if (hit !== undefined) return { ...hit.value, fromCache: true };
    }
    const result = await exchange('server/discover', {}, opts.signal === undefined ? {} : { signal: opts.signal });
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
    store('server/discover', info, info.ttlMs, info.cacheScope);
    return info;
  }

  async function fetchAllPages(signal: AbortSignal | undefined, restarted: boolean): Promise<ToolListing> {
    const raw: unknown[] = [];
    const seen = new Set<string>();
    let cursor: string | undefined;
    let ttlMs = Number.POSITIVE_INFINITY;
    const scopes = new Set<'public' | 'private'>();
    let pages = 0;
    for (;;) {
      if (pages >= maxPages) throw new McpClientError('protocol', `tools/list: more than ${maxPages} pages; stopping`, { method: 'tools/list' });
      let result: JsonObject;
      try {
        result = await exchange('tools/list', cursor === undefined ? {} : { cursor }, signal === undefined ? {} : { signal });
      } catch (error) {
        // An expired cursor invalidates the pages read so far (C-08): start over once.
        if (!restarted && cursor !== undefined && error instanceof McpClientError && error.code === ErrorCode.InvalidParams) return fetchAllPages(signal, true);
        throw error;
      }
      pages++;
      resultTypeOf(result, 'tools/list');
      if (!Array.isArray(result.tools)) throw new McpClientError('protocol', `tools/list: result has no "tools" array (page ${pages})`, { method: 'tools/list' });
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
    if (scopes.size > 1) warn({ code: 'mixed-cache-scope', message: 'tools/list pages disagree on cacheScope; the list is treated as private' });
    const cacheScope = scopes.has('private') ? 'private' : 'public';
    return classify(raw, ttlMs === Number.POSITIVE_INFINITY ? 0 : ttlMs, cacheScope, pages);
  }

  function classify(raw: unknown[], ttlMs: number, cacheScope: 'public' | 'private', pages: number): ToolListing {
    const tools: ToolDescriptor[] = [];
    const excluded: ExcludedTool[] = [];
    const next = new Map<string, KnownTool>();
    for (const entry of raw) {
      const malformed = malformedReason(entry);
      if (malformed !== null) {
        const name = isJsonObject(entry) && typeof entry.name === 'string' ? entry.name : undefined;
        const tool: ExcludedTool = { name, reason: `tool ${name === undefined ? '(unnamed)' : JSON.stringify(name)} ${malformed}`, problems: [], raw: entry };
        excluded.push(tool);
        warn({ code: 'tool-excluded', message: `toolwright client: excluded ${tool.reason}`, ...(name !== undefined ? { tool: name } : {}) });
        continue;
      }
      const descriptor = entry as unknown as ToolDescriptor;
      const scan = scanHeaderAnnotations(descriptor.inputSchema);
      // stdio has no headers, so the annotation has no effect there (R-92) and cannot disqualify a tool.
      if (connection.kind === 'http' && scan.problems.length > 0) {
        const reason = scan.problems.map((p) => p.message).join('; ');
        const tool: ExcludedTool = { name: descriptor.name, reason, problems: scan.problems, raw: entry };
        excluded.push(tool);
        next.set(descriptor.name, { descriptor, annotations: [], excluded: tool });
        warn({ code: 'tool-excluded', tool: descriptor.name, problems: scan.problems, message: `toolwright client: excluded tool ${JSON.stringify(descriptor.name)}: ${reason}` });
        continue;
      }
      tools.push(descriptor);
      next.set(descriptor.name, { descriptor, annotations: connection.kind === 'http' ? scan.annotations : [] });
    }
    const result: ToolListing = { tools, excluded, raw, ttlMs, cacheScope, pages, fromCache: false };
    known = next;
    knownSource = result;
    return result;
  }

  /** Rebuilds the per-tool index from a listing another client put into a shared cache. */
  function adopt(result: ToolListing): void {
    if (knownSource === result) return;
    const next = new Map<string, KnownTool>();
    for (const tool of result.excluded) if (tool.name !== undefined && tool.problems.length > 0) next.set(tool.name, { descriptor: tool.raw as ToolDescriptor, annotations: [], excluded: tool });
    for (const descriptor of result.tools) next.set(descriptor.name, { descriptor, annotations: connection.kind === 'http' ? scanHeaderAnnotations(descriptor.inputSchema).annotations : [] });
    known = next;
    knownSource = result;
  }

  async function listTools(opts: { refresh?: boolean; signal?: AbortSignal } = {}): Promise<ToolListing> {
    if (opts.refresh !== true) {
      const hit = readCached<ToolListing>('tools/list');
      if (hit !== undefined) {
        adopt(hit.value);
        return { ...hit.value, fromCache: true };
      }
      // Concurrent callers share one listing in flight.
      if (listing !== undefined) return listing;
    }
    const pending = fetchAllPages(opts.signal, false).then((result) => {
      store('tools/list', result, result.ttlMs, result.cacheScope);
      return result;
    });
    listing = pending;
    try {
      return await pending;
    } finally {
      if (listing === pending) listing = undefined;
    }
  }

  async function knownTool(name: string, refresh: boolean, signal: AbortSignal | undefined): Promise<KnownTool | undefined> {
    await listTools({ refresh, ...(signal !== undefined ? { signal } : {}) });
    return known.get(name);
  }

  function outputValidator(tool: KnownTool): CompiledSchema | McpClientError | undefined {
    const schema = tool.descriptor.outputSchema;
    if (schema === undefined) return undefined;
    if (tool.output === undefined) {
      try {
        tool.output = compileSchema(schema);
      } catch (error) {
        tool.output = new McpClientError('output_invalid', `tool ${JSON.stringify(tool.descriptor.name)}: its outputSchema cannot be compiled, so the result cannot be validated: ${error instanceof Error ? error.message : String(error)}`, { method: 'tools/call' });
      }
    }
    return tool.output;
  }

  function checkCallResult(result: JsonObject, tool: KnownTool | undefined, name: string): CallToolResult {
    if (!Array.isArray(result.content)) throw new McpClientError('protocol', `tools/call ${name}: result has no "content" array`, { method: 'tools/call', data: result });
    if (result.isError !== undefined && typeof result.isError !== 'boolean') throw new McpClientError('protocol', `tools/call ${name}: isError must be a boolean`, { method: 'tools/call', data: result });
    const call = { ...result, resultType: 'complete' } as unknown as CallToolResult;
    // An error result explains a failure; it is not bound by the output contract (A-17).
    if (!validateOutput || tool === undefined || call.isError === true) return call;
    const validator = outputValidator(tool);
    if (validator === undefined) return call;
    if (validator instanceof McpClientError) throw validator;
    if (!('structuredContent' in result)) {
      throw new McpClientError('output_invalid', `tool ${JSON.stringify(name)} declares an outputSchema but returned no structuredContent`, { method: 'tools/call', data: result });
    }
    const check = validator.validate(result.structuredContent);
    if (!check.valid) {
      throw new McpClientError('output_invalid', `tool ${JSON.stringify(name)} returned structuredContent that breaks its outputSchema: ${check.errors.map((e) => e.message).join('; ')}`, {
        method: 'tools/call',
        errors: check.errors,
        data: result,
      });
    }
    return call;
  }

  async function callTool(name: string, args: Record<string, unknown> = {}, opts: CallToolOptions = {}): Promise<CallToolResult> {
    if (typeof name !== 'string' || name === '') throw new McpClientError('usage', 'callTool: the tool name must be a non-empty string', { method: 'tools/call' });
    if (!isJsonObject(args)) throw new McpClientError('usage', `callTool: arguments must be an object, got ${describeShape(args)}`, { method: 'tools/call' });
    let tool = await knownTool(name, false, opts.signal);
    if (tool?.excluded !== undefined) throw new McpClientError('tool_excluded', `tool ${JSON.stringify(name)} was excluded: ${tool.excluded.reason}`, { method: 'tools/call', data: tool.excluded.problems });
    const progressToken = opts.onProgress === undefined ? undefined : `tw-${Math.random().toString(36).slice(2)}`;
    const onNotification = (notification: JsonRpcNotification): void => {
      const params = notification.params;
      if (notification.method === 'notifications/progress' && opts.onProgress !== undefined && isJsonObject(params) && params.progressToken === progressToken && typeof params.progress === 'number') {
        opts.onProgress({
          progress: params.progress,
          ...(typeof params.total === 'number' ? { total: params.total } : {}),
          ...(typeof params.message === 'string' ? { message: params.message } : {}),
        });
        return;
      }
      opts.onNotification?.(notification);
    };
    let retry: { inputResponses?: Record<string, unknown>; requestState?: string } = {};
    let headerRetried = false;
    for (let round = 0; ; ) {
      const params: JsonObject = { name, arguments: args, ...retry };
      const meta: JsonObject = { ...opts.meta, ...(progressToken !== undefined ? { [META.progressToken]: progressToken } : {}) };
      const headers = connection.kind === 'http' && tool !== undefined ? buildParamHeaders(tool.annotations, args) : {};
      let result: JsonObject;
      try {
        result = await exchange('tools/call', params, {
          headers,
          meta,
          onNotification,
          ...(opts.signal !== undefined ? { signal: opts.signal } : {}),
          ...(opts.timeoutMs !== undefined ? { timeoutMs: opts.timeoutMs } : {}),
        });
      } catch (error) {
        // Headers were built from a stale tool list: refresh it and retry once (C-05, R-88).
        if (!headerRetried && error instanceof McpClientError && error.code === ErrorCode.HeaderMismatch && connection.kind === 'http') {
          headerRetried = true;
          tool = await knownTool(name, true, opts.signal);
          if (tool?.excluded !== undefined) throw new McpClientError('tool_excluded', `tool ${JSON.stringify(name)} was excluded: ${tool.excluded.reason}`, { method: 'tools/call', data: tool.excluded.problems });
          continue;
        }
        throw error;
      }
      if (resultTypeOf(result, 'tools/call') === 'complete') return checkCallResult(result, tool, name);
      round++;
      if (round > maxRounds) throw new McpClientError('input_required', `tool ${JSON.stringify(name)} still asks for input after ${maxRounds} rounds; giving up`, { method: 'tools/call', data: result });
      const requests = isJsonObject(result.inputRequests) ? (result.inputRequests as Record<string, InputRequest>) : {};
      const state = result.requestState;
      if (state !== undefined && typeof state !== 'string') throw new McpClientError('protocol', 'tools/call: requestState must be a string', { method: 'tools/call', data: result });
      let responses: Record<string, unknown> | undefined;
      if (Object.keys(requests).length > 0) {
        if (opts.onInputRequired === undefined) {
          throw new McpClientError('input_required', `tool ${JSON.stringify(name)} needs input (${Object.values(requests).map((r) => r.method).join(', ')}) and no onInputRequired handler was given`, { method: 'tools/call', data: result });
        }
        try {
          responses = await opts.onInputRequired(requests, { round, tool: name, arguments: args, signal: opts.signal ?? new AbortController().signal });
        } catch (error) {
          throw new McpClientError('input_required', `onInputRequired failed: ${error instanceof Error ? error.message : String(error)}`, { method: 'tools/call', cause: error, data: result });
        }
        const missing = Object.keys(requests).filter((key) => !isJsonObject(responses) || !(key in responses));
        if (missing.length > 0) throw new McpClientError('input_required', `onInputRequired did not answer ${missing.map((k) => JSON.stringify(k)).join(', ')}; every input request needs a response`, { method: 'tools/call', data: result });
      }
      // The retry carries exactly this round's answers and the state echoed byte for byte (C-04); exchange() gives it a new id.
      retry = { ...(responses !== undefined ? { inputResponses: responses } : {}), ...(state !== undefined ? { requestState: state } : {}) };
    }
  }

  async function request(method: string, params: JsonObject = {}, opts: RequestOptions = {}): Promise<JsonObject> {
    const result = await exchange(method, params, opts);
    resultTypeOf(result, method);
    return result;
  }

  return {
    transport: connection.kind,
    stdio: connection.kind === 'stdio' ? (connection as StdioConnection) : undefined,
    discover,
    listTools,
    callTool,
    request,
    invalidateCache() {
      for (const method of ['tools/list', 'server/discover']) {
        for (const scope of ['public', 'private'] as const) cache.delete(listCacheKey(method, connection.identity, scope, connection.authContext));
      }
    },
    close: () => connection.close(),
  };
}
