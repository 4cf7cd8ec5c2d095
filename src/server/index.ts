/** Authoring and serving MCP tools. */
export { defineTool, isTool, ToolDefinitionError } from './define-tool.js';
export { createServer } from './create-server.js';
export { DEFAULT_APPROVER_SCOPE } from './approver-trust.js';
export type { ServerOptions, McpServer } from './create-server.js';
export { checkToolDefinition } from './tool-definition-rules.js';
export type { CheckToolDefinitionOptions, DefinitionProblem, ToolDefinitionAnalysis } from './tool-definition-rules.js';
export { ServerDefinitionError } from './tool-registry.js';
export { deriveTool } from './derive-tool.js';
export type { ToolChanges } from './derive-tool.js';
export { MountError } from './mount.js';
export type { MountOption, MountableCatalog, MountRefusal } from './mount.js';
export type { SearchOptions } from './search/search-options.js';
export type { SearchAnswer } from './search/search-tools.js';
export { OUTCOMES } from './outcomes.js';
export type { OutcomeName, OutcomeRule, RpcOutcome } from './outcomes.js';
export { STAGES } from './stage-events.js';
export type { StageEvent, StageName, StageOutcome } from './stage-events.js';
export type { Authorizer, AuthorizeRequest, ServerLogger } from './pipeline/create-pipeline.js';
export { jwtAuthorizer } from './jwt-authorizer.js';
export type { JwtAuthorizerOptions, OAuthAuthorizer } from './jwt-authorizer.js';
export { BearerTokenError } from './auth/bearer-challenge.js';
export { staticTokenAuthorizer, loadOrCreateBearerTokenFile } from './auth/static-token.js';
export type { StaticTokenAuthorizerOptions, BearerTokenFile } from './auth/static-token.js';
export type { ProtectedResourceDocument } from './auth/protected-resource.js';
export type { IntrospectionOptions } from './auth/token-introspection.js';
export type { ProtectedResourceMetadata, AuthorizationServerMetadata } from '../protocol/oauth-metadata.js';
export { text, errorResult, inputRequired } from './results.js';
export { image, audio, embeddedResource, resourceLink, resourceContents, toBase64 } from './content.js';
export type { ContentExtras, ResourceContentsInit, ResourceLinkInit } from './content.js';
export { elicitInput, sampleInput, listRootsInput } from './input-flow.js';
export type {
  InputFlow,
  InputGathering,
  InputResponses,
  InputResponseFor,
  RequireInputsOptions,
  ElicitationInputRequest,
  SamplingInputRequest,
  RootsInputRequest,
} from './input-flow.js';
export { defineResource, defineResourceTemplate } from './resources.js';
export type {
  Resource,
  ResourceTemplate,
  ResourceContext,
  ResourceReadValue,
  ResourceCaching,
  ResourceDefinitionInit,
  ResourceTemplateDefinitionInit,
} from './resources.js';
export { compileUriTemplate } from './uri-template.js';
export type { UriTemplate } from './uri-template.js';
export { definePrompt } from './prompts.js';
export { visibleWhen, defaultTenantOf, VIEW_CACHE_LIMIT } from './catalog-view.js';
export type { Viewer, VisibleTo, TenantOf, VisibilityRules } from './catalog-view.js';
export type { Prompt, PromptContext, PromptGetValue, PromptArgumentInit, PromptDefinitionInit } from './prompts.js';
export { completeFrom, MAX_COMPLETION_VALUES } from './completion.js';
export type { Completer, CompletionValue, CompletionRequestContext } from './completion.js';
export type { ChangeNotifier, ListChangedKind } from './subscriptions.js';
export type { ServerFeatureOptions } from './server-features.js';
export { refuse, rateLimit, auditLog, resultBudget, lenientCoercion, tracing, TRUNCATION_META_KEY, REPAIRS_META_KEY } from './middleware/index.js';
export type { Middleware, ToolCall, CallOutcome, RateLimitOptions, RateLimitMiddleware, AuditLog, AuditLogOptions, AuditEntry, ResultBudgetOptions, Repair, TracingOptions } from './middleware/index.js';
export { HashChainLog, openHashChainLog, verifyHashChainLog, HashChainLogLockedError, AuditKeyError, auditChainFiles, defaultAuditKeyPath, defaultAuditHeadPath, toolwrightStateDir } from './audit/index.js';
export type { HashChainFsync, HashChainLogOptions, HashChainRecord, StoredHashChainRecord, HashChainVerification, VerifyHashChainOptions, AuditChainChoice, AuditKey, AppendListener } from './audit/index.js';
export { createMemoryStore, createRedisStore, guardRedisStore, StoreEpochError, StoreFullError, StoreUnavailableError, VolatileStoreError } from './store/index.js';
export type { Store, Clock, ClaimRecord, ClaimResult, TokenBucketRule, TokenBucketVerdict, StoredRecord, CompareAndSetResult, StoreListener, MemoryStoreOptions, RedisStore, RedisStoreOptions, ClaimGuardOptions, GuardedRedisStore } from './store/index.js';
export type { PersistenceVerdict } from './store/redis-persistence.js';
export type { ApprovalRecord, Approver, ClientUserApprover, OperatorApprover } from './approvals.js';
export type {
  ApprovalQueue, ApprovalQueueEvent, AwaitOperatorOptions, DecideResult, OperatorDecision, OperatorDecisionInit, OperatorRefusalReason,
  PendingApproval, SettledOutcome, ToolApprovals,
} from './operator-approvals.js';
export { resolveEras, ErasSettingError } from './eras.js';
export { SERVER_LEGACY_PROTOCOL_VERSIONS } from '../protocol/versions.js';
export type { Era, ErasSetting } from './eras.js';
export type { EraChoice } from './server-options.js';
export type { LegacyWireOptions } from './legacy/index.js';
export type { ToolTaskOption, ResolvedTaskPolicy } from './tasks/task-policy.js';
export type { TaskOptions } from './pipeline/task-engine.js';
export type { TaskStatus } from './tasks/task-wire.js';
export type { LegacySessionRecord } from './legacy/index.js';
export type {
  Tool,
  ToolContext,
  ToolDefinitionInit,
  ToolResultInit,
  InputRequiredInit,
  ToolRunResult,
  RuleViolation,
  ApprovalRequest,
  AuthInfo,
  LogLevel,
  SchemaInput,
  JsonSchemaLiteral,
  InferArguments,
  ToolHandlers,
  ToolErrorResultInit,
  RunResultFor,
  TypedToolResultInit,
  InferOutput,
} from './tool-types.js';
