import { createInterface } from 'node:readline/promises';
import { resolve } from 'node:path';
import { readTokenFile } from '../../compose/relay/index.js';
import { closestWord } from '../../text/similar-names.js';
import { parseCommandArgs, PROCESS_IO } from '../command-args.js';
import type { CommandIo } from '../command-args.js';
import { bridgeEntry } from '../install/bridge-entry.js';
import type { ConfigEdit } from '../install/config-edit.js';
import { HOSTS, hostById } from '../install/hosts.js';
import type { HostConfig } from '../install/hosts.js';
import { editJsonConfig } from '../install/json-config.js';
import { lineDiff } from '../install/line-diff.js';
import { editTomlConfig } from '../install/toml-config.js';
import { readConfigFile, replaceConfigFile, unwritable } from '../install/write-config.js';

/** One line for `toolwright --help`. */
export const summary = 'write the bridge to a running server into a desktop host\'s MCP configuration';

const HELP = `Usage: toolwright install <host> --url <url> [--token-file <file>] [--name <name>] [--config <file>] [--force]
       toolwright install [<host>] --url <url> [--token-file <file>] [--name <name>] --print

Writes an entry that runs \`toolwright bridge <url> --token-file <file>\` into a desktop host's MCP
configuration, so the host drives the server already running at <url> (the one its console shows),
authenticated by the token in <file>. The entry names the token file, never the token. Before
writing it shows the diff, and it keeps a backup of the file (<file>.<time>.bak); the rest of the
file (other servers, comments) is left exactly as it was. A file that does not parse is refused with
its line and column, and nothing is changed.

Hosts and their default files:
${HOSTS.map((host) => `  ${host.id.padEnd(15)} ${host.label}: ${host.pathNote}`).join('\n')}
Other hosts: --print shows the entry (an mcpServers JSON object and the command line) to copy.

Options:
  --url <url>            The running server's MCP endpoint, e.g. http://127.0.0.1:3000/mcp (required)
  --token-file <file>    The bridge's bearer token file (0600; checked now, read by the bridge when
                         it starts). Without it the bridge sends no token
  --name <name>          The entry's name in the host (default toolwright; 1-64 of A-Z a-z 0-9 _ -)
  --config <file>        The configuration file to edit instead of the host's default
  --force                Replace an entry of the same name without asking
  --print                Print the entry instead of writing it
  -h, --help             Show this help

An entry of the same name is replaced only after a yes at the prompt (a terminal) or with --force.

Exit codes: 0 written (or already there, or printed), 1 refused (a file that does not parse or cannot
be written, an unusable token file, an entry that exists without --force), 2 bad usage.`;

const NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** The host's snippet for --print: the servers object in the host's own format. */
function snippet(host: HostConfig | undefined, name: string, entry: Record<string, unknown>): string {
  if (host?.format === 'toml') {
    const edit = editTomlConfig('', host.serversKey, name, entry);
    return edit.ok ? edit.text : '';
  }
  return `${JSON.stringify({ [host?.serversKey ?? 'mcpServers']: { [name]: entry } }, null, 2)}\n`;
}

function edit(host: HostConfig, text: string, name: string, entry: Record<string, unknown>): ConfigEdit {
  return host.format === 'toml' ? editTomlConfig(text, host.serversKey, name, entry) : editJsonConfig(text, host.serversKey, name, entry, host.format === 'jsonc');
}

/** Asks on the terminal whether to replace the entry; false when there is no terminal to ask. */
async function confirmReplace(io: CommandIo, question: string): Promise<boolean> {
  if (io !== PROCESS_IO || process.stdin.isTTY !== true) return false;
  const prompt = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return /^y(es)?$/i.test((await prompt.question(question)).trim());
  } finally {
    prompt.close();
  }
}

/** `toolwright install`: see {@link HELP}. */
export async function run(argv: string[], io: CommandIo = PROCESS_IO): Promise<number> {
  const parsed = parseCommandArgs('install', HELP, argv, {
    url: { type: 'string' }, 'token-file': { type: 'string' }, name: { type: 'string' }, config: { type: 'string' }, force: { type: 'boolean' }, print: { type: 'boolean' },
  }, io);
  if (typeof parsed === 'number') return parsed;
  const values = parsed.values as { url?: string; 'token-file'?: string; name?: string; config?: string; force?: boolean; print?: boolean };
  const usage = (problem: string): number => {
    io.stderr.write(`toolwright install: ${problem}\n\n${HELP}\n`);
    return 2;
  };
  const refuse = (problem: string): number => {
    io.stderr.write(`toolwright install: ${problem}\n`);
    return 1;
  };
  const [hostId, ...extra] = parsed.positionals;
  if (extra.length > 0) return usage(`unexpected argument ${JSON.stringify(extra[0])} (one host)`);
  const host = hostId === undefined ? undefined : hostById(hostId);
  if (hostId !== undefined && host === undefined) {
    const guess = closestWord(hostId, HOSTS.map((h) => h.id)) ?? hostNamedBy(hostId);
    return usage(`unknown host ${JSON.stringify(hostId)}${guess !== undefined ? `; did you mean ${guess}?` : ''} (known: ${HOSTS.map((h) => h.id).join(', ')}; --print for others)`);
  }
  if (host === undefined && values.print !== true) return usage(`name a host (${HOSTS.map((h) => h.id).join(', ')}), or --print the entry for another`);
  if (values.url === undefined) return usage('--url <url> is required (the running server\'s MCP endpoint, e.g. http://127.0.0.1:3000/mcp)');
  let url: URL;
  try {
    url = new URL(values.url);
  } catch {
    return usage(`--url: ${JSON.stringify(values.url)} is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return usage(`--url must be http: or https:, got ${url.protocol}`);
  const name = values.name ?? 'toolwright';
  if (!NAME.test(name)) return usage(`--name must be 1-64 of A-Z a-z 0-9 _ -, got ${JSON.stringify(name)}`);
  const tokenFile = values['token-file'];
  if (tokenFile !== undefined) {
    const read = readTokenFile(tokenFile);
    if (!read.ok) return refuse(`${read.problem}; nothing was changed`);
  }
  const stdio = bridgeEntry(url.href, tokenFile);
  const entry = host === undefined ? { command: stdio.command, args: [...stdio.args] } : host.entry(stdio);
  if (values.print === true) {
    io.stdout.write(snippet(host, name, entry));
    if (host === undefined) io.stdout.write(`\nThe command line: ${[stdio.command, ...stdio.args].map((part) => (/^[A-Za-z0-9_./:@%+=-]+$/.test(part) ? part : `'${part.replace(/'/g, `'\\''`)}'`)).join(' ')}\n`);
    return 0;
  }
  const target = host as HostConfig;
  const path = resolve(values.config ?? target.defaultPath(io.env ?? process.env, process.platform, process.cwd()));
  const read = readConfigFile(path);
  if (!read.ok) return refuse(`${path} ${read.problem}; nothing was changed`);
  const edited = edit(target, read.text, name, entry);
  if (!edited.ok) return refuse(`${path} ${edited.problem}; nothing was changed`);
  if (edited.unchanged) {
    io.stdout.write(`${path} already has this entry ${JSON.stringify(name)}; nothing to do\n`);
    return 0;
  }
  io.stdout.write(lineDiff(path, read.text, edited.text));
  if (edited.existing && values.force !== true && !(await confirmReplace(io, `${path} already has an entry ${JSON.stringify(name)}; replace it? [y/N] `))) {
    return refuse(`${path} already has an entry ${JSON.stringify(name)} (shown above as it would change); pass --force to replace it, or --name for another entry. Nothing was changed`);
  }
  const blocked = unwritable(path, read.exists);
  if (blocked !== undefined) return refuse(`${path} ${blocked}; nothing was changed`);
  let backup: string | undefined;
  try {
    backup = replaceConfigFile(path, read.exists, read.text, edited.text);
  } catch (error) {
    return refuse(`cannot write ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
  io.stdout.write(`wrote ${path}${backup !== undefined ? ` (the previous file is kept as ${backup})` : ' (a new file)'}; restart ${target.label} to load ${JSON.stringify(name)}\n`);
  return 0;
}

/** A host whose id is the typed word with a suffix or prefix ("claude" for claude-desktop, "code" for vscode): too far for an edit distance, yet what was meant. */
function hostNamedBy(typed: string): string | undefined {
  const word = typed.toLowerCase();
  if (word.length < 3) return undefined;
  const matches = HOSTS.filter((h) => h.id.split('-').includes(word) || h.id.startsWith(word) || h.id.endsWith(word));
  return matches.length === 1 ? matches[0]!.id : undefined;
}
