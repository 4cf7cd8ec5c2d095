import { basename, extname, resolve } from 'node:path';
import { createServer } from '../../server/create-server.js';
import type { McpServer } from '../../server/create-server.js';
import { isTool } from '../../server/tools/define-tool.js';
import { ServerDefinitionError } from '../../server/tools/tool-registry.js';
import type { Tool } from '../../server/contract/tool-types.js';
import { parseCommandArgs, PROCESS_IO } from '../command-args.js';
import { importModule, ModuleImportError } from '../import-module.js';
import { UsageError } from '../usage-error.js';
import { SERVING_HELP, SERVING_OPTIONS, serveWith } from '../serving.js';
import type { LoadedServer, ServingValues } from '../serving.js';
import type { StageEvent } from '../../server/stages/stage-events.js';

export const summary = 'serve a module\'s tools over MCP (Streamable HTTP and/or stdio)';

const HELP = `Usage: toolwright serve <module> [--http <port> [--host <addr>] [--path </mcp>]] [--stdio] [--eras <list>] [--store <url>] [--search]

Serves the module's default export: a server from createServer() or an array of tools from defineTool().

Options:
${SERVING_HELP}
  --search               list search_tools and call_tool instead of the catalog (a module exporting
                         tools; a server of its own sets createServer({ search }); docs/compose.md)
  -h, --help             Show this help

Logs go to stderr. With --stdio the process exits when stdin closes.`;

function isServer(value: unknown): value is McpServer {
  return typeof value === 'object' && value !== null && typeof (value as McpServer).handleMessage === 'function' && typeof (value as McpServer).listen === 'function';
}

/** `wrapped`: the module exported tools and this command built the server (with `onStageEvent`). */
async function loadServer(modulePath: string, search: boolean, onStageEvent?: (event: StageEvent) => void): Promise<LoadedServer> {
  const path = resolve(modulePath);
  let namespace: Record<string, unknown>;
  try {
    namespace = await importModule(path, modulePath);
  } catch (error) {
    if (!(error instanceof ModuleImportError)) throw error;
    if (error.cause instanceof ServerDefinitionError) throw error.cause;
    throw new UsageError(error.kind === 'no-loader' ? error.message : `cannot load ${modulePath}: ${error.message}`);
  }
  const exported = namespace.default;
  if (isServer(exported)) {
    if (search) throw new UsageError(`${modulePath} exports a server: --search only wraps an array of tools; give the server createServer({ search: true }) instead`);
    return { server: exported, wrapped: false };
  }
  if (Array.isArray(exported)) {
    const notTools = exported.map((t, i) => (isTool(t) ? -1 : i)).filter((i) => i >= 0);
    if (notTools.length > 0) throw new UsageError(`${modulePath}: default export item(s) ${notTools.join(', ')} are not tools from defineTool()`);
    const server = createServer({ name: basename(path, extname(path)), version: '0.0.0', tools: exported as Tool<unknown>[], ...(search ? { search: true } : {}), ...(onStageEvent !== undefined ? { onStageEvent } : {}) });
    return { server, wrapped: true };
  }
  throw new UsageError(`${modulePath}: the default export must be a server from createServer() or an array of tools from defineTool()${exported === undefined ? ' (there is no default export)' : ''}`);
}

/** `toolwright serve`: exit code 0 after a clean shutdown, 1 for an invalid server, 2 for bad usage. */
export async function run(argv: string[]): Promise<number> {
  const parsed = parseCommandArgs('serve', HELP, argv, { ...SERVING_OPTIONS, search: { type: 'boolean', default: false } }, PROCESS_IO);
  if (typeof parsed === 'number') return parsed;
  const positionals = parsed.positionals;
  const { search, ...serving } = parsed.values;
  const values = serving as ServingValues;
  if (positionals.length !== 1) {
    process.stderr.write(`toolwright serve: expected exactly one module, got ${positionals.length}\n\n${HELP}\n`);
    return 2;
  }
  return serveWith('serve', values, (onStageEvent) => loadServer(positionals[0] as string, search === true, onStageEvent), (error) => (error instanceof ServerDefinitionError ? 1 : 2));
}
