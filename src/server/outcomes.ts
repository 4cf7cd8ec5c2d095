import { ProtocolError } from '../protocol/protocol-error.js';
import { ErrorCode } from '../protocol/error-codes.js';
import type { CallToolResult } from '../protocol/wire-types.js';

/** How one situation ends. */
export type OutcomeRule =
  | { readonly situation: string; readonly kind: 'rpc-error'; readonly code: number; readonly httpStatus: number }
  | { readonly situation: string; readonly kind: 'tool-error' }
  | { readonly situation: string; readonly kind: 'no-response'; readonly httpStatus: number }
  | { readonly situation: string; readonly kind: 'continue' | 'result'; readonly note: string };

/**
 * THE table that decides every outcome of a request. Each stage looks its situation up here rather
 * than choosing codes itself, and test/server/outcomes.test.ts drives every row end to end.
 * HTTP statuses follow digest R-77/R-81..R-83/R-101; where the spec leaves the status open (A-02),
 * errors that answer a well-formed request about a named thing (unknown tool, bad cursor) use 200 so
 * clients read the JSON-RPC body, and server faults use 500.
 */
export const OUTCOMES = {
  parseError: { situation: 'body or line is not JSON (or not UTF-8)', kind: 'rpc-error', code: ErrorCode.ParseError, httpStatus: 400 },
  invalidRequest: { situation: 'not a single JSON-RPC 2.0 request or notification', kind: 'rpc-error', code: ErrorCode.InvalidRequest, httpStatus: 400 },
  notification: { situation: 'a notification (no id)', kind: 'no-response', httpStatus: 202 },
  legacyInitialize: { situation: 'initialize where only 2026-07-28 is served (eras: modern)', kind: 'rpc-error', code: ErrorCode.UnsupportedProtocolVersion, httpStatus: 400 },
  missingMeta: { situation: '_meta protocolVersion or clientCapabilities missing', kind: 'rpc-error', code: ErrorCode.InvalidParams, httpStatus: 400 },
  invalidLogLevel: { situation: '_meta logLevel is not a known level', kind: 'rpc-error', code: ErrorCode.InvalidParams, httpStatus: 400 },
  unsupportedVersion: { situation: 'protocolVersion not supported', kind: 'rpc-error', code: ErrorCode.UnsupportedProtocolVersion, httpStatus: 400 },
  headerMismatch: { situation: 'HTTP header missing or disagreeing with the body', kind: 'rpc-error', code: ErrorCode.HeaderMismatch, httpStatus: 400 },
  unauthenticated: { situation: 'authorize() rejected the request (no or bad token)', kind: 'rpc-error', code: ErrorCode.Unauthorized, httpStatus: 401 },
  authorizationMalformed: { situation: 'the Authorization header is unusable: over the size limit, or more than one credential (RFC 6750 invalid_request)', kind: 'rpc-error', code: ErrorCode.Unauthorized, httpStatus: 400 },
  authorizationUnavailable: { situation: "the token cannot be checked: the issuer's keys, metadata or introspection endpoint are unreachable, hang or answer junk (fails closed; nothing ran)", kind: 'rpc-error', code: ErrorCode.ServerBusy, httpStatus: 503 },
  methodNotFound: { situation: 'unknown or removed method', kind: 'rpc-error', code: ErrorCode.MethodNotFound, httpStatus: 404 },
  invalidCursor: { situation: 'tools/list cursor not issued by this server', kind: 'rpc-error', code: ErrorCode.InvalidParams, httpStatus: 200 },
  invalidCallParams: { situation: 'tools/call name not a string, or inputResponses/requestState malformed, or call_tool (search surface) without a string name or with other keys', kind: 'rpc-error', code: ErrorCode.InvalidParams, httpStatus: 200 },
  unknownTool: { situation: 'unknown tool', kind: 'rpc-error', code: ErrorCode.InvalidParams, httpStatus: 200 },
  argumentsNotObject: { situation: '`arguments` present but not an object', kind: 'rpc-error', code: ErrorCode.InvalidParams, httpStatus: 200 },
  argumentsAbsent: { situation: '`arguments` absent', kind: 'continue', note: 'treated as {}' },
  missingClientCapability: { situation: 'tool needs a client capability the request lacks', kind: 'rpc-error', code: ErrorCode.MissingRequiredClientCapability, httpStatus: 400 },
  invalidArguments: { situation: 'arguments violate inputSchema', kind: 'tool-error' },
  businessRuleViolation: { situation: '`check` reports a business-rule violation', kind: 'tool-error' },
  checkThrew: { situation: '`check` throws or rejects', kind: 'tool-error' },
  insufficientScope: { situation: 'caller lacks a scope the tool (or the resource, resource template or prompt read, got or completed) requires', kind: 'rpc-error', code: ErrorCode.InsufficientScope, httpStatus: 403 },
  invalidRequestState: { situation: 'requestState (approval or ctx.inputs) forged, expired, replayed or for another call', kind: 'rpc-error', code: ErrorCode.InvalidParams, httpStatus: 200 },
  approvalRequested: { situation: 'tool needs approval and none was given yet', kind: 'result', note: 'input_required result with an elicitation' },
  approvalDeclined: { situation: 'the user declined or cancelled the approval, or the operator declined it', kind: 'tool-error' },
  approvalTimedOut: { situation: 'a call held for an operator got no decision before its deadline (or was cancelled, or the server closed)', kind: 'tool-error' },
  cancelled: { situation: 'client cancelled the request', kind: 'no-response', httpStatus: 499 },
  runThrew: { situation: '`run` throws or rejects', kind: 'tool-error' },
  invalidRunResult: { situation: '`run` returns something that is not a tool result', kind: 'rpc-error', code: ErrorCode.InternalError, httpStatus: 500 },
  outputContractBroken: { situation: '`run` returns structuredContent that breaks outputSchema (or none)', kind: 'rpc-error', code: ErrorCode.InternalError, httpStatus: 500 },
  errorResultUnchecked: { situation: '`isError: true` result', kind: 'result', note: 'output schema not applied' },
  structuredOnly: { situation: '`run` returns only structuredContent', kind: 'result', note: 'a text block mirroring it is added' },
  unknownResource: { situation: 'resources/read (or completion ref) names a URI no resource or template serves', kind: 'rpc-error', code: ErrorCode.InvalidParams, httpStatus: 200 },
  unknownPrompt: { situation: 'prompts/get (or completion ref) names an unknown prompt', kind: 'rpc-error', code: ErrorCode.InvalidParams, httpStatus: 200 },
  invalidFeatureParams: { situation: 'prompts/get, resources/read, completion/complete or subscriptions/listen params malformed (incl. missing required prompt arguments)', kind: 'rpc-error', code: ErrorCode.InvalidParams, httpStatus: 200 },
  featureHandlerFailed: { situation: 'a resource read, prompt get or completer throws or returns a malformed value', kind: 'rpc-error', code: ErrorCode.InternalError, httpStatus: 500 },
  inputRequested: { situation: '`ctx.inputs.require()` lacks answers', kind: 'result', note: 'input_required result with the missing requests and a sealed requestState' },
  middlewareRefused: { situation: 'a middleware refused the call with a result', kind: 'tool-error' },
  rateLimited: { situation: 'the rate-limit middleware found the bucket of this tool/subject empty', kind: 'rpc-error', code: ErrorCode.RateLimited, httpStatus: 429 },
  searchBudgetTooSmall: { situation: 'search_tools (search surface): none of the matching definitions fits in the token budget of the call', kind: 'tool-error' },
  resultTooLarge: { situation: 'the result-budget middleware refused a result over its budget', kind: 'tool-error' },
  upstreamRefused: { situation: 'a proxied upstream refused a resources/read or prompts/get as invalid or unknown (its -32602, or the 2025 -32002); passed on naming the upstream', kind: 'rpc-error', code: ErrorCode.InvalidParams, httpStatus: 200 },
  upstreamFailed: { situation: 'a proxied upstream failed a resources/read or prompts/get otherwise, or answered it malformed; passed on naming the upstream', kind: 'rpc-error', code: ErrorCode.InternalError, httpStatus: 200 },
  bridgeUpstreamUnreachable: { situation: 'toolwright bridge: the server it relays a stdio host to cannot be reached or answered junk (the next message tries again)', kind: 'rpc-error', code: ErrorCode.InternalError, httpStatus: 200 },
  storeUnavailable: { situation: 'the shared store (Redis) cannot be reached for a call that needs it: approvals, rate limits (fails closed; nothing ran)', kind: 'rpc-error', code: ErrorCode.ServerBusy, httpStatus: 503 },
  internalFault: { situation: 'a stage, route or middleware threw (details go to the server log only)', kind: 'rpc-error', code: ErrorCode.InternalError, httpStatus: 500 },
  // The tasks extension (src/server/tasks/); tested in test/server/tasks-*.test.ts.
  taskUnknown: { situation: 'tasks/get, tasks/update or tasks/cancel names a task that does not exist, has expired or was created by another subject', kind: 'rpc-error', code: ErrorCode.InvalidParams, httpStatus: 200 },
  taskInvalidParams: { situation: 'tasks/get, tasks/update or tasks/cancel params malformed (taskId not a string, inputResponses not an object)', kind: 'rpc-error', code: ErrorCode.InvalidParams, httpStatus: 200 },
  taskCapacity: { situation: 'a call would become a task while maxActiveTasks tasks run (or the store is full); nothing ran', kind: 'rpc-error', code: ErrorCode.ServerBusy, httpStatus: 503 },
  taskCreated: { situation: 'the tool runs as a task for this call', kind: 'result', note: 'CreateTaskResult (resultType "task"); the outcome is read with tasks/get' },
  // The legacy (2025) session wire, legacy-*.ts; tested in test/server/legacy-*.test.ts.
  legacySessionRequired: { situation: 'legacy request or GET/DELETE without Mcp-Session-Id (or initialize with one)', kind: 'rpc-error', code: ErrorCode.InvalidRequest, httpStatus: 400 },
  legacySessionNotFound: { situation: 'Mcp-Session-Id unknown, expired or deleted', kind: 'rpc-error', code: ErrorCode.SessionNotFound, httpStatus: 404 },
  legacySessionsFull: { situation: 'initialize while maxSessions live sessions exist (none is evicted)', kind: 'rpc-error', code: ErrorCode.ServerBusy, httpStatus: 503 },
  legacyInvalidInitialize: { situation: 'initialize without protocolVersion or capabilities', kind: 'rpc-error', code: ErrorCode.InvalidParams, httpStatus: 400 },
  legacyInvalidParams: { situation: 'logging/setLevel or resources/subscribe params malformed', kind: 'rpc-error', code: ErrorCode.InvalidParams, httpStatus: 200 },
  legacyEraLocked: { situation: 'stdio: initialize after 2026-07-28 traffic, or a second initialize', kind: 'rpc-error', code: ErrorCode.InvalidRequest, httpStatus: 400 },
  legacyStreamConflict: { situation: 'a second GET stream for one session', kind: 'rpc-error', code: ErrorCode.InvalidRequest, httpStatus: 409 },
  legacyNotAcceptable: { situation: 'GET without Accept: text/event-stream', kind: 'rpc-error', code: ErrorCode.InvalidRequest, httpStatus: 406 },
  legacyInputFailed: { situation: 'the client answered a server-to-client request with an error, or it could not be sent', kind: 'rpc-error', code: ErrorCode.InternalError, httpStatus: 200 },
  legacyInputTimeout: { situation: 'no answer to a server-to-client request within inputTimeoutMs', kind: 'rpc-error', code: ErrorCode.InputTimeout, httpStatus: 200 },
  legacyInputRounds: { situation: 'a call still needs input after maxInputRounds rounds', kind: 'rpc-error', code: ErrorCode.InternalError, httpStatus: 200 },
  // Resuming a legacy session's stream with Last-Event-ID, legacy-replay.ts; tested in test/server/legacy-resume.test.ts.
  legacyReplayBadEventId: { situation: 'GET with a Last-Event-ID that is no event id of this server (malformed, or over 64 characters)', kind: 'rpc-error', code: ErrorCode.InvalidRequest, httpStatus: 400 },
  legacyReplayGone: { situation: 'GET with a Last-Event-ID naming no stream of this session, or events after it already dropped from the bounded replay buffer', kind: 'rpc-error', code: ErrorCode.InvalidRequest, httpStatus: 410 },
  // JSON-RPC batches of 2025-03-26 sessions, legacy-batch.ts; tested in test/server/legacy-batch.test.ts.
  legacyBatchInitialize: { situation: 'initialize inside a JSON-RPC batch (2025-03-26 forbids it)', kind: 'rpc-error', code: ErrorCode.InvalidRequest, httpStatus: 400 },
  legacyBatchTooLarge: { situation: 'a batch of more than legacy.maxBatchSize messages (nothing in it runs)', kind: 'rpc-error', code: ErrorCode.InvalidRequest, httpStatus: 413 },
  listenClosed: { situation: 'the server shuts down while a subscriptions/listen request is open', kind: 'result', note: 'complete result tagged with the subscriptionId' },
} as const satisfies Record<string, OutcomeRule>;

/** The name of one row of {@link OUTCOMES}: a situation the pipeline can end in (e.g. `unknownTool`). */
export type OutcomeName = keyof typeof OUTCOMES;
/** The rows of {@link OUTCOMES} that end in a JSON-RPC error (what `rpcError` and `refuse` accept). */
export type RpcOutcome = { [K in OutcomeName]: (typeof OUTCOMES)[K] extends { kind: 'rpc-error' } ? K : never }[OutcomeName];
type ToolErrorOutcome = { [K in OutcomeName]: (typeof OUTCOMES)[K] extends { kind: 'tool-error' } ? K : never }[OutcomeName];

/** The JSON-RPC error a table row prescribes. */
export function rpcError(
  name: RpcOutcome,
  message: string,
  options: { data?: unknown; headers?: Record<string, string> } = {},
): ProtocolError {
  const rule = OUTCOMES[name];
  return new ProtocolError(rule.code, message, { data: options.data, httpStatus: rule.httpStatus, headers: options.headers });
}

/**
 * The `isError: true` result a table row prescribes. The row is read, not only named: a row that
 * is not a `tool-error` row (reachable only past the type, e.g. from JavaScript or a cast) throws,
 * so no caller can answer a protocol error or a no-response outcome with a tool result.
 */
export function toolError(name: ToolErrorOutcome, text: string): CallToolResult {
  const rule = (OUTCOMES as Readonly<Record<string, OutcomeRule | undefined>>)[name];
  if (rule?.kind !== 'tool-error') throw new TypeError(`toolError: OUTCOMES row ${JSON.stringify(name)} is ${rule === undefined ? 'not in the table' : `of kind ${rule.kind}`}, not a tool-error row`);
  return { resultType: 'complete', content: [{ type: 'text', text }], isError: true };
}
