/** The root export is the public API only: this pins its runtime names (types are checked by tsc). */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import * as toolwright from '../../src/index.js';

const PUBLIC = [
  'BearerTokenError', 'ErasSettingError', 'ErrorCode', 'HEADER', 'SERVER_LEGACY_PROTOCOL_VERSIONS', 'resolveEras', 'MAX_COMPLETION_VALUES', 'META', 'OUTCOMES', 'PROTOCOL_VERSION', 'ProtocolError',
  'REPAIRS_META_KEY', 'STAGES', 'SUPPORTED_PROTOCOL_VERSIONS', 'ServerDefinitionError', 'StoreEpochError', 'StoreFullError', 'StoreUnavailableError', 'DEFAULT_APPROVER_SCOPE', 'TRUNCATION_META_KEY',
  'ToolDefinitionError', 'audio', 'auditLog', 'canonicalJson', 'checkToolDefinition', 'compileUriTemplate', 'completeFrom',
  'createFetchHandler', 'createMemoryStore', 'createRedisStore', 'createServer', 'definePrompt', 'defineResource', 'defineResourceTemplate', 'defineTool',
  'elicitInput', 'embeddedResource', 'errorResult', 'image', 'inputRequired', 'isJsonObject', 'isTool', 'approvalAnswer', 'approvalForm', 'canElicitForm', 'routeApproval', 'jwtAuthorizer', 'lenientCoercion',
  'listRootsInput', 'rateLimit', 'refuse', 'resourceContents', 'resourceLink', 'resultBudget', 'sampleInput', 'text', 'toBase64',
  'tracing', 'HashChainLog', 'HashChainLogLockedError', 'openHashChainLog', 'verifyHashChainLog',
  'AuditKeyError', 'auditChainFiles', 'defaultAuditKeyPath', 'defaultAuditHeadPath', 'toolwrightStateDir',
  'staticTokenAuthorizer', 'loadOrCreateBearerTokenFile', 'isLoopbackHost', 'explainArgsError',
  'VIEW_CACHE_LIMIT', 'defaultTenantOf', 'visibleWhen', 'guardRedisStore', 'VolatileStoreError',
  'deriveTool', 'MountError',
  'ToolwrightError', 'DefinitionError', 'StoreError', 'WireError', 'InputError',
];

it('the root export holds exactly the public API (no wire internals such as readArgumentAt, listenHttp or invalidParams)', () => {
  assert.deepEqual(Object.keys(toolwright).sort(), [...PUBLIC].sort());
  assert.equal(toolwright.STAGES.length, 19); // 16 + `task` (io.modelcontextprotocol/tasks) + `context` (the handler context, apart from the shape check) + `claim` (the approval claim, right before execute)
});
