/**
 * toolwright/host: turn MCP tools into what a model provider receives (with a loss report), repair
 * the arguments a model sends back, and choose which tools to offer.
 */
export type {
  ProviderName, LossAction, LossEntry, StrictMode, MapOptions, MappedTool, MappingFailure, MappedCatalog, ToolDescriptor,
} from './types.js';
export { PROVIDER_NAMES } from './types.js';
export { HostError } from './host-error.js';
export type { HostErrorCode } from './host-error.js';
export { PROFILES, ANTHROPIC_STRICT_LIMITS } from './profiles.js';
export type { ProviderProfile, LoweringPolicy, NameRule, RefStyle } from './profiles.js';
export { mapTool, mapTools, getProfile, assertTool } from './map-tools.js';
export { lowerInputSchema } from './lowering/schema.js';
export type { LoweredSchema } from './lowering/schema.js';
export type { Json } from './lowering/context.js';
export { createNameMap, sanitizeToolName } from './provider-names.js';
export type { NameMap, NameMapOptions } from './provider-names.js';
export { checkProviderTool, OPENAI_STRICT_LIMITS } from './check-provider-tool.js';
export type { ProviderViolation } from './check-provider-tool.js';
export { countTextTokens, estimateTokens } from './token-estimate.js';
export { repairArguments } from './repair-arguments.js';
export type { RepairKind, ArgumentRepair, RepairResult, RepairProfile } from './repair-arguments.js';
export { parseArgumentsText } from './parse-arguments-text.js';
export type { ParsedArguments } from './parse-arguments-text.js';
export { selectTools, SCOPES_META_KEY } from './select-tools.js';
export type { SelectOptions, DropReason, DroppedTool, Selection } from './select-tools.js';
export { resolveToolCall } from './resolve-tool-call.js';
export type { ResolvedToolCall } from './resolve-tool-call.js';
