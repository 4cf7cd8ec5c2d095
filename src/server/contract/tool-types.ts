import type { DeclaredClient } from '../../protocol/client-info.js';
import type { FromSchema, JSONSchema } from 'json-schema-to-ts';
import type { VisibleTo } from './visibility.js';
import type { InputFlow } from './input-flow.js';
import type { ResolvedTaskPolicy, ToolTaskOption } from './task-option.js';
import type { Middleware } from './middleware.js';
import type { StandardJSONSchemaV1 } from '@standard-schema/spec';
import type { JsonObject, JsonRpcId, JsonValue } from '../../protocol/json-rpc.js';
import type { ToolApprovals } from './approval.js';
import type {
  ClientCapabilities,
  ContentBlock,
  Icon,
  InputRequest,
  JsonSchemaObject,
  ToolAnnotations,
  ToolDescriptor,
} from '../../protocol/wire-types.js';

/** A JSON Schema written as an object literal (use `as const` to get typed handler arguments). */
export type JsonSchemaLiteral = { readonly [key: string]: unknown };

/** What `inputSchema`/`outputSchema` accept: a JSON Schema literal or a Standard JSON Schema (zod 4, ...). */
export type SchemaInput = JsonSchemaLiteral | StandardJSONSchemaV1;

/** The argument type a handler receives for a given `inputSchema`. */
export type InferArguments<S> = S extends StandardJSONSchemaV1
  ? StandardJSONSchemaV1.InferInput<S>
  : S extends JSONSchema
    ? string extends keyof S
      ? Record<string, unknown>
      : FromSchema<S> extends infer T
        ? unknown extends T
          ? Record<string, unknown>
          : T
        : never
    : Record<string, unknown>;

/** The `structuredContent` type `run` must produce for a given `outputSchema` (unknown without one). */
export type InferOutput<S> = S extends StandardJSONSchemaV1
  ? StandardJSONSchemaV1.InferOutput<S>
  : S extends JSONSchema
    ? string extends keyof S
      ? unknown
      : FromSchema<S> extends infer T
        ? T
        : never
    : unknown;

/** Severity names of `notifications/message` (syslog order, lowest first). */
export type LogLevel = 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency';

/** Who is calling, as established by the server's `authorize` option. */
export interface AuthInfo {
  /** Granted scopes. */
  scopes: readonly string[];
  /** Stable identifier of the principal (e.g. JWT `sub`), if known. */
  subject?: string;
  /** The OAuth client the token was issued to (JWT `client_id`, else `azp`; introspection `client_id`), if known. */
  clientId?: string;
  /** Anything else the authorizer wants handlers to see (e.g. verified claims). */
  extra?: Readonly<Record<string, unknown>>;
}

/** The context every handler (`check`, `approval`, `run`) receives. */
export interface ToolContext {
  /**
   * Aborted when the call is cancelled: `notifications/cancelled`, `tasks/cancel`, or (2026-07-28,
   * stdio) the client closing the request's HTTP stream. A 2025 session's call is not cancelled by
   * a dropped stream (the client may resume it): see `connectionLost`.
   */
  readonly signal: AbortSignal;
  /**
   * Aborted when the connection that carried this call goes away, even where that does not cancel
   * it (a 2025 session keeps the call running so the client can resume its stream); the same as
   * `signal` everywhere else, and in a task the task's. For work that must not go on unwatched: the
   * robot arm does a controlled stop when its client is lost.
   */
  readonly connectionLost: AbortSignal;
  /**
   * Reports progress; sent as `notifications/progress` only if the request carried a `progressToken`.
   * Values must increase; a value not above the previous one is dropped.
   */
  progress(progress: number, total?: number, message?: string): void;
  /** Sends `notifications/message` when the request asked for logs at this level or lower. */
  log(level: LogLevel, data: unknown): void;
  /** The client capabilities declared on this very request. */
  readonly clientCapabilities: ClientCapabilities;
  /** The caller, when the server has an `authorize` option. */
  readonly auth: AuthInfo | undefined;
  /**
   * The client's name and version as the client declared them (2025: `initialize`'s clientInfo;
   * 2026-07-28: the request's clientInfo `_meta`), or undefined. Not authenticated: for records and
   * display beside `auth.subject`, never for decisions.
   */
  readonly client: DeclaredClient | undefined;
  /** Shorthand for `auth?.scopes ?? []`. */
  readonly scopes: readonly string[];
  /** The request's `params._meta`. */
  readonly requestMeta: Readonly<JsonObject>;
  readonly requestId: JsonRpcId;
  readonly toolName: string;
  /** MRTR retry data, when the client is answering an earlier input-required result. */
  readonly inputResponses: Readonly<Record<string, unknown>> | undefined;
  readonly requestState: string | undefined;
  /** `console`: a call made from the operator console's workbench. */
  readonly transport: 'http' | 'stdio' | 'console';
  /** For a `console` call: the operator the console was started for. */
  readonly operator: string | undefined;
  /** Multi round-trip input: ask the client for elicitation, sampling or roots (see `InputFlow`). */
  readonly inputs: InputFlow;
  /** Approval of this call by an out-of-band operator, holding the call open (see `ToolApprovals`). */
  readonly approvals: ToolApprovals;
}

/** A business-rule violation reported by `check`. */
export interface RuleViolation {
  /** Where in the arguments, e.g. "/target_position/z". */
  path?: string;
  message: string;
}

/** What `run` may return for a finished call. */
export interface ToolResultInit {
  content?: ContentBlock[];
  structuredContent?: unknown;
  isError?: boolean;
  _meta?: JsonObject;
}

/** What `run` returns to ask the client for input first (MRTR); see `inputRequired()`. */
export type InputRequiredInit = {
  resultType: 'input_required';
  inputRequests?: Record<string, InputRequest>;
  requestState?: string;
  _meta?: JsonObject;
};

/** Any value `run` may produce. A string becomes one text block. */
export type ToolRunResult = ToolResultInit | InputRequiredInit | string;

/** An `isError` result (`errorResult()`): a failure, so no `structuredContent` is promised. */
export interface ToolErrorResultInit {
  content: ContentBlock[];
  isError: true;
  _meta?: JsonObject;
}

/** A finished result of a tool with an `outputSchema`: `structuredContent` has the schema's type. */
export interface TypedToolResultInit<T> {
  content?: ContentBlock[];
  structuredContent: T;
  isError?: false;
  _meta?: JsonObject;
}

/**
 * What `run` may return for a given `outputSchema`: without one, anything of {@link ToolRunResult};
 * with one, a result whose `structuredContent` has the schema's type (a string or nothing would fail
 * the output contract at run time, so they do not compile), an error result, or `inputRequired()`.
 */
export type RunResultFor<O> = [O] extends [undefined]
  ? ToolRunResult | void
  : TypedToolResultInit<InferOutput<O>> | ToolErrorResultInit | InputRequiredInit;

/**
 * Who approves a call that needs a person: `elicitation`, the client's user through a form (the
 * caller must hold the approver scope); `operator`, someone deciding through `server.approvals`
 * while the call is held open; `either`, the client's user when that can work, else the operator
 * (see `routeApproval`). The `approver` of a tool's `approval` hook.
 */
export type ApproverChoice = 'elicitation' | 'operator' | 'either';

/** A request for human approval: shown to the client's user through an elicitation, or to an operator. */
export interface ApprovalRequest {
  /** What the user is asked to approve, in plain words. */
  message: string;
  /**
   * Digest of exactly what is approved (e.g. a plan hash covering the start state). The approval is
   * valid only if the retried call produces the same digest. Default: tool name + canonical arguments.
   */
  digest?: string;
  /**
   * Who approves. `elicitation` (default): the client's user, through an `input_required` form;
   * `operator`: the call is held open until an operator decides through `server.approvals`;
   * `either`: elicitation when the request declares the capability, else the operator.
   */
  approver?: ApproverChoice;
  /** For an operator: how long the call is held open (default 45000 ms; see `AwaitOperatorOptions`). */
  timeoutMs?: number;
  /** For an operator: JSON shown with the message (e.g. a plan). */
  details?: JsonValue;
}

/** Everything `defineTool` accepts. */
export interface ToolDefinitionInit<I extends SchemaInput, O extends SchemaInput | undefined = undefined> {
  name: string;
  title?: string;
  description?: string;
  inputSchema: I;
  outputSchema?: O;
  annotations?: ToolAnnotations;
  icons?: Icon[];
  _meta?: JsonObject;
  /**
   * Scopes the caller must hold (all of them). Requires the server's `authorize` option. Each is
   * an RFC 6749 scope token (printable ASCII, no space, `"` or `\\`), listed once; `defineTool`
   * throws a `ToolDefinitionError` naming the tool and the bad entry otherwise. Advertised in the
   * descriptor's `_meta["dev.toolwright/scopes"]`.
   */
  scopes?: readonly string[];
  /** Client capabilities a call cannot proceed without (else -32021). */
  requiredClientCapabilities?: ClientCapabilities;
  /**
   * Who sees this tool at all. Where false (or where it throws) the tool is absent from this
   * caller's `tools/list` and a `tools/call` answers exactly as for an unknown name. Unlike
   * `scopes`, which list the tool for everyone and answer 403 for a step-up. See `visibleWhen`.
   */
  visibleTo?: VisibleTo;
  /** Business rules run after the shape check; return violations (empty = allowed). */
  check?: (args: InferArguments<I>, ctx: ToolContext) => readonly (RuleViolation | string)[] | Promise<readonly (RuleViolation | string)[]>;
  /** Return a request to require human approval (via elicitation) before `run`; null/undefined = no approval needed. */
  approval?: (args: InferArguments<I>, ctx: ToolContext) => ApprovalRequest | null | undefined | Promise<ApprovalRequest | null | undefined>;
  /** The tool itself. With an `outputSchema`, its `structuredContent` is typed by it (see {@link RunResultFor}). */
  run: (args: InferArguments<I>, ctx: ToolContext) => RunResultFor<O> | Promise<RunResultFor<O>>;
  /** This tool's own middleware (its own stages), inside the server-wide ones; see `Middleware`. */
  use?: readonly Middleware[];
  /**
   * Run calls as tasks (`io.modelcontextprotocol/tasks`) for clients that declare the extension:
   * `true`, or when and how (see {@link ToolTaskOption}). Server-side only; nothing changes on
   * `tools/list`. In a task, `ctx.signal` aborts on `tasks/cancel` and `ctx.progress` updates the task.
   */
  task?: true | ToolTaskOption<InferArguments<I>>;
}

/** Handlers of a tool, with arguments erased to what the pipeline passes. */
export interface ToolHandlers {
  /** The tool's `check` (business rules), undefined when it has none. */
  check: ((args: Record<string, unknown>, ctx: ToolContext) => readonly (RuleViolation | string)[] | Promise<readonly (RuleViolation | string)[]>) | undefined;
  /** The tool's `approval` (what a person must approve), undefined when it has none. */
  approval: ((args: Record<string, unknown>, ctx: ToolContext) => ApprovalRequest | null | undefined | Promise<ApprovalRequest | null | undefined>) | undefined;
  /** The tool's `run`. */
  run: (args: Record<string, unknown>, ctx: ToolContext) => ToolRunResult | void | Promise<ToolRunResult | void>;
}

declare const argumentsType: unique symbol;

/** A defined tool: its wire descriptor plus server-side policy and handlers. */
export interface Tool<Args = Record<string, unknown>> {
  readonly name: string;
  /** Exactly what `tools/list` shows for this tool (frozen). */
  readonly descriptor: Readonly<ToolDescriptor>;
  readonly scopes: readonly string[];
  /** `defineTool({ visibleTo })`; undefined: every caller sees the tool. */
  readonly visibleTo: VisibleTo | undefined;
  readonly requiredClientCapabilities: ClientCapabilities | undefined;
  readonly handlers: ToolHandlers;
  /** The tool's own middleware (`defineTool({ use })`). */
  readonly use: readonly Middleware[];
  /** How calls run as tasks (`defineTool({ task })`); undefined: never. */
  readonly task: ResolvedTaskPolicy | undefined;
  /**
   * Values fixed for arguments a transform hid from the listing (`hideArgument(..., { value })`):
   * added to every call's arguments before the handlers run, and written in the audit record
   * (`fixed_arguments`). Undefined for a tool made by `defineTool`.
   */
  readonly fixedArguments?: Readonly<JsonObject>;
  /** Type-level only: the handler argument type. */
  readonly [argumentsType]?: Args;
}

export type { JsonSchemaObject };
