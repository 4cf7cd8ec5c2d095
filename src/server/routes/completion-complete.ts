/**
 * `completion/complete`: argument completions of a prompt or a resource template. A caller lacking
 * one of the referenced entry's `scopes` gets the tools' 403 `insufficient_scope` answer and no
 * completer runs.
 */
import { isJsonObject } from '../../protocol/json-rpc.js';
import { echoText, renderJson } from '../../schema/describe-value.js';
import { toCompletion } from '../features/completion.js';
import type { Completer } from '../features/completion.js';
import { rpcError } from '../outcomes.js';
import { insufficientScope } from '../auth/scope-refusal.js';
import { errorMessage, fail, respond } from '../stages/stage.js';
import type { RequestState, Stop } from '../stages/stage.js';
import { visibleFor } from '../catalog/catalog-view.js';
import type { CatalogViews } from '../catalog/catalog-view.js';
import type { FeatureCatalog, FeatureRouteEnv } from './feature-env.js';
import { badParams } from './route.js';
import type { Route } from './route.js';

export function completionComplete(catalog: FeatureCatalog, env: FeatureRouteEnv, views: CatalogViews): Route {
  const { prompts, templates, resources: fixed } = catalog;
  const { logger } = env;
  async function complete(s: RequestState): Promise<Stop> {
    const { ref, argument, context } = s.params;
    if (!isJsonObject(ref) || typeof ref.type !== 'string') return badParams('Invalid params: completion/complete needs a "ref" object');
    if (!isJsonObject(argument) || typeof argument.name !== 'string' || typeof argument.value !== 'string') {
      return badParams('Invalid params: completion/complete needs "argument" with string "name" and "value"');
    }
    let completer: Completer | undefined;
    // Entries this caller may not see answer as unknown ones.
    const viewer = views.viewerOf(s.auth);
    if (ref.type === 'ref/prompt') {
      const found = typeof ref.name === 'string' ? prompts.get(ref.name) : undefined;
      const prompt = found !== undefined && visibleFor(views, `prompt ${found.name}`, found.visibleTo, viewer) ? found : undefined;
      if (prompt === undefined) return fail(rpcError('unknownPrompt', `Unknown prompt: ${echoText(String(ref.name))}`, { data: { name: ref.name } }));
      const refusal = insufficientScope(`prompt ${prompt.name}`, prompt.scopes, s.auth, s.message.transport, env.challenge);
      if (refusal !== undefined) return fail(refusal);
      completer = prompt.complete[argument.name];
    } else if (ref.type === 'ref/resource') {
      if (typeof ref.uri !== 'string') return badParams('Invalid params: ref/resource needs a string "uri"');
      const matched = templates.find((t) => t.descriptor.uriTemplate === ref.uri);
      const template = matched !== undefined && visibleFor(views, `resource template ${matched.descriptor.uriTemplate}`, matched.visibleTo, viewer) ? matched : undefined;
      const resource = fixed.get(ref.uri);
      const resourceSeen = resource !== undefined && visibleFor(views, `resource ${ref.uri}`, resource.visibleTo, viewer);
      if (template === undefined && !resourceSeen) return fail(rpcError('unknownResource', `Resource not found: ${echoText(String(ref.uri))}`, { data: { uri: ref.uri } }));
      const refusal = template !== undefined
        ? insufficientScope(`resource template ${template.descriptor.uriTemplate}`, template.scopes, s.auth, s.message.transport, env.challenge)
        : insufficientScope(`resource ${ref.uri}`, resource?.scopes ?? [], s.auth, s.message.transport, env.challenge);
      if (refusal !== undefined) return fail(refusal);
      completer = template?.complete[argument.name];
    } else return badParams(`Invalid params: unknown ref type ${renderJson(ref.type)}`);
    let values = { values: [] as string[] } as ReturnType<typeof toCompletion>;
    if (completer !== undefined) {
      const chosen: Record<string, string> = {};
      const given = isJsonObject(context) && isJsonObject(context.arguments) ? context.arguments : {};
      for (const [key, value] of Object.entries(given)) if (typeof value === 'string') chosen[key] = value;
      try {
        values = toCompletion(await completer(argument.value, { arguments: Object.freeze(chosen), signal: s.message.signal }));
      } catch (error) {
        logger.error('completer failed', { ref, argument: argument.name, error: errorMessage(error) });
        return fail(rpcError('featureHandlerFailed', `Internal error: completion of ${argument.name} failed`));
      }
    }
    return respond({ resultType: 'complete', completion: values });
  }
  return { method: 'completion/complete', handle: complete };
}
