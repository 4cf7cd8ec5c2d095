/**
 * `createProxyServer(config)`: one configuration to one front server: every upstream proxied
 * (`toolsFromUpstream`), every OpenAPI document imported (`toolsFromOpenApi`), transforms applied,
 * an optional audit log and rate limit around every call. `toolwright proxy --config` is this
 * plus the serving flags of `toolwright serve`.
 */
import { auditLog, createServer, rateLimit } from '../../server/index.js';
import type { McpServer, Middleware, MountOption, ServerOptions, Tool } from '../../server/index.js';
import { pathToFileURL } from 'node:url';
import { prefixedName } from '../../protocol/prefixed-name.js';
import { deriveTool } from '../../server/index.js';
import { toolsFromOpenApi } from '../openapi/index.js';
import type { ImportProblem } from '../openapi/index.js';
import { transformTools } from '../transforms.js';
import { resolveProxyConfig } from './proxy-config.js';
import type { ResolvedProxyConfig } from './proxy-config.js';
import { ProxyError } from './proxy-error.js';
import { toolsFromUpstream } from './tools-from-upstream.js';
import type { UpstreamTools, UpstreamToolProblem } from './tools-from-upstream.js';

/** Options of {@link createProxyServer} besides the configuration. */
export interface ProxyServerOptions {
  /** Folder relative paths of the configuration are read from (default: the current directory). */
  baseDir?: string;
  /** Where `bearerTokenEnv` names are looked up (default `process.env`). */
  env?: Readonly<Record<string, string | undefined>>;
  /**
   * Loads a module of the configuration's `mounts` (an absolute path) and returns its exports.
   * Default: `import()`, which loads JavaScript; `toolwright proxy` passes one that loads TypeScript too.
   */
  importModule?: (path: string) => Promise<Record<string, unknown>>;
  /** More options for the front's `createServer` (e.g. `authorize`, `onStageEvent`); `name`, `version` and `tools` come from the configuration, `use` is put after its audit and rate limit, `mount` before its mounts. */
  server?: Omit<ServerOptions, 'name' | 'version' | 'tools'>;
}

/** What one source (an upstream or a document) could not carry over. */
export type ProxySourceProblem =
  | ({ source: string; kind: 'upstream' } & UpstreamToolProblem)
  | ({ source: string; kind: 'openapi' } & ImportProblem);

/** A running proxy: the front server and what it fronts. */
export interface ProxyServer {
  server: McpServer;
  /** Each upstream's tools and connection, in configuration order. */
  upstreams: readonly UpstreamTools[];
  /** The server modules mounted in process (`mounts`): prefix and module path. */
  mounts: readonly { readonly prefix: string; readonly module: string }[];
  /** Every tool of every source that was left out, and why. */
  problems: readonly ProxySourceProblem[];
  /** Closes the server and every upstream connection (stdio children are stopped). */
  close(): Promise<void>;
}

/**
 * Builds the front server of a proxy configuration (see `PROXY_CONFIG_SCHEMA`, docs/compose.md
 * "One configuration"): connects to every upstream (in parallel), imports every OpenAPI document,
 * and creates the server. Nothing is left running when it throws.
 * @throws ProxyConfigError for a configuration that breaks its schema or rules (JSON pointers);
 *   ProxyError (`upstream_unavailable`, `name_collision`, ...) naming the upstream; the errors of
 *   `toolsFromOpenApi`, `transformTools` and `createServer` as they are.
 */
export async function createProxyServer(config: unknown, options: ProxyServerOptions = {}): Promise<ProxyServer> {
  const resolved = resolveProxyConfig(config, options.baseDir, options.env);
  const settled = await Promise.allSettled(resolved.upstreams.map((u) => toolsFromUpstream(u.target, u.options)));
  const upstreams = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const closeAll = async (): Promise<void> => void (await Promise.all(upstreams.map((u) => u.close())));
  try {
    const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (failed !== undefined) throw failed.reason;
    const problems: ProxySourceProblem[] = upstreams.flatMap((u) => u.problems.map((p) => ({ source: u.label, kind: 'upstream' as const, ...p })));
    // Upstreams are mounted (their tool lists follow list_changed); their start-time names are checked with the rest here.
    const tools: Tool[] = [];
    for (const entry of resolved.openapi) {
      const imported = await toolsFromOpenApi(entry.document, entry.options);
      problems.push(...imported.problems.map((p) => ({ source: entry.document, kind: 'openapi' as const, ...p })));
      const transformed = transformTools(imported.tools, entry.transforms);
      tools.push(...transformed.map((t) => (entry.prefix === undefined ? t : deriveTool(t, { descriptor: { ...t.descriptor, name: prefixedName(entry.prefix, t.name) } }))));
    }
    const owners = new Map<string, number>();
    for (const [index, tool] of [...upstreams.flatMap((u) => u.tools), ...tools].entries()) {
      if (owners.has(tool.name)) throw new ProxyError('name_collision', `two proxied tools are both named "${tool.name}"; give their sources distinct prefixes or rename one`);
      owners.set(tool.name, index);
    }
    const mounts: MountOption[] = [];
    for (const entry of resolved.mounts) mounts.push(await mountOf(entry, options.importModule ?? importJavaScript));
    const use: Middleware[] = [
      ...(resolved.audit !== undefined ? [auditLog(resolved.audit)] : []),
      ...(resolved.rateLimit !== undefined ? [rateLimit(resolved.rateLimit)] : []),
      ...(options.server?.use ?? []),
    ];
    const mount = [...(options.server?.mount ?? []), ...mounts, ...upstreams.map((u) => u.mount)];
    const server = createServer({ ...options.server, name: resolved.name, version: resolved.version, tools, use, ...(mount.length > 0 ? { mount } : {}) });
    return {
      server,
      upstreams,
      mounts: resolved.mounts.map(({ prefix, module }) => ({ prefix, module })),
      problems,
      close: async () => {
        await server.close();
        await closeAll();
      },
    };
  } catch (error) {
    await closeAll();
    throw error;
  }
}

const importJavaScript = async (path: string): Promise<Record<string, unknown>> => (await import(pathToFileURL(path).href)) as Record<string, unknown>;

/** One entry of the configuration's `mounts`: its module loaded, its default export checked to be a server. */
async function mountOf(entry: ResolvedProxyConfig['mounts'][number], importModule: (path: string) => Promise<Record<string, unknown>>): Promise<MountOption> {
  let namespace: Record<string, unknown>;
  try {
    namespace = await importModule(entry.module);
  } catch (error) {
    throw new ProxyError('invalid_mount', `mount ${entry.prefix}: cannot load ${entry.module}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  const server = namespace['default'];
  if (!isMountable(server)) throw new ProxyError('invalid_mount', `mount ${entry.prefix}: the default export of ${entry.module} is not a Toolwright server; export default createServer(...)`);
  const { transforms } = entry;
  return { prefix: entry.prefix, server, ...(transforms.length > 0 ? { transform: (tools) => transformTools(tools, transforms) } : {}) };
}

function isMountable(value: unknown): value is MountOption['server'] {
  if (typeof value !== 'object' || value === null) return false;
  const { name, mountable } = value as { name?: unknown; mountable?: unknown };
  return typeof name === 'string' && typeof mountable === 'object' && mountable !== null && Array.isArray((mountable as { tools?: unknown }).tools);
}
