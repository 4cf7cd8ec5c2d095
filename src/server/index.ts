/** Authoring and serving MCP tools. */
export { defineTool, isTool, ToolDefinitionError } from './tools/define-tool.js';
export { createServer } from './create-server.js';
export { DEFAULT_APPROVER_SCOPE } from './approvals/approver-trust.js';
export type { ServerOptions, McpServer } from './create-server.js';
export { checkToolDefinition } from './tools/tool-definition-rules.js';
export type { CheckToolDefinitionOptions, DefinitionProblem, ToolDefinitionAnalysis } from './tools/tool-definition-rules.js';
export { ServerDefinitionError } from './tools/tool-registry.js';
export { deriveTool } from './tools/derive-tool.js';
export type { ToolChanges } from './tools/derive-tool.js';
export { MountError } from './catalog/mount.js';
export type { MountOption, MountableCatalog, MountRefusal } from './catalog/mount.js';
export type { SearchOptions } from './search/search-options.js';
export type { SearchAnswer } from './search/search-tools.js';
export { OUTCOMES } from './outcomes.js';
export type { OutcomeName, OutcomeRule, RpcOutcome } from './outcomes.js';
export { STAGES } from './stages/stage-events.js';
export type { StageEvent, StageName, StageOutcome } from './stages/stage-events.js';
export type { Authorizer, AuthorizeRequest, ServerLogger } from './pipeline/create-pipeline.js';
export { jwtAuthorizer } from './auth/jwt-authorizer.js';
export type { JwtAuthorizerOptions, OAuthAuthorizer } from './auth/jwt-authorizer.js';
export { BearerTokenError } from './auth/bearer-challenge.js';
export { staticTokenAuthorizer, loadOrCreateBearerTokenFile } from './auth/static-token.js';
export type { StaticTokenAuthorizerOptions, BearerTokenFile } from './auth/static-token.js';
export type { ProtectedResourceDocument } from './auth/protected-resource.js';
export type { IntrospectionOptions } from './auth/token-introspection.js';
export type { ProtectedResourceMetadata, AuthorizationServerMetadata } from '../protocol/oauth-metadata.js';
export { text, errorResult, inputRequired } from './tools/results.js';
export { image, audio, embeddedResource, resourceLink, resourceContents, toBase64 } from './tools/content.js';
export type { ContentExtras, ResourceContentsInit, ResourceLinkInit } from './tools/content.js';
export { elicitInput, sampleInput, listRootsInput } from './approvals/input-flow.js';
export type {
  InputFlow,
  InputGathering,
  InputResponses,
  InputResponseFor,
  RequireInputsOptions,
  ElicitationInputRequest,
  SamplingInputRequest,
  RootsInputRequest,
} from './approvals/input-flow.js';
export { defineResource, defineResourceTemplate } from './features/resources.js';
export type {
  Resource,
  ResourceTemplate,
  ResourceContext,
  ResourceReadValue,
  ResourceCaching,
  ResourceDefinitionInit,
  ResourceTemplateDefinitionInit,
} from './features/resources.js';
export { compileUriTemplate } from './features/uri-template.js';
export type { UriTemplate } from './features/uri-template.js';
export { definePrompt } from './features/prompts.js';
export { visibleWhen, defaultTenantOf, VIEW_CACHE_LIMIT } from './catalog/catalog-view.js';
export type { Viewer, VisibleTo, TenantOf, VisibilityRules } from './catalog/catalog-view.js';
export type { Prompt, PromptContext, PromptGetValue, PromptArgumentInit, PromptDefinitionInit } from './features/prompts.js';
export { completeFrom, MAX_COMPLETION_VALUES } from './features/completion.js';
export type { Completer, CompletionValue, CompletionRequestContext } from './features/completion.js';
export type { ChangeNotifier, ListChangedKind } from './catalog/subscriptions.js';
export type { ServerFeatureOptions } from './routes/server-features.js';
export { refuse, rateLimit, auditLog, resultBudget, lenientCoercion, tracing, TRUNCATION_META_KEY, REPAIRS_META_KEY } from './middleware/index.js';
export type { Middleware, ToolCall, CallOutcome, RateLimitOptions, RateLimitMiddleware, AuditLog, AuditLogOptions, AuditEntry, ResultBudgetOptions, Repair, TracingOptions } from './middleware/index.js';
export { HashChainLog, openHashChainLog, verifyHashChainLog, HashChainLogLockedError, AuditKeyError, auditChainFiles, defaultAuditKeyPath, defaultAuditHeadPath, toolwrightStateDir } from './audit/index.js';
export type { HashChainFsync, HashChainLogOptions, HashChainRecord, StoredHashChainRecord, HashChainVerification, VerifyHashChainOptions, AuditChainChoice, AuditKey, AppendListener } from './audit/index.js';
export { createMemoryStore, createRedisStore, guardRedisStore, StoreEpochError, StoreFullError, StoreUnavailableError, VolatileStoreError } from './store/index.js';
export type { Store, Clock, ClaimRecord, ClaimResult, TokenBucketRule, TokenBucketVerdict, StoredRecord, CompareAndSetResult, StoreListener, MemoryStoreOptions, RedisStore, RedisStoreOptions, ClaimGuardOptions, GuardedRedisStore } from './store/index.js';
export type { PersistenceVerdict } from './store/redis-persistence.js';
export type { ApprovalRecord, Approver, ClientUserApprover, OperatorApprover } from './approvals/approvals.js';
export type {
  ApprovalQueue, ApprovalQueueEvent, AwaitOperatorOptions, DecideResult, OperatorDecision, OperatorDecisionInit, OperatorRefusalReason,
  PendingApproval, SettledOutcome, ToolApprovals,
} from './approvals/operator-approvals.js';
export { resolveEras, ErasSettingError } from './eras.js';
export { SERVER_LEGACY_PROTOCOL_VERSIONS } from '../protocol/versions.js';
export type { Era, ErasSetting } from './eras.js';
export type { EraChoice } from './setup/server-options.js';
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
} from './contract/tool-types.js';
