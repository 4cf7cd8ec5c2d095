/**
 * THE list of routes: every method the server answers besides `tools/call`, built once from what
 * `createServer` resolved. A method the server does not serve has no route (-32601).
 */
import type { JsonObject } from '../../protocol/json-rpc.js';
import type { ToolDescriptor } from '../../protocol/wire-types.js';
import type { ResolvedServerFeatures } from './server-features.js';
import type { TaskEngine } from '../pipeline/task-engine.js';
import type { RegisteredTool } from '../tools/tool-registry.js';
import { completionComplete } from './completion-complete.js';
import type { FeatureRouteEnv } from './feature-env.js';
import { promptsGet } from './prompts-get.js';
import { promptsList } from './prompts-list.js';
import { resourcesList } from './resources-list.js';
import { resourcesRead } from './resources-read.js';
import { resourcesTemplatesList } from './resources-templates-list.js';
import type { Route } from './route.js';
import { serverDiscover } from './server-discover.js';
import { subscriptionsListen } from './subscriptions-listen.js';
import { tasksCancel } from './tasks-cancel.js';
import { tasksGet } from './tasks-get.js';
import { tasksUpdate } from './tasks-update.js';
import { fixedToolsList, toolsList } from './tools-list.js';
import type { ToolListSettings } from './tools-list.js';

/** What the routes are built from. */
export interface RouteSources {
  /** The `server/discover` result. */
  readonly discover: JsonObject;
  readonly tools: readonly RegisteredTool[];
  /** What `tools/list` shows instead of `tools` (the search surface's two tools), the same to every caller. */
  readonly listed?: readonly Readonly<ToolDescriptor>[] | undefined;
  readonly toolList: ToolListSettings;
  readonly features: ResolvedServerFeatures;
  readonly featureEnv: FeatureRouteEnv;
  /** The tasks extension; undefined when no tool runs as a task. */
  readonly tasks: TaskEngine | undefined;
}

export function buildRoutes(sources: RouteSources): Route[] {
  const { features, featureEnv: env, tasks } = sources;
  const { catalog, views } = features;
  const routes: Route[] = [serverDiscover(sources.discover), sources.listed === undefined ? toolsList(sources.tools, sources.toolList, views) : fixedToolsList(sources.listed, sources.toolList)];
  if (features.servesResources) routes.push(resourcesList(catalog, env, views), resourcesTemplatesList(catalog, env, views), resourcesRead(catalog, env, views));
  if (features.servesPrompts) routes.push(promptsList(catalog, env, views), promptsGet(catalog, env, views));
  if (features.capabilities.completions !== undefined) routes.push(completionComplete(catalog, env, views));
  routes.push(subscriptionsListen(features.hub, features.announced));
  if (tasks !== undefined) routes.push(tasksGet(tasks), tasksUpdate(tasks), tasksCancel(tasks));
  return routes;
}
