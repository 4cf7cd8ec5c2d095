import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { createProxyServer, ProxyError } from '../../compose/proxy/index.js';
import type { ProxyServer } from '../../compose/proxy/index.js';
import type { StageEvent } from '../../server/stages/stage-events.js';
import { parseCommandArgs, PROCESS_IO } from '../command-args.js';
import { SERVING_HELP, SERVING_OPTIONS, serveWith } from '../serving.js';
import type { LoadedServer, ServingValues } from '../serving.js';
import { importModule } from '../import-module.js';
import { UsageError } from '../usage-error.js';

/** One line for `toolwright --help`. */
export const summary = 'front other MCP servers and OpenAPI documents, from one configuration, with the local pipeline';

const HELP = `Usage: toolwright proxy --config <proxy.json|proxy.yaml> [--check] [serving options of toolwright serve]

Builds one front server from a proxy configuration (docs/compose.md, "One configuration"): every
upstream MCP server (stdio command or Streamable HTTP URL, either protocol era) proxied under its
prefix, every Toolwright server module mounted in process, every OpenAPI document imported, transforms applied (rename, describe, hide/default/narrow
an argument, filter, require approval), an optional audit log and rate limit; then serves it like
\`toolwright serve\`. Relative paths in the configuration are read from its folder.

Options:
  --config <file>        The proxy configuration: JSON, or YAML when the name ends in .yaml or
                         .yml; checked against its schema; problems are printed as JSON pointers
  --check                Connect, list and check everything, print the tools and problems, exit
${SERVING_HELP}
  -h, --help             Show this help

Exit codes: 0 after a clean shutdown (or a passing --check), 1 when an upstream cannot be reached
or listed, 2 for bad usage or an invalid configuration.`;

function exitCodeFor(error: unknown): number {
  return error instanceof ProxyError && error.code === 'upstream_unavailable' ? 1 : 2;
}

/** Reads and parses the configuration file. */
async function readConfig(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new UsageError(`--config: cannot read ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (/\.ya?ml$/i.test(path)) {
    // One YAML document with unique keys (the package's default), read as plain JSON values: the
    // schema then judges it exactly as it judges the JSON form.
    try {
      return parseYaml(text, { prettyErrors: true, merge: false, maxAliasCount: 100 }) as unknown;
    } catch (error) {
      throw new UsageError(`--config: ${path} is not YAML: ${error instanceof Error ? error.message.split('\n')[0]!.replace(/:$/, '') : String(error)}`);
    }
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new UsageError(`--config: ${path} is not JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Builds the proxy, printing every source's left-out tools to stderr. */
async function build(path: string, onStageEvent?: (event: StageEvent) => void): Promise<ProxyServer> {
  const config = await readConfig(path);
  const proxy = await createProxyServer(config, {
    baseDir: dirname(resolve(path)),
    // Mounted modules load as `toolwright serve` loads its target: TypeScript included.
    importModule: (module) => importModule(module, module),
    ...(onStageEvent !== undefined ? { server: { onStageEvent } } : {}),
  });
  for (const problem of proxy.problems) {
    const what = problem.kind === 'upstream' ? `tool ${JSON.stringify(problem.tool ?? null)}` : problem.operation;
    process.stderr.write(`toolwright: ${problem.kind} ${problem.source}: ${what}: ${problem.code}: ${problem.message}\n`);
  }
  return proxy;
}

/** `toolwright proxy`: see {@link HELP}. */
export async function run(argv: string[]): Promise<number> {
  const parsed = parseCommandArgs('proxy', HELP, argv, { ...SERVING_OPTIONS, config: { type: 'string' }, check: { type: 'boolean' } }, PROCESS_IO);
  if (typeof parsed === 'number') return parsed;
  const values = parsed.values as ServingValues & { config?: string; check?: boolean };
  if (parsed.positionals.length > 0) {
    process.stderr.write(`toolwright proxy: unexpected argument ${JSON.stringify(parsed.positionals[0])} (the configuration is given with --config <file>)\n\n${HELP}\n`);
    return 2;
  }
  if (values.config === undefined) {
    process.stderr.write(`toolwright proxy: --config <file> is required\n\n${HELP}\n`);
    return 2;
  }
  const path = values.config;
  if (values.check === true) {
    let proxy: ProxyServer;
    try {
      proxy = await build(path);
    } catch (error) {
      process.stderr.write(`toolwright proxy: ${error instanceof Error ? error.message : String(error)}\n`);
      return exitCodeFor(error);
    }
    const lines = [`${proxy.server.tools.length} tool(s) of ${proxy.server.name}:`];
    for (const upstream of proxy.upstreams) {
      for (const name of upstream.names) lines.push(`  ${name.local.padEnd(40)} ${upstream.label} (${upstream.era ?? 'era unknown'}): ${name.upstream}`);
    }
    const proxied = new Set(proxy.upstreams.flatMap((u) => u.names.map((n) => n.local)));
    for (const tool of proxy.server.tools) {
      if (proxied.has(tool.name)) continue;
      const mount = proxy.mounts.find((m) => tool.name.startsWith(`${m.prefix}__`));
      lines.push(`  ${tool.name.padEnd(40)} ${mount === undefined ? 'openapi' : `mount ${mount.prefix}: ${mount.module}`}`);
    }
    lines.push(`${proxy.problems.length} problem(s)`);
    process.stdout.write(`${lines.join('\n')}\n`);
    await proxy.close();
    return 0;
  }
  const load = async (onStageEvent?: (event: StageEvent) => void): Promise<LoadedServer> => {
    const proxy = await build(path, onStageEvent);
    // serveWith closes the server; what is left are the upstream connections (stdio children).
    return { server: proxy.server, wrapped: true, close: async () => void (await Promise.all(proxy.upstreams.map((u) => u.close()))) };
  };
  return serveWith('proxy', values, load, exitCodeFor);
}
