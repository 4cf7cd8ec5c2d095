import { createHash } from 'node:crypto';
import { META, SUPPORTED_PROTOCOL_VERSIONS } from '../protocol/constants.js';
import type { JsonObject } from '../protocol/json-rpc.js';
import type { Icon, Implementation, ServerCapabilities, ToolDescriptor } from '../protocol/wire-types.js';
import { createFetchHandler } from '../transport/fetch-handler.js';
import { checkHttpOptions, type HttpOptions } from '../transport/http-policy.js';
import type { InboundMessage, MessageDispatcher, Reply } from '../transport/message-dispatcher.js';
import { listenHttp } from '../transport/node-http.js';
import type { HttpListener, ListenOptions } from '../transport/node-http.js';
import { serveStdio } from '../transport/stdio.js';
import type { StdioConnection, StdioOptions } from '../transport/stdio.js';
import { createPipeline } from './pipeline/create-pipeline.js';
import { challengeParamsFor, protectedResourceOf } from './auth/protected-resource.js';
import { gateSessions } from './auth/session-gate.js';
import type { Authorizer, MethodRoute, ServerLogger, Stop } from './pipeline/create-pipeline.js';
import { rpcError } from './outcomes.js';
import { RequestStateSigner } from './request-state.js';
import type { StageEvent } from './stage-events.js';
import { registerTools, warmValidators } from './tool-registry.js';
import { resolveServerFeatures } from './server-features.js';
import { resolveEras } from './eras.js';
import type { Era, ErasSetting } from './eras.js';
import { LegacySessionWire, refuseModern } from './legacy-session.js';
import { createStdioEraSwitch } from './legacy-stdio.js';
import { createLegacyHttpWire, resolveLegacyOptions } from './legacy-wire.js';
import type { LegacyHttpWire, LegacyWireOptions } from './legacy-wire.js';
import type { ServerFeatureOptions } from './server-features.js';
import type { ChangeNotifier, ListChangedKind } from './subscriptions.js';
import type { Tool } from './tool-types.js';
import { createMemoryStore } from './store/memory-store.js';
import { getProcessStore } from './store/process-store.js';
import { relayChanges } from './store/change-relay.js';
import type { ChangeRelay } from './store/change-relay.js';
import type { Clock, Store } from './store/store.js';
import { closeMiddleware, openMiddleware } from './middleware/middleware.js';
import type { Middleware } from './middleware/middleware.js';
import { createApprovalQueue } from './operator-approvals.js';
import type { ApprovalQueue } from './operator-approvals.js';
import { TaskEngine } from './tasks/task-engine.js';
import type { TaskOptions } from './tasks/task-engine.js';
import { taskRoutes } from './tasks/task-routes.js';
import { detailedTask, TASKS_EXTENSION } from './tasks/task-wire.js';

/** Options of {@link createServer}. */
export interface ServerOptions extends ServerFeatureOptions {
  name: string;
  version: string;
  title?: string;
  description?: string;
  websiteUrl?: string;
  icons?: Icon[];
  /** Tools created with `defineTool`. Checked here (any problem throws ServerDefinitionError); validators are built on first use or in the background once serving. */
  tools: readonly Tool<unknown>[];
  /** Guidance for the model, returned by `server/discover`. */
  instructions?: string;
  /**
   * Authenticates each request (bearer tokens on HTTP, e.g. verified with jose; environment on
   * stdio). Return null to refuse (HTTP 401). Required when any tool declares `scopes`.
   */
  authorize?: Authorizer;
  /**
   * RFC 9728 metadata URL advertised in `WWW-Authenticate` challenges (default: the one of the
   * resource `authorize` describes, e.g. `jwtAuthorizer({ resource })`, which `listen()` and
   * `fetch()` then serve).
   */
  resourceMetadataUrl?: string;
  /** Receives one event per pipeline stage per request (audit logs, inspectors). */
  onStageEvent?: (event: StageEvent) => void;
  /** Where server faults are reported (default: JSON lines on stderr). */
  logger?: ServerLogger;
  /** Tools per `tools/list` page (default 100). */
  pageSize?: number;
  /** `ttlMs` of `tools/list` and `server/discover` results (default 60000). */
  listTtlMs?: number;
  /** `cacheScope` of list results (default "public": the tool list is the same for every caller). */
  cacheScope?: 'public' | 'private';
  /**
   * HMAC key (16+ bytes) sealing `requestState` of approvals and `ctx.inputs`. Default: env
   * `TOOLWRIGHT_STATE_SECRET`, else random per process. Several instances behind one endpoint need
   * the same secret and one shared `store`.
   */
  requestStateSecret?: string | Uint8Array;
  /** How long a pending approval or input request stays valid (default 10 minutes). */
  approvalTtlMs?: number;
  /**
   * Memory shared across requests: single-use approvals, rate limits (default: an in-memory store
   * for this process, or the one given by `toolwright serve --store`). Several instances behind one
   * endpoint need one shared store, e.g. `createRedisStore({ url })`.
   */
  store?: Store;
  /** Middleware around every tools/call (outside each tool's own `use`); see `Middleware`. */
  use?: readonly Middleware[];
  /**
   * The tasks extension (`io.modelcontextprotocol/tasks`): TTL, poll interval, bounds. It is on, and
   * advertised, when any tool declares `task` (or when this option is given). Records live in `store`.
   */
  tasks?: TaskOptions;
  /** Time source of approvals and the default store (inject one in tests; default `Date`). */
  clock?: Clock;
  /** Streamable HTTP rules for `fetch()` (and defaults for `listen()`). */
  http?: HttpOptions;
  /**
   * Protocol eras served (digest §1.4), default both: 2026-07-28 requests statelessly, and 2025
   * clients (`initialize`; revisions 2025-03-26, 2025-06-18, 2025-11-25) as sessions on HTTP and
   * per process on stdio. E.g. `'modern'`, `'legacy'`, `['2026-07-28', '2025']`.
   * `listen({ eras })` and `stdio({ eras })` override it per transport.
   */
  eras?: ErasSetting;
  /** Limits of the legacy (2025) wire: sessions, idle timeout, input timeouts and rounds, batch size (2025-03-26), replay buffer per stream (`Last-Event-ID`). */
  legacy?: LegacyWireOptions;
  /**
   * @deprecated Both eras are served by default; use `eras` and `legacy`. `false` means
   * `eras: 'modern'`; an options object means `legacy: options`; `true` changes nothing.
   */
  legacyWire?: boolean | LegacyWireOptions;
}

/** Per-transport choice of eras (`listen({ eras })`, `stdio({ eras })`); default: the server's `eras`. */
export interface EraChoice {
  eras?: ErasSetting;
}

/** A Toolwright MCP server. */
export interface McpServer extends MessageDispatcher, ChangeNotifier {
  readonly name: string;
  readonly version: string;
  /** The tool descriptors exactly as `tools/list` shows them, in list order. */
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
  /** Web-standard handler sharing the same pipeline. */
  fetch(request: Request): Promise<Response>;
  /** Calls held open for an out-of-band operator (`ctx.approvals.awaitOperator`, `approver: 'operator'`): list, decide, listen. */
  readonly approvals: ApprovalQueue;
  /** Closes every listener and stdio connection this server opened (calls waiting for an operator are refused first), then each middleware's `close()`. */
  close(): Promise<void>;
}

const stderrLogger: ServerLogger = {
  error(message, detail) {
    process.stderr.write(`${JSON.stringify({ level: 'error', time: new Date().toISOString(), msg: message, ...detail })}\n`);
  },
};

// How long a serving server with no traffic waits before building its validators in the background.
const WARM_IDLE_MS = 200;

function precomputed(result: JsonObject): Stop {
  return { kind: 'result', outcome: 'respond', result, json: JSON.stringify(result) };
}

/**
 * Creates a server for MCP 2026-07-28. Every tool definition is checked now; a bad definition
 * throws {@link ServerDefinitionError} naming the tool and the problem. Validator code is generated
 * on first use, and in the background once the first message is answered (or shortly after
 * `listen()`, `stdio()` or `fetch()` starts serving when no message comes).
 *
 * @example
 * const server = createServer({ name: 'demo', version: '1.0.0', tools: [sum] });
 * const { url } = await server.listen({ port: 3000 });
 */
export function createServer(options: ServerOptions): McpServer {
  if (typeof options.name !== 'string' || options.name === '') throw new TypeError('createServer: name must be a non-empty string');
  if (typeof options.version !== 'string' || options.version === '') throw new TypeError('createServer: version must be a non-empty string');
  if (options.http !== undefined) checkHttpOptions(options.http);
  const registered = registerTools(options.tools ?? [], { canAuthorize: options.authorize !== undefined, use: options.use });
  const serverInfo: Implementation = { name: options.name, version: options.version };
  if (options.title !== undefined) serverInfo.title = options.title;
  if (options.description !== undefined) serverInfo.description = options.description;
  if (options.websiteUrl !== undefined) serverInfo.websiteUrl = options.websiteUrl;
  if (options.icons !== undefined) serverInfo.icons = options.icons;
  const resultMeta: JsonObject = Object.freeze({ [META.serverInfo]: serverInfo });
  const ttlMs = options.listTtlMs ?? 60_000;
  if (!Number.isInteger(ttlMs) || ttlMs < 0) throw new TypeError('createServer: listTtlMs must be a non-negative integer');
  const cacheScope = options.cacheScope ?? 'public';
  const pageSize = options.pageSize ?? 100;
  if (!Number.isInteger(pageSize) || pageSize < 1) throw new TypeError('createServer: pageSize must be a positive integer');

  const capabilities: ServerCapabilities = { tools: {}, logging: {} };
  const logger = options.logger ?? stderrLogger;
  const signer = new RequestStateSigner(options.requestStateSecret, options.clock);
  const approvalTtlMs = options.approvalTtlMs ?? 10 * 60_000;
  if (!Number.isInteger(approvalTtlMs) || approvalTtlMs < 1) throw new TypeError('createServer: approvalTtlMs must be a positive integer');
  const store = options.store ?? getProcessStore() ?? createMemoryStore({ clock: options.clock });
  const approvals = createApprovalQueue({
    store, clock: options.clock ?? { now: () => Date.now() }, maxTimeoutMs: approvalTtlMs,
    onListenerError: (error) => logger.error('approval queue listener threw', { reason: error instanceof Error ? error.message : String(error) }),
  });
  const hasTasks = options.tasks !== undefined || registered.some((t) => t.tool.task !== undefined);
  const features = resolveServerFeatures(options, { ttlMs, cacheScope, signer, store, inputTtlMs: approvalTtlMs, logger, hasTools: registered.length > 0, hasTasks });
  // Change and task notifications reach the streams of every instance sharing the store (store/change-relay.ts).
  const announces = (options.listChanged?.length ?? 0) > 0 || options.resourceUpdates === true || hasTasks;
  const changes: ChangeRelay = announces
    ? relayChanges(features.hub, store, (what, error) => logger.error(`change notifications: ${what}`, { error: error instanceof Error ? error.message : String(error) }))
    : {
        notifyListChanged: (kind: ListChangedKind) => features.hub.notifyListChanged(kind),
        notifyResourceUpdated: (uri: string) => features.hub.notifyResourceUpdated(uri),
        notifyTask: (owner: string, taskId: string, detail: JsonObject) => features.hub.notifyTask(owner, taskId, detail),
        ready: Promise.resolve(),
        close: async () => undefined,
      };
  Object.assign(capabilities, features.capabilities);
  const tasks = hasTasks
    ? new TaskEngine(options.tasks ?? {}, { store, clock: options.clock ?? { now: () => Date.now() }, logger, onChange: (record) => changes.notifyTask(record.owner, record.taskId, detailedTask(record)) })
    : undefined;
  if (tasks !== undefined) capabilities.extensions = { ...capabilities.extensions, [TASKS_EXTENSION]: {} };
  const discover: JsonObject = { resultType: 'complete', supportedVersions: [...SUPPORTED_PROTOCOL_VERSIONS], capabilities, ttlMs, cacheScope, _meta: resultMeta };
  if (options.instructions !== undefined) discover.instructions = options.instructions;
  const discoverStop = precomputed(discover);

  // Pages are fixed for the server's lifetime, so each is serialized once. Cursors carry a
  // fingerprint of the tool set so a cursor from another server (or version) is refused.
  const descriptors = registered.map((t) => t.descriptor);
  const fingerprint = createHash('sha256').update(descriptors.map((d) => d.name).join('\n')).digest('base64url').slice(0, 8);
  const pages = new Map<string, Stop>();
  let firstPage: Stop | undefined;
  for (let offset = 0; offset < Math.max(descriptors.length, 1); offset += pageSize) {
    const page: JsonObject = { resultType: 'complete', tools: descriptors.slice(offset, offset + pageSize), ttlMs, cacheScope, _meta: resultMeta };
    if (offset + pageSize < descriptors.length) page.nextCursor = Buffer.from(`${fingerprint}:${offset + pageSize}`).toString('base64url');
    const stop = precomputed(page);
    if (offset === 0) firstPage = stop;
    else pages.set(Buffer.from(`${fingerprint}:${offset}`).toString('base64url'), stop);
  }

  const routes = new Map<string, MethodRoute>([
    ['server/discover', () => discoverStop],
    [
      'tools/list',
      (s) => {
        const cursor = s.params.cursor;
        if (cursor === undefined) return firstPage as Stop;
        const page = typeof cursor === 'string' ? pages.get(cursor) : undefined;
        return page ?? { kind: 'error', error: rpcError('invalidCursor', 'Invalid cursor') };
      },
    ],
  ]);
  for (const [method, route] of features.routes) routes.set(method, route);
  if (tasks !== undefined) for (const [method, route] of taskRoutes(tasks)) routes.set(method, route);

  const pipeline = createPipeline({
    tools: registered,
    routes,
    resultMeta,
    authorize: options.authorize,
    resourceMetadataUrl: options.resourceMetadataUrl,
    onStageEvent: options.onStageEvent,
    logger,
    signer,
    approvalTtlMs,
    store,
    approvals,
    tasks,
  });

  // Dual era (legacy-*.ts): 2025 sessions are translated onto the same pipeline.
  const eras = resolveEras(options.eras ?? (options.legacyWire === false ? 'modern' : undefined));
  const legacyOptions = resolveLegacyOptions(options.legacy ?? (typeof options.legacyWire === 'object' ? options.legacyWire : undefined));
  // The pipeline's first answer starts the background validator build (see below); then the entry is the pipeline itself.
  let modernEntry = (message: InboundMessage): Promise<Reply> => {
    modernEntry = pipeline;
    const reply = pipeline(message);
    reply.then(startWarming, startWarming);
    return reply;
  };
  const modern = (message: InboundMessage): Promise<Reply> => modernEntry(message);
  const legacyOnly = (message: InboundMessage): Promise<Reply> => Promise.resolve(refuseModern(message));
  const modernFor = (served: ReadonlySet<Era>): ((message: InboundMessage) => Promise<Reply>) => (served.has('modern') ? modern : legacyOnly);
  const sessionWire = new LegacySessionWire(modern, { serverInfo, capabilities, instructions: options.instructions, tools: descriptors }, features.hub, legacyOptions);
  const httpWires = new Map<string, LegacyHttpWire>();
  const gatedWires = new Map<string, MessageDispatcher>();
  const dispatcherFor = (served: ReadonlySet<Era>): MessageDispatcher => {
    if (!served.has('legacy')) return { handleMessage: modern };
    const key = [...served].sort().join();
    let wire = httpWires.get(key);
    if (wire === undefined) {
      wire = createLegacyHttpWire(modernFor(served), sessionWire, legacyOptions, { store, clock: options.clock ?? { now: () => Date.now() }, logger, modernServed: served.has('modern') });
      httpWires.set(key, wire);
      // 2025 sessions' own requests (initialize, GET, DELETE, ...) are authenticated per request too (auth/session-gate.ts).
      gatedWires.set(key, gateSessions(wire, { authorize: options.authorize, challenge: challengeParamsFor(options.authorize, options.resourceMetadataUrl), logger }));
    }
    return gatedWires.get(key) as MessageDispatcher;
  };
  const defaultDispatcher = dispatcherFor(eras);
  // The protected resource an OAuth authorizer describes is served by both HTTP transports (RFC 9728).
  const describedResource = protectedResourceOf(options.authorize);
  const httpOptions: HttpOptions = describedResource === undefined ? { ...options.http } : { protectedResourceMetadata: describedResource.metadata, ...options.http };

  // Change notifications reach the streams of every instance sharing the store (store/change-relay.ts).

  const listeners = new Set<HttpListener>();
  const connections = new Set<StdioConnection>();
  let fetchHandler: ((request: Request) => Promise<Response>) | undefined;

  // Validators are built on first use. The rest are built in the background (warmValidators) once
  // the server has answered its first message, so that answer (typically server/discover) never
  // waits for the schema compiler, whose loading is one synchronous ~100 ms step; or, when no
  // message comes, WARM_IDLE_MS after serving starts.
  let stopWarming: (() => void) | undefined;
  let idleWarm: NodeJS.Timeout | undefined;
  const startWarming = (): void => {
    if (idleWarm !== undefined) clearTimeout(idleWarm);
    stopWarming ??= warmValidators(registered, (tool, field, message) => {
      logger.error('tool schema could not be compiled; calls to this tool fail closed', { tool, field, reason: message });
    });
  };
  const warmWhenIdle = (): void => {
    if (stopWarming === undefined && idleWarm === undefined) idleWarm = setTimeout(startWarming, WARM_IDLE_MS).unref();
  };

  // Middleware opens its files and locks when serving starts, never when the server is only built
  // (lint and preview load a module for its definitions); each serving entry point calls this.
  const allMiddleware = (): Middleware[] => [...(options.use ?? []), ...registered.flatMap((r) => r.tool.use)];
  let middlewareOpened = false;
  const openForServing = (): void => {
    if (middlewareOpened) return;
    openMiddleware(allMiddleware());
    middlewareOpened = true;
  };

  const server: McpServer = {
    name: options.name,
    version: options.version,
    tools: Object.freeze(descriptors),
    listToolDescriptors: () => server.tools,
    notifyListChanged: (kind) => changes.notifyListChanged(kind),
    notifyResourceUpdated: (uri) => changes.notifyResourceUpdated(uri),
    eras,
    approvals,
    handleMessage: (message) => defaultDispatcher.handleMessage(message),
    async listen({ eras: served, ...listenOptions } = {}) {
      openForServing();
      // Listening means hearing the other instances' change notifications too.
      await changes.ready;
      const listener = await listenHttp(served === undefined ? defaultDispatcher : dispatcherFor(resolveEras(served)), { ...httpOptions, ...listenOptions });
      listeners.add(listener);
      warmWhenIdle();
      return {
        ...listener,
        close: async () => {
          listeners.delete(listener);
          await listener.close();
        },
      };
    },
    stdio({ eras: served, ...stdioOptions } = {}) {
      openForServing();
      const chosen = served === undefined ? eras : resolveEras(served);
      const eraSwitch = createStdioEraSwitch(modernFor(chosen), chosen.has('legacy') ? sessionWire : undefined, chosen.has('modern'), legacyOptions.maxBatchSize);
      const connection = serveStdio(eraSwitch, stdioOptions);
      eraSwitch.attach(connection.send);
      connections.add(connection);
      warmWhenIdle();
      void connection.closed.then(() => {
        eraSwitch.close();
        connections.delete(connection);
      });
      return connection;
    },
    fetch(request) {
      if (fetchHandler === undefined) {
        try {
          openForServing();
        } catch (error) {
          return Promise.reject(error);
        }
        fetchHandler = createFetchHandler(defaultDispatcher, httpOptions);
        warmWhenIdle();
      }
      return fetchHandler(request);
    },
    async close() {
      if (idleWarm !== undefined) clearTimeout(idleWarm);
      stopWarming?.();
      const held = server.approvals.pending().length > 0;
      await approvals.close();
      await tasks?.close();
      await changes.close();
      const listening = features.hub.size > 0;
      if (listening) features.hub.close();
      // Refused held calls and ended subscriptions answer with a result; give those replies a turn to reach the wire before sockets close.
      if (held || listening) await new Promise<void>((resolve) => setImmediate(resolve));
      for (const wire of httpWires.values()) wire.close();
      for (const connection of connections) connection.close();
      connections.clear();
      await Promise.all([...listeners].map((l) => l.close()));
      listeners.clear();
      // Last, once nothing can call a tool any more: an audit log then records every call answered.
      await closeMiddleware(allMiddleware(), (name, error) => {
        logger.error(`middleware ${name}: close() threw`, { reason: error instanceof Error ? error.message : String(error) });
      });
    },
  };
  return server;
}
