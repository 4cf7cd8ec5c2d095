/**
 * `createServer`: the wiring. Options are resolved once (server-config.ts); the routes come from
 * the one route list (routes/route-list.ts), the call stages from the one stage list, and the era
 * routers (era-router/) put the pipeline and the 2025 wire (legacy/) behind each transport. The
 * server's life around its requests (warm-up, middleware, shutdown) is server-lifecycle.ts.
 */
import { SUPPORTED_PROTOCOL_VERSIONS } from '../protocol/versions.js';
import type { JsonObject } from '../protocol/json-rpc.js';
import type { ServerCapabilities, ToolDescriptor } from '../protocol/wire-types.js';
import { createFetchHandler } from '../transport/fetch-handler.js';
import type { InboundMessage, MessageDispatcher, Reply } from '../transport/message-dispatcher.js';
import { listenHttp } from '../transport/node-http.js';
import type { HttpListener, ListenOptions } from '../transport/node-http.js';
import { serveStdio } from '../transport/stdio.js';
import type { StdioConnection, StdioOptions } from '../transport/stdio.js';
import { createFrontDoor } from './era-router/front-door.js';
import { createHttpEraRouter } from './era-router/http.js';
import { refuseModern } from './era-router/refusals.js';
import { createStdioEraRouter } from './era-router/stdio.js';
import { resolveEras } from './eras.js';
import type { Era } from './eras.js';
import { createLegacyHttpWire, LegacySessionWire, StdioLegacySession } from './legacy/index.js';
import type { LegacyHttpWire } from './legacy/index.js';
import { createApprovalQueue } from './approvals/operator-approvals.js';
import type { ApprovalQueue } from './approvals/operator-approvals.js';
import { createPipeline } from './pipeline/create-pipeline.js';
import { buildRoutes } from './routes/route-list.js';
import { routeTable } from './routes/route.js';
import { forwardListChanges } from './catalog/mount.js';
import type { MountableCatalog } from './catalog/mount.js';
import { remountRegistered } from './catalog/remount.js';
import type { RemountRules } from './catalog/remount.js';
import { resolveSearchSurface } from './search/search-surface.js';
import type { SearchSurface } from './search/search-surface.js';
import type { RegisteredTool } from './tools/tool-registry.js';
import { resolveServerConfig } from './setup/server-config.js';
import { createServerLifecycle } from './setup/server-lifecycle.js';
import type { EraChoice, ServerOptions } from './setup/server-options.js';
import { relayChanges } from './catalog/change-relay.js';
import type { ChangeRelay } from './catalog/change-relay.js';
import type { ChangeNotifier, ListChangedKind } from './catalog/subscriptions.js';
import { TaskEngine } from './pipeline/task-engine.js';
import { detailedTask, TASKS_EXTENSION } from './tasks/task-wire.js';

export type { EraChoice, ServerOptions } from './setup/server-options.js';

/** A Toolwright MCP server. */
export interface McpServer extends MessageDispatcher, ChangeNotifier {
  readonly name: string;
  readonly version: string;
  /**
   * Every tool descriptor, in list order: the full catalog, including tools whose `visibleTo`
   * hides them from some callers (what one caller's `tools/list` shows is a subset of this).
   */
  readonly tools: readonly Readonly<ToolDescriptor>[];
  /** Same as `tools`. */
  listToolDescriptors(): readonly Readonly<ToolDescriptor>[];
  /** Runs one message through the pipeline (for custom transports). */
  handleMessage(message: InboundMessage): Promise<Reply>;
  /** Streamable HTTP on node:http (default `127.0.0.1`, free port, path `/mcp`). */
  listen(options?: ListenOptions & EraChoice): Promise<HttpListener>;
  /** Newline-delimited JSON-RPC on stdin/stdout; the first message chooses the era of the connection. */
  stdio(options?: StdioOptions & EraChoice): StdioConnection;
  /** The eras this server serves by default. */
  readonly eras: ReadonlySet<Era>;
  /** True when the server has an `authorize` option (every HTTP request must then be authenticated). */
  readonly authorizes: boolean;
  /** Web-standard handler sharing the same pipeline. */
  fetch(request: Request): Promise<Response>;
  /** Calls held open for an out-of-band operator (`ctx.approvals.awaitOperator`, `approver: 'operator'`): list, decide, listen. */
  readonly approvals: ApprovalQueue;
  /**
   * What another server's `mount` option takes from this one (docs/compose.md): the tools, resources
   * and prompts as defined, the lists it announces, and a listener on its `notifyListChanged`.
   */
  readonly mountable: MountableCatalog;
  /** Closes every listener and stdio connection this server opened (calls waiting for an operator are refused first), then each middleware's `close()`. */
  close(): Promise<void>;
}

/**
 * Creates a server for MCP 2026-07-28. Every tool definition is checked now; a bad definition
 * throws {@link ServerDefinitionError} naming the tool and the problem. Validator code is generated
 * on first use, and in the background once the first message is answered (or shortly after
 * `listen()`, `stdio()` or `fetch()` starts serving when no message comes).
 *
 * @example
 * ```ts
 * import { createServer, defineTool } from 'toolwright';
 *
 * const sum = defineTool({
 *   name: 'calculate_sum',
 *   inputSchema: { type: 'object', properties: { a: { type: 'integer' }, b: { type: 'integer' } }, required: ['a', 'b'] } as const,
 *   run: ({ a, b }) => `${a + b}`,
 * });
 * const server = createServer({ name: 'demo', version: '1.0.0', tools: [sum] });
 * const { url } = await server.listen({ port: 3000 });
 * console.log(`serving ${url}`);
 * ```
 */
export function createServer(options: ServerOptions): McpServer {
  const config = resolveServerConfig(options);
  const { store, logger, clock, features, resultMeta, ttlMs, cacheScope } = config;
  const approvals = createApprovalQueue({
    store, clock, maxTimeoutMs: config.approvalTtlMs,
    onListenerError: (error) => logger.error('approval queue listener threw', { reason: error instanceof Error ? error.message : String(error) }),
  });
  // Change and task notifications reach the streams of every instance sharing the store (store/change-relay.ts).
  const announces = features.announced.listChanged.size > 0 || config.resourceUpdates || config.hasTasks;
  const changes: ChangeRelay = announces
    ? relayChanges(features.hub, store, (what, error) => logger.error(`change notifications: ${what}`, { error: error instanceof Error ? error.message : String(error) }))
    : {
        notifyListChanged: (kind: ListChangedKind) => features.hub.notifyListChanged(kind),
        notifyResourceUpdated: (uri: string) => features.hub.notifyResourceUpdated(uri),
        notifyTask: (owner: string, taskId: string, detail: JsonObject) => features.hub.notifyTask(owner, taskId, detail),
        ready: Promise.resolve(),
        close: async () => undefined,
      };
  const tasks = config.hasTasks
    ? new TaskEngine(config.tasks, { store, clock, logger, onChange: (record) => changes.notifyTask(record.owner, record.taskId, detailedTask(record)) })
    : undefined;
  const capabilities: ServerCapabilities = { tools: {}, logging: {}, ...features.capabilities };
  if (tasks !== undefined) capabilities.extensions = { ...capabilities.extensions, [TASKS_EXTENSION]: {} };
  const discover: JsonObject = { resultType: 'complete', supportedVersions: [...SUPPORTED_PROTOCOL_VERSIONS], capabilities, ttlMs, cacheScope, _meta: resultMeta };
  if (config.instructions !== undefined) discover.instructions = config.instructions;
  // The tool list, its routes and the pipeline reading them are replaced together when a mount's tools change (remount.ts).
  let registered = config.registered;
  let descriptors = Object.freeze(registered.map((t) => t.descriptor));
  // What a server mounting this one reads: made once per list, not at every read.
  let mountedTools = Object.freeze(registered.map((r) => r.tool));
  let search = config.search;
  const pipelineFor = (tools: readonly RegisteredTool[], surface: SearchSurface | undefined): ((message: InboundMessage) => Promise<Reply>) => {
    const routes = buildRoutes({
      discover,
      tools,
      listed: surface?.listed,
      toolList: { pageSize: config.pageSize, ttlMs, cacheScope, resultMeta },
      features,
      featureEnv: { ttlMs, cacheScope, signer: config.signer, store, inputTtlMs: config.approvalTtlMs, challenge: config.approverTrust.challenge, approverTrust: config.approverTrust, logger },
      tasks,
    });
    return createPipeline({
      tools,
      views: features.views,
      routes: routeTable(routes),
      resultMeta,
      authorize: config.authorize,
      resourceMetadataUrl: config.resourceMetadataUrl,
      onStageEvent: config.onStageEvent,
      logger,
      signer: config.signer,
      approvalTtlMs: config.approvalTtlMs,
      store,
      approverTrust: config.approverTrust,
      approvals,
      tasks,
      search: surface,
    });
  };
  let pipeline = pipelineFor(registered, search);
  const lifecycle = createServerLifecycle(config.registered, config.middleware, logger);

  // Dual era: the era routers (era-router/) send 2025 sessions to legacy/, which translates them onto the same pipeline.
  // The pipeline's first answer starts the background validator build; then the entry is the pipeline itself.
  const current = (message: InboundMessage): Promise<Reply> => pipeline(message);
  let modernEntry = (message: InboundMessage): Promise<Reply> => {
    modernEntry = current;
    const reply = pipeline(message);
    reply.then(lifecycle.startWarming, lifecycle.startWarming);
    return reply;
  };
  const modern = (message: InboundMessage): Promise<Reply> => modernEntry(message);
  const legacyOnly = (message: InboundMessage): Promise<Reply> => Promise.resolve(refuseModern(message));
  const modernFor = (served: ReadonlySet<Era>): ((message: InboundMessage) => Promise<Reply>) => (served.has('modern') ? modern : legacyOnly);
  const sessionWire = new LegacySessionWire(modern, { serverInfo: config.serverInfo, capabilities, instructions: config.instructions, tools: descriptors }, features.hub, config.legacy);
  // 2025 sessions' requests (initialize, calls, GET, DELETE, ...) are authenticated per request, once, in front of the wire.
  const frontDoor = createFrontDoor({ authorize: config.authorize, challenge: config.approverTrust.challenge, logger });
  const httpWires = new Map<string, LegacyHttpWire>();
  const routers = new Map<string, MessageDispatcher>();
  const dispatcherFor = (served: ReadonlySet<Era>): MessageDispatcher => {
    const key = [...served].sort().join();
    let router = routers.get(key);
    if (router === undefined) {
      let legacy: LegacyHttpWire | undefined;
      if (served.has('legacy')) {
        legacy = createLegacyHttpWire(sessionWire, config.legacy, { store, clock, logger });
        httpWires.set(key, legacy);
      }
      router = createHttpEraRouter({ modern: modernFor(served), modernServed: served.has('modern'), legacy, frontDoor });
      routers.set(key, router);
    }
    return router;
  };
  const defaultDispatcher = dispatcherFor(config.eras);

  const listeners = new Set<HttpListener>();
  const connections = new Set<StdioConnection>();
  let fetchHandler: ((request: Request) => Promise<Response>) | undefined;

  const changeListeners = new Set<(kind: ListChangedKind) => void>();
  const mountable: MountableCatalog = Object.freeze({
    get tools() {
      return mountedTools;
    },
    resources: Object.freeze([...features.catalog.resources.values(), ...features.catalog.templates]),
    prompts: Object.freeze([...features.catalog.prompts.values()]),
    listChanged: Object.freeze([...features.announced.listChanged]),
    onListChanged(listener: (kind: ListChangedKind) => void) {
      changeListeners.add(listener);
      return () => { changeListeners.delete(listener); };
    },
  });
  const notifyListChanged = (kind: ListChangedKind): number => {
    const sent = changes.notifyListChanged(kind);
    for (const listener of changeListeners) listener(kind);
    return sent;
  };
  const remountRules: RemountRules = {
    own: config.registered.slice(0, config.registered.length - config.mounts.tools.length),
    sources: config.mounts.sources,
    canAuthorize: config.authorize !== undefined,
    use: config.use,
    hasTasks: config.hasTasks,
    visibility: new Set(config.registered.flatMap((r) => (r.tool.visibleTo !== undefined ? [r.tool.visibleTo] : []))),
    middleware: new Set(config.middleware),
    report: (message, detail) => logger.error(message, detail),
  };
  /** A mount's tools changed: read them again, and serve the new list from the next message on. */
  const remount = (): void => {
    registered = remountRegistered(remountRules, registered);
    descriptors = Object.freeze(registered.map((t) => t.descriptor));
    mountedTools = Object.freeze(registered.map((r) => r.tool));
    search = resolveSearchSurface(config.searchOption, registered, features.views, { canAuthorize: config.authorize !== undefined, use: config.use });
    pipeline = pipelineFor(registered, search);
    sessionWire.toolsChanged(descriptors);
  };
  // A mounted server's list changes reach this server's callers (its views judge each caller's list), at a
  // bounded rate; a tools change recompiles the list first, so a caller that lists again sees the new one.
  const stopForwarding = forwardListChanges(config.mounts.sources, (kind) => {
    if (kind === 'tools') {
      try {
        remount();
      } catch (error) {
        logger.error('mounted tools could not be read again; the previous list is still served', { error: error instanceof Error ? error.message : String(error) });
      }
    }
    notifyListChanged(kind);
  });

  const server: McpServer = {
    name: config.serverInfo.name,
    version: config.serverInfo.version,
    get tools() {
      return descriptors;
    },
    listToolDescriptors: () => descriptors,
    notifyListChanged,
    mountable,
    notifyResourceUpdated: (uri) => changes.notifyResourceUpdated(uri),
    eras: config.eras,
    authorizes: config.authorize !== undefined,
    approvals,
    handleMessage: (message) => defaultDispatcher.handleMessage(message),
    async listen({ eras: served, ...listenOptions } = {}) {
      lifecycle.openForServing();
      // Listening means hearing the other instances' change notifications too.
      await changes.ready;
      const listener = await listenHttp(served === undefined ? defaultDispatcher : dispatcherFor(resolveEras(served)), { ...config.http, ...listenOptions });
      listeners.add(listener);
      lifecycle.warmWhenIdle();
      return {
        ...listener,
        close: async () => {
          listeners.delete(listener);
          await listener.close();
        },
      };
    },
    stdio({ eras: served, ...stdioOptions } = {}) {
      lifecycle.openForServing();
      const chosen = served === undefined ? config.eras : resolveEras(served);
      const legacy = chosen.has('legacy') ? new StdioLegacySession(sessionWire, config.legacy.maxBatchSize) : undefined;
      const router = createStdioEraRouter(modernFor(chosen), legacy, chosen.has('modern'));
      const connection = serveStdio(router, stdioOptions);
      router.attach(connection.send);
      connections.add(connection);
      lifecycle.warmWhenIdle();
      void connection.closed.then(() => {
        router.close();
        connections.delete(connection);
      });
      return connection;
    },
    fetch(request) {
      if (fetchHandler === undefined) {
        try {
          lifecycle.openForServing();
        } catch (error) {
          return Promise.reject(error);
        }
        fetchHandler = createFetchHandler(defaultDispatcher, config.http);
        lifecycle.warmWhenIdle();
      }
      return fetchHandler(request);
    },
    close: () => {
      stopForwarding();
      return lifecycle.close({ approvals, tasks, changes, hub: features.hub, httpWires: httpWires.values(), connections, listeners });
    },
  };
  return server;
}
