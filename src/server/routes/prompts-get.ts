/**
 * `prompts/get`: a prompt's messages for string arguments; a handler may ask for input like a tool.
 * A caller lacking one of the prompt's `scopes` gets the tools' 403 `insufficient_scope` answer.
 */
import { isJsonObject } from '../../protocol/json-rpc.js';
import type { JsonObject } from '../../protocol/json-rpc.js';
import { ProtocolError } from '../../protocol/protocol-error.js';
import type { PromptMessage } from '../../protocol/feature-wire-types.js';
import { echoText } from '../../schema/describe-value.js';
import { redeemRequestState } from '../approvals/approvals.js';
import { approverOf } from '../approvals/approver-trust.js';
import { createInputFlow } from '../approvals/input-flow.js';
import { rpcError } from '../outcomes.js';
import type { PromptContext } from '../features/prompts.js';
import { insufficientScope } from '../auth/scope-refusal.js';
import { errorMessage, fail, respond } from '../stages/stage.js';
import type { RequestState, Stop } from '../stages/stage.js';
import { visibleFor } from '../catalog/catalog-view.js';
import type { CatalogViews } from '../catalog/catalog-view.js';
import type { FeatureCatalog, FeatureRouteEnv } from './feature-env.js';
import { inputRequiredStop } from './feature-input-required.js';
import { badParams } from './route.js';
import type { Route } from './route.js';

function isPromptMessage(value: unknown): value is PromptMessage {
  return isJsonObject(value) && (value.role === 'user' || value.role === 'assistant') && isJsonObject(value.content) && typeof value.content.type === 'string';
}

export function promptsGet(catalog: FeatureCatalog, env: FeatureRouteEnv, views: CatalogViews): Route {
  const { prompts } = catalog;
  const { logger } = env;
  async function getPrompt(s: RequestState): Promise<Stop> {
    const { name, arguments: rawArgs, inputResponses, requestState } = s.params;
    if (typeof name !== 'string') return badParams('Invalid params: prompts/get needs a string "name"');
    const found = prompts.get(name);
    // A prompt this caller may not see answers exactly as an unknown name.
    const prompt = found !== undefined && visibleFor(views, `prompt ${name}`, found.visibleTo, views.viewerOf(s.auth)) ? found : undefined;
    if (prompt === undefined) return fail(rpcError('unknownPrompt', `Unknown prompt: ${echoText(name)}`, { data: { name } }));
    // A caller lacking a scope of the prompt is refused before its arguments are read.
    const refusal = insufficientScope(`prompt ${name}`, prompt.scopes, s.auth, s.message.transport, env.challenge);
    if (refusal !== undefined) return fail(refusal);
    const args: Record<string, string> = {};
    if (rawArgs !== undefined) {
      if (!isJsonObject(rawArgs)) return badParams('Invalid params: prompts/get arguments must be an object of strings');
      for (const [key, value] of Object.entries(rawArgs)) {
        if (typeof value !== 'string') return badParams(`Invalid params: prompt argument ${echoText(key)} must be a string`);
        args[key] = value;
      }
    }
    const missing = prompt.required.filter((arg) => args[arg] === undefined);
    if (missing.length > 0) return badParams(`Invalid params: prompt ${name} is missing required argument${missing.length === 1 ? '' : 's'} ${missing.join(', ')}`);
    if (inputResponses !== undefined && !isJsonObject(inputResponses)) return badParams('Invalid params: inputResponses must be an object');
    if (requestState !== undefined && typeof requestState !== 'string') return badParams('Invalid params: requestState must be a string');
    const caller = s.auth?.subject ?? '';
    const client = s.auth?.clientId ?? '';
    const redemption = await redeemRequestState(env.signer, env.store, { call: `prompts/get ${name}`, args, sub: caller, client }, requestState);
    if (!redemption.ok) return fail(redemption.error);
    const inputs = createInputFlow({
      signer: env.signer,
      call: `prompts/get ${name}`,
      args,
      caller,
      client,
      capabilities: s.capabilities,
      inputResponses,
      requestState,
      ttlMs: env.inputTtlMs,
      redeemed: () => redemption.record,
      epoch: () => env.store.epoch(),
      claimAhead: false,
      approver: approverOf(env.approverTrust, s.message.transport, s.auth, `prompts/get ${name}`),
    });
    const ctx: PromptContext = { signal: s.message.signal, clientCapabilities: s.capabilities, auth: s.auth, requestMeta: s.meta, promptName: name, inputs };
    let value: unknown;
    try {
      value = await prompt.get(Object.freeze(args), ctx);
    } catch (error) {
      if (error instanceof ProtocolError) return fail(error);
      if (s.message.signal.aborted) return { kind: 'cancelled' };
      logger.error('prompt get failed', { prompt: name, error: errorMessage(error) });
      return fail(rpcError('featureHandlerFailed', `Internal error: prompt ${name} failed`));
    }
    if (isJsonObject(value) && value.resultType === 'input_required') return inputRequiredStop(s, `prompt ${name}`, value);
    const body = Array.isArray(value) ? { messages: value } : value;
    if (!isJsonObject(body) || !Array.isArray(body.messages) || !body.messages.every(isPromptMessage)) {
      logger.error('prompt get returned malformed messages', { prompt: name });
      return fail(rpcError('featureHandlerFailed', `Internal error: prompt ${name} returned malformed messages`));
    }
    const result: JsonObject = { resultType: 'complete' };
    if (typeof body.description === 'string') result.description = body.description;
    result.messages = body.messages;
    if (isJsonObject(body._meta)) result._meta = body._meta;
    return respond(result);
  }
  return { method: 'prompts/get', handle: getPrompt };
}
