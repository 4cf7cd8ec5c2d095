import type { ToolDescriptor } from '../protocol/wire-types.js';

export type { ToolDescriptor };

/** The provider formats a tool can be lowered to. */
export type ProviderName = 'openai-chat' | 'openai-responses' | 'anthropic' | 'gemini' | 'gemini-legacy';

/** Every provider name, in a stable order (for help texts and errors). */
export const PROVIDER_NAMES: readonly ProviderName[] = ['openai-chat', 'openai-responses', 'anthropic', 'gemini', 'gemini-legacy'];

/**
 * What happened to one keyword of the original schema (or one the lowering had to add):
 * - `kept`: sent to the provider (possibly respelled, see `note`, e.g. `const` as `enum`);
 * - `moved-into-description`: removed from the schema, stated in the description text instead;
 * - `dropped`: removed without trace for the model (not model-facing, or not expressible);
 * - `rejected`: the profile cannot accept it in this mode (strict falls back or the tool fails);
 * - `added`: introduced by the lowering (e.g. `additionalProperties:false` in strict mode).
 */
export type LossAction = 'kept' | 'moved-into-description' | 'dropped' | 'rejected' | 'added';

/** One line of a loss report. */
export interface LossEntry {
  /** JSON pointer of the schema holding the keyword, in the ORIGINAL inputSchema ("" = root). */
  pointer: string;
  keyword: string;
  action: LossAction;
  /** Why, or how it was respelled. */
  note?: string;
}

/** How a strict-capable profile decides between strict and non-strict output. */
export type StrictMode = boolean | 'auto';

/** Options for lowering tools to a provider format. */
export interface MapOptions {
  provider: ProviderName;
  /**
   * OpenAI profiles only. `true`: strict or fail; `false`: never strict; `'auto'` (default):
   * strict when the schema fits the strict subset, otherwise non-strict with the reason reported.
   */
  strict?: StrictMode;
  /** Prefix for every provider-facing name, e.g. the server name (`robot_arm__move_arm`). */
  serverPrefix?: string;
}

/** One tool lowered for one provider. */
export interface MappedTool {
  /** The MCP tool name, exactly as `tools/list` gave it. */
  mcpName: string;
  /** The name the provider (and the model) sees. */
  providerName: string;
  provider: ProviderName;
  /** Whether the provider receives this tool in strict (constrained decoding) mode. */
  strict: boolean;
  /** The exact JSON object the provider receives for this tool. */
  json: Record<string, unknown>;
  /** The lowered parameter schema (also inside `json`). */
  parameters: Record<string, unknown>;
  /** Every keyword of the original schema and what happened to it. */
  loss: LossEntry[];
  /** Why strict mode was not used, when it was asked for (`'auto'`) but not possible. */
  strictFallback?: string[];
  /**
   * Original-schema pointers of properties the strict lowering made required-and-nullable; a
   * `null` the model sends there means "absent" (see `repairArguments`).
   */
  nullableOptional: string[];
  /** Estimated tokens of `json` (see `estimateTokens`). */
  tokens: number;
  /** The MCP tool this was made from (its full schema is what the server validates against). */
  tool: ToolDescriptor;
}

/** A tool that could not be mapped; the rest of the catalogue is still mapped. */
export interface MappingFailure {
  mcpName: string;
  code: string;
  message: string;
  loss: LossEntry[];
}

/** The result of mapping a whole catalogue. */
export interface MappedCatalog {
  provider: ProviderName;
  tools: MappedTool[];
  failures: MappingFailure[];
  /** The `tools` fragment of the provider request, exactly as it would be sent. */
  request: Record<string, unknown>;
  /** Provider-facing name → MCP name. */
  reverseNames: Record<string, string>;
  totalTokens: number;
}
