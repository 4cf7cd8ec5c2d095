/**
 * toolwright: define MCP tools as JSON Schema 2020-12 contracts and serve them over MCP 2026-07-28
 * (Streamable HTTP and stdio). This root export is the public API only; test/server/public-api.test.ts
 * pins the list. Wire helpers live in their modules (protocol/, transport/) for the client and CLI.
 */
export * from './server/index.js';
export { META, HEADER } from './protocol/constants.js';
export { PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from './protocol/versions.js';
export { ErrorCode } from './protocol/error-codes.js';
export type { ErrorCodeValue } from './protocol/error-codes.js';
export { ProtocolError } from './protocol/protocol-error.js';
export { ToolwrightError, DefinitionError, StoreError, WireError, InputError } from './errors/toolwright-error.js';
export type { ErrorCodes, ErrorRole, ToolwrightErrorCode } from './errors/toolwright-error.js';
export { canonicalJson } from './json/canonical-json.js';
export { isJsonObject } from './json/json-object.js';
export { approvalAnswer, approvalForm, canElicitForm, routeApproval } from './server/approvals/approvals.js';
export type { ApprovalFormWording, ApprovalRoute, ApprovalRouteInput } from './server/approvals/approvals.js';
export type { ApproverChoice } from './server/contract/tool-types.js';
export type {
  JsonRpcId,
  JsonValue,
  JsonObject,
  JsonRpcRequest,
  JsonRpcNotification,
  JsonRpcErrorObject,
  JsonRpcResultResponse,
  JsonRpcErrorResponse,
  JsonRpcResponse,
} from './protocol/json-rpc.js';
export type * from './protocol/wire-types.js';
export type * from './protocol/feature-wire-types.js';
export { createFetchHandler } from './transport/fetch-handler.js';
export type { ListenOptions, HttpListener, HttpMount } from './transport/node-http.js';
export type { StdioOptions, StdioConnection } from './transport/stdio.js';
export type { HttpOptions, HttpPolicy } from './transport/http-policy.js';
export { isLoopbackHost } from './transport/http-policy.js';
export type { DeclaredClient } from './protocol/client-info.js';
export { explainArgsError } from './cli/args-error.js';
export type { ParseArgsOptions } from './cli/args-error.js';
export type { InboundMessage, Reply, MessageDispatcher, HeaderLookup, TransportKind } from './transport/message-dispatcher.js';
export type { HeaderAnnotation, HeaderAnnotationProblem, HeaderValueType } from './protocol/x-mcp-header.js';
export type { WellKnownRoute } from './transport/well-known.js';
