import type { ToolTask } from './tool-task.js';
/** The public types of `toolwright/client`: options, results and the client interface. */
import type { FromSchema, JSONSchema } from 'json-schema-to-ts';
import type {
  CallToolResult,
  ClientCapabilities,
  HeaderAnnotationProblem,
  Implementation,
  InputRequest,
  JsonObject,
  JsonRpcNotification,
  ServerCapabilities,
  ToolDescriptor,
} from '../protocol/index.js';
import type { HttpTarget } from './http-connection.js';
import type { ListCache } from './list-cache.js';
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

/** A root the client offers the server (`roots/list`). */
export interface ClientRoot {
  /** A `file://` URI. */
  uri: string;
  name?: string;
}

/** Context handed to {@link ClientOptions.onServerRequest}. */
export interface ServerRequestContext {
  /** Aborted when the request that the server asked on behalf of ends. */
  signal: AbortSignal;
}

/**
 * Which protocol era the client speaks: `modern` (2026-07-28, per-request `_meta`, no session) or
 * `legacy` (`initialize`-based 2025-11-25, 2025-06-18, 2025-03-26).
 */
export type ProtocolEra = 'modern' | 'legacy';

/** Options of {@link connect}. */
export interface ClientOptions {
  /** Sent as `_meta["io.modelcontextprotocol/clientInfo"]` / `initialize.clientInfo` (default `toolwright-client`); `false` sends none on modern requests. */
  clientInfo?: Implementation | false;
  /** Declared on every request (legacy: once in `initialize`); declare `elicitation`/`sampling`/`roots` to receive those input requests (default `{}`). */
  capabilities?: ClientCapabilities;
  /** Per-request timeout in ms (default 60,000); on expiry the request is cancelled. `listTools` gets it once for all its pages. */
  timeoutMs?: number;
  /** Shared cache for list results (default: one per client). */
  cache?: ListCache;
  /** Clock for cache expiry (default `Date.now`). */
  now?: () => number;
  /** Receives warnings, e.g. tools excluded for invalid `x-mcp-header` (default: `process.emitWarning`). */
  onWarning?: (warning: ClientWarning) => void;
  /** Validate `structuredContent` against `outputSchema` (default true). */
  validateOutput?: boolean;
  /**
   * Least time a modern server's `tools/list` result is reused before a call lists again, whatever
   * its `ttlMs` (default 0: as the server says). For a caller whose tool set is fixed anyway (the
   * proxy); a call whose mirrored headers went stale is still refreshed and retried once (-32020).
   */
  minListTtlMs?: number;
  /** Most `tools/list` pages to follow (default 1000). */
  maxPages?: number;
  /** Most input-required rounds for one call (default 10). */
  maxInputRounds?: number;
  /**
   * `auto` (default) finds the era as the spec's backward-compatibility rules say (stdio:
   * `server/discover` first; HTTP: a modern request first, `initialize` after a 400 without a
   * recognised modern error); `modern` or `legacy` skip the probe.
   */
  era?: 'auto' | ProtocolEra;
  /** stdio: how long to wait for the `server/discover` probe before taking silence as a legacy server (default 5,000 ms). */
  probeTimeoutMs?: number;
  /** The revision asked for in `initialize` (default `2025-11-25`). */
  legacyProtocolVersion?: string;
  /** Roots offered to the server: declares the `roots` capability and answers `roots/list` with them (both eras). */
  roots?: readonly ClientRoot[];
  /**
   * Answers server-to-client requests that belong to no call (a legacy server's `roots/list` at
   * any time, for example); return the result (ListRootsResult, ElicitResult, CreateMessageResult).
   * Without it, `roots/list` is answered from `roots` and anything else is refused with -32601.
   * Giving it (or declaring `roots`, `elicitation` or `sampling`) opens a legacy HTTP session's GET
   * stream, where such requests arrive.
   */
  onServerRequest?: (request: InputRequest, context: ServerRequestContext) => Promise<unknown> | unknown;
  /**
   * Notifications that belong to no request (e.g. `notifications/tools/list_changed`). Giving it
   * opens a legacy HTTP session's GET stream.
   */
  onNotification?: (notification: JsonRpcNotification) => void;
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
  /** Tools dropped: malformed entries, and over HTTP those with invalid `x-mcp-header` annotations. */
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

/** `server/discover`, as read by the client (for a legacy server: what `initialize` answered). */
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
  /** 1 for the first input-required result (or, legacy era, server request) of the call. */
  round: number;
  /** The call's name and arguments, for display ("show inputs before sending", C-07). */
  tool: string;
  arguments: Record<string, unknown>;
  signal: AbortSignal;
}

/** Options of {@link McpClient.callTool}. */
export interface CallToolOptions {
  /** Cancels the call (HTTP: closes the stream, legacy also `notifications/cancelled`; stdio: `notifications/cancelled`). */
  signal?: AbortSignal;
  timeoutMs?: number;
  /** Called for each progress notification; giving it makes the client send a `progressToken`. */
  onProgress?: (update: ProgressUpdate) => void;
  /** Any other notification on the call's stream (e.g. deprecated `notifications/message` logs). */
  onNotification?: (notification: JsonRpcNotification) => void;
  /**
   * Answers the server's input requests: return one response per key of `inputRequests` (an
   * ElicitResult, CreateMessageResult or ListRootsResult). Modern servers send them as an
   * `input_required` result (the client retries with the answers, the echoed `requestState` and a
   * new request id); legacy servers as requests during the call, which arrive here one at a time.
   */
  onInputRequired?: (requests: Record<string, InputRequest>, context: InputRequiredContext) => Promise<Record<string, unknown>> | Record<string, unknown>;
  /** Extra `_meta` keys (e.g. `traceparent`). */
  meta?: JsonObject;
  /**
   * Declare the tasks extension (`io.modelcontextprotocol/tasks`) on this call and resolve to a
   * `ToolTask` handle (status, progress events, `cancel()`, `result()`) instead of the result. The
   * server decides whether the call becomes a task; if it answers at once the handle is completed.
   * Input requests of the task are answered with `onInputRequired`.
   */
  task?: boolean;
}

/** Options of {@link McpClient.request}. */
export interface RequestOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  headers?: Record<string, string>;
  /** Notifications the server sends while this request runs (progress, logs, ...). */
  onNotification?: (notification: JsonRpcNotification) => void;
}

/** A `CallToolResult` whose `structuredContent` has the type `T` (inferred from the tool's `outputSchema`). */
export type TypedCallToolResult<T> = Omit<CallToolResult, 'structuredContent'> & { structuredContent?: T };

/** A tool as {@link McpClient.callTool} takes it: its name and, for typing, its `outputSchema` (`as const`). */
export interface CallableTool {
  name: string;
  outputSchema?: unknown;
}

/** The type of a tool's `structuredContent`, from its `outputSchema` written `as const` (`unknown` without one). */
export type OutputOf<D> = D extends { outputSchema: infer S } ? (S extends JSONSchema ? FromSchema<S> : unknown) : unknown;

/**
 * A connected MCP client. Modern servers: requests are independent (no session) and may run
 * concurrently. Legacy servers: one session, opened by the first request.
 */
export interface McpClient {
  /** `http` or `stdio`. */
  readonly transport: 'http' | 'stdio';
  /** The era in use, once the first request found it (undefined before). */
  readonly era: ProtocolEra | undefined;
  /** The revision in use: `2026-07-28`, or the one `initialize` negotiated (undefined before the first request). */
  readonly protocolVersion: string | undefined;
  /** stdio only: the child's captured stderr, stray stdout lines and exit status. */
  readonly stdio: Pick<StdioConnection, 'stderr' | 'strayLines' | 'exit'> | undefined;
  /** `server/discover` (cached for its `ttlMs`); legacy: what `initialize` answered. */
  discover(options?: { refresh?: boolean; signal?: AbortSignal }): Promise<DiscoverInfo>;
  /** Every page of `tools/list`, cached for `ttlMs` honouring `cacheScope` (legacy: for the session, until `list_changed`). */
  listTools(options?: { refresh?: boolean; signal?: AbortSignal }): Promise<ToolListing>;
  /**
   * Calls a tool; resolves to a complete, output-validated result, or rejects with McpClientError.
   * Give the tool's descriptor (with its `outputSchema` `as const`) instead of its name and
   * `structuredContent` is typed from the schema; or name the type: `callTool<{ sum: number }>('add')`.
   */
  callTool(tool: string | CallableTool, args: Record<string, unknown>, options: CallToolOptions & { task: true }): Promise<ToolTask>;
  /** Calls a tool by name; `T` types `structuredContent` (unchecked by the compiler, checked at run time against the tool's `outputSchema` when it has one). */
  callTool<T = unknown>(name: string, args?: Record<string, unknown>, options?: CallToolOptions): Promise<TypedCallToolResult<T>>;
  /** Calls a tool given its descriptor: `structuredContent` is typed from the descriptor's `outputSchema` (`as const`). */
  callTool<const D extends CallableTool>(tool: D, args?: Record<string, unknown>, options?: CallToolOptions): Promise<TypedCallToolResult<OutputOf<D>>>;
  /** Any request with the standard `_meta` and headers; resolves to the raw `result`. */
  request(method: string, params?: JsonObject, options?: RequestOptions): Promise<JsonObject>;
  /** Forgets cached list results of this client's server. */
  invalidateCache(): void;
  /** Stops the stdio child / aborts open HTTP streams and ends a legacy session. Further calls reject with kind `closed`. */
  close(): Promise<void>;
}
