/**
 * `createServer`'s options, checked and resolved once into a frozen config: every default chosen,
 * every bad value refused here with a TypeError naming the option, so the wiring
 * (create-server.ts) reads settled values only.
 */
import { META } from '../../protocol/constants.js';
import type { JsonObject } from '../../protocol/json-rpc.js';
import type { Implementation } from '../../protocol/wire-types.js';
import { checkHttpOptions } from '../../transport/http-policy.js';
import type { HttpOptions } from '../../transport/http-policy.js';
import { challengeParamsFor, protectedResourceOf } from '../auth/protected-resource.js';
import { DEFAULT_APPROVER_SCOPE } from '../approvals/approver-trust.js';
import type { ApproverTrust } from '../approvals/approver-trust.js';
import { resolveEras } from '../eras.js';
import type { Era } from '../eras.js';
import { resolveLegacyOptions } from '../legacy/index.js';
import type { Middleware } from '../middleware/middleware.js';
import { resolveMounts } from '../catalog/mount.js';
import type { ResolvedMounts } from '../catalog/mount.js';
import { resolveSearchSurface } from '../search/search-surface.js';
import type { SearchSurface } from '../search/search-surface.js';
import type { ServerLogger } from '../pipeline/create-pipeline.js';
import { RequestStateSigner } from '../approvals/request-state-seal.js';
import { resolveServerFeatures } from '../routes/server-features.js';
import type { ResolvedServerFeatures } from '../routes/server-features.js';
import type { ServerOptions } from './server-options.js';
import { createMemoryStore } from '../store/memory-store.js';
import { getProcessStore } from '../store/process-store.js';
import type { Clock, Store } from '../store/store.js';
import { registerTools } from '../tools/tool-registry.js';
import type { RegisteredTool } from '../tools/tool-registry.js';

/** Everything the server is built from, settled. */
export interface ServerConfig {
  readonly serverInfo: Implementation;
  /** `_meta` on every result: the server's identity. */
  readonly resultMeta: JsonObject;
  /** `ttlMs` and `cacheScope` of list results; tools per `tools/list` page. */
  readonly ttlMs: number;
  readonly cacheScope: 'public' | 'private';
  readonly pageSize: number;
  readonly logger: ServerLogger;
  readonly clock: Clock;
  readonly signer: RequestStateSigner;
  /** How long a pending approval or input request stays valid. */
  readonly approvalTtlMs: number;
  /** Who may approve by elicitation (approver-trust.ts). */
  readonly approverTrust: ApproverTrust;
  readonly store: Store;
  /** The tools, checked, in list order. */
  readonly registered: readonly RegisteredTool[];
  /** Whether the tasks extension is on (a tool declares `task`, or `tasks` was given). */
  readonly hasTasks: boolean;
  readonly features: ResolvedServerFeatures;
  /** The eras served by default, and the 2025 wire's limits. */
  readonly eras: ReadonlySet<Era>;
  readonly legacy: ReturnType<typeof resolveLegacyOptions>;
  /** Streamable HTTP rules, with the protected resource metadata an OAuth authorizer describes. */
  readonly http: HttpOptions;
  /** Every middleware: the server's own `use`, then each tool's (opened when serving starts, closed last). */
  readonly middleware: readonly Middleware[];
  /** The `mount` option resolved (its tools, resources and prompts are already in the catalog above). */
  readonly mounts: ResolvedMounts;
  /** The search surface (`search` option): what `tools/list` shows instead of the catalog, and `search_tools`; undefined when off. */
  readonly search: SearchSurface | undefined;
  /** The `search` option as given, for rebuilding the surface when a mount's tools change. */
  readonly searchOption: ServerOptions['search'];
  /** The `authorize` option (undefined: every caller anonymous) and the `WWW-Authenticate` parameters its refusals carry. */
  readonly authorize: ServerOptions['authorize'];
  readonly resourceMetadataUrl: string | undefined;
  /** The server-wide middleware (`use`), outside each tool's own. */
  readonly use: readonly Middleware[];
  readonly onStageEvent: ServerOptions['onStageEvent'];
  /** `server/discover` and 2025 `initialize` instructions. */
  readonly instructions: string | undefined;
  /** The `tasks` option (the engine's TTLs and limits), `{}` when a tool's `task` turned the extension on. */
  readonly tasks: NonNullable<ServerOptions['tasks']>;
  /** Whether resource update notifications are announced (`resourceUpdates`). */
  readonly resourceUpdates: boolean;
}

const SYSTEM_CLOCK: Clock = { now: () => Date.now() };

const stderrLogger: ServerLogger = {
  error(message, detail) {
    process.stderr.write(`${JSON.stringify({ level: 'error', time: new Date().toISOString(), msg: message, ...detail })}\n`);
  },
};

function nonNegativeInteger(value: number, name: string): number {
  if (!Number.isInteger(value) || value < 0) throw new TypeError(`createServer: ${name} must be a non-negative integer`);
  return value;
}

function positiveInteger(value: number, name: string): number {
  if (!Number.isInteger(value) || value < 1) throw new TypeError(`createServer: ${name} must be a positive integer`);
  return value;
}

/**
 * Checks and resolves `options`.
 * @throws TypeError naming the option; ServerDefinitionError for a bad tool definition.
 */
export function resolveServerConfig(options: ServerOptions): ServerConfig {
  if (typeof options.name !== 'string' || options.name === '') throw new TypeError('createServer: name must be a non-empty string');
  if (typeof options.version !== 'string' || options.version === '') throw new TypeError('createServer: version must be a non-empty string');
  if (options.http !== undefined) checkHttpOptions(options.http);
  const mounts = resolveMounts(options.mount, { tools: options.tools ?? [], resources: options.resources ?? [], prompts: options.prompts ?? [] });
  const registered = registerTools([...(options.tools ?? []), ...mounts.tools], { canAuthorize: options.authorize !== undefined, use: options.use });
  const serverInfo: Implementation = { name: options.name, version: options.version };
  if (options.title !== undefined) serverInfo.title = options.title;
  if (options.description !== undefined) serverInfo.description = options.description;
  if (options.websiteUrl !== undefined) serverInfo.websiteUrl = options.websiteUrl;
  if (options.icons !== undefined) serverInfo.icons = options.icons;
  const ttlMs = nonNegativeInteger(options.listTtlMs ?? 60_000, 'listTtlMs');
  const pageSize = positiveInteger(options.pageSize ?? 100, 'pageSize');
  const approvalTtlMs = positiveInteger(options.approvalTtlMs ?? 10 * 60_000, 'approvalTtlMs');
  const approverScope = options.approverScope ?? DEFAULT_APPROVER_SCOPE;
  if (typeof approverScope !== 'string' || approverScope === '' || /\s/.test(approverScope)) throw new TypeError(`createServer: approverScope must be one scope token (non-empty, no spaces), got ${JSON.stringify(options.approverScope)}`);
  if (options.trustStdioApprover !== undefined && typeof options.trustStdioApprover !== 'boolean') throw new TypeError('createServer: trustStdioApprover must be true or false');
  const approverTrust: ApproverTrust = Object.freeze({ scope: approverScope, trustStdio: options.trustStdioApprover ?? true, challenge: challengeParamsFor(options.authorize, options.resourceMetadataUrl) });
  const clock = options.clock ?? SYSTEM_CLOCK;
  const hasTasks = options.tasks !== undefined || registered.some((t) => t.tool.task !== undefined);
  const logger = options.logger ?? stderrLogger;
  const featureOptions = mounts.sources.length === 0 ? options : {
    ...options,
    resources: options.resources === undefined && mounts.resources.length === 0 ? undefined : [...(options.resources ?? []), ...mounts.resources],
    prompts: options.prompts === undefined && mounts.prompts.length === 0 ? undefined : [...(options.prompts ?? []), ...mounts.prompts],
    // A mounted server's announced changes are forwarded, so this server announces them too.
    listChanged: [...new Set([...(options.listChanged ?? []), ...mounts.listChanged])],
  };
  const features = resolveServerFeatures(featureOptions, { tools: registered, hasTasks, tenantOf: options.tenantOf, logger, canAuthorize: options.authorize !== undefined });
  const search = resolveSearchSurface(options.search, registered, features.views, { canAuthorize: options.authorize !== undefined, use: options.use });
  const eras = resolveEras(options.eras ?? (options.legacyWire === false ? 'modern' : undefined));
  const legacy = resolveLegacyOptions(options.legacy ?? (typeof options.legacyWire === 'object' ? options.legacyWire : undefined));
  // The protected resource an OAuth authorizer describes is served by both HTTP transports (RFC 9728).
  const described = protectedResourceOf(options.authorize);
  const http: HttpOptions = described === undefined ? { ...options.http } : { protectedResourceMetadata: described.metadata, ...options.http };
  return Object.freeze({
    serverInfo,
    resultMeta: Object.freeze({ [META.serverInfo]: serverInfo }),
    ttlMs,
    cacheScope: options.cacheScope ?? 'public',
    pageSize,
    logger,
    clock,
    signer: new RequestStateSigner(options.requestStateSecret, clock),
    approvalTtlMs,
    approverTrust,
    store: options.store ?? getProcessStore() ?? createMemoryStore({ clock: options.clock }),
    registered,
    hasTasks,
    features,
    eras,
    legacy,
    http: Object.freeze(http),
    middleware: Object.freeze([...(options.use ?? []), ...registered.flatMap((r) => r.tool.use)]),
    mounts,
    search,
    searchOption: options.search,
    authorize: options.authorize,
    resourceMetadataUrl: options.resourceMetadataUrl,
    use: Object.freeze([...(options.use ?? [])]),
    onStageEvent: options.onStageEvent,
    instructions: options.instructions,
    tasks: options.tasks ?? {},
    resourceUpdates: options.resourceUpdates === true,
  });
}
