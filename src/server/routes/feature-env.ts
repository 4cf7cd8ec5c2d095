/**
 * What the feature routes (resources, prompts, completion, subscriptions) share, resolved once by
 * `createServer` from its options (server-features.ts): the catalogs and the settings their
 * handlers need.
 */
import type { ApproverTrust } from '../approvals/approver-trust.js';
import type { ChallengeParams } from '../auth/bearer-challenge.js';
import type { RequestStateSigner } from '../approvals/request-state-seal.js';
import type { Prompt } from '../features/prompts.js';
import type { Resource, ResourceTemplate } from '../features/resources.js';
import type { ServerLogger } from '../stages/pipeline-env.js';
import type { Store } from '../store/store.js';

/** The resources, templates and prompts of a server, checked and indexed once. */
export interface FeatureCatalog {
  /** Fixed resources by URI. */
  readonly resources: ReadonlyMap<string, Resource>;
  readonly templates: readonly ResourceTemplate[];
  readonly prompts: ReadonlyMap<string, Prompt>;
}

/** Settings the feature routes read. */
export interface FeatureRouteEnv {
  readonly ttlMs: number;
  readonly cacheScope: 'public' | 'private';
  readonly signer: RequestStateSigner;
  readonly store: Store;
  /** How long a sealed input request stays valid. */
  readonly inputTtlMs: number;
  /** What the 403 `insufficient_scope` challenge of a scoped entry advertises (as tools' `authorize` stage). */
  readonly challenge: ChallengeParams;
  /** Who may approve by elicitation (approver-trust.ts). */
  readonly approverTrust: ApproverTrust;
  readonly logger: ServerLogger;
}
