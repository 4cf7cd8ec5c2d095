import type { JsonObject } from '../../protocol/json-rpc.js';
import type { ApproverTrust } from '../approvals/approver-trust.js';
import type { CatalogViews } from '../catalog/catalog-view.js';
import type { ServerApprovalQueue } from '../approvals/operator-approvals.js';
import type { RequestStateSigner } from '../approvals/request-state-seal.js';
import type { Store } from '../store/store.js';
import type { StageEvent } from './stage-events.js';
import type { ServerLogger } from '../server-logger.js';
import type { ResolvedTaskPolicy } from '../tasks/task-policy.js';
import type { RegisteredTool } from '../tools/tool-registry.js';
import type { Authorizer } from '../auth/authorizer.js';
import type { ChallengeParams } from '../auth/bearer-challenge.js';
import { challengeParamsFor } from '../auth/protected-resource.js';
import type { AnyState, RequestState, Shaped, Stop } from './stage.js';

export type { Authorizer, AuthorizeRequest } from '../auth/authorizer.js';
export type { ServerLogger } from '../server-logger.js';

/** A route answers one non-`tools/call` method. */
export type MethodRoute = (state: RequestState) => Stop | Promise<Stop>;

/** Everything the pipeline needs, resolved once by createServer. */
export interface PipelineConfig {
  tools: readonly RegisteredTool[];
  /** Who sees which tool (`visibleTo`): a hidden tool is unknown to `find-tool`. */
  views: CatalogViews;
  /** Non-tools/call methods (server/discover, tools/list, ...). */
  routes: ReadonlyMap<string, MethodRoute>;
  /** `_meta` added to every result. */
  resultMeta: JsonObject;
  authorize: Authorizer | undefined;
  resourceMetadataUrl: string | undefined;
  onStageEvent: ((event: StageEvent) => void) | undefined;
  logger: ServerLogger;
  signer: RequestStateSigner;
  approvalTtlMs: number;
  store: Store;
  /** Who may approve by elicitation: the approver scope, and whether stdio is trusted (approver-trust.ts). */
  approverTrust: ApproverTrust;
  /** Calls held open for an operator (`server.approvals`). */
  approvals: ServerApprovalQueue;
  /** The tasks extension; undefined when no tool may run as a task. */
  tasks?: TaskRounds | undefined;
  /** The search surface (`createServer({ search })`); undefined when the catalog is listed. */
  search?: SearchRouting | undefined;
}

/**
 * What the runner and the `task` stage ask of the tasks extension (implemented by
 * pipeline/task-engine.ts). Declared here, where it is used, so that stages do not depend on the
 * engine that resumes them.
 */
export interface TaskRounds {
  /** Makes the call a task: answers the request with `CreateTaskResult` and goes on in the background. */
  start(s: Shaped, env: PipelineEnv, policy: ResolvedTaskPolicy): Promise<Shaped | Stop>;
  /** A round ended in `input_required`: waits for the answers, then resumes from `execute`. */
  nextRound(s: Shaped, stop: Stop & { kind: 'result' }, env: PipelineEnv): Promise<Shaped | Stop>;
  /** Records how a task's run ended. */
  settle(s: AnyState, stop: Stop): void;
}

/** How `find-tool` routes the search surface's two tools (server/search/search-surface.ts). */
export interface SearchRouting {
  /** `search_tools`, served like a tool of the catalog but never found by search or by `call_tool`. */
  readonly searchTool: RegisteredTool;
  /** The name of `call_tool`, whose arguments name the catalog tool to run and its arguments. */
  readonly callTool: string;
}

/** The configuration as the stages read it (derived lookups computed once). */
export interface PipelineEnv extends PipelineConfig {
  toolsByName: ReadonlyMap<string, RegisteredTool>;
  /** What WWW-Authenticate challenges advertise (RFC 9728 metadata URL, the 401's scope). */
  challenge: ChallengeParams;
  /** `JSON.stringify(resultMeta)`, made once: appended to every result's JSON rather than re-serialised. */
  resultMetaJson: string;
}

export function resolveEnv(config: PipelineConfig): PipelineEnv {
  return {
    ...config,
    toolsByName: new Map(config.tools.map((t) => [t.name, t])),
    challenge: challengeParamsFor(config.authorize, config.resourceMetadataUrl),
    resultMetaJson: JSON.stringify(config.resultMeta),
  };
}
