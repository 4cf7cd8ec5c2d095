/**
 * `toolwright install <host>` against fixture configuration files (copies in a temporary folder; no
 * host runs here): one test per host (Claude Desktop, VS Code, Cursor, Codex) and `--print`, and one
 * per error path, each checking that nothing changed (same bytes, no backup). The Claude Desktop
 * entry is also started as a host would start it, against a real server: the bridge it names lists
 * that server's tools.
 */
import assert from 'node:assert/strict';
import { chmodSync, copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { parse as parseJsonc } from 'jsonc-parser';
import { parse as parseToml } from 'smol-toml';
import { createServer, staticTokenAuthorizer } from '../../src/index.js';
import { calculateSum } from '../fixtures/servers/everything.js';
import { repoPath } from '../support/repo-paths.js';
import { runCli } from '../support/run-cli.js';

const TOKEN = 'install-test-bridge-token-0123456789abcdef';
const URL_ = 'http://127.0.0.1:3000/mcp';

interface Entry { type?: string; command: string; args: string[] }

describe('toolwright install', () => {
  let dir: string;
  let tokenFile: string;
  /** A copy of a fixture in a folder of its own; returns its path. */
  const fixture = (name: string, as = name): string => {
    const folder = mkdtempSync(join(dir, 'host-'));
    const path = join(folder, as);
    copyFileSync(repoPath('test/cli/fixtures/install', name), path);
    return path;
  };
  /** Files beside `path` other than itself (backups). */
  const beside = (path: string): string[] => readdirSync(join(path, '..')).filter((f) => f !== path.split('/').at(-1));
  const install = (args: string[]) => runCli(['install', ...args]);

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'tw-install-'));
    tokenFile = join(dir, 'bridge.token');
    writeFileSync(tokenFile, `${TOKEN}\n`, { mode: 0o600 });
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** The bridge's arguments as every entry must hold them: this CLI, bridge, the URL, the token FILE. */
  const assertBridgeEntry = (entry: Entry | undefined): void => {
    assert.ok(entry);
    assert.equal(entry.command, process.execPath);
    assert.deepEqual(entry.args.slice(-5), [repoPath('src/cli/main.ts'), 'bridge', URL_, '--token-file', tokenFile]);
  };

  it('claude-desktop: the entry under mcpServers, the diff shown, a backup kept, the rest byte for byte; the entry runs the bridge', async () => {
    const path = fixture('claude_desktop_config.json');
    const original = readFileSync(path, 'utf8');
    const run = await install(['claude-desktop', '--config', path, '--name', 'robot-arm', '--url', URL_, '--token-file', tokenFile]);
    assert.equal(run.code, 0, run.stderr);
    const text = readFileSync(path, 'utf8');
    assert.ok(!text.includes(TOKEN), 'the token itself is never written');
    const config = JSON.parse(text) as { mcpServers: Record<string, Entry>; globalShortcut: string };
    assertBridgeEntry(config.mcpServers['robot-arm']);
    assert.deepEqual(Object.keys(config.mcpServers), ['filesystem', 'robot-arm']);
    // Everything up to the end of the filesystem entry, and from the end of mcpServers on, is as it was.
    const cut = original.indexOf('        }\n    },');
    assert.ok(text.startsWith(original.slice(0, cut + '        }'.length)));
    assert.ok(text.endsWith('    },\n    "globalShortcut": "Ctrl+Space"\n}\n'));
    assert.match(run.stdout, new RegExp(`^--- ${path}\\n\\+\\+\\+ ${path}\\n@@ -3,6 \\+3,18 @@\\n`));
    assert.match(run.stdout, /^\+ {8}"robot-arm": \{$/m);
    const [backup, ...more] = beside(path);
    assert.deepEqual(more, []);
    assert.match(backup ?? '', /^claude_desktop_config\.json\.\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z\.bak$/);
    assert.equal(readFileSync(join(path, '..', backup!), 'utf8'), original);
    assert.match(run.stdout, new RegExp(`wrote ${path} \\(the previous file is kept as .*\\.bak\\); restart Claude Desktop to load "robot-arm"\\n$`));

    // The entry, started as a desktop host starts it, reaches a real server with the token in the file.
    const server = createServer({ name: 'installed', version: '1.0.0', tools: [calculateSum], authorize: staticTokenAuthorizer({ token: TOKEN, auth: { subject: 'bridge', scopes: [] } }) });
    const listener = await server.listen({ port: 0 });
    const entry = config.mcpServers['robot-arm']!;
    const client = new Client({ name: 'claude-ai', version: '0.1.0' });
    try {
      await client.connect(new StdioClientTransport({ command: entry.command, args: entry.args.map((a) => (a === URL_ ? String(listener.url) : a)), stderr: 'pipe' }));
      assert.deepEqual((await client.listTools()).tools.map((t) => t.name), ['calculate_sum']);
    } finally {
      await client.close();
      await server.close();
    }
  });

  it('vscode: the entry under servers with type stdio; comments and trailing commas of the JSONC file stay', async () => {
    const path = fixture('vscode-mcp.jsonc', 'mcp.json');
    const run = await install(['vscode', '--config', path, '--name', 'robot-arm', '--url', URL_, '--token-file', tokenFile]);
    assert.equal(run.code, 0, run.stderr);
    const text = readFileSync(path, 'utf8');
    assert.ok(text.startsWith('// Workspace MCP servers (VS Code reads this file as JSON with comments).\n{\n\t"inputs": [],\n\t"servers": {\n\t\t/* the team\'s search server */\n\t\t"search": { "type": "http", "url": "https://search.example.test/mcp" },\n\t\t"robot-arm": {\n\t\t\t"type": "stdio",'), text);
    assert.ok(text.endsWith('\t\t}\n\t},\n}\n'), text);
    const config = parseJsonc(text, [], { allowTrailingComma: true }) as { servers: Record<string, Entry> };
    assert.equal(config.servers['robot-arm']?.type, 'stdio');
    assertBridgeEntry(config.servers['robot-arm']);
    assert.deepEqual(config.servers.search, { type: 'http', url: 'https://search.example.test/mcp' });
  });

  it('cursor: a file that does not exist yet is created (0600, its folder too), with no backup', async () => {
    const path = join(mkdtempSync(join(dir, 'host-')), '.cursor', 'mcp.json');
    const run = await install(['cursor', '--config', path, '--url', URL_, '--token-file', tokenFile]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(statSync(path).mode & 0o777, 0o600);
    const config = JSON.parse(readFileSync(path, 'utf8')) as { mcpServers: Record<string, Entry> };
    assert.deepEqual(Object.keys(config.mcpServers), ['toolwright']);
    assertBridgeEntry(config.mcpServers.toolwright);
    assert.deepEqual(beside(path), []);
    assert.match(run.stdout, /\(a new file\); restart Cursor to load "toolwright"\n$/);
    const again = await install(['cursor', '--config', path, '--url', URL_, '--token-file', tokenFile]);
    assert.equal(again.code, 0);
    assert.equal(again.stdout, `${path} already has this entry "toolwright"; nothing to do\n`);
  });

  it('codex: a [mcp_servers.<name>] table appended to config.toml; comments and the other tables stay byte for byte', async () => {
    const path = fixture('codex-config.toml', 'config.toml');
    const original = readFileSync(path, 'utf8');
    const run = await install(['codex', '--config', path, '--name', 'robot-arm', '--url', URL_, '--token-file', tokenFile]);
    assert.equal(run.code, 0, run.stderr);
    const text = readFileSync(path, 'utf8');
    assert.ok(text.startsWith(`${original}\n[mcp_servers.robot-arm]\ncommand = ${JSON.stringify(process.execPath)}\nargs = [`), text);
    const config = parseToml(text) as unknown as { model: string; mcp_servers: Record<string, Entry>; profiles: { review: { model: string } } };
    assertBridgeEntry(config.mcp_servers['robot-arm']);
    assert.deepEqual({ ...config.mcp_servers.docs }, { command: 'npx', args: ['-y', 'docs-mcp'] });
    assert.equal(config.profiles.review.model, 'o3');
  });

  it('--print: the entry for another host, and a host\'s own snippet, written nowhere', async () => {
    const other = await install(['--print', '--url', URL_, '--token-file', tokenFile, '--name', 'arm']);
    assert.equal(other.code, 0, other.stderr);
    const [json, line] = other.stdout.split('\nThe command line: ');
    assertBridgeEntry((JSON.parse(json!) as { mcpServers: Record<string, Entry> }).mcpServers.arm);
    assert.ok(line?.startsWith(`${process.execPath} --import `) && line.endsWith(` bridge ${URL_} --token-file ${tokenFile}\n`), line);
    const codex = await install(['codex', '--print', '--url', URL_]);
    assert.equal(codex.code, 0, codex.stderr);
    assert.match(codex.stdout, /^\[mcp_servers\.toolwright\]\ncommand = ".+"\nargs = \[.*"bridge", "http:\/\/127\.0\.0\.1:3000\/mcp"\]\n$/);
  });

  /** Runs `args` and checks exit 1 with `message`, the file byte for byte as before and no backup. */
  const refusedUnchanged = async (path: string, args: string[], message: string | RegExp): Promise<string> => {
    const before = readFileSync(path);
    const run = await install(args);
    assert.equal(run.code, 1, run.stderr);
    if (typeof message === 'string') assert.equal(run.stderr, message);
    else assert.match(run.stderr, message);
    assert.deepEqual(readFileSync(path), before);
    assert.deepEqual(beside(path), []);
    return run.stdout;
  };

  it('an invalid JSON file is refused with its line and column; nothing changes', async () => {
    const path = fixture('invalid.json', 'claude_desktop_config.json');
    await refusedUnchanged(path, ['claude-desktop', '--config', path, '--url', URL_, '--token-file', tokenFile], `toolwright install: ${path} is not valid JSON at line 4, column 3: PropertyNameExpected; nothing was changed\n`);
  });

  it('an invalid TOML file is refused with its line and column; nothing changes', async () => {
    const path = fixture('invalid.toml', 'config.toml');
    await refusedUnchanged(path, ['codex', '--config', path, '--url', URL_, '--token-file', tokenFile], new RegExp(`^toolwright install: ${path} is not valid TOML at line 2, column \\d+: .+; nothing was changed\\n$`));
  });

  it('an entry of the same name is not replaced without --force (the change is shown); --force replaces it and keeps a backup', async () => {
    const path = fixture('claude_desktop_config.json');
    const shown = await refusedUnchanged(path, ['claude-desktop', '--config', path, '--name', 'filesystem', '--url', URL_, '--token-file', tokenFile],
      `toolwright install: ${path} already has an entry "filesystem" (shown above as it would change); pass --force to replace it, or --name for another entry. Nothing was changed\n`);
    assert.match(shown, /^-\s+"command": "npx",$/m);
    const forced = await install(['claude-desktop', '--config', path, '--name', 'filesystem', '--url', URL_, '--token-file', tokenFile, '--force']);
    assert.equal(forced.code, 0, forced.stderr);
    assertBridgeEntry((JSON.parse(readFileSync(path, 'utf8')) as { mcpServers: Record<string, Entry> }).mcpServers.filesystem);
    assert.equal(beside(path).length, 1);
  });

  it('a read-only file is refused before anything is written; nothing changes', async () => {
    const path = fixture('codex-config.toml', 'config.toml');
    chmodSync(path, 0o444);
    await refusedUnchanged(path, ['codex', '--config', path, '--url', URL_, '--token-file', tokenFile], `toolwright install: ${path} is read-only (mode 0444); nothing was changed\n`);
  });

  it('a token file others can read is refused; a mistyped host or flag is bad usage with "did you mean"', async () => {
    const shared = join(dir, 'shared.token');
    writeFileSync(shared, `${TOKEN}\n`);
    chmodSync(shared, 0o640);
    const path = fixture('claude_desktop_config.json');
    await refusedUnchanged(path, ['claude-desktop', '--config', path, '--url', URL_, '--token-file', shared], new RegExp(`^toolwright install: token file ${shared} can be read or written by group or others \\(mode 0640\\).*; nothing was changed\\n$`));
    const host = await install(['claude-destkop', '--url', URL_]);
    assert.equal(host.code, 2);
    assert.equal(host.stderr.split('\n')[0], 'toolwright install: unknown host "claude-destkop"; did you mean claude-desktop? (known: claude-desktop, vscode, cursor, codex; --print for others)');
    const shortName = await install(['claude', '--url', URL_]);
    assert.equal(shortName.code, 2);
    assert.equal(shortName.stderr.split('\n')[0], 'toolwright install: unknown host "claude"; did you mean claude-desktop? (known: claude-desktop, vscode, cursor, codex; --print for others)');
    const flag = await install(['cursor', '--ulr', URL_]);
    assert.equal(flag.code, 2);
    assert.match(flag.stderr, /^toolwright install: unknown option --ulr; did you mean --url\?/);
    assert.equal(existsSync(join(dir, 'claude_desktop_config.json')), false);
  });
});
