import { destructiveReason, isDestructive, isOpenWorld, missingScopes, openWorldReason } from '../protocol/tool-risk.js';
import { HostError } from './host-error.js';
import { assertTool, getProfile, mapTool, mapTools } from './map-tools.js';
import { createNameMap } from './provider-names.js';
import type { MapOptions, MappedCatalog, ToolDescriptor } from './types.js';

/** `_meta` key under which a tool may list the scopes it needs (a Toolwright convention). */
export const SCOPES_META_KEY = 'io.toolwright/scopes';

/** Options for {@link selectTools}. */
export interface SelectOptions extends MapOptions {
  /** Leave out tools by their (untrusted) annotations; missing hints count as the spec's defaults. */
  exclude?: { destructive?: boolean; openWorld?: boolean };
  /** Granted scopes. When given, a tool needing a scope not granted here is left out. */
  scopes?: readonly string[];
  /** Scopes a tool needs. Default: the string array at `_meta["io.toolwright/scopes"]`. */
  scopesOf?: (tool: ToolDescriptor) => readonly string[] | undefined;
  /** Token budget for all selected tools (see `estimateTokens`); earlier tools have priority. */
  maxTokens?: number;
}

/** Why a tool was left out. */
export type DropReason = 'invalid-tool' | 'destructive' | 'open-world' | 'missing-scopes' | 'unmappable' | 'token-budget';

/** One tool left out, and why. */
export interface DroppedTool {
  name: string;
  reason: DropReason;
  detail: string;
}

/** The tools to offer the model, already mapped for the provider, and everything left out. */
export interface Selection {
  tools: ToolDescriptor[];
  mapped: MappedCatalog;
  dropped: DroppedTool[];
  totalTokens: number;
}

function defaultScopesOf(tool: ToolDescriptor): readonly string[] | undefined {
  const value = tool._meta?.[SCOPES_META_KEY];
  return Array.isArray(value) ? value.filter((s): s is string => typeof s === 'string') : undefined;
}

/**
 * Choose which tools to offer: filter by annotations (destructive: not read-only and
 * `destructiveHint` not false; open-world: `openWorldHint` not false: the spec's defaults, so a
 * tool that says nothing is treated as risky), by granted scopes (exact match, as the server
 * checks them), then by a token budget in list order. Every tool left out is reported with the
 * reason. Throws HostError for an unknown provider or bad options.
 */
export function selectTools(tools: readonly ToolDescriptor[], options: SelectOptions): Selection {
  const profile = getProfile(options.provider);
  if (!Array.isArray(tools)) throw new HostError('invalid_options', 'tools must be an array of MCP tools');
  if (options.maxTokens !== undefined && !(Number.isFinite(options.maxTokens) && options.maxTokens >= 0)) {
    throw new HostError('invalid_options', `maxTokens must be a number ≥ 0 (got ${JSON.stringify(options.maxTokens)})`);
  }
  const mapOptions: MapOptions = { provider: profile.name };
  if (options.strict !== undefined) mapOptions.strict = options.strict;
  if (options.serverPrefix !== undefined) mapOptions.serverPrefix = options.serverPrefix;
  const scopesOf = options.scopesOf ?? defaultScopesOf;
  const granted = options.scopes ? new Set(options.scopes) : undefined;
  const dropped: DroppedTool[] = [];
  const kept: ToolDescriptor[] = [];
  for (const tool of tools) {
    try {
      assertTool(tool);
    } catch (error) {
      if (!(error instanceof HostError)) throw error;
      const name = typeof (tool as { name?: unknown } | null)?.name === 'string' ? (tool as { name: string }).name : '(unnamed)';
      dropped.push({ name, reason: 'invalid-tool', detail: error.message });
      continue;
    }
    const a = tool.annotations;
    if (options.exclude?.destructive && isDestructive(a)) {
      dropped.push({ name: tool.name, reason: 'destructive', detail: destructiveReason(a) });
      continue;
    }
    if (options.exclude?.openWorld && isOpenWorld(a)) {
      dropped.push({ name: tool.name, reason: 'open-world', detail: openWorldReason(a) });
      continue;
    }
    if (granted) {
      const missing = missingScopes(scopesOf(tool) ?? [], granted);
      if (missing.length > 0) {
        dropped.push({ name: tool.name, reason: 'missing-scopes', detail: `needs ${missing.map((s) => JSON.stringify(s)).join(', ')}, not granted` });
        continue;
      }
    }
    kept.push(tool);
  }
  // Names come from the whole surviving set, so the budget pass sees the final provider names.
  const names = createNameMap(kept.map((t) => t.name), mapOptions);
  const selected: ToolDescriptor[] = [];
  let total = 0;
  for (const tool of kept) {
    let tokens: number;
    try {
      tokens = mapTool(tool, { ...mapOptions, providerName: names.toProvider.get(tool.name)! }).tokens;
    } catch (error) {
      if (!(error instanceof HostError)) throw error;
      dropped.push({ name: tool.name, reason: 'unmappable', detail: error.message });
      continue;
    }
    if (options.maxTokens !== undefined && total + tokens > options.maxTokens) {
      dropped.push({ name: tool.name, reason: 'token-budget', detail: `needs ${tokens} tokens; ${total} of ${options.maxTokens} already used` });
      continue;
    }
    total += tokens;
    selected.push(tool);
  }
  let mapped = mapTools(selected, mapOptions);
  // Mapping the final set can cost a little more than the per-tool estimates (request-wide strict
  // budgets may send a tool non-strict); the budget is a hard limit, so trim from the end.
  while (options.maxTokens !== undefined && mapped.totalTokens > options.maxTokens && selected.length > 0) {
    const last = selected.pop()!;
    dropped.push({ name: last.name, reason: 'token-budget', detail: `the final mapping needs ${mapped.totalTokens} tokens, over ${options.maxTokens}` });
    mapped = mapTools(selected, mapOptions);
  }
  return { tools: selected, mapped, dropped, totalTokens: mapped.totalTokens };
}
