/**
 * The request pipeline: named stages, each a small function with one job, run in order until one
 * stops the request. Every stop is looked up in OUTCOMES (outcomes.ts). Stages before `route` run
 * for every message; the rest only for `tools/call`.
 */
import { SUPPORTED_PROTOCOL_VERSIONS, HEADER, META } from '../protocol/constants.js';
import { isJsonObject, isJsonRpcId } from '../protocol/json-rpc.js';
import type { JsonObject, JsonRpcId, JsonRpcNotification } from '../protocol/json-rpc.js';
import { ProtocolError, internalError } from '../protocol/protocol-error.js';
import type { CallToolResult, ClientCapabilities, ContentBlock, InputRequest, InputRequiredResult } from '../protocol/wire-types.js';
import { checkParamHeaders, decodeHeaderValue } from '../protocol/x-mcp-header.js';
import { formatSchemaErrors } from '../schema/index.js';
import type { InboundMessage, Reply } from '../transport/message-dispatcher.js';
import { OUTCOMES, rpcError, toolError } from './outcomes.js';
import { digestArguments } from './request-state.js';
import { createInputFlow } from './input-flow.js';
import type { InputFlow } from './input-flow.js';
import type { RequestStateSigner } from './request-state.js';
import type { StageEvent, StageName, StageOutcome } from './stage-events.js';
import type { RegisteredTool } from './tool-registry.js';
import type { AuthInfo, LogLevel, RuleViolation, ToolContext, ToolResultInit } from './tool-types.js';

/** Decides who is calling. Return null to refuse the request (HTTP 401). */
export type Authorizer = (request: AuthorizeRequest) => AuthInfo | null | Promise<AuthInfo | null>;

/** What an {@link Authorizer} can see. */
export interface AuthorizeRequest {
  transport: 'http' | 'stdio';
  /** Reads a request header (lower-case name); always undefined on stdio. */
  header(lowerCaseName: string): string | undefined;
  /** The bearer token of `Authorization: Bearer ...`, if any. */
  bearerToken: string | undefined;
}

/** Where the server reports its own faults (never sent to clients). */
export interface ServerLogger {
  error(message: string, detail?: Record<string, unknown>): void;
}

/** A route answers one non-`tools/call` method. */
export type MethodRoute = (state: RequestState) => Stop | Promise<Stop>;

/** Everything the pipeline needs, resolved once by createServer. */
export interface PipelineConfig {
  tools: readonly RegisteredTool[];
  /** Non-tools/call methods (server/discover, tools/list, ...). */
  routes: ReadonlyMap<string, MethodRoute>;
  /** `_meta` added to every result. */
  resultMeta: JsonObject;
  authorize: Authorizer | undefined;
  resourceMetadataUrl: string | undefined;
  onStageEvent: ((event: StageEvent) => void) | undefined;
  logger: ServerLogger;
  signer: RequestStateSigner;
  approvalTtlMs: number;
}

/** How a stage stops a request. */
export type Stop =
  | { kind: 'result'; outcome: 'respond' | 'tool-error'; result: JsonObject; json?: string }
  | { kind: 'error'; error: ProtocolError }
  | { kind: 'accepted' }
  | { kind: 'cancelled' };

const LOG_LEVELS: readonly LogLevel[] = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];
const SUPPORTED = new Set(SUPPORTED_PROTOCOL_VERSIONS);
const NAME_PARAM: Readonly<Record<string, string>> = { 'tools/call': 'name', 'prompts/get': 'name', 'resources/read': 'uri' };
const utf8 = new TextDecoder('utf-8', { fatal: true });
const NO_HEADER = (): undefined => undefined;

/** Mutable per-request state shared by the stages. */
export class RequestState {
  readonly message: InboundMessage;
  auth: AuthInfo | undefined = undefined;
  parsed: unknown = undefined;
  id: JsonRpcId | undefined = undefined;
  method: string | undefined = undefined;
  params: JsonObject = {};
  meta: JsonObject = {};
  version = '';
  capabilities: ClientCapabilities = {};
  /** Index into LOG_LEVELS of the requested level; -1 = the client asked for no logs. */
  logLevel = -1;
  tool: RegisteredTool | undefined = undefined;
  args: Record<string, unknown> = {};
  inputResponses: Record<string, unknown> | undefined = undefined;
  requestState: string | undefined = undefined;
  ctx: ToolContext | undefined = undefined;
  result: CallToolResult | undefined = undefined;
  /** Set once the response is decided; request-scoped notifications stop then (R-66). */
  finished = false;
  constructor(message: InboundMessage) {
    this.message = message;
  }
}

type Stage = (state: RequestState) => Stop | undefined | Promise<Stop | undefined>;

function fail(error: ProtocolError): Stop {
  return { kind: 'error', error };
}

function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return typeof error === 'string' ? error : String(error);
}

/**
 * The handler context. A class rather than a literal of closures: one allocation per call with
 * the methods on the prototype (this is on the hot path of every tools/call).
 */
class CallContext implements ToolContext {
  readonly #s: RequestState;
  readonly #config: PipelineConfig;
  #last = -Infinity;
  #inputs: InputFlow | undefined;
  readonly clientCapabilities: ClientCapabilities;
  readonly auth: AuthInfo | undefined;
  readonly requestMeta: Readonly<JsonObject>;
  readonly requestId: JsonRpcId;
  readonly toolName: string;
  readonly inputResponses: Readonly<Record<string, unknown>> | undefined;
  readonly requestState: string | undefined;
  readonly transport: 'http' | 'stdio';

  constructor(s: RequestState, config: PipelineConfig) {
    this.#s = s;
    this.#config = config;
    this.clientCapabilities = s.capabilities;
    this.auth = s.auth;
    this.requestMeta = s.meta;
    this.requestId = s.id as JsonRpcId;
    this.toolName = (s.tool as RegisteredTool).name;
    this.inputResponses = s.inputResponses;
    this.requestState = s.requestState;
    this.transport = s.message.transport;
  }

  get signal(): AbortSignal {
    return this.#s.message.signal;
  }

  get scopes(): readonly string[] {
    return this.auth?.scopes ?? [];
  }

  get inputs(): InputFlow {
    const s = this.#s;
    return (this.#inputs ??= createInputFlow({
      signer: this.#config.signer,
      subject: `tools/call ${this.toolName}`,
      args: s.args,
      caller: s.auth?.subject ?? '',
      capabilities: s.capabilities,
      inputResponses: s.inputResponses,
      requestState: s.requestState,
      ttlMs: this.#config.approvalTtlMs,
    }));
  }

  progress(progress: number, total?: number, text?: string): void {
    const s = this.#s;
    const token = s.meta[META.progressToken];
    if (!(typeof token === 'string' || (typeof token === 'number' && Number.isFinite(token)))) return;
    if (s.finished || s.message.isAborted() || !(progress > this.#last)) return;
    this.#last = progress;
    const params: JsonObject = { progressToken: token, progress };
    if (total !== undefined) params.total = total;
    if (text !== undefined) params.message = text;
    s.message.notify({ jsonrpc: '2.0', method: 'notifications/progress', params });
  }

  log(level: LogLevel, data: unknown): void {
    const s = this.#s;
    if (s.logLevel < 0 || LOG_LEVELS.indexOf(level) < s.logLevel || s.finished || s.message.isAborted()) return;
    const notification: JsonRpcNotification = { jsonrpc: '2.0', method: 'notifications/message', params: { level, logger: this.toolName, data } };
    s.message.notify(notification);
  }
}

/** Builds the pipeline function for one server. */
export function createPipeline(config: PipelineConfig): (message: InboundMessage) => Promise<Reply> {
  const toolsByName = new Map(config.tools.map((t) => [t.name, t]));
  const { onStageEvent, logger, resultMeta } = config;
  const authorizer = config.authorize;
  const resourceMetadata = config.resourceMetadataUrl === undefined ? '' : `, resource_metadata="${config.resourceMetadataUrl}"`;

  // ---- stages common to every message ----

  const authenticate: Stage = authorizer === undefined ? () => undefined : async (s) => {
    const header = s.message.header ?? NO_HEADER;
    const authorization = header('authorization');
    const bearer = authorization !== undefined && /^bearer\s+/i.test(authorization) ? authorization.replace(/^bearer\s+/i, '').trim() : undefined;
    let auth: AuthInfo | null;
    try {
      auth = await authorizer!({ transport: s.message.transport, header, bearerToken: bearer });
    } catch (error) {
      logger.error('authorize() threw; request refused', { error: errorMessage(error) });
      auth = null;
    }
    if (auth === null) {
      const challenge = `Bearer${resourceMetadata ? resourceMetadata.slice(1) : ''}`;
      return fail(rpcError('unauthenticated', 'Unauthorized: a valid bearer token is required', {
        headers: s.message.transport === 'http' ? { 'WWW-Authenticate': challenge } : undefined,
      }));
    }
    s.auth = auth;
    return undefined;
  };

  const decode: Stage = (s) => {
    const message = s.message;
    if (message.parsed !== undefined) {
      s.parsed = message.parsed;
      return undefined;
    }
    const body = message.body;
    let text: string;
    if (typeof body === 'string') text = body;
    else {
      // Buffer decoding is much faster than a fatal TextDecoder; only a replacement character in
      // the output can mean invalid UTF-8, and then the strict decoder decides.
      text = (Buffer.isBuffer(body) ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength)).toString('utf8');
      if (text.includes('\uFFFD')) {
        try {
          utf8.decode(body);
        } catch {
          return fail(rpcError('parseError', 'Parse error: the message is not valid UTF-8'));
        }
      }
    }
    try {
      s.parsed = JSON.parse(text);
    } catch (error) {
      return fail(rpcError('parseError', `Parse error: ${text.trim() === '' ? 'empty message' : errorMessage(error)}`));
    }
    return undefined;
  };

  const envelope: Stage = (s) => {
    const m = s.parsed;
    if (Array.isArray(m)) return fail(rpcError('invalidRequest', 'Invalid request: batch arrays are not supported; send one message at a time'));
    if (!isJsonObject(m)) return fail(rpcError('invalidRequest', `Invalid request: expected a JSON-RPC object, got ${describeType(m)}`));
    if ('id' in m) {
      if (!isJsonRpcId(m.id)) return fail(rpcError('invalidRequest', `Invalid request: id must be a string or an integer, got ${describeType(m.id)}`));
      s.id = m.id;
    }
    if (m.jsonrpc !== '2.0') return fail(rpcError('invalidRequest', 'Invalid request: jsonrpc must be "2.0"'));
    if (typeof m.method !== 'string') {
      const isResponse = 'result' in m || 'error' in m;
      return fail(rpcError('invalidRequest', isResponse ? 'Invalid request: the server does not accept JSON-RPC responses' : 'Invalid request: method must be a string'));
    }
    s.method = m.method;
    if (m.params !== undefined) {
      if (!isJsonObject(m.params)) return fail(rpcError('invalidRequest', `Invalid request: params must be an object, got ${describeType(m.params)}`));
      s.params = m.params;
    }
    if (s.id === undefined) return { kind: 'accepted' };
    return undefined;
  };

  const version: Stage = (s) => {
    const params = s.params;
    const meta = params._meta;
    if (s.method === 'initialize' && !(isJsonObject(meta) && typeof meta[META.protocolVersion] === 'string')) {
      const requested = typeof params.protocolVersion === 'string' ? params.protocolVersion : 'none';
      return fail(rpcError('legacyInitialize', `Unsupported protocol version: ${requested}; this server supports ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')} (no initialize handshake)`, {
        data: { supported: [...SUPPORTED_PROTOCOL_VERSIONS], requested },
      }));
    }
    if (!isJsonObject(meta)) {
      return fail(rpcError('missingMeta', `Invalid params: missing params._meta with ${META.protocolVersion} and ${META.clientCapabilities}`));
    }
    const requested = meta[META.protocolVersion];
    if (typeof requested !== 'string') return fail(rpcError('missingMeta', `Invalid params: missing required _meta field ${META.protocolVersion}`));
    // A header that contradicts the body is a header error whatever the versions are (R-82).
    const headerVersion = s.message.header?.(HEADER.protocolVersion)?.trim();
    if (headerVersion !== undefined && headerVersion !== requested) {
      return fail(rpcError('headerMismatch', `Header mismatch: MCP-Protocol-Version ${JSON.stringify(headerVersion)} differs from _meta protocolVersion ${JSON.stringify(requested)}`));
    }
    if (!SUPPORTED.has(requested)) {
      return fail(rpcError('unsupportedVersion', `Unsupported protocol version: ${requested}`, { data: { supported: [...SUPPORTED_PROTOCOL_VERSIONS], requested } }));
    }
    const capabilities = meta[META.clientCapabilities];
    if (!isJsonObject(capabilities)) return fail(rpcError('missingMeta', `Invalid params: missing required _meta field ${META.clientCapabilities}`));
    const level = meta[META.logLevel];
    if (level !== undefined) {
      const index = LOG_LEVELS.indexOf(level as LogLevel);
      if (index < 0) return fail(rpcError('invalidLogLevel', `Invalid params: unknown ${META.logLevel} ${JSON.stringify(level)}; use one of ${LOG_LEVELS.join(', ')}`));
      s.logLevel = index;
    }
    s.meta = meta;
    s.version = requested;
    s.capabilities = capabilities as ClientCapabilities;
    return undefined;
  };

  const headers: Stage = (s) => {
    const header = s.message.header;
    if (header === undefined) return undefined;
    const protocolVersion = header(HEADER.protocolVersion);
    if (protocolVersion === undefined) return fail(rpcError('headerMismatch', 'Header mismatch: missing required header MCP-Protocol-Version'));
    if (protocolVersion.trim() !== s.version) {
      return fail(rpcError('headerMismatch', `Header mismatch: MCP-Protocol-Version ${JSON.stringify(protocolVersion.trim())} differs from _meta protocolVersion ${JSON.stringify(s.version)}`));
    }
    const method = header(HEADER.method);
    if (method === undefined) return fail(rpcError('headerMismatch', 'Header mismatch: missing required header Mcp-Method'));
    if (method.trim() !== s.method) {
      return fail(rpcError('headerMismatch', `Header mismatch: Mcp-Method ${JSON.stringify(method.trim())} differs from method ${JSON.stringify(s.method)}`));
    }
    const nameParam = NAME_PARAM[s.method];
    if (nameParam !== undefined) {
      const bodyName = s.params[nameParam];
      if (typeof bodyName === 'string') {
        const raw = header(HEADER.name);
        if (raw === undefined) return fail(rpcError('headerMismatch', 'Header mismatch: missing required header Mcp-Name'));
        const decoded = decodeHeaderValue(raw);
        if (!decoded.ok) return fail(rpcError('headerMismatch', `Header mismatch: Mcp-Name ${decoded.reason}`));
        if (decoded.value !== bodyName) {
          return fail(rpcError('headerMismatch', `Header mismatch: Mcp-Name ${JSON.stringify(decoded.value)} differs from params.${nameParam} ${JSON.stringify(bodyName)}`));
        }
      }
    }
    return undefined;
  };

  const route: Stage = (s) => {
    const method = s.method as string;
    if (method === 'tools/call') return undefined;
    const handler = config.routes.get(method);
    if (handler === undefined) return fail(rpcError('methodNotFound', `Method not found: ${method}`));
    return handler(s);
  };

  // ---- tools/call stages ----

  const findTool: Stage = (s) => {
    const params = s.params;
    const name = params.name;
    if (typeof name !== 'string') return fail(rpcError('invalidCallParams', `Invalid params: tools/call needs a string "name", got ${describeType(name)}`));
    const tool = toolsByName.get(name);
    if (tool === undefined) return fail(rpcError('unknownTool', `Unknown tool: ${name}`));
    s.tool = tool;
    const args = params.arguments;
    if (args !== undefined) {
      if (!isJsonObject(args)) return fail(rpcError('argumentsNotObject', `Invalid params: arguments must be an object, got ${describeType(args)}`));
      s.args = args;
    } // else OUTCOMES.argumentsAbsent: arguments stay {}
    const inputResponses = params.inputResponses;
    if (inputResponses !== undefined) {
      if (!isJsonObject(inputResponses)) return fail(rpcError('invalidCallParams', `Invalid params: inputResponses must be an object, got ${describeType(inputResponses)}`));
      s.inputResponses = inputResponses;
    }
    const requestState = params.requestState;
    if (requestState !== undefined) {
      if (typeof requestState !== 'string') return fail(rpcError('invalidCallParams', `Invalid params: requestState must be a string, got ${describeType(requestState)}`));
      s.requestState = requestState;
    }
    return undefined;
  };

  const paramHeaders: Stage = (s) => {
    const header = s.message.header;
    const tool = s.tool as RegisteredTool;
    if (header === undefined || tool.headers.length === 0) return undefined;
    const problem = checkParamHeaders(tool.headers, s.args, header);
    return problem === null ? undefined : fail(rpcError('headerMismatch', problem));
  };

  const clientCapabilities: Stage = (s) => {
    const required = (s.tool as RegisteredTool).tool.requiredClientCapabilities;
    if (required === undefined) return undefined;
    const missing = missingCapabilities(required, s.capabilities);
    if (missing === undefined) return undefined;
    return fail(rpcError('missingClientCapability', `Missing required client capability: ${Object.keys(missing).join(', ')} (tool ${s.tool!.name} cannot run without it)`, {
      data: { requiredCapabilities: missing },
    }));
  };

  const shape: Stage = (s) => {
    const tool = s.tool as RegisteredTool;
    const verdict = tool.input.validate(s.args);
    if (verdict.valid) {
      s.ctx = createContext(s);
      return undefined;
    }
    return toolStop(toolError('invalidArguments', `Invalid arguments for tool ${tool.name}:\n${formatSchemaErrors(verdict.errors)}`));
  };

  // Stages with nothing to do stay synchronous: no promise, no await on the hot path.
  const check: Stage = (s) => ((s.tool as RegisteredTool).tool.handlers.check === undefined ? undefined : runCheck(s));

  const runCheck = async (s: RequestState): Promise<Stop | undefined> => {
    const tool = s.tool as RegisteredTool;
    const rules = tool.tool.handlers.check!;
    let violations: readonly (RuleViolation | string)[];
    try {
      violations = await rules(s.args, s.ctx as ToolContext);
    } catch (error) {
      if (s.message.isAborted()) return { kind: 'cancelled' };
      return toolStop(toolError('checkThrew', `Tool ${tool.name} could not check the arguments: ${errorMessage(error)}`));
    }
    if (!Array.isArray(violations) || violations.length === 0) return undefined;
    const lines = violations.map((v) => (typeof v === 'string' ? `- ${v}` : `- ${v.path !== undefined && v.path !== '' ? `${v.path}: ` : ''}${v.message}`));
    return toolStop(toolError('businessRuleViolation', `Tool ${tool.name} refused the call:\n${lines.join('\n')}`));
  };

  const authorize: Stage = (s) => {
    const tool = s.tool as RegisteredTool;
    const needed = tool.tool.scopes;
    if (needed.length === 0) return undefined;
    const granted = s.auth?.scopes ?? [];
    const missing = needed.filter((scope) => !granted.includes(scope));
    if (missing.length === 0) return undefined;
    const message = `Insufficient scope: tool ${tool.name} requires ${needed.map((x) => JSON.stringify(x)).join(', ')}`;
    const challenge = `Bearer error="insufficient_scope", scope="${needed.join(' ')}"${resourceMetadata}, error_description="${message.replace(/"/g, "'")}"`;
    return fail(rpcError('insufficientScope', message, {
      data: { requiredScopes: [...needed] },
      headers: s.message.transport === 'http' ? { 'WWW-Authenticate': challenge } : undefined,
    }));
  };

  const approval: Stage = (s) => ((s.tool as RegisteredTool).tool.handlers.approval === undefined ? undefined : runApproval(s));

  const runApproval = async (s: RequestState): Promise<Stop | undefined> => {
    const tool = s.tool as RegisteredTool;
    const ask = tool.tool.handlers.approval!;
    const request = await ask(s.args, s.ctx as ToolContext);
    if (request === null || request === undefined) return undefined;
    const digest = digestArguments(s.args);
    const subject = s.auth?.subject ?? '';
    if (s.requestState !== undefined) {
      const verdict = config.signer.verify(s.requestState);
      if (!verdict.ok) return fail(rpcError('invalidRequestState', `Invalid params: ${verdict.reason}`));
      const claims = verdict.claims;
      if (claims.tool !== tool.name || claims.args !== digest || claims.sub !== subject) {
        return fail(rpcError('invalidRequestState', 'Invalid params: requestState belongs to a different call (tool, arguments or caller differ)'));
      }
      const answer = s.inputResponses?.approval;
      if (!isJsonObject(answer) || typeof answer.action !== 'string') {
        return fail(rpcError('invalidCallParams', 'Invalid params: inputResponses.approval must be an elicitation result with an "action"'));
      }
      const content = answer.content;
      if (answer.action === 'accept' && isJsonObject(content) && content.approve === true) return undefined;
      const how = answer.action === 'accept' ? 'did not approve' : answer.action === 'decline' ? 'declined' : 'cancelled';
      return toolStop(toolError('approvalDeclined', `The user ${how} the call of ${tool.name}; it was not executed.`));
    }
    const elicitation = s.capabilities.elicitation;
    if (!isJsonObject(elicitation) || (Object.keys(elicitation).length > 0 && elicitation.form === undefined)) {
      return fail(rpcError('missingClientCapability', `Missing required client capability: elicitation (tool ${tool.name} needs human approval)`, {
        data: { requiredCapabilities: { elicitation: { form: {} } } },
      }));
    }
    const state = config.signer.sign({ tool: tool.name, args: digest, sub: subject, exp: Date.now() + config.approvalTtlMs });
    const result: InputRequiredResult = {
      resultType: 'input_required',
      inputRequests: {
        approval: {
          method: 'elicitation/create',
          params: {
            mode: 'form',
            message: request.message,
            requestedSchema: {
              type: 'object',
              properties: { approve: { type: 'boolean', title: 'Approve', description: `Allow ${tool.name} to run with these arguments` } },
              required: ['approve'],
            },
          },
        },
      },
      requestState: state,
    };
    return respond(result as unknown as JsonObject);
  };

  // A synchronous `run` keeps the whole call synchronous; only a returned promise is awaited.
  const execute: Stage = (s) => {
    const tool = s.tool as RegisteredTool;
    if (s.message.isAborted()) return { kind: 'cancelled' };
    let raw: unknown;
    try {
      raw = tool.tool.handlers.run(s.args, s.ctx as ToolContext);
    } catch (error) {
      return runFailed(s, error);
    }
    if (isThenable(raw)) return Promise.resolve(raw).then((value) => runReturned(s, value), (error: unknown) => runFailed(s, error));
    return runReturned(s, raw);
  };

  const runFailed = (s: RequestState, error: unknown): Stop => {
    if (s.message.isAborted()) return { kind: 'cancelled' };
    if (error instanceof ProtocolError) return fail(error);
    return toolStop(toolError('runThrew', errorMessage(error)));
  };

  const runReturned = (s: RequestState, value: unknown): Stop | undefined => {
    const tool = s.tool as RegisteredTool;
    let raw = value;
    if (s.message.isAborted()) return { kind: 'cancelled' };
    if (raw === undefined) raw = { content: [] };
    else if (typeof raw === 'string') raw = { content: [{ type: 'text', text: raw }] };
    if (!isJsonObject(raw)) return invalidRunResult(tool, `returned ${describeType(raw)}`);
    if (raw.resultType === 'input_required') return inputRequiredStop(s, tool, raw);
    if (raw.resultType !== undefined && raw.resultType !== 'complete') return invalidRunResult(tool, `returned unknown resultType ${JSON.stringify(raw.resultType)}`);
    const init = raw as ToolResultInit;
    if (init.content !== undefined && !Array.isArray(init.content)) return invalidRunResult(tool, 'returned content that is not an array');
    if (init.isError !== undefined && typeof init.isError !== 'boolean') return invalidRunResult(tool, 'returned isError that is not a boolean');
    let content = init.content;
    if (content === undefined) {
      // OUTCOMES.structuredOnly: older clients only read content, so mirror the structured value as text.
      content = init.structuredContent === undefined ? [] : [{ type: 'text', text: JSON.stringify(init.structuredContent) }];
    }
    const result: CallToolResult = { resultType: 'complete', content: content as ContentBlock[] };
    if (init.structuredContent !== undefined) result.structuredContent = init.structuredContent;
    if (init.isError === true) result.isError = true;
    if (isJsonObject(init._meta)) result._meta = { ...init._meta, ...resultMeta };
    s.result = result;
    return undefined;
  };

  const output: Stage = (s) => {
    const tool = s.tool as RegisteredTool;
    const result = s.result as CallToolResult;
    // OUTCOMES.errorResultUnchecked: an error result describes a failure, not the promised output.
    if (result.isError === true) return toolStop(result);
    if (tool.output !== undefined) {
      if (result.structuredContent === undefined) {
        logger.error('tool returned no structuredContent although it declares an outputSchema', { tool: tool.name });
        return fail(rpcError('outputContractBroken', `Internal error: tool ${tool.name} returned no structuredContent although it declares an outputSchema`));
      }
      const verdict = tool.output.validate(result.structuredContent);
      if (!verdict.valid) {
        logger.error('tool output breaks its outputSchema; the value was withheld', {
          tool: tool.name,
          structuredContent: result.structuredContent,
          errors: verdict.errors.map((e) => e.message),
        });
        return fail(rpcError('outputContractBroken', `Internal error: tool ${tool.name} produced output that breaks its outputSchema`));
      }
    }
    return respond(result as unknown as JsonObject);
  };

  function inputRequiredStop(s: RequestState, tool: RegisteredTool, raw: JsonObject): Stop {
    const requests = raw.inputRequests;
    if (raw.requestState === undefined && requests === undefined) return invalidRunResult(tool, 'returned input_required without inputRequests or requestState');
    if (raw.requestState !== undefined && typeof raw.requestState !== 'string') return invalidRunResult(tool, 'returned a requestState that is not a string');
    if (requests !== undefined) {
      if (!isJsonObject(requests)) return invalidRunResult(tool, 'returned inputRequests that is not an object');
      const missing: Record<string, unknown> = {};
      for (const request of Object.values(requests) as InputRequest[]) {
        const needed = capabilityFor(request);
        if (needed === undefined) return invalidRunResult(tool, `returned an input request with unknown method ${JSON.stringify((request as { method?: unknown })?.method)}`);
        if (s.capabilities[needed] === undefined) missing[needed] = {};
      }
      // R-60: never ask the client for something it did not declare.
      if (Object.keys(missing).length > 0) {
        return fail(rpcError('missingClientCapability', `Missing required client capability: ${Object.keys(missing).join(', ')} (tool ${tool.name} needs it to continue)`, {
          data: { requiredCapabilities: missing },
        }));
      }
    }
    const result: InputRequiredResult = { resultType: 'input_required' };
    if (requests !== undefined) result.inputRequests = requests as Record<string, InputRequest>;
    if (raw.requestState !== undefined) result.requestState = raw.requestState as string;
    if (isJsonObject(raw._meta)) result._meta = raw._meta;
    return respond(result as unknown as JsonObject);
  }

  function invalidRunResult(tool: RegisteredTool, what: string): Stop {
    logger.error(`tool ${what}`, { tool: tool.name });
    return fail(rpcError('invalidRunResult', `Internal error: tool ${tool.name} ${what}`));
  }

  function createContext(s: RequestState): ToolContext {
    return new CallContext(s, config);
  }

  const BASE: ReadonlyArray<readonly [StageName, Stage]> = [
    ['authenticate', authenticate],
    ['decode', decode],
    ['envelope', envelope],
    ['version', version],
    ['headers', headers],
    ['route', route],
  ];
  const CALL: ReadonlyArray<readonly [StageName, Stage]> = [
    ['find-tool', findTool],
    ['param-headers', paramHeaders],
    ['client-capabilities', clientCapabilities],
    ['shape', shape],
    ['check', check],
    ['authorize', authorize],
    ['approval', approval],
    ['execute', execute],
    ['output', output],
  ];

  // Stages after `route` only run for tools/call: every other method stops at `route`.
  const STAGE_LIST: ReadonlyArray<readonly [StageName, Stage]> = [...BASE, ...CALL];

  function crashed(s: RequestState, name: StageName, error: unknown): Stop {
    logger.error(`stage ${name} failed`, { error: errorMessage(error), stack: error instanceof Error ? error.stack : undefined, tool: s.tool?.name });
    return fail(internalError());
  }

  /**
   * Runs stages from `index` synchronously for as long as they answer synchronously, so a call
   * with no asynchronous work allocates no promises here; the first pending stage continues the
   * loop from its settlement.
   */
  function runFrom(s: RequestState, index: number): Stop | Promise<Stop> {
    for (let i = index; i < STAGE_LIST.length; i++) {
      const [name, stage] = STAGE_LIST[i]!;
      const started = onStageEvent === undefined ? 0 : performance.now();
      let value: Stop | undefined | Promise<Stop | undefined>;
      try {
        value = stage(s);
      } catch (error) {
        value = crashed(s, name, error);
      }
      if (value instanceof Promise) {
        return value.then(
          (stop) => settle(s, name, stop, started, i),
          (error: unknown) => settle(s, name, crashed(s, name, error), started, i),
        );
      }
      if (onStageEvent !== undefined) emit(s, name, value, performance.now() - started);
      if (value !== undefined) return value;
    }
    return fail(internalError());
  }

  function settle(s: RequestState, name: StageName, stop: Stop | undefined, started: number, i: number): Stop | Promise<Stop> {
    if (onStageEvent !== undefined) emit(s, name, stop, performance.now() - started);
    return stop !== undefined ? stop : runFrom(s, i + 1);
  }

  function emit(s: RequestState, stage: StageName, stop: Stop | undefined, durationMs: number): void {
    let outcome: StageOutcome = 'pass';
    let code: number | undefined;
    let detail: string | undefined;
    if (stop !== undefined) {
      if (stop.kind === 'result') {
        outcome = stop.outcome;
        if (stop.outcome === 'tool-error') detail = firstText(stop.result);
      } else if (stop.kind === 'error') {
        outcome = 'error';
        code = stop.error.code;
        detail = stop.error.message;
      } else outcome = stop.kind;
    }
    const event: StageEvent = { stage, outcome, durationMs, requestId: s.id, method: s.method, tool: s.tool?.name, transport: s.message.transport };
    if (code !== undefined) event.code = code;
    if (detail !== undefined) event.detail = detail;
    try {
      onStageEvent!(event);
    } catch (error) {
      logger.error('onStageEvent threw', { error: errorMessage(error) });
    }
  }

  const finish = (s: RequestState, stop: Stop): Reply => {
    s.finished = true;
    return toReply(s, stop, resultMeta);
  };

  return function handleMessage(message: InboundMessage): Promise<Reply> {
    try {
      const s = new RequestState(message);
      const stop = runFrom(s, 0);
      return stop instanceof Promise ? stop.then((settled) => finish(s, settled)) : Promise.resolve(finish(s, stop));
    } catch (error) {
      return Promise.reject(error);
    }
  };
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

function firstText(result: JsonObject): string | undefined {
  const content = result.content;
  if (!Array.isArray(content)) return undefined;
  const block = content[0] as { type?: unknown; text?: unknown } | undefined;
  return block?.type === 'text' && typeof block.text === 'string' ? block.text : undefined;
}

function respond(result: JsonObject): Stop {
  return { kind: 'result', outcome: 'respond', result };
}

function toolStop(result: CallToolResult): Stop {
  return { kind: 'result', outcome: result.isError === true ? 'tool-error' : 'respond', result: result as unknown as JsonObject };
}

/** Which client capability an MRTR input request needs. */
function capabilityFor(request: InputRequest): 'elicitation' | 'sampling' | 'roots' | undefined {
  switch ((request as { method?: unknown } | null)?.method) {
    case 'elicitation/create': return 'elicitation';
    case 'sampling/createMessage': return 'sampling';
    case 'roots/list': return 'roots';
    default: return undefined;
  }
}

/** The part of `required` that `declared` lacks, or undefined when everything is declared. */
export function missingCapabilities(required: Record<string, unknown>, declared: Record<string, unknown>): Record<string, unknown> | undefined {
  let missing: Record<string, unknown> | undefined;
  for (const [key, need] of Object.entries(required)) {
    const have = declared[key];
    if (have === undefined || have === null) {
      (missing ??= {})[key] = need;
    } else if (isJsonObject(need) && Object.keys(need).length > 0 && isJsonObject(have)) {
      const inner = missingCapabilities(need, have);
      if (inner !== undefined) (missing ??= {})[key] = inner;
    }
  }
  return missing;
}

function serializeResult(id: JsonRpcId, result: JsonObject, resultMeta: JsonObject, json: string | undefined): string {
  if (json === undefined) {
    // Results reaching here are objects the pipeline built itself, so adding _meta in place is safe.
    if (result._meta === undefined) result._meta = resultMeta;
    json = JSON.stringify(result);
  }
  return `{"jsonrpc":"2.0","id":${typeof id === 'number' ? id : JSON.stringify(id)},"result":${json}}`;
}

function toReply(s: RequestState, stop: Stop, resultMeta: JsonObject): Reply {
  switch (stop.kind) {
    case 'result':
      return { status: 200, body: serializeResult(s.id as JsonRpcId, stop.result, resultMeta, stop.json) };
    case 'error': {
      const reply: Reply = { status: stop.error.httpStatus, body: JSON.stringify(stop.error.toResponse(s.id)) };
      if (stop.error.headers !== undefined) reply.headers = stop.error.headers;
      return reply;
    }
    case 'accepted':
      return { status: OUTCOMES.notification.httpStatus, body: undefined };
    case 'cancelled':
      return { status: OUTCOMES.cancelled.httpStatus, body: undefined };
  }
}
