/**
 * What the interop suite runs: two tables of real software, each a set of server rows and client
 * columns. Table "clients": third-party clients against Toolwright's servers. Table "servers":
 * Toolwright's client and CLI against third-party servers. Every server and client is the real
 * package, pinned in package.json; versions are read from the installed packages, so the table
 * names what actually ran.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from './child-process.js';
import type { DriverReport } from './drivers/driver-io.js';
import { robotAuthHeaders } from '../support/robot-token.js';
import { thirdPartyFile } from '../support/test-deps.js';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The installed version of a package of test-deps/third-party (read from its folder: some packages do not export package.json). */
export function installedVersion(name: string): string {
  return (JSON.parse(readFileSync(thirdPartyFile(name, 'package.json'), 'utf8')) as { version: string }).version;
}

/** `node --import tsx <file> ...`, from the repository root. */
function tsxCommand(file: string, args: string[], env?: Record<string, string>): Command {
  return { command: process.execPath, args: ['--import', 'tsx', join(ROOT, file), ...args], cwd: ROOT, ...(env === undefined ? {} : { env }) };
}

/** The tool a row's clients call, and how its answer is judged: a problem, or undefined. */
export interface Probe {
  tool: string;
  arguments: Record<string, unknown>;
  judge(report: DriverReport): string | undefined;
}

/** A server under test. HTTP rows start once and serve every client; stdio rows are spawned per client. */
export interface ServerRow {
  id: string;
  label: string;
  software: string;
  transport: 'http' | 'stdio';
  /** HTTP: how to start it and recognise its URL (group 1 of `ready`, mapped by `toUrl`). */
  http?: { command: Command; ready: RegExp; toUrl: (match: string) => string; headers?: () => Record<string, string> };
  /** stdio: the command a client spawns, made fresh per cell (own audit log, own memory file). */
  stdio?: (cell: string) => Command;
  /**
   * Roots the client offers (server-filesystem without a directory argument): the directories,
   * and the line the server logs on stderr once it has applied them. The server asks for roots by
   * itself after the handshake and applies them asynchronously, so a library driver, which can
   * read the server's stderr, waits for that line before calling. A one-shot CLI cannot wait for
   * it: whether its call sees the roots is a race inside the server, so a CLI is judged by
   * `probeWithoutWaiting` (the call is answered), not by which side of the race it landed on.
   */
  roots?: { dirs: string[]; appliedLog: string; probeWithoutWaiting: Probe };
  probe: Probe;
  /** A note for the table (what the row exercises). */
  note?: string;
}

export interface MatrixOptions {
  /** Scratch directory for audit logs, memory files and the filesystem server's root. */
  scratch: string;
}

function sumIs(expected: number) {
  return (report: DriverReport): string | undefined => {
    const structured = report.structured as { sum?: unknown } | undefined;
    if (report.isError) return `isError true: ${report.text}`;
    if (structured?.sum === expected || report.text.includes(String(expected))) return undefined;
    return `expected sum ${expected}, got text ${JSON.stringify(report.text)} structuredContent ${JSON.stringify(report.structured)}`;
  };
}

/** The needle in the text content, or in the structured content (some clients return only that). */
function textHas(needle: string) {
  return (report: DriverReport): string | undefined => {
    if (report.isError) return `isError true: ${report.text}`;
    if (report.text.includes(needle) || JSON.stringify(report.structured ?? null).includes(needle)) return undefined;
    return `expected text containing ${JSON.stringify(needle)}, got ${JSON.stringify(report.text.slice(0, 300))}`;
  };
}

function listed(tool: string, report: DriverReport): string | undefined {
  return report.tools.includes(tool) ? undefined : `tools/list has no ${tool}: ${report.tools.join(', ') || '(none)'}`;
}

/** Judges a report: the probe's tool listed, and its answer right. */
export function judge(probe: Probe, report: DriverReport): string | undefined {
  return listed(probe.tool, report) ?? probe.judge(report);
}

const ROBOT = 'packages/robot-arm/main.ts';
/**
 * The robot's audit key and head, named: a client may start the server with an environment of its
 * own (no TOOLWRIGHT_STATE_DIR), and they must be outside the log's folder (the scratch folder).
 */
const robotAuditFiles = (scratch: string, name: string): string[] => ['--audit-key', `${scratch}-audit-keys/audit.key`, '--audit-head', `${scratch}-audit-keys/${name}.head`];
const DEMO = 'examples/demo/server.ts';
const CLI = 'src/cli/main.ts';

/** Table "clients": Toolwright's servers, each reached by every third-party client. */
export function ourServers(options: MatrixOptions): ServerRow[] {
  const robotProbe: Probe = { tool: 'get_device_status', arguments: {}, judge: textHas('Universal Robots UR5e') };
  const demoProbe: Probe = { tool: 'calculate_sum', arguments: { a: 2, b: 3 }, judge: sumIs(5) };
  return [
    {
      id: 'robot-http', label: 'robot arm (`npm start`)', software: 'packages/robot-arm', transport: 'http',
      http: { command: tsxCommand(ROBOT, ['--port', '0', '--audit-log', join(options.scratch, 'robot-http.jsonl'), ...robotAuditFiles(options.scratch, 'robot-http')]), ready: /at (http:\/\/127\.0\.0\.1:\d+\/mcp)/, toUrl: (u) => u, headers: () => robotAuthHeaders() },
      probe: robotProbe,
    },
    {
      id: 'robot-stdio', label: 'robot arm `--stdio`', software: 'packages/robot-arm', transport: 'stdio',
      stdio: (cell) => tsxCommand(ROBOT, ['--stdio', '--audit-log', join(options.scratch, `robot-${cell}.jsonl`), ...robotAuditFiles(options.scratch, `robot-${cell}`)]),
      probe: robotProbe,
    },
    {
      id: 'demo-http', label: '`toolwright serve examples/demo/server.ts --http 0`', software: 'toolwright serve', transport: 'http',
      http: { command: tsxCommand(CLI, ['serve', DEMO, '--http', '0']), ready: /at (http:\/\/127\.0\.0\.1:\d+\/mcp)/, toUrl: (u) => u },
      probe: demoProbe,
    },
    {
      id: 'demo-stdio', label: '`toolwright serve examples/demo/server.ts --stdio`', software: 'toolwright serve', transport: 'stdio',
      stdio: () => tsxCommand(CLI, ['serve', DEMO, '--stdio']),
      probe: demoProbe,
    },
  ];
}

/** Table "servers": third-party servers, each reached by Toolwright's client and CLI. */
export function theirServers(options: MatrixOptions): ServerRow[] {
  const everything = thirdPartyFile('@modelcontextprotocol/server-everything', 'dist/index.js');
  const filesystem = thirdPartyFile('@modelcontextprotocol/server-filesystem', 'dist/index.js');
  const memory = thirdPartyFile('@modelcontextprotocol/server-memory', 'dist/index.js');
  const loopback = join(ROOT, 'test/fixtures/interop/loopback-listen.mjs');
  const v1 = 'test/fixtures/interop/sdk-v1-server.ts';
  const v2 = 'test/fixtures/interop/sdk-v2-server.ts';
  const node = (args: string[], env?: Record<string, string>): Command => ({ command: process.execPath, args, cwd: ROOT, ...(env === undefined ? {} : { env }) });
  const echo: Probe = { tool: 'echo', arguments: { message: 'interop' }, judge: textHas('Echo: interop') };
  const add: Probe = { tool: 'add', arguments: { a: 2, b: 3 }, judge: sumIs(5) };
  const files = join(options.scratch, 'files');
  const rootDir = join(options.scratch, 'roots');
  const sdkV1 = `@modelcontextprotocol/sdk ${installedVersion('@modelcontextprotocol/sdk')}`;
  const sdkV2 = `@modelcontextprotocol/server ${installedVersion('@modelcontextprotocol/server')}`;
  const listening = /listening (http:\/\/127\.0\.0\.1:\d+\/mcp)/;
  return [
    {
      id: 'everything-stdio', label: 'server-everything `stdio`', software: `@modelcontextprotocol/server-everything ${installedVersion('@modelcontextprotocol/server-everything')}`, transport: 'stdio',
      stdio: () => node([everything, 'stdio']), probe: echo,
    },
    {
      id: 'everything-http', label: 'server-everything `streamableHttp`', software: `@modelcontextprotocol/server-everything ${installedVersion('@modelcontextprotocol/server-everything')}`, transport: 'http',
      http: { command: node(['--import', loopback, everything, 'streamableHttp'], { PORT: '0' }), ready: /interop-fixture listening (\d+)/, toUrl: (port) => `http://127.0.0.1:${port}/mcp` },
      probe: echo, note: 'stateful: sessions minted at initialize',
    },
    {
      id: 'filesystem-dir', label: 'server-filesystem `<dir>`', software: `@modelcontextprotocol/server-filesystem ${installedVersion('@modelcontextprotocol/server-filesystem')}`, transport: 'stdio',
      stdio: () => node([filesystem, files]), probe: { tool: 'list_allowed_directories', arguments: {}, judge: textHas(files) },
    },
    {
      id: 'filesystem-roots', label: 'server-filesystem (no directory: roots)', software: `@modelcontextprotocol/server-filesystem ${installedVersion('@modelcontextprotocol/server-filesystem')}`, transport: 'stdio',
      stdio: () => node([filesystem]), probe: { tool: 'list_allowed_directories', arguments: {}, judge: textHas(rootDir) },
      roots: {
        dirs: [rootDir], appliedLog: 'Updated allowed directories from MCP roots',
        probeWithoutWaiting: { tool: 'list_allowed_directories', arguments: {}, judge: textHas('Allowed directories:') },
      },
      note: 'the client offers a root; the client library must see it granted; `toolwright call --root` must be answered, and sees the root only if the server applied it in time',
    },
    {
      id: 'memory-stdio', label: 'server-memory', software: `@modelcontextprotocol/server-memory ${installedVersion('@modelcontextprotocol/server-memory')}`, transport: 'stdio',
      stdio: (cell) => node([memory], { MEMORY_FILE_PATH: join(options.scratch, `memory-${cell}.jsonl`) }), probe: { tool: 'read_graph', arguments: {}, judge: textHas('entities') },
    },
    { id: 'sdk-v1-stdio', label: 'SDK v1 server, stdio', software: sdkV1, transport: 'stdio', stdio: () => tsxCommand(v1, ['stdio']), probe: add },
    {
      id: 'sdk-v1-stateful', label: 'SDK v1 server, HTTP with sessions', software: sdkV1, transport: 'http',
      http: { command: tsxCommand(v1, ['stateful']), ready: listening, toUrl: (u) => u }, probe: add,
    },
    {
      id: 'sdk-v1-stateless', label: 'SDK v1 server, stateless HTTP', software: sdkV1, transport: 'http',
      http: { command: tsxCommand(v1, ['stateless']), ready: listening, toUrl: (u) => u }, probe: add,
    },
    { id: 'sdk-v2-stdio', label: 'SDK v2 server, stdio', software: sdkV2, transport: 'stdio', stdio: () => tsxCommand(v2, ['stdio']), probe: add },
    {
      id: 'sdk-v2-http', label: 'SDK v2 server, HTTP (`createMcpHandler`)', software: sdkV2, transport: 'http',
      http: { command: tsxCommand(v2, ['http']), ready: listening, toUrl: (u) => u }, probe: add,
    },
  ];
}
