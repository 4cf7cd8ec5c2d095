import { HostError, mapTools, PROVIDER_NAMES } from '../../../host/index.js';
import type { MappedCatalog, ProviderName } from '../../../host/index.js';
import type { ToolDescriptor } from '../../../protocol/wire-types.js';
import { optionsOfDefaults } from '../../rule-options.js';
import type { CatalogView, LintRule, RuleOptions, ToolView } from '../../types.js';

/**
 * The provider family runs the host's own lowering (`host/map-tools.ts`), the code that really
 * builds the provider request, and reports what it rejects, drops or rewrites. Each provider's
 * catalog is lowered once per run and shared by the three rules.
 */
const cache = new WeakMap<CatalogView, Map<ProviderName, MappedCatalog>>();

function lowered(catalog: CatalogView, provider: ProviderName): MappedCatalog {
  let perProvider = cache.get(catalog);
  if (perProvider === undefined) cache.set(catalog, (perProvider = new Map()));
  let mapped = perProvider.get(provider);
  if (mapped === undefined) {
    // Duplicate names are spec/name-unique's finding; the host refuses a catalog with them, so only the first is lowered.
    const seen = new Set<string>();
    const candidates: ToolDescriptor[] = [];
    for (const tool of catalog.tools) {
      if (seen.has(tool.name)) continue;
      seen.add(tool.name);
      candidates.push(tool.descriptor as unknown as ToolDescriptor);
    }
    try {
      mapped = mapTools(candidates, { provider });
    } catch (error) {
      if (!(error instanceof HostError)) throw error;
      // A catalog-level refusal (e.g. names that collide once sanitised): lower tool by tool so each gets its own verdict.
      const perTool = candidates.map((tool) => {
        try {
          return mapTools([tool], { provider });
        } catch (inner) {
          if (!(inner instanceof HostError)) throw inner;
          return { tools: [], failures: [{ mcpName: String(tool.name), code: inner.code, message: inner.message, loss: [] }] };
        }
      });
      mapped = { ...mapTools([], { provider }), tools: perTool.flatMap((c) => c.tools), failures: perTool.flatMap((c) => c.failures) };
    }
    perProvider.set(provider, mapped);
  }
  return mapped;
}

const PROVIDER_OPTIONS: { providers: readonly string[] } = { providers: [] };

/** The providers a rule targets, once per run (`all` is every provider the host lowers for). */
function targetProviders(options: RuleOptions): readonly ProviderName[] {
  const list = optionsOfDefaults(PROVIDER_OPTIONS, options).providers;
  if (list.includes('all')) return [...PROVIDER_NAMES];
  // Unknown names were refused when the options were checked (validateProviders).
  return PROVIDER_NAMES.filter((name) => list.includes(name));
}

/** Refuses provider names the host does not know, when the options are checked. */
export function validateProviders(options: RuleOptions): string | undefined {
  const list = optionsOfDefaults(PROVIDER_OPTIONS, options).providers;
  const unknown = list.filter((name) => name !== 'all' && !(PROVIDER_NAMES as readonly string[]).includes(name));
  return unknown.length === 0 ? undefined : `unknown provider${unknown.length === 1 ? '' : 's'} ${unknown.map((n) => JSON.stringify(n)).join(', ')} (known: ${PROVIDER_NAMES.join(', ')}, all)`;
}

function byName(catalog: CatalogView): Map<string, ToolView> {
  const map = new Map<string, ToolView>();
  for (const tool of catalog.tools) if (!map.has(tool.name)) map.set(tool.name, tool);
  return map;
}

/** A tool the provider would refuse: the host cannot lower it, so it would fail the whole request. */
export const providerRejected: LintRule<readonly ProviderName[]> = {
  id: 'provider/rejected',
  family: 'provider',
  defaultSeverity: 'warning',
  summary: 'Each tool can be lowered for every target provider (the host\'s lowering accepts it); opt-in per provider.',
  defaultOptions: PROVIDER_OPTIONS,
  validateOptions: validateProviders,
  prepare: targetProviders,
  checkCatalog(catalog, ctx) {
    const tools = byName(catalog);
    for (const provider of ctx.prepared) {
      for (const failure of lowered(catalog, provider).failures) {
        const tool = tools.get(failure.mcpName);
        ctx.report({
          ...(tool ? { tool } : {}),
          pointer: '',
          message: `${provider} would reject this tool: ${failure.message}`,
          fix: `fix the definition (see the spec rules) or drop ${provider} from rules."provider/rejected".options.providers`,
        });
      }
    }
  },
};

/**
 * Keywords a provider does not accept: the lowering drops them (the model never sees the
 * constraint) or moves them into the description text (seen as prose, not enforced by decoding).
 * Opt-in per provider: every provider loses something, and only the targeted ones matter.
 */
export const providerLossy: LintRule<readonly ProviderName[]> = {
  id: 'provider/lossy',
  family: 'provider',
  defaultSeverity: 'info',
  summary: 'Reports per target provider which schema keywords are dropped or moved into the description.',
  defaultOptions: PROVIDER_OPTIONS,
  validateOptions: validateProviders,
  prepare: targetProviders,
  checkCatalog(catalog, ctx) {
    const tools = byName(catalog);
    for (const provider of ctx.prepared) {
      for (const mapped of lowered(catalog, provider).tools) {
        const tool = tools.get(mapped.mcpName);
        if (tool === undefined) continue;
        const dropped = mapped.loss.filter((e) => e.action === 'dropped');
        const moved = mapped.loss.filter((e) => e.action === 'moved-into-description');
        if (dropped.length === 0 && moved.length === 0) continue;
        const list = (entries: typeof dropped): string => entries.slice(0, 6).map((e) => `${e.keyword} at ${e.pointer || '/'}`).join(', ') + (entries.length > 6 ? `, +${entries.length - 6} more` : '');
        const parts: string[] = [];
        if (dropped.length > 0) parts.push(`drops ${list(dropped)}`);
        if (moved.length > 0) parts.push(`moves into the description ${list(moved)}`);
        const first = dropped[0] ?? moved[0]!;
        ctx.report({
          tool,
          pointer: `/inputSchema${first.pointer}`,
          message: `${provider} ${parts.join('; ')}`,
          fix: dropped.length > 0 ? 'state dropped constraints in the description too, and keep enforcing them on the server' : 'nothing is lost to the model, but the provider will not enforce these while decoding; the server must',
        });
      }
    }
  },
};

/** OpenAI strict mode (constrained decoding) is not possible for this tool, so calls may be malformed. */
export const providerStrictFallback: LintRule<readonly ProviderName[]> = {
  id: 'provider/strict-fallback',
  family: 'provider',
  defaultSeverity: 'info',
  summary: 'Reports tools that cannot use strict (constrained) mode on a target provider that supports it.',
  defaultOptions: PROVIDER_OPTIONS,
  validateOptions: validateProviders,
  prepare: targetProviders,
  checkCatalog(catalog, ctx) {
    const tools = byName(catalog);
    for (const provider of ctx.prepared) {
      for (const mapped of lowered(catalog, provider).tools) {
        const tool = tools.get(mapped.mcpName);
        if (tool === undefined || mapped.strictFallback === undefined) continue;
        ctx.report({
          tool,
          pointer: '/inputSchema',
          message: `${provider} cannot use strict mode for this tool: ${mapped.strictFallback.slice(0, 3).join('; ')}`,
          fix: 'remove the keywords strict mode does not support (see docs/lint-rules.md) if constrained decoding matters for this tool',
        });
      }
    }
  },
};

export const PROVIDER_RULES: readonly LintRule[] = [providerRejected, providerLossy, providerStrictFallback];
