/**
 * The one route list: which methods a server answers besides tools/call, by what it was given,
 * and the route table refusing a method listed twice.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { definePrompt, defineResource } from '../../src/index.js';
import { createMemoryStore } from '../../src/server/store/memory-store.js';
import { RequestStateSigner } from '../../src/server/approvals/request-state-seal.js';
import { buildRoutes } from '../../src/server/routes/route-list.js';
import { routeTable } from '../../src/server/routes/route.js';
import { resolveServerFeatures } from '../../src/server/routes/server-features.js';
import type { ServerFeatureOptions } from '../../src/server/routes/server-features.js';
import { TaskEngine } from '../../src/server/pipeline/task-engine.js';

const store = createMemoryStore();
const logger = { error: () => undefined };

function methods(options: ServerFeatureOptions, withTasks = false): string[] {
  const features = resolveServerFeatures(options, { tools: [], hasTasks: withTasks, tenantOf: undefined, logger, canAuthorize: false });
  const tasks = withTasks ? new TaskEngine({}, { store, clock: { now: () => Date.now() }, logger, onChange: () => undefined }) : undefined;
  const routes = buildRoutes({
    discover: { resultType: 'complete' },
    tools: [],
    toolList: { pageSize: 10, ttlMs: 0, cacheScope: 'public', resultMeta: {} },
    features,
    featureEnv: { ttlMs: 0, cacheScope: 'public', signer: new RequestStateSigner('0123456789abcdef0123'), store, inputTtlMs: 1000, challenge: { resourceMetadataUrl: undefined, scopes: [] }, approverTrust: { scope: 'toolwright:approve', trustStdio: true, challenge: { resourceMetadataUrl: undefined, scopes: [] } }, logger },
    tasks,
  });
  void tasks?.close();
  return routes.map((r) => r.method);
}

describe('buildRoutes', () => {
  it('a tools-only server answers discover, tools/list and subscriptions/listen', () => {
    assert.deepEqual(methods({}), ['server/discover', 'tools/list', 'subscriptions/listen']);
  });

  it('resources and prompts bring their lists, reads and completion', () => {
    const resource = defineResource({ uri: 'mem://a', name: 'a', read: () => 'x' });
    const prompt = definePrompt({ name: 'p', get: () => [] });
    assert.deepEqual(methods({ resources: [resource], prompts: [prompt] }), [
      'server/discover', 'tools/list',
      'resources/list', 'resources/templates/list', 'resources/read',
      'prompts/list', 'prompts/get', 'completion/complete',
      'subscriptions/listen',
    ]);
  });

  it('an empty resources list still serves the resource methods, without completion', () => {
    assert.deepEqual(methods({ resources: [] }), ['server/discover', 'tools/list', 'resources/list', 'resources/templates/list', 'resources/read', 'subscriptions/listen']);
  });

  it('the tasks extension brings tasks/get, tasks/update and tasks/cancel', () => {
    assert.deepEqual(methods({}, true).slice(-3), ['tasks/get', 'tasks/update', 'tasks/cancel']);
  });
});

describe('routeTable', () => {
  it('refuses a method listed twice', () => {
    const handle = () => ({ kind: 'accepted' as const });
    assert.throws(() => routeTable([{ method: 'tools/list', handle }, { method: 'tools/list', handle }]), /route tools\/list is listed twice/);
  });
});
