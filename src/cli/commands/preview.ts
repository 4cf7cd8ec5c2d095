import { loadToolTarget, ToolTargetError } from '../load-tool-target.js';
import { HostError, mapTools, PROVIDER_NAMES, PROFILES } from '../../host/index.js';
import type { LossEntry, MappedCatalog, ProviderName, StrictMode, ToolDescriptor } from '../../host/index.js';
import { parseHeaderOptions, parseTimeoutOption, UsageError } from '../usage-error.js';
import { parseCommandArgs, PROCESS_IO } from '../command-args.js';
import type { CommandIo } from '../command-args.js';

const USAGE = `Usage: toolwright preview <target> --provider <name> [options]
       toolwright preview --stdio "<command>" --provider <name> [options]

Shows what a model provider receives for each tool: the exact JSON, the loss report (every keyword
kept, moved into the description, dropped or rejected, with its JSON pointer), and token estimates.

Targets: a module (default export: a server or an array of tools), a saved tools/list JSON file,
a running server URL (http://...), or a stdio server command (--stdio).

Options:
  --provider <name>      ${PROVIDER_NAMES.join(' | ')}
  --strict <mode>        auto | true | false (OpenAI: default auto; Anthropic: default false)
  --prefix <name>        server prefix for provider names (name becomes <prefix>__<tool>)
  --tool <name>          only this MCP tool (repeatable)
  --all-keywords         list kept keywords too (default: only what changed)
  --json                 machine-readable output
  --header "Name: value" extra HTTP header for URL targets (repeatable)
  --timeout <ms>         per-request timeout for URL and stdio targets (default 15000)
  -h, --help             show this help

Tokens: o200k_base count of the compact provider JSON (an estimate; providers add their own
tool-use preamble). Exit codes: 0 every tool mapped, 1 some tool could not be mapped, 2 bad usage
or unreadable target.`;

/** One line for `toolwright --help`. */
export const summary = 'show exactly what a model provider receives for each tool, and what is lost';

function parseStrict(value: string | undefined): StrictMode | undefined {
  if (value === undefined) return undefined;
  if (value === 'auto') return 'auto';
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw new UsageError(`--strict must be auto, true or false (got ${JSON.stringify(value)})`);
}

function formatLoss(entry: LossEntry): string {
  return `    ${entry.action.padEnd(22)} ${(entry.pointer || '(root)')} ${entry.keyword}${entry.note ? `: ${entry.note}` : ''}`;
}

function formatPretty(catalog: MappedCatalog, allKeywords: boolean): string {
  const lines: string[] = [`Provider: ${PROFILES[catalog.provider].label} (${catalog.provider})`, ''];
  for (const tool of catalog.tools) {
    const renamed = tool.providerName !== tool.mcpName ? ` (MCP name: ${tool.mcpName})` : '';
    lines.push(`■ ${tool.providerName}${renamed}  ${tool.tokens} tokens${tool.strict ? ', strict' : ''}`);
    if (tool.strictFallback) {
      lines.push('  strict mode not possible, sent non-strict because:');
      for (const reason of tool.strictFallback) lines.push(`    - ${reason}`);
    }
    lines.push('  What the provider receives:');
    for (const line of JSON.stringify(tool.json, null, 2).split('\n')) lines.push(`    ${line}`);
    const shown = allKeywords ? tool.loss : tool.loss.filter((e) => e.action !== 'kept' || e.note !== undefined);
    const keptCount = tool.loss.filter((e) => e.action === 'kept').length;
    lines.push(`  Loss report (${tool.loss.length} keywords, ${keptCount} kept${allKeywords ? '' : '; unchanged keywords not listed'}):`);
    if (shown.length === 0) lines.push('    nothing lost');
    for (const entry of shown) lines.push(formatLoss(entry));
    lines.push('');
  }
  for (const failure of catalog.failures) {
    lines.push(`✗ ${failure.mcpName}: NOT SENT (${failure.code}) ${failure.message}`, '');
  }
  lines.push(`Total: ${catalog.tools.length} tool(s), ${catalog.totalTokens} tokens${catalog.failures.length > 0 ? `; ${catalog.failures.length} tool(s) could not be mapped` : ''}`);
  return `${lines.join('\n')}\n`;
}

/** `toolwright preview`: prints the provider JSON, the loss report and token estimates. */
export async function run(argv: string[], io: CommandIo = PROCESS_IO): Promise<number> {
  const parsed = parseCommandArgs('preview', USAGE, argv, {
    provider: { type: 'string' },
    strict: { type: 'string' },
    prefix: { type: 'string' },
    tool: { type: 'string', multiple: true },
    'all-keywords': { type: 'boolean' },
    json: { type: 'boolean' },
    stdio: { type: 'string' },
    header: { type: 'string', multiple: true },
    timeout: { type: 'string' },
  }, io);
  if (typeof parsed === 'number') return parsed;
  const { values, positionals } = parsed;
  try {
    const provider = values.provider as string | undefined;
    if (provider === undefined) throw new UsageError(`missing --provider (one of: ${PROVIDER_NAMES.join(', ')})`);
    if (!(PROVIDER_NAMES as readonly string[]).includes(provider)) {
      throw new UsageError(`unknown provider ${JSON.stringify(provider)}; use one of: ${PROVIDER_NAMES.join(', ')}`);
    }
    const strict = parseStrict(values.strict as string | undefined);
    const stdio = values.stdio as string | undefined;
    if (stdio !== undefined && positionals.length > 0) throw new UsageError('give either a target or --stdio "<command>", not both');
    if (stdio === undefined && positionals.length !== 1) throw new UsageError(positionals.length === 0 ? 'missing <target>' : `expected one target, got ${positionals.length}`);
    const timeoutMs = parseTimeoutOption(values.timeout);
    const headers = parseHeaderOptions((values.header as string[] | undefined) ?? []);
    const loaded = await loadToolTarget(stdio ?? positionals[0]!, { stdio: stdio !== undefined, headers, ...(timeoutMs !== undefined ? { timeoutMs } : {}) });
    let tools = loaded.tools as ToolDescriptor[];
    const only = values.tool as string[] | undefined;
    if (only) {
      const names = new Set(tools.map((t) => (typeof t === 'object' && t !== null ? t.name : undefined)));
      const unknown = only.filter((n) => !names.has(n));
      if (unknown.length > 0) throw new UsageError(`no tool named ${unknown.map((n) => JSON.stringify(n)).join(', ')} in ${loaded.source.label}`);
      tools = tools.filter((t) => only.includes(t.name));
    }
    const catalog = mapTools(tools, {
      provider: provider as ProviderName,
      ...(strict !== undefined ? { strict } : {}),
      ...(values.prefix !== undefined ? { serverPrefix: values.prefix as string } : {}),
    });
    if (values.json) {
      const out = {
        provider: catalog.provider,
        source: loaded.source.label,
        request: catalog.request,
        tools: catalog.tools.map((t) => ({
          mcpName: t.mcpName, providerName: t.providerName, strict: t.strict, tokens: t.tokens, json: t.json,
          loss: t.loss, nullableOptional: t.nullableOptional, ...(t.strictFallback ? { strictFallback: t.strictFallback } : {}),
        })),
        failures: catalog.failures,
        reverseNames: catalog.reverseNames,
        totalTokens: catalog.totalTokens,
      };
      io.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
    } else {
      io.stdout.write(formatPretty(catalog, values['all-keywords'] === true));
    }
    return catalog.failures.length > 0 ? 1 : 0;
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`toolwright preview: ${error.message}\n\n${USAGE}\n`);
      return 2;
    }
    if (error instanceof ToolTargetError || error instanceof HostError) {
      io.stderr.write(`toolwright preview: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
}
