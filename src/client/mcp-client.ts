/**
 * `connect()`: the client class that ties a transport, the era-aware exchange, the catalog and
 * calls together. Each concern has its own module: exchange.ts (requests and era), catalog.ts
 * (discover, tools/list, caching), call-tool.ts (calls), input-rounds.ts (input requests).
 */
import { isJsonObject } from '../protocol/index.js';
import type { ClientCapabilities, Implementation, JsonObject, JsonRpcNotification } from '../protocol/index.js';
import { callTool, callToolAsTask } from './call-tool.js';
import type { ToolTask } from './tool-task.js';
import type { CallContext } from './call-tool.js';
import { Catalog, resultTypeOf } from './catalog.js';
import { McpClientError } from './client-error.js';
import type { Connection, ServerRequestHandler } from './connection.js';
import { Exchange } from './exchange.js';
import { CLIENT_LEGACY_PROTOCOL_VERSIONS } from '../protocol/versions.js';
import { createHttpConnection } from './http-connection.js';
import type { HttpTarget } from './http-connection.js';
import { clientRequestHandler } from './input-rounds.js';
import { createListCache } from './list-cache.js';
import { createStdioConnection } from './stdio-connection.js';
import type { StdioConnection, StdioTarget } from './stdio-connection.js';
import type {
  CallableTool,
  CallToolOptions,
  ClientOptions,
  ClientWarning,
  ConnectTarget,
  DiscoverInfo,
  McpClient,
  OutputOf,
  ProtocolEra,
  RequestOptions,
  ToolListing,
  TypedCallToolResult,
} from './types.js';

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

function checkOptions(options: ClientOptions): void {
  if (options.era !== undefined && !['auto', 'modern', 'legacy'].includes(options.era)) throw new McpClientError('usage', `connect: era must be "auto", "modern" or "legacy", got ${JSON.stringify(options.era)}`);
  if (options.legacyProtocolVersion !== undefined && !CLIENT_LEGACY_PROTOCOL_VERSIONS.includes(options.legacyProtocolVersion)) {
    throw new McpClientError('usage', `connect: legacyProtocolVersion must be one of ${CLIENT_LEGACY_PROTOCOL_VERSIONS.join(', ')}, got ${JSON.stringify(options.legacyProtocolVersion)}`);
  }
  for (const root of options.roots ?? []) {
    if (!isJsonObject(root) || typeof root.uri !== 'string' || !root.uri.startsWith('file://')) throw new McpClientError('usage', `connect: every root needs a file:// uri, got ${JSON.stringify(root)}`);
  }
}

/** The client behind {@link connect}. */
class Client implements McpClient {
  readonly #connection: Connection;
  readonly #exchange: Exchange;
  readonly #catalog: Catalog;
  readonly #call: CallContext;

  constructor(target: ConnectTarget, options: ClientOptions) {
    checkOptions(options);
    const connection = toConnection(target);
    this.#connection = connection;
    const timeoutMs = options.timeoutMs ?? 60_000;
    const capabilities: ClientCapabilities = { ...options.capabilities, ...(options.roots !== undefined && options.capabilities?.roots === undefined ? { roots: {} } : {}) };
    const warn = options.onWarning ?? ((w: ClientWarning) => process.emitWarning(w.message, { code: `TOOLWRIGHT_${w.code.toUpperCase().replace(/-/g, '_')}` }));
    let catalog: Catalog | undefined;
    this.#exchange = new Exchange(connection, {
      clientInfo: options.clientInfo ?? DEFAULT_CLIENT_INFO,
      capabilities,
      timeoutMs,
      era: options.era ?? 'auto',
      probeTimeoutMs: options.probeTimeoutMs ?? 5000,
      legacyProtocolVersion: options.legacyProtocolVersion ?? CLIENT_LEGACY_PROTOCOL_VERSIONS[0] as string,
      // The GET stream carries what belongs to no call: notifications, and requests such as roots/list (SDK v1
      // servers also send a call's elicitation there), so it is open whenever the client can answer or listens.
      listen: options.onNotification !== undefined || options.onServerRequest !== undefined || ['roots', 'elicitation', 'sampling'].some((name) => capabilities[name] !== undefined),
      onSession: () => catalog?.forgetSessionListing(),
    });
    catalog = new Catalog(connection, this.#exchange, {
      cache: options.cache ?? createListCache(),
      now: options.now ?? Date.now,
      warn,
      maxPages: options.maxPages ?? 1000,
      minListTtlMs: options.minListTtlMs ?? 0,
      timeoutMs,
    });
    this.#catalog = catalog;
    const clientHandler: ServerRequestHandler = clientRequestHandler(options);
    connection.setHandlers({
      onRequest: clientHandler,
      onNotification: (notification: JsonRpcNotification) => {
        // A legacy session's tool list is cached until the server says it changed.
        if (notification.method === 'notifications/tools/list_changed') catalog?.forgetSessionListing();
        options.onNotification?.(notification);
      },
    });
    this.#call = {
      connection,
      exchange: this.#exchange,
      catalog,
      validateOutput: options.validateOutput ?? true,
      maxRounds: options.maxInputRounds ?? 10,
      roots: options.roots,
      clientHandler,
    };
  }

  get transport(): 'http' | 'stdio' {
    return this.#connection.kind;
  }

  get era(): ProtocolEra | undefined {
    return this.#exchange.state?.era;
  }

  get protocolVersion(): string | undefined {
    return this.#exchange.state?.protocolVersion;
  }

  get stdio(): Pick<StdioConnection, 'stderr' | 'strayLines' | 'exit'> | undefined {
    return this.#connection.kind === 'stdio' ? (this.#connection as StdioConnection) : undefined;
  }

  discover(options?: { refresh?: boolean; signal?: AbortSignal }): Promise<DiscoverInfo> {
    return this.#catalog.discover(options);
  }

  listTools(options?: { refresh?: boolean; signal?: AbortSignal }): Promise<ToolListing> {
    return this.#catalog.listTools(options);
  }

  callTool(tool: string | CallableTool, args: Record<string, unknown>, options: CallToolOptions & { task: true }): Promise<ToolTask>;
  callTool<T = unknown>(name: string, args?: Record<string, unknown>, options?: CallToolOptions): Promise<TypedCallToolResult<T>>;
  callTool<const D extends CallableTool>(tool: D, args?: Record<string, unknown>, options?: CallToolOptions): Promise<TypedCallToolResult<OutputOf<D>>>;
  callTool(tool: string | CallableTool, args: Record<string, unknown> = {}, options: CallToolOptions = {}): Promise<TypedCallToolResult<unknown> | ToolTask> {
    const name = typeof tool === 'string' ? tool : isJsonObject(tool) && typeof tool.name === 'string' ? tool.name : '';
    return options.task === true ? callToolAsTask(this.#call, name, args, options) : callTool(this.#call, name, args, options);
  }

  async request(method: string, params: JsonObject = {}, options: RequestOptions = {}): Promise<JsonObject> {
    const result = await this.#exchange.send(method, params, options);
    resultTypeOf(result, method);
    return result;
  }

  invalidateCache(): void {
    this.#catalog.invalidate();
  }

  close(): Promise<void> {
    return this.#connection.close();
  }
}

/**
 * Connects to an MCP server of either era. Nothing is sent until the first call; that call finds
 * the era (see {@link ClientOptions.era}). A stdio target is spawned at once.
 *
 * @example
 * ```ts
 * import { connect } from 'toolwright/client';
 *
 * // Over Streamable HTTP; a stdio server is `connect({ command: 'node', args: ['server.js'] })`.
 * const client = connect('http://127.0.0.1:3000/mcp', { timeoutMs: 10_000 });
 * try {
 *   const { tools } = await client.listTools();
 *   console.log(tools.map((t) => t.name));
 *   const result = await client.callTool('calculate_sum', { a: 2, b: 3 });
 *   console.log(result.isError === true ? 'failed' : result.content);
 * } finally {
 *   await client.close();
 * }
 * ```
 */
export function connect(target: ConnectTarget, options: ClientOptions = {}): McpClient {
  return new Client(target, options);
}
