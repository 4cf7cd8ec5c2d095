import { isJsonObject } from '../json/json-object.js';
import { checkProviderTool } from './check-provider-tool.js';
import { HostError } from './host-error.js';
import { lowerInputSchema } from './lowering/schema.js';
import type { LoweredSchema } from './lowering/schema.js';
import { walkSchema } from '../schema/index.js';
import { ANTHROPIC_STRICT_LIMITS, PROFILES } from './profiles.js';
import type { ProviderProfile } from './profiles.js';
import { createNameMap, sanitizeToolName } from './provider-names.js';
import { estimateTokens } from './token-estimate.js';
import { PROVIDER_NAMES } from './types.js';
import type { MapOptions, MappedCatalog, MappedTool, MappingFailure, ProviderName, ToolDescriptor } from './types.js';

type Json = Record<string, unknown>;

/** The profile for a provider name, or a HostError listing the known ones. */
export function getProfile(provider: unknown): ProviderProfile {
  if (typeof provider === 'string' && Object.prototype.hasOwnProperty.call(PROFILES, provider)) return PROFILES[provider as ProviderName];
  throw new HostError('unknown_provider', `unknown provider ${JSON.stringify(provider)}; use one of: ${PROVIDER_NAMES.join(', ')}`);
}

/** Throws a HostError unless `tool` has the shape of an MCP `Tool` with an object inputSchema. */
export function assertTool(tool: unknown): asserts tool is ToolDescriptor {
  if (!isJsonObject(tool)) throw new HostError('invalid_tool', 'a tool must be an object with "name" and "inputSchema"');
  if (typeof tool.name !== 'string' || tool.name.length === 0) throw new HostError('invalid_tool', 'a tool has an empty or missing "name"');
  if (!isJsonObject(tool.inputSchema)) throw new HostError('invalid_tool', `tool "${tool.name}": "inputSchema" must be a JSON Schema object`, tool.name);
  if (tool.description !== undefined && typeof tool.description !== 'string') throw new HostError('invalid_tool', `tool "${tool.name}": "description" must be a string`, tool.name);
}

function describeTool(tool: ToolDescriptor, notes: readonly string[]): string | undefined {
  const text = tool.description ?? '';
  if (notes.length === 0) return text.length > 0 ? text : undefined;
  return text.length > 0 ? `${text}\n\n${notes.join('\n')}` : notes.join('\n');
}

function shape(provider: ProviderName, name: string, description: string | undefined, parameters: Json, strict: boolean): Json {
  const desc = description === undefined ? {} : { description };
  switch (provider) {
    case 'openai-chat': return { type: 'function', function: { name, ...desc, parameters, ...(strict ? { strict: true } : {}) } };
    case 'openai-responses': return { type: 'function', name, ...desc, parameters, strict };
    case 'anthropic': return { name, ...desc, input_schema: parameters, ...(strict ? { strict: true } : {}) };
    case 'gemini': return { name, ...desc, parametersJsonSchema: parameters };
    case 'gemini-legacy': return { name, ...desc, parameters };
  }
}

function rejections(lowered: LoweredSchema): string[] {
  return lowered.loss.filter((e) => e.action === 'rejected').map((e) => `${e.pointer || '(root)'} ${e.keyword}: ${e.note ?? 'rejected'}`);
}

function checkStrictOption(profile: ProviderProfile, strict: unknown): void {
  if (strict !== undefined && strict !== false && strict !== true && strict !== 'auto') {
    throw new HostError('invalid_options', `strict must be true, false or "auto" (got ${JSON.stringify(strict)})`);
  }
  if (strict === true && !profile.supportsStrict) throw new HostError('invalid_options', `${profile.name} has no strict mode here; use strict: false`);
}

/**
 * Lower one MCP tool to one provider's tool JSON, with its loss report. Strict OpenAI output is
 * produced only when it passes the profile checker; with `strict: 'auto'` (the default for the
 * OpenAI profiles) anything else falls back to non-strict and says why in `strictFallback`.
 * `providerName` overrides the cleaned name (mapTools passes the catalogue-unique one).
 * Throws HostError: `unknown_provider`, `invalid_tool`, `invalid_options`, `unmappable_tool`.
 */
export function mapTool(tool: ToolDescriptor, options: MapOptions & { providerName?: string }): MappedTool {
  const profile = getProfile(options.provider);
  assertTool(tool);
  checkStrictOption(profile, options.strict);
  const mode = options.strict ?? profile.defaultStrict;
  const providerName = options.providerName ?? sanitizeToolName(tool.name, profile.names, options.serverPrefix);
  const build = (strict: boolean): { lowered: LoweredSchema; json: Json; problems: string[] } => {
    const lowered = lowerInputSchema(tool.inputSchema, profile.policy(strict), tool.name);
    const json = shape(profile.name, providerName, describeTool(tool, lowered.rootNotes), lowered.schema, strict);
    const problems = [...rejections(lowered), ...checkProviderTool(profile.name, json).map((v) => `${v.pointer}: ${v.message}`)];
    return { lowered, json, problems };
  };
  let strict = mode !== false;
  let attempt = build(strict);
  let strictFallback: string[] | undefined;
  if (strict && attempt.problems.length > 0) {
    if (mode === true) {
      throw new HostError('unmappable_tool', `tool "${tool.name}" cannot be sent to ${profile.name} in strict mode: ${attempt.problems.join('; ')}`, tool.name, attempt.lowered.loss);
    }
    strictFallback = attempt.problems;
    strict = false;
    attempt = build(false);
  }
  if (attempt.problems.length > 0) {
    throw new HostError('unmappable_tool', `tool "${tool.name}" cannot be sent to ${profile.name}: ${attempt.problems.join('; ')}`, tool.name, attempt.lowered.loss);
  }
  const mapped: MappedTool = {
    mcpName: tool.name,
    providerName,
    provider: profile.name,
    strict,
    json: attempt.json,
    parameters: attempt.lowered.schema,
    loss: attempt.lowered.loss,
    nullableOptional: attempt.lowered.nullableOptional,
    tokens: estimateTokens(attempt.json),
    tool,
  };
  if (strictFallback) mapped.strictFallback = strictFallback;
  return mapped;
}

/** Optional and union parameters of one lowered schema, as Anthropic counts them for strict. */
function strictCosts(schema: Json): { optional: number; unions: number } {
  let optional = 0;
  let unions = 0;
  walkSchema(schema, (node) => {
    if (typeof node.schema !== 'object') return;
    const s = node.schema as Json;
    if (isJsonObject(s.properties)) {
      const required = Array.isArray(s.required) ? s.required : [];
      optional += Object.keys(s.properties).filter((k) => !required.includes(k)).length;
    }
    if (Array.isArray(s.anyOf) || (Array.isArray(s.type) && s.type.length > 1)) unions++;
  });
  return { optional, unions };
}

/**
 * Anthropic strict budgets hold across all strict tools of a request. Tools are admitted in list
 * order; one that would exceed a budget is sent non-strict ('auto') or fails (strict: true).
 */
function applyAnthropicBudgets(mapped: MappedTool[], failures: MappingFailure[], options: MapOptions, names: ReadonlyMap<string, string>): void {
  let tools = 0;
  let optional = 0;
  let unions = 0;
  for (let i = 0; i < mapped.length; i++) {
    const tool = mapped[i]!;
    if (!tool.strict) continue;
    const cost = strictCosts(tool.parameters);
    const over: string[] = [];
    if (tools + 1 > ANTHROPIC_STRICT_LIMITS.maxStrictTools) over.push(`more than ${ANTHROPIC_STRICT_LIMITS.maxStrictTools} strict tools in one request`);
    if (optional + cost.optional > ANTHROPIC_STRICT_LIMITS.maxOptionalParameters) over.push(`more than ${ANTHROPIC_STRICT_LIMITS.maxOptionalParameters} optional parameters across strict tools (this tool has ${cost.optional}, ${optional} already used)`);
    if (unions + cost.unions > ANTHROPIC_STRICT_LIMITS.maxUnionParameters) over.push(`more than ${ANTHROPIC_STRICT_LIMITS.maxUnionParameters} union parameters across strict tools (this tool has ${cost.unions}, ${unions} already used)`);
    if (over.length === 0) {
      tools++;
      optional += cost.optional;
      unions += cost.unions;
      continue;
    }
    if (options.strict === true) {
      failures.push({ mcpName: tool.mcpName, code: 'unmappable_tool', message: `tool "${tool.mcpName}" cannot be sent to anthropic in strict mode: ${over.join('; ')}`, loss: tool.loss });
      mapped.splice(i, 1);
      i--;
      continue;
    }
    const loose = mapTool(tool.tool, { ...options, strict: false, providerName: names.get(tool.mcpName)! });
    loose.strictFallback = over;
    mapped[i] = loose;
  }
}

function requestFor(provider: ProviderName, tools: Json[]): Json {
  if (provider === 'gemini' || provider === 'gemini-legacy') return { tools: [{ functionDeclarations: tools }] };
  return { tools };
}

/**
 * Lower a whole `tools/list` catalogue. Names are made unique across the catalogue (with the
 * optional server prefix) and can be mapped back with `reverseNames`. One bad tool never fails the
 * others: it is listed in `failures` with the reason, and left out of `request`.
 */
export function mapTools(tools: readonly ToolDescriptor[], options: MapOptions): MappedCatalog {
  const profile = getProfile(options.provider);
  if (!Array.isArray(tools)) throw new HostError('invalid_options', 'tools must be an array of MCP tools');
  checkStrictOption(profile, options.strict);
  const failures: MappingFailure[] = [];
  const valid: ToolDescriptor[] = [];
  for (const tool of tools) {
    try {
      assertTool(tool);
      valid.push(tool);
    } catch (error) {
      if (!(error instanceof HostError)) throw error;
      const name = isJsonObject(tool) && typeof tool.name === 'string' ? tool.name : '(unnamed)';
      failures.push({ mcpName: name, code: error.code, message: error.message, loss: [] });
    }
  }
  const names = createNameMap(valid.map((t) => t.name), { provider: profile.name, ...(options.serverPrefix !== undefined ? { serverPrefix: options.serverPrefix } : {}) });
  const mapped: MappedTool[] = [];
  for (const tool of valid) {
    try {
      mapped.push(mapTool(tool, { ...options, providerName: names.toProvider.get(tool.name)! }));
    } catch (error) {
      if (!(error instanceof HostError)) throw error;
      failures.push({ mcpName: tool.name, code: error.code, message: error.message, loss: error.loss });
    }
  }
  if (profile.name === 'anthropic') applyAnthropicBudgets(mapped, failures, options, names.toProvider);
  const reverseNames: Record<string, string> = {};
  for (const m of mapped) reverseNames[m.providerName] = m.mcpName;
  return {
    provider: profile.name,
    tools: mapped,
    failures,
    request: requestFor(profile.name, mapped.map((m) => m.json)),
    reverseNames,
    totalTokens: mapped.reduce((sum, m) => sum + m.tokens, 0),
  };
}
