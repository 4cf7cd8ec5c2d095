/**
 * `resources/read`: a fixed resource by URI, else the first template that matches and reads a
 * value. A handler may ask for input (`ctx.inputs`, sealed `requestState`) like a tool. A caller
 * lacking a `scopes` entry of the resource (or of a matching template, before it reads) gets the
 * tools' 403 `insufficient_scope` answer and nothing of that entry runs.
 */
import { isJsonObject } from '../../protocol/json-rpc.js';
import { ProtocolError } from '../../protocol/protocol-error.js';
import { echoText } from '../../schema/describe-value.js';
import { redeemRequestState } from '../approvals/approvals.js';
import { approverOf } from '../approvals/approver-trust.js';
import { createInputFlow } from '../approvals/input-flow.js';
import type { InputFlow } from '../approvals/input-flow.js';
import { rpcError } from '../outcomes.js';
import { toResourceContents } from '../features/resources.js';
import type { Resource, ResourceContext, ResourceTemplate } from '../features/resources.js';
import { insufficientScope } from '../auth/scope-refusal.js';
import { errorMessage, fail, respond } from '../stages/stage.js';
import type { RequestState, Stop } from '../stages/stage.js';
import { visibleFor } from '../catalog/catalog-view.js';
import type { CatalogViews } from '../catalog/catalog-view.js';
import type { FeatureCatalog, FeatureRouteEnv } from './feature-env.js';
import { inputRequiredStop } from './feature-input-required.js';
import { badParams } from './route.js';
import type { Route } from './route.js';

export function resourcesRead(catalog: FeatureCatalog, env: FeatureRouteEnv, views: CatalogViews): Route {
  const { resources: fixed, templates } = catalog;
  const { logger, cacheScope } = env;
  async function readResource(s: RequestState): Promise<Stop> {
    const { uri, inputResponses, requestState } = s.params;
    if (typeof uri !== 'string' || uri === '') return badParams('Invalid params: resources/read needs a string "uri"');
    if (inputResponses !== undefined && !isJsonObject(inputResponses)) return badParams('Invalid params: inputResponses must be an object');
    if (requestState !== undefined && typeof requestState !== 'string') return badParams('Invalid params: requestState must be a string');
    // A resource or template this caller may not see is skipped, so the answer is that of an unknown URI.
    const viewer = views.viewerOf(s.auth);
    const found = fixed.get(uri);
    const resource = found !== undefined && visibleFor(views, `resource ${uri}`, found.visibleTo, viewer) ? found : undefined;
    const matches: { readonly template: ResourceTemplate; readonly variables: Readonly<Record<string, string>> }[] = [];
    if (resource === undefined) {
      for (const template of templates) {
        const variables = template.template.match(uri);
        if (variables !== undefined && visibleFor(views, `resource template ${template.descriptor.uriTemplate}`, template.visibleTo, viewer)) matches.push({ template, variables: Object.freeze(variables) });
      }
    }
    // A caller lacking a scope of the entry that reads first is refused before anything else (requestState included).
    const scopeRefusal = (entry: Resource | ResourceTemplate): Stop | undefined => {
      const what = entry.kind === 'resource' ? `resource ${entry.descriptor.uri}` : `resource template ${entry.descriptor.uriTemplate}`;
      const refusal = insufficientScope(what, entry.scopes, s.auth, s.message.transport, env.challenge);
      return refusal === undefined ? undefined : fail(refusal);
    };
    const first = resource ?? matches[0]?.template;
    const refusedFirst = first === undefined ? undefined : scopeRefusal(first);
    if (refusedFirst !== undefined) return refusedFirst;
    const caller = s.auth?.subject ?? '';
    const client = s.auth?.clientId ?? '';
    const redemption = await redeemRequestState(env.signer, env.store, { call: `resources/read ${uri}`, args: {}, sub: caller, client }, requestState);
    if (!redemption.ok) return fail(redemption.error);
    let inputs: InputFlow | undefined;
    const ctx: ResourceContext = {
      signal: s.message.signal,
      clientCapabilities: s.capabilities,
      auth: s.auth,
      requestMeta: s.meta,
      get inputs(): InputFlow {
        return (inputs ??= createInputFlow({
          signer: env.signer, call: `resources/read ${uri}`, args: {}, caller, client,
          capabilities: s.capabilities, inputResponses, requestState, ttlMs: env.inputTtlMs, redeemed: () => redemption.record,
          epoch: () => env.store.epoch(), claimAhead: false, approver: approverOf(env.approverTrust, s.message.transport, s.auth, `resources/read ${uri}`),
        }));
      },
    };
    let value: unknown;
    let caching = resource?.caching;
    let mimeType = resource?.descriptor.mimeType;
    try {
      if (resource !== undefined) value = await resource.read(ctx);
      else {
        for (const { template, variables } of matches) {
          // A later template (an earlier one found nothing at this URI) is checked before it reads too.
          const refused = scopeRefusal(template);
          if (refused !== undefined) return refused;
          value = await template.read(uri, variables, ctx);
          if (value === undefined) continue;
          caching = template.caching;
          mimeType = template.descriptor.mimeType;
          break;
        }
      }
    } catch (error) {
      if (error instanceof ProtocolError) return fail(error);
      if (s.message.signal.aborted) return { kind: 'cancelled' };
      logger.error('resource read failed', { uri, error: errorMessage(error) });
      return fail(rpcError('featureHandlerFailed', `Internal error: reading ${uri} failed`));
    }
    if (value === undefined || caching === undefined) return fail(rpcError('unknownResource', `Resource not found: ${echoText(uri)}`, { data: { uri } }));
    if (isJsonObject(value) && value.resultType === 'input_required') return inputRequiredStop(s, `resource ${uri}`, value);
    let contents;
    try {
      contents = toResourceContents(value, uri, mimeType);
    } catch (error) {
      logger.error('resource read returned malformed contents', { uri, error: errorMessage(error) });
      return fail(rpcError('featureHandlerFailed', `Internal error: reading ${uri} produced malformed contents`));
    }
    return respond({ resultType: 'complete', contents, ttlMs: caching.ttlMs ?? 0, cacheScope: caching.cacheScope ?? cacheScope });
  }
  return { method: 'resources/read', handle: readResource };
}
