/** The options of `createServer` (resolved once into a frozen config by server-config.ts). */
import type { TenantOf } from '../catalog/catalog-view.js';
import type { Implementation } from '../../protocol/wire-types.js';
import type { HttpOptions } from '../../transport/http-policy.js';
import type { ErasSetting } from '../eras.js';
import type { LegacyWireOptions } from '../legacy/index.js';
import type { Middleware } from '../middleware/middleware.js';
import type { MountOption } from '../catalog/mount.js';
import type { SearchOptions } from '../search/search-options.js';
import type { Authorizer, ServerLogger } from '../pipeline/create-pipeline.js';
import type { ServerFeatureOptions } from '../routes/server-features.js';
import type { StageEvent } from '../stages/stage-events.js';
import type { Clock, Store } from '../store/store.js';
import type { TaskOptions } from '../pipeline/task-engine.js';
import type { Tool } from '../contract/tool-types.js';

/** Options of {@link createServer}: the server's identity (`serverInfo`), its catalog and its policies. */
export interface ServerOptions extends Implementation, ServerFeatureOptions {
  /** Tools created with `defineTool`. Checked here (any problem throws ServerDefinitionError); validators are built on first use or in the background once serving. */
  tools: readonly Tool<unknown>[];
  /**
   * Other Toolwright servers served by this one, in process (docs/compose.md): their tools and prompts
   * under `<prefix>__<name>`, their resources under their own URIs. Calls to mounted tools run this
   * server's whole pipeline (its `authorize`, views, approval, `use`, store) and then the mounted
   * tool's handlers; the mounted server's own server-wide options do not apply. A collision, a bad
   * prefix or a name the prefix makes invalid throws `MountError` here.
   */
  mount?: readonly MountOption[];
  /**
   * Serve the catalog through search (docs/compose.md, "Large catalogs: search"): `tools/list` shows
   * two tools, `search_tools` (ranked full definitions within a token budget) and `call_tool
   * {name, arguments}` (runs the named tool through this server's whole pipeline, exactly as a
   * direct call). Both respect the caller's view. `true` takes the defaults.
   */
  search?: SearchOptions | boolean;
  /** Guidance for the model, returned by `server/discover`. */
  instructions?: string;
  /**
   * Authenticates each request (bearer tokens on HTTP, e.g. verified with jose; environment on
   * stdio). Return null to refuse (HTTP 401). Required when any tool declares `scopes`.
   */
  authorize?: Authorizer;
  /**
   * RFC 9728 metadata URL advertised in `WWW-Authenticate` challenges (default: the one of the
   * resource `authorize` describes, e.g. `jwtAuthorizer({ resource })`, which `listen()` and
   * `fetch()` then serve).
   */
  resourceMetadataUrl?: string;
  /** Receives one event per pipeline stage per request (audit logs, inspectors). */
  onStageEvent?: (event: StageEvent) => void;
  /** Where server faults are reported (default: JSON lines on stderr). */
  logger?: ServerLogger;
  /** Tools per `tools/list` page (default 100). */
  pageSize?: number;
  /** `ttlMs` of `tools/list` and `server/discover` results (default 60000). */
  listTtlMs?: number;
  /**
   * `cacheScope` of list results (default "public"). A list where some entry declares `visibleTo`
   * differs per caller and is always `private`, whatever this says.
   */
  cacheScope?: 'public' | 'private';
  /**
   * The caller's tenant, as `visibleTo` predicates see it (`viewer.tenant`). Default: a string
   * `tenant` in `auth.extra` (e.g. a claim the authorizer verified), else undefined. A throw counts
   * as no tenant (logged once).
   */
  tenantOf?: TenantOf;
  /**
   * HMAC key (16+ bytes) sealing `requestState` of approvals and `ctx.inputs`. Default: env
   * `TOOLWRIGHT_STATE_SECRET`, else random per process. Several instances behind one endpoint need
   * the same secret and one shared `store`.
   */
  requestStateSecret?: string | Uint8Array;
  /** How long a pending approval or input request stays valid (default 10 minutes). */
  approvalTtlMs?: number;
  /**
   * The scope a caller must hold (granted by `authorize`) for its own elicitation answer to approve a
   * call (default `DEFAULT_APPROVER_SCOPE`, `toolwright:approve`). A caller without it never
   * approves by elicitation: an `approver: 'either'` call goes to the operator, an `'elicitation'`
   * one is refused with 403 `insufficient_scope` naming the scope. Over HTTP without `authorize`
   * nobody holds it.
   */
  approverScope?: string;
  /**
   * Whether the stdio client (the host that launched this process) and the in-process operator
   * console approve by elicitation without the approver scope (default true).
   */
  trustStdioApprover?: boolean;
  /**
   * Memory shared across requests: single-use approvals, rate limits (default: an in-memory store
   * for this process, or the one given by `toolwright serve --store`). Several instances behind one
   * endpoint need one shared store, e.g. `createRedisStore({ url })`.
   */
  store?: Store;
  /** Middleware around every tools/call (outside each tool's own `use`); see `Middleware`. */
  use?: readonly Middleware[];
  /**
   * The tasks extension (`io.modelcontextprotocol/tasks`): TTL, poll interval, bounds. It is on, and
   * advertised, when any tool declares `task` (or when this option is given). Records live in `store`.
   */
  tasks?: TaskOptions;
  /** Time source of approvals and the default store (inject one in tests; default `Date`). */
  clock?: Clock;
  /** Streamable HTTP rules for `fetch()` (and defaults for `listen()`). */
  http?: HttpOptions;
  /**
   * Protocol eras served (digest §1.4), default both: 2026-07-28 requests statelessly, and 2025
   * clients (`initialize`; revisions 2025-03-26, 2025-06-18, 2025-11-25) as sessions on HTTP and
   * per process on stdio. E.g. `'modern'`, `'legacy'`, `['2026-07-28', '2025']`.
   * `listen({ eras })` and `stdio({ eras })` override it per transport.
   */
  eras?: ErasSetting;
  /** Limits of the legacy (2025) wire: sessions, idle timeout, input timeouts and rounds, batch size (2025-03-26), replay buffer per stream (`Last-Event-ID`). */
  legacy?: LegacyWireOptions;
  /**
   * @deprecated Both eras are served by default; use `eras` and `legacy`. `false` means
   * `eras: 'modern'`; an options object means `legacy: options`; `true` changes nothing.
   */
  legacyWire?: boolean | LegacyWireOptions;
}

/** Per-transport choice of eras (`listen({ eras })`, `stdio({ eras })`); default: the server's `eras`. */
export interface EraChoice {
  eras?: ErasSetting;
}
