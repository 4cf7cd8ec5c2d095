import { mkdtemp, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { loadToolTarget, ToolTargetError } from '../load-tool-target.js';
import { parseHeaderOptions, parseTimeoutOption, UsageError } from '../usage-error.js';
import { OAUTH_OPTIONS, oauthFromOptions } from '../oauth-options.js';
import { parseCommandArgs, PROCESS_IO } from '../command-args.js';
import type { CommandIo } from '../command-args.js';

const USAGE = `Usage: toolwright tools <target> [--save tools.json] [options]
       toolwright tools --stdio "<command>" [--save tools.json] [options]

Lists a catalog: each tool's name, its parameters and the first sentence of its description.
With --save, writes the catalog in the saved tools/list format ({"tools": [...]}, exactly as the
server listed it) that lint, diff and preview read, so that a catalog can be kept, reviewed and
compared in a repository.

Targets: a module (default export: a server or an array of tools), a saved tools/list JSON file,
a running server URL (http://...; either MCP era), or a stdio server command (--stdio).

Options:
  --save <file>          write the catalog to <file> (replaced atomically; the folder must exist)
  --json                 print the catalog as saved tools/list JSON instead of the table
  --header "Name: value" extra HTTP header for URL targets (repeatable)
  --oauth, --client-credentials, --client-id, --scope, --token-cache ...
                         OAuth for URL targets (options as in "toolwright call --help"; docs/auth.md)
  --timeout <ms>         per-request timeout for URL and stdio targets (default 15000)
  -h, --help             show this help

Exit codes: 0 listed (and saved), 2 bad usage, an unreadable target or a file that cannot be written.`;

/** One line for `toolwright --help`. */
export const summary = 'list a catalog from a server, module or file, and save it as tools.json';

/** The saved tools/list format: what `lint`, `diff` and `preview` read back (docs/diff.md). */
export function savedCatalogText(tools: readonly unknown[]): string {
  return `${JSON.stringify({ tools }, null, 2)}\n`;
}

function firstSentence(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const end = flat.search(/[.!?](\s|$)/);
  const sentence = end === -1 ? flat : flat.slice(0, end + 1);
  return sentence.length > 80 ? `${sentence.slice(0, 79)}…` : sentence;
}

/** One table row per entry; an entry that is not a tool object is shown as such, never skipped. */
function tableLines(tools: readonly unknown[]): string[] {
  return tools.map((tool, index) => {
    if (typeof tool !== 'object' || tool === null || Array.isArray(tool) || typeof (tool as { name?: unknown }).name !== 'string') {
      return `  (entry ${index}: not a tool object with a string name)`;
    }
    const { name, description, inputSchema } = tool as { name: string; description?: unknown; inputSchema?: unknown };
    const properties = typeof inputSchema === 'object' && inputSchema !== null ? (inputSchema as { properties?: unknown }).properties : undefined;
    const parameters = typeof properties === 'object' && properties !== null ? Object.keys(properties) : [];
    const about = typeof description === 'string' ? firstSentence(description) : '(no description)';
    return `  ${name}(${parameters.join(', ')})\n      ${about}`;
  });
}

/** Writes beside the destination, then renames: a failed save never leaves a half-written catalog. */
async function saveAtomically(path: string, text: string): Promise<void> {
  const folder = dirname(resolve(path));
  const info = await stat(folder).catch(() => undefined);
  if (info === undefined) throw new UsageError(`--save ${path}: the folder ${folder} does not exist`);
  if (!info.isDirectory()) throw new UsageError(`--save ${path}: ${folder} is not a folder`);
  const existing = await stat(path).catch(() => undefined);
  if (existing?.isDirectory() === true) throw new UsageError(`--save ${path}: that is a folder; give a file name such as ${join(path, 'tools.json')}`);
  const scratch = await mkdtemp(join(folder, `.${basename(path)}-`)).catch((error: NodeJS.ErrnoException) => {
    throw new UsageError(`--save ${path}: cannot write in ${folder} (${error.code ?? error.message})`);
  });
  try {
    const temporary = join(scratch, 'catalog.json');
    await writeFile(temporary, text);
    await rename(temporary, path);
  } catch (error) {
    throw new UsageError(`--save ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/**
 * `toolwright tools`: lists a catalog and optionally saves it in the format the other commands
 * read. Returns the exit code: 0 listed, 2 bad usage, unreadable target or unwritable file.
 */
export async function run(argv: string[], io: CommandIo = PROCESS_IO): Promise<number> {
  const { stdout, stderr } = io;
  const parsed = parseCommandArgs('tools', USAGE, argv, {
    save: { type: 'string' },
    json: { type: 'boolean', default: false },
    stdio: { type: 'string' },
    header: { type: 'string', multiple: true, default: [] },
    ...OAUTH_OPTIONS,
    timeout: { type: 'string' },
  }, io);
  if (typeof parsed === 'number') return parsed;
  const { values, positionals } = parsed;
  try {
    const stdio = values.stdio as string | undefined;
    if (stdio !== undefined && positionals.length > 0) throw new UsageError(`give either a target or --stdio "<command>", not both (got ${JSON.stringify(positionals[0])})`);
    if (stdio === undefined && positionals.length !== 1) throw new UsageError(positionals.length === 0 ? 'missing <target>' : `expected one target, got ${positionals.length}: ${positionals.join(' ')}`);
    const save = values.save as string | undefined;
    if (save !== undefined && save.trim() === '') throw new UsageError('--save needs a file name');
    const timeoutMs = parseTimeoutOption(values.timeout);
    const headers = parseHeaderOptions(values.header as string[]);
    const oauth = oauthFromOptions(values, 'tools');
    const loaded = await loadToolTarget(stdio ?? positionals[0]!, { stdio: stdio !== undefined, headers, timeoutMs, ...(oauth !== undefined ? { oauth } : {}) });
    const text = savedCatalogText(loaded.tools);
    if (save !== undefined) {
      await saveAtomically(save, text);
      // The note goes to stderr so that `--json --save` still prints only JSON on stdout.
      stderr.write(`toolwright tools: saved ${loaded.tools.length} tool${loaded.tools.length === 1 ? '' : 's'} from ${loaded.source.label} to ${save}\n`);
    }
    if (values.json === true) {
      stdout.write(text);
    } else if (save === undefined) {
      stdout.write(`${loaded.tools.length} tool${loaded.tools.length === 1 ? '' : 's'} from ${loaded.source.label}\n${tableLines(loaded.tools).join('\n')}${loaded.tools.length > 0 ? '\n' : ''}`);
    }
    return 0;
  } catch (error) {
    if (error instanceof UsageError || error instanceof ToolTargetError) {
      stderr.write(`toolwright tools: ${error.message}\n`);
      if (error instanceof UsageError) stderr.write(`Run "toolwright tools --help" for usage.\n`);
      return 2;
    }
    throw error;
  }
}
