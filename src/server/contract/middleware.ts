/**
 * The middleware contract: the call a middleware sees, how it ended, and the middleware itself.
 * Declared here, below both, because a tool names its middleware (`defineTool({ use })`,
 * contract/tool-types.ts) and a middleware sees the tool it wraps. The runner that composes them
 * is pipeline/compose.ts; the middleware that ship are under middleware/.
 */
import type { JsonObject, JsonRpcId, JsonValue } from '../../protocol/json-rpc.js';
import type { ProtocolError } from '../../protocol/protocol-error.js';
import type { ToolDescriptor } from '../../protocol/wire-types.js';
import type { Store } from '../store/store.js';
import type { AuthInfo, ToolContext } from './tool-types.js';

/** How a call ended, as middleware sees (and may return) it. */
export type CallOutcome =
  | { kind: 'result'; outcome: 'respond' | 'tool-error'; result: JsonObject; json?: string }
  | { kind: 'error'; error: ProtocolError }
  | { kind: 'cancelled' };

/** The call as middleware sees it. */
export interface ToolCall {
  /** `fixedArguments`: values a transform fixed for hidden arguments (added after the call's own arguments, see `Tool.fixedArguments`). */
  readonly tool: { readonly name: string; readonly descriptor: Readonly<ToolDescriptor>; readonly fixedArguments?: Readonly<JsonObject> | undefined };
  /**
   * The arguments. Before the shape stage they are raw (as sent); a middleware at `arguments` may
   * replace them (coercion) before calling `next()`. Once `ctx` is set they have passed the schema.
   */
  arguments: Record<string, unknown>;
  /** The handler context, set once the shape stage passed (undefined before, or when it refused). */
  readonly ctx: ToolContext | undefined;
  readonly auth: AuthInfo | undefined;
  /** `auth.subject`, '' when anonymous. */
  readonly subject: string;
  readonly requestId: JsonRpcId;
  /**
   * The task this call became (the tasks extension), once it did: the request was then answered with
   * CreateTaskResult, `next()` resolves when the task's run ends, with its real outcome, and `ctx` is
   * the task's context (its signal aborts on tasks/cancel).
   */
  readonly taskId: string | undefined;
  /** `console`: a call made from the operator console's workbench. */
  readonly transport: 'http' | 'stdio' | 'console';
  /** For a `console` call: the operator the console was started for. */
  readonly operator: string | undefined;
  /** The request's `_meta`. */
  readonly requestMeta: Readonly<JsonObject>;
  /** The server's store (rate limits, counters). */
  readonly store: Store;
  /** Adds `key` to the `_meta` of the final result (e.g. repairs made, a truncation). */
  note(key: string, value: JsonValue): void;
  /** Adds a line to this middleware's stage event `detail`. */
  report(detail: string): void;
}

/** One middleware. */
export interface Middleware {
  /** Shown in stage events as `middleware:<name>`. */
  readonly name: string;
  /** Where it wraps (default `arguments`). */
  readonly at?: 'arguments' | 'validated';
  /** For server-wide middleware: which tools it wraps (default all). */
  readonly appliesTo?: (toolName: string) => boolean;
  /** Wraps one call: return an outcome to stop it, or `await next()` (at most once) to run what follows and return or change its outcome. */
  handle(call: ToolCall, next: () => Promise<CallOutcome>): CallOutcome | Promise<CallOutcome>;
  /**
   * Acquires what the middleware holds (files, locks) once the server starts serving: `listen()`,
   * `stdio()` and the first `fetch()` call it for each distinct middleware of the server and of its
   * tools, and an error it throws fails that call (a broken audit log is refused at start-up).
   * Building a server to read its definitions (`toolwright lint`, `preview`) never calls it, so a
   * middleware should open nothing in its factory. Idempotent; `handle` may also call it, for
   * custom transports that only use `handleMessage`.
   */
  open?(): void;
  /**
   * Releases what the middleware holds (files, locks, timers). `server.close()` calls it once for
   * each distinct middleware of the server and of its tools, after the listeners stopped; an error
   * it throws is logged and does not keep the others from closing.
   */
  close?(): void | Promise<void>;
}
