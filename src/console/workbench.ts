/**
 * The workbench tab for any Toolwright server: the catalog with lint findings per tool, what each
 * provider's model sees (host lowering, loss report, the one token counter through `mapTools`),
 * a direct call of any tool (bypassing the model) with its result and stage events, and a call
 * history. Calls run in process through `server.handleMessage`, the same pipeline as the MCP
 * endpoint, as a message without HTTP headers on the `console` transport, naming the operator
 * (audit records show who called, and from where), so every stage runs.
 */
import { META } from '../protocol/constants.js';
import { PROTOCOL_VERSION } from '../protocol/versions.js';
import type { JsonRpcNotification } from '../protocol/json-rpc.js';
import type { ToolDescriptor } from '../protocol/wire-types.js';
import type { McpServer } from '../server/create-server.js';
import type { StageEvent } from '../server/stages/stage-events.js';
import { mapTools, PROVIDER_NAMES } from '../host/index.js';
import type { LossEntry, ProviderName } from '../host/index.js';
import { lintTools } from '../lint/index.js';
import type { Finding } from '../lint/index.js';
import type { ConsolePage, ConsoleReply, ConsoleRoute, LiveEvent } from './console-mount.js';
import type { LiveChannel } from './live-channel.js';

/** What one provider receives for one tool, or why it cannot. */
export interface ProviderView {
  provider: ProviderName;
  providerName?: string;
  strict?: boolean;
  json?: Record<string, unknown>;
  loss: LossEntry[];
  tokens?: number;
  strictFallback?: string[];
  failure?: { code: string; message: string };
}

/** One row of the workbench catalog. */
export interface WorkbenchTool {
  descriptor: Readonly<ToolDescriptor>;
  findings: Finding[];
  providers: ProviderView[];
}

/** The catalog the workbench page shows. */
export interface WorkbenchCatalog {
  server: { name: string; version: string };
  tools: WorkbenchTool[];
  /** Findings about the whole catalog (no tool). */
  catalogFindings: Finding[];
  /** Whether stage events are shown for calls. */
  stageEvents: boolean;
}

/** One direct call, as kept in the history. */
export interface WorkbenchCall {
  id: string;
  tool: string;
  arguments: Record<string, unknown>;
  startedAt: string;
  durationMs: number;
  /** The JSON-RPC response exactly as the pipeline answered. */
  response: unknown;
  stages: Omit<StageEvent, 'transport'>[];
  notifications: JsonRpcNotification[];
}

/** Options of {@link createWorkbench}. */
export interface WorkbenchOptions {
  server: McpServer;
  channel: LiveChannel;
  /**
   * Subscribes to the server's stage events (wire it to `createServer({ onStageEvent })`);
   * without it calls show no stages. Returns an unsubscribe function.
   */
  subscribeStageEvents?: (listener: (event: StageEvent) => void) => () => void;
  /** Calls kept (default 50). */
  historyLimit?: number;
  /** Who calls from this console, as audit records name them (default `console operator`). */
  operator?: string;
}

/** The workbench: its page, its API routes and what a page gets on connecting. */
export interface Workbench {
  page: ConsolePage;
  routes: ConsoleRoute[];
  /** What a page that connects now is sent first (recent calls and their stages). */
  snapshot(): LiveEvent[];
  /** Builds (once) and returns the catalog. */
  catalog(): WorkbenchCatalog;
}

function buildCatalog(server: McpServer, stageEvents: boolean): WorkbenchCatalog {
  const descriptors = server.listToolDescriptors();
  const lint = lintTools(descriptors);
  const mapped = PROVIDER_NAMES.map((provider) => mapTools(descriptors as ToolDescriptor[], { provider }));
  const tools = descriptors.map((descriptor) => ({
    descriptor,
    findings: lint.findings.filter((f) => f.tool === descriptor.name),
    providers: mapped.map((catalog): ProviderView => {
      const tool = catalog.tools.find((t) => t.mcpName === descriptor.name);
      if (tool !== undefined) {
        return { provider: catalog.provider, providerName: tool.providerName, strict: tool.strict, json: tool.json, loss: tool.loss, tokens: tool.tokens, ...(tool.strictFallback ? { strictFallback: tool.strictFallback } : {}) };
      }
      const failure = catalog.failures.find((f) => f.mcpName === descriptor.name);
      return { provider: catalog.provider, loss: failure?.loss ?? [], failure: { code: failure?.code ?? 'unmapped', message: failure?.message ?? 'not mapped' } };
    }),
  }));
  return { server: { name: server.name, version: server.version }, tools, catalogFindings: lint.findings.filter((f) => f.tool === undefined), stageEvents };
}

const bad = (message: string): ConsoleReply => ({ status: 400, json: { error: message } });

/** Creates the workbench for `server`. */
export function createWorkbench(options: WorkbenchOptions): Workbench {
  const { server, channel } = options;
  const historyLimit = options.historyLimit ?? 50;
  const operator = options.operator ?? 'console operator';
  if (operator.trim() === '') throw new TypeError('console: the operator name must not be empty');
  const history: WorkbenchCall[] = [];
  let catalog: WorkbenchCatalog | undefined;
  let sequence = 0;
  const getCatalog = (): WorkbenchCatalog => (catalog ??= buildCatalog(server, options.subscribeStageEvents !== undefined));

  async function call(body: unknown, signal: AbortSignal): Promise<ConsoleReply> {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return bad('body must be an object {"tool": name, "arguments": {...}}');
    const { tool, arguments: args } = body as { tool?: unknown; arguments?: unknown };
    if (typeof tool !== 'string' || tool === '') return bad('"tool" must be a tool name');
    if (!server.tools.some((t) => t.name === tool)) return { status: 404, json: { error: `no tool named ${JSON.stringify(tool)} on ${server.name}` } };
    if (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args))) return bad('"arguments" must be an object');
    const id = `console-${++sequence}`;
    const stages: WorkbenchCall['stages'] = [];
    const notifications: JsonRpcNotification[] = [];
    // authenticate and decode run before the id is read, so their events carry none; they run
    // synchronously inside handleMessage, so those emitted during that synchronous call are this one's.
    let synchronous = true;
    const unsubscribe = options.subscribeStageEvents?.((event) => {
      if (event.requestId === id || (synchronous && event.requestId === undefined)) {
        const { transport: _transport, ...rest } = event;
        stages.push(rest);
      }
    });
    const message = {
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name: tool, arguments: args ?? {}, _meta: { [META.protocolVersion]: PROTOCOL_VERSION, [META.clientCapabilities]: {} } },
    };
    const startedAt = new Date();
    const started = performance.now();
    let response: unknown;
    try {
      const pending = server.handleMessage({
        body: JSON.stringify(message),
        transport: 'console',
        operator,
        header: undefined,
        signal,
        isAborted: () => signal.aborted,
        notify: (n) => {
          notifications.push(n);
        },
      });
      synchronous = false;
      const reply = await pending;
      response = reply.body === undefined ? undefined : (JSON.parse(reply.body) as unknown);
    } finally {
      unsubscribe?.();
    }
    const record: WorkbenchCall = { id, tool, arguments: (args ?? {}) as Record<string, unknown>, startedAt: startedAt.toISOString(), durationMs: Math.round((performance.now() - started) * 100) / 100, response, stages, notifications };
    history.unshift(record);
    if (history.length > historyLimit) history.length = historyLimit;
    channel.broadcast('workbench-call', record);
    return { status: 200, json: record };
  }

  return {
    // `../console/web/`: this file also runs bundled from dist/bundle/, one folder below dist/ as here.
    page: { id: 'workbench', title: 'Workbench', entry: new URL('../console/web/workbench-page', import.meta.url) },
    routes: [
      { method: 'GET', path: '/api/catalog', handle: () => ({ status: 200, json: getCatalog() }) },
      { method: 'GET', path: '/api/history', handle: () => ({ status: 200, json: history }) },
      { method: 'POST', path: '/api/call', handle: (request) => call(request.body, request.signal) },
    ],
    snapshot: () => [],
    catalog: getCatalog,
  };
}
