/** Wire-level pieces of MCP 2026-07-28 shared by server, client and linter. */
export { META, HEADER } from './constants.js';
export { PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS, SERVER_LEGACY_PROTOCOL_VERSIONS, CLIENT_LEGACY_PROTOCOL_VERSIONS } from './versions.js';
export { ErrorCode } from './error-codes.js';
export type { ErrorCodeValue } from './error-codes.js';
export { ProtocolError } from './protocol-error.js';
export { isJsonObject, isJsonRpcId } from './json-rpc.js';
export { canonicalJson } from '../json/canonical-json.js';
export { isDestructive, isOpenWorld, missingScopes } from './tool-risk.js';
export { isScopeToken, scopeTokenProblem, scopeListProblems, TOOL_SCOPES_META_KEY } from './scope-token.js';
export type { ScopeListProblem } from './scope-token.js';
export { INPUT_REQUEST_CAPABILITY } from './input-requests.js';
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
} from './json-rpc.js';
export type * from './wire-types.js';
export type * from './feature-wire-types.js';
export {
  X_MCP_HEADER,
  PARAM_HEADER_PREFIX,
  scanHeaderAnnotations,
  encodeHeaderValue,
  decodeHeaderValue,
  compareHeaderWithBody,
  checkParamHeaders,
  buildParamHeaders,
  readArgumentAt,
} from './x-mcp-header.js';
export type { HeaderAnnotation, HeaderAnnotationProblem, HeaderScan, HeaderValueType, DecodedHeaderValue } from './x-mcp-header.js';
