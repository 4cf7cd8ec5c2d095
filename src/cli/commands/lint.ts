import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { relative, resolve } from 'node:path';
import { loadToolTarget, ToolTargetError } from '../load-tool-target.js';
import type { LoadedToolTarget } from '../load-tool-target.js';
import { lintTools } from '../../lint/engine.js';
import { BUILTIN_RULES } from '../../lint/rules/index.js';
import { LintConfigError, parseLintConfig } from '../../lint/config.js';
import { buildPinLock, parsePinLock, PinLockError } from '../../lint/pin.js';
import type { PinLock } from '../../lint/pin.js';
import { applySafeFixes, unifiedDiff } from '../../lint/fix.js';
import { formatPretty } from '../../lint/reporters/pretty.js';
import { formatJson } from '../../lint/reporters/json.js';
import { buildSarif } from '../../lint/reporters/sarif.js';
import { locateJsonPointers } from '../../lint/json-locator.js';
import type { LintConfig } from '../../lint/types.js';
import { parseHeaderOptions, parseTimeoutOption, UsageError } from '../usage-error.js';
import { OAUTH_OPTIONS, oauthFromOptions } from '../oauth-options.js';
import { packageVersion, parseCommandArgs, PROCESS_IO } from '../command-args.js';
import type { CommandIo } from '../command-args.js';
import { isJsonObject } from '../../json/json-object.js';

const USAGE = `Usage: toolwright lint <target> [options]
       toolwright lint --stdio "<command>" [options]

Targets: a module (default export: a server or an array of tools), a saved tools/list JSON file,
a running server URL (http://...), or a stdio server command (--stdio).

Options:
  --format pretty|json|sarif  output format (default pretty; colours only on a TTY)
  --config <file>             rule severities, options and opt-outs (default ./toolwright.lint.json if present)
  --pin <lockfile>            compare description/schema hashes with the lockfile; create it if missing
  --update-pin                with --pin: re-approve the current tools (rewrite the lockfile)
  --fix                       apply safe rewrites and show the diff (writes JSON file targets in place)
  --provider <list>           provider rules target these (comma-separated: openai-chat, openai-responses,
                              anthropic, gemini, gemini-legacy, or all); default: none (provider rules off)
  --header "Name: value"      extra HTTP header for URL targets (repeatable)
  --oauth, --client-credentials, --client-id, --scope, --token-cache ...
                              OAuth for URL targets (options as in "toolwright call --help"; docs/auth.md)
  --timeout <ms>              per-request timeout for URL and stdio targets (default 15000)
  --list-rules                print every rule with its id, family and default severity
  -h, --help                  show this help

Exit codes: 0 no errors, 1 errors found, 2 bad usage or unreadable target.`;

export type { CommandIo };

/** One line for `toolwright --help`. */
export const summary = 'judge tool definitions (spec, quality, budgets, security) before a model sees them';

const DEFAULT_CONFIG_FILE = 'toolwright.lint.json';

async function readJsonFile(path: string, what: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${what} ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${what} ${path} is not valid JSON: ${(error as Error).message}`);
  }
}

async function loadConfig(path: string | undefined): Promise<LintConfig | undefined> {
  const file = path ?? (existsSync(DEFAULT_CONFIG_FILE) ? DEFAULT_CONFIG_FILE : undefined);
  if (file === undefined) return undefined;
  const data = await readJsonFile(file, 'config');
  try {
    return parseLintConfig(data, BUILTIN_RULES);
  } catch (error) {
    if (error instanceof LintConfigError) throw new UsageError(`config ${file}: ${error.message}`);
    throw error;
  }
}

function listRules(): string {
  const width = Math.max(...BUILTIN_RULES.map((r) => r.id.length));
  return `${BUILTIN_RULES.map((r) => `${r.id.padEnd(width)}  ${r.defaultSeverity.padEnd(7)}  ${r.summary}`).join('\n')}\n`;
}

/** `--provider a,b`: every provider rule targets exactly these providers (overrides the config). */
function withProviders(config: LintConfig | undefined, list: string): LintConfig {
  const providers = list.split(',').map((p) => p.trim()).filter((p) => p !== '');
  if (providers.length === 0) throw new UsageError('--provider needs at least one provider name');
  const data: { rules: Record<string, unknown>; ignore: unknown[] } = { rules: { ...(config?.rules ?? {}) }, ignore: [...(config?.ignore ?? [])] };
  for (const rule of BUILTIN_RULES.filter((r) => r.family === 'provider')) {
    const current = (config?.rules[rule.id] ?? {}) as { severity?: string; options?: Record<string, unknown> };
    data.rules[rule.id] = { ...current, options: { ...current.options, providers } };
  }
  try {
    return parseLintConfig(data, BUILTIN_RULES);
  } catch (error) {
    if (error instanceof LintConfigError) throw new UsageError(`--provider: ${error.message.replace(/^rules\["[^"]+"\]\.options: /, '')}`);
    throw error;
  }
}

/** Writes the fixed catalog back into a JSON file target, keeping the file's wrapper object. */
function rewriteFileText(loaded: Extract<LoadedToolTarget['source'], { kind: 'file' }>, tools: unknown[]): string {
  const data = JSON.parse(loaded.text) as unknown;
  let replaced: unknown = tools;
  if (loaded.toolsPointer === '/tools') replaced = { ...(data as Record<string, unknown>), tools };
  if (loaded.toolsPointer === '/result/tools') {
    const record = data as { result: Record<string, unknown> };
    replaced = { ...record, result: { ...record.result, tools } };
  }
  const indent = /^[ \t]*[[{]\s*\n([ \t]+)/.exec(loaded.text)?.[1] ?? '  ';
  return `${JSON.stringify(replaced, null, indent)}\n`;
}

/**
 * `toolwright lint`: judges tool definitions before a model sees them. Returns the exit code:
 * 0 no errors, 1 errors found, 2 bad usage or unreadable target.
 */
export async function run(argv: string[], io: CommandIo = PROCESS_IO): Promise<number> {
  const { stdout, stderr } = io;
  const parsed = parseCommandArgs('lint', USAGE, argv, {
    format: { type: 'string', default: 'pretty' },
    config: { type: 'string' },
    pin: { type: 'string' },
    'update-pin': { type: 'boolean', default: false },
    fix: { type: 'boolean', default: false },
    stdio: { type: 'string' },
    header: { type: 'string', multiple: true, default: [] },
    ...OAUTH_OPTIONS,
    provider: { type: 'string' },
    timeout: { type: 'string' },
    'list-rules': { type: 'boolean', default: false },
  }, io);
  if (typeof parsed === 'number') return parsed;
  const { values, positionals } = parsed;
  if (values['list-rules']) {
    stdout.write(listRules());
    return 0;
  }
  try {
    const format = values.format as string;
    if (format !== 'pretty' && format !== 'json' && format !== 'sarif') throw new UsageError(`--format must be pretty, json or sarif; got ${JSON.stringify(format)}`);
    const stdio = values.stdio as string | undefined;
    if (stdio !== undefined && positionals.length > 0) throw new UsageError(`give either a target or --stdio "<command>", not both (got ${JSON.stringify(positionals[0])})`);
    if (stdio === undefined && positionals.length !== 1) throw new UsageError(positionals.length === 0 ? 'missing <target>' : `expected one target, got ${positionals.length}: ${positionals.join(' ')}`);
    if (values['update-pin'] && values.pin === undefined) throw new UsageError('--update-pin needs --pin <lockfile>');
    const timeoutMs = parseTimeoutOption(values.timeout);
    const headers = parseHeaderOptions(values.header as string[]);
    let config = await loadConfig(values.config as string | undefined);
    if (values.provider !== undefined) config = withProviders(config, values.provider as string);

    const pinPath = values.pin as string | undefined;
    let pin: PinLock | undefined;
    if (pinPath !== undefined && !values['update-pin'] && existsSync(pinPath)) {
      try {
        pin = parsePinLock(await readFile(pinPath, 'utf8'));
      } catch (error) {
        if (error instanceof PinLockError) throw new UsageError(`pin lockfile ${pinPath}: ${error.message}`);
        throw new UsageError(`cannot read pin lockfile ${pinPath}: ${(error as Error).message}`);
      }
    }

    const target = stdio ?? positionals[0]!;
    const oauth = oauthFromOptions(values, 'lint');
    const loaded = await loadToolTarget(target, { stdio: stdio !== undefined, headers, timeoutMs, ...(oauth !== undefined ? { oauth } : {}) });
    let tools = loaded.tools;
    // Diffs go to stderr when stdout carries a machine-readable report.
    const notes = format === 'pretty' ? stdout : stderr;

    if (values.fix) {
      const outcome = applySafeFixes(tools);
      if (outcome.fixes.length === 0) {
        notes.write('--fix: nothing to rewrite safely.\n');
      } else {
        for (const fix of outcome.fixes) notes.write(`--fix: ${fix.tool}: ${fix.change}\n`);
        if (loaded.source.kind === 'file') {
          const after = rewriteFileText(loaded.source, outcome.tools);
          const label = relative(process.cwd(), loaded.source.path) || loaded.source.path;
          notes.write(unifiedDiff(loaded.source.text, after, `a/${label}`, `b/${label}`));
          await writeFile(loaded.source.path, after);
          loaded.source.text = after;
          notes.write(`--fix: wrote ${label}\n`);
        } else {
          const before = `${JSON.stringify({ tools }, null, 2)}\n`;
          const after = `${JSON.stringify({ tools: outcome.tools }, null, 2)}\n`;
          notes.write(unifiedDiff(before, after, 'a/tools/list', 'b/tools/list'));
          notes.write(`--fix: ${loaded.source.label} is not a file; apply the change above in the tool definitions' source.\n`);
        }
        tools = outcome.tools;
      }
    }

    const result = lintTools(tools, { config, pin });

    if (pinPath !== undefined && pin === undefined) {
      const lock = buildPinLock(tools.filter(isJsonObject));
      await writeFile(pinPath, `${JSON.stringify(lock, null, 2)}\n`);
      stderr.write(`toolwright lint: ${values['update-pin'] ? 'updated' : 'wrote'} pin lockfile ${pinPath} (${Object.keys(lock.tools).length} tools)\n`);
    }

    if (format === 'json') {
      stdout.write(formatJson(result, loaded.source.label));
    } else if (format === 'sarif') {
      const source = loaded.source;
      const uri = source.kind === 'file' || source.kind === 'module'
        ? relative(process.cwd(), source.path).split('\\').join('/') || resolve(source.path)
        : source.kind === 'url' ? source.url : `stdio:${source.command}`;
      const file = source.kind === 'file' ? { toolsPointer: source.toolsPointer, positions: locateJsonPointers(source.text) } : undefined;
      const rules = BUILTIN_RULES;
      const log = buildSarif(result, rules, file ? { uri, file } : { uri }, await packageVersion());
      stdout.write(`${JSON.stringify(log, null, 2)}\n`);
    } else {
      const color = Boolean(stdout.isTTY) && process.env.NO_COLOR === undefined;
      stdout.write(formatPretty(result, { color, target: loaded.source.label }));
    }
    return result.counts.error > 0 ? 1 : 0;
  } catch (error) {
    if (error instanceof UsageError || error instanceof ToolTargetError) {
      stderr.write(`toolwright lint: ${error.message}\n`);
      if (error instanceof UsageError) stderr.write(`Run "toolwright lint --help" for usage.\n`);
      return 2;
    }
    throw error;
  }
}
