/**
 * The hosts `toolwright install` knows: where each keeps its MCP configuration, in which format,
 * under which key, and the shape of one stdio server entry there. Paths are each host's documented
 * defaults; `--config <file>` names another (a project's `.cursor/mcp.json`, a test fixture).
 */
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/** A stdio server entry: the program a host starts and its arguments. */
export interface StdioEntry {
  readonly command: string;
  readonly args: readonly string[];
}

/** One host's configuration file. */
export interface HostConfig {
  readonly id: string;
  readonly label: string;
  /** `json` (strict), `jsonc` (comments and trailing commas allowed) or `toml`. */
  readonly format: 'json' | 'jsonc' | 'toml';
  /** The key of the table of servers (`mcpServers`, `servers`, `mcp_servers`). */
  readonly serversKey: string;
  /** The default file, from the environment and the platform. */
  defaultPath(env: NodeJS.ProcessEnv, platform: NodeJS.Platform, cwd: string): string;
  /** Where the default path comes from, per platform (for --help and the docs). */
  readonly pathNote: string;
  /** The entry as this host writes it. */
  entry(entry: StdioEntry): Record<string, unknown>;
}

function home(env: NodeJS.ProcessEnv): string {
  return env.HOME !== undefined && env.HOME !== '' ? env.HOME : homedir();
}

const plain = (entry: StdioEntry): Record<string, unknown> => ({ command: entry.command, args: [...entry.args] });

/** The hosts, by id, in the order --help lists them. */
export const HOSTS: readonly HostConfig[] = [
  {
    id: 'claude-desktop',
    label: 'Claude Desktop',
    format: 'json',
    serversKey: 'mcpServers',
    defaultPath(env, platform) {
      if (platform === 'darwin') return join(home(env), 'Library', 'Application Support', 'Claude', 'claude_desktop_config.json');
      if (platform === 'win32') return join(env.APPDATA ?? join(home(env), 'AppData', 'Roaming'), 'Claude', 'claude_desktop_config.json');
      return join(env.XDG_CONFIG_HOME !== undefined && env.XDG_CONFIG_HOME !== '' ? env.XDG_CONFIG_HOME : join(home(env), '.config'), 'Claude', 'claude_desktop_config.json');
    },
    pathNote: 'macOS ~/Library/Application Support/Claude/claude_desktop_config.json; Windows %APPDATA%\\Claude\\claude_desktop_config.json; Linux $XDG_CONFIG_HOME/Claude/claude_desktop_config.json (~/.config)',
    entry: plain,
  },
  {
    id: 'vscode',
    label: 'VS Code',
    format: 'jsonc',
    serversKey: 'servers',
    defaultPath: (_env, _platform, cwd) => resolve(cwd, '.vscode', 'mcp.json'),
    pathNote: '.vscode/mcp.json of the current folder (the workspace)',
    entry: (entry) => ({ type: 'stdio', ...plain(entry) }),
  },
  {
    id: 'cursor',
    label: 'Cursor',
    format: 'json',
    serversKey: 'mcpServers',
    defaultPath: (env) => join(home(env), '.cursor', 'mcp.json'),
    pathNote: '~/.cursor/mcp.json (all projects; a project\'s own is .cursor/mcp.json: --config)',
    entry: plain,
  },
  {
    id: 'codex',
    label: 'Codex',
    format: 'toml',
    serversKey: 'mcp_servers',
    defaultPath: (env) => join(env.CODEX_HOME !== undefined && env.CODEX_HOME !== '' ? env.CODEX_HOME : join(home(env), '.codex'), 'config.toml'),
    pathNote: '$CODEX_HOME/config.toml (~/.codex/config.toml)',
    entry: plain,
  },
];

/** The host with this id, if any. */
export function hostById(id: string): HostConfig | undefined {
  return HOSTS.find((host) => host.id === id);
}
