/**
 * Everything a server offers besides tools: resources, prompts, completion and subscriptions.
 * `createServer` resolves these options once into method routes and capabilities.
 */
import { echoText, renderJson } from '../schema/describe-value.js';
import { isJsonObject } from '../protocol/json-rpc.js';
import type { JsonObject } from '../protocol/json-rpc.js';
import { ProtocolError } from '../protocol/protocol-error.js';
import { META } from '../protocol/constants.js';
import type { InputRequest, ServerCapabilities } from '../protocol/wire-types.js';
import type { PromptMessage } from '../protocol/feature-wire-types.js';
import type { MethodRoute, RequestState, ServerLogger, Stop } from './pipeline/create-pipeline.js';
import { toCompletion } from './completion.js';
import type { Completer } from './completion.js';
import { redeemRequestState } from './approvals.js';
import { capabilityFor, createInputFlow } from './input-flow.js';
import type { Store } from './store/store.js';
import type { InputFlow } from './input-flow.js';
import { rpcError } from './outcomes.js';
import type { Prompt, PromptContext } from './prompts.js';
import type { RequestStateSigner } from './request-state.js';
import { toResourceContents } from './resources.js';
import type { Resource, ResourceContext, ResourceTemplate } from './resources.js';
import { acceptFilter, SubscriptionHub } from './subscriptions.js';
import type { ListChangedKind } from './subscriptions.js';

/** Server options for resources, prompts and change notifications (part of `ServerOptions`). */
export interface ServerFeatureOptions {
  /** Resources and resource templates (`defineResource`, `defineResourceTemplate`). */
  resources?: readonly (Resource | ResourceTemplate)[];
  /** Prompts (`definePrompt`). */
  prompts?: readonly Prompt[];
  /**
   * Lists whose changes this server announces with `server.notifyListChanged()`; declared as
   * `listChanged: true` and delivered on `subscriptions/listen` streams that opt in.
   */
  listChanged?: readonly ListChangedKind[];
  /** Declare `resources.subscribe`: the server calls `server.notifyResourceUpdated(uri)`. */
  resourceUpdates?: boolean;
}

/** What createServer gets back. */
export interface ResolvedServerFeatures {
  routes: Map<string, MethodRoute>;
  capabilities: ServerCapabilities;
  hub: SubscriptionHub;
}

/** Shared settings the features need from createServer. */
export interface FeatureEnvironment {
  ttlMs: number;
  cacheScope: 'public' | 'private';
  signer: RequestStateSigner;
  store: Store;
  inputTtlMs: number;
  logger: ServerLogger;
  /** Whether the server has any tools (for the tools capability's listChanged flag). */
  hasTools: boolean;
  /** Whether the server runs tasks (subscriptions then accept `taskIds`). */
  hasTasks?: boolean;
}

const LIST_KINDS: readonly ListChangedKind[] = ['tools', 'prompts', 'resources'];

function respond(result: JsonObject): Stop {
  return { kind: 'result', outcome: 'respond', result };
}

function fail(error: ProtocolError): Stop {
  return { kind: 'error', error };
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function badParams(message: string): Stop {
  return fail(rpcError('invalidFeatureParams', message));
}

/** A list route that serves one fixed page; any cursor is one this server never issued. */
function singlePage(page: JsonObject): MethodRoute {
  const stop = respond(page);
  return (s) => (s.params.cursor === undefined ? stop : fail(rpcError('invalidCursor', 'Invalid cursor')));
}

function isPromptMessage(value: unknown): value is PromptMessage {
  return isJsonObject(value) && (value.role === 'user' || value.role === 'assistant') && isJsonObject(value.content) && typeof value.content.type === 'string';
}

/**
 * Validates `options` and builds the routes and capabilities.
 * @throws TypeError on duplicate URIs/names or entries that were not made by the define* helpers.
 */
export function resolveServerFeatures(options: ServerFeatureOptions, env: FeatureEnvironment): ResolvedServerFeatures {
  const routes = new Map<string, MethodRoute>();
  const capabilities: ServerCapabilities = {};
  const listChanged = new Set<ListChangedKind>();
  for (const kind of options.listChanged ?? []) {
    if (!LIST_KINDS.includes(kind)) throw new TypeError(`createServer: listChanged entries must be one of ${LIST_KINDS.join(', ')}, got ${JSON.stringify(kind)}`);
    listChanged.add(kind);
  }
  const hub = new SubscriptionHub();
  const support = { listChanged, resourceUpdates: options.resourceUpdates === true, tasks: env.hasTasks === true };
  const { ttlMs, cacheScope, logger } = env;

  if (env.hasTools || listChanged.has('tools')) capabilities.tools = listChanged.has('tools') ? { listChanged: true } : {};

  // ---- resources ----
  const fixed = new Map<string, Resource>();
  const templates: ResourceTemplate[] = [];
  if (options.resources !== undefined) {
    for (const [index, entry] of options.resources.entries()) {
      if (entry?.kind === 'resource') {
        if (fixed.has(entry.descriptor.uri)) throw new TypeError(`createServer: resource ${entry.descriptor.uri} is defined twice`);
        fixed.set(entry.descriptor.uri, entry);
      } else if (entry?.kind === 'resource-template') {
        if (templates.some((t) => t.descriptor.uriTemplate === entry.descriptor.uriTemplate)) throw new TypeError(`createServer: resource template ${entry.descriptor.uriTemplate} is defined twice`);
        templates.push(entry);
      } else throw new TypeError(`createServer: resources[${index}] was not made by defineResource() or defineResourceTemplate()`);
    }
    capabilities.resources = {};
    if (listChanged.has('resources')) capabilities.resources.listChanged = true;
    if (support.resourceUpdates) capabilities.resources.subscribe = true;
    routes.set('resources/list', singlePage({ resultType: 'complete', resources: [...fixed.values()].map((r) => r.descriptor), ttlMs, cacheScope }));
    routes.set('resources/templates/list', singlePage({ resultType: 'complete', resourceTemplates: templates.map((t) => t.descriptor), ttlMs, cacheScope }));
    routes.set('resources/read', (s) => readResource(s));
  }

  async function readResource(s: RequestState): Promise<Stop> {
    const { uri, inputResponses, requestState } = s.params;
    if (typeof uri !== 'string' || uri === '') return badParams('Invalid params: resources/read needs a string "uri"');
    if (inputResponses !== undefined && !isJsonObject(inputResponses)) return badParams('Invalid params: inputResponses must be an object');
    if (requestState !== undefined && typeof requestState !== 'string') return badParams('Invalid params: requestState must be a string');
    const caller = s.auth?.subject ?? '';
    const redemption = await redeemRequestState(env.signer, env.store, { call: `resources/read ${uri}`, args: {}, sub: caller }, requestState);
    if (!redemption.ok) return fail(redemption.error);
    let inputs: InputFlow | undefined;
    const ctx: ResourceContext = {
      signal: s.message.signal,
      clientCapabilities: s.capabilities,
      auth: s.auth,
      requestMeta: s.meta,
      get inputs(): InputFlow {
        return (inputs ??= createInputFlow({
          signer: env.signer, call: `resources/read ${uri}`, args: {}, caller,
          capabilities: s.capabilities, inputResponses, requestState, ttlMs: env.inputTtlMs, redeemed: redemption.record,
        }));
      },
    };
    const resource = fixed.get(uri);
    let value: unknown;
    let caching = resource?.caching;
    let mimeType = resource?.descriptor.mimeType;
    try {
      if (resource !== undefined) value = await resource.read(ctx);
      else {
        for (const template of templates) {
          const variables = template.template.match(uri);
          if (variables === undefined) continue;
          value = await template.read(uri, Object.freeze(variables), ctx);
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

  // ---- prompts ----
  const prompts = new Map<string, Prompt>();
  if (options.prompts !== undefined) {
    for (const [index, prompt] of options.prompts.entries()) {
      if (prompt?.kind !== 'prompt') throw new TypeError(`createServer: prompts[${index}] was not made by definePrompt()`);
      if (prompts.has(prompt.name)) throw new TypeError(`createServer: prompt ${prompt.name} is defined twice`);
      prompts.set(prompt.name, prompt);
    }
    capabilities.prompts = listChanged.has('prompts') ? { listChanged: true } : {};
    routes.set('prompts/list', singlePage({ resultType: 'complete', prompts: [...prompts.values()].map((p) => p.descriptor), ttlMs, cacheScope }));
    routes.set('prompts/get', (s) => getPrompt(s));
  }

  async function getPrompt(s: RequestState): Promise<Stop> {
    const { name, arguments: rawArgs, inputResponses, requestState } = s.params;
    if (typeof name !== 'string') return badParams('Invalid params: prompts/get needs a string "name"');
    const prompt = prompts.get(name);
    if (prompt === undefined) return fail(rpcError('unknownPrompt', `Unknown prompt: ${echoText(name)}`, { data: { name } }));
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
    const redemption = await redeemRequestState(env.signer, env.store, { call: `prompts/get ${name}`, args, sub: caller }, requestState);
    if (!redemption.ok) return fail(redemption.error);
    const inputs = createInputFlow({
      signer: env.signer,
      call: `prompts/get ${name}`,
      args,
      caller,
      capabilities: s.capabilities,
      inputResponses,
      requestState,
      ttlMs: env.inputTtlMs,
      redeemed: redemption.record,
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

  /** Checks an input_required value a prompt or resource handler returned (R-60: only declared capabilities). */
  function inputRequiredStop(s: RequestState, what: string, value: JsonObject): Stop {
    const requests = value.inputRequests;
    const missing: Record<string, unknown> = {};
    if (requests !== undefined) {
      if (!isJsonObject(requests)) return fail(rpcError('featureHandlerFailed', `Internal error: ${what} returned malformed inputRequests`));
      for (const request of Object.values(requests) as InputRequest[]) {
        const capability = capabilityFor(request);
        if (capability === undefined) return fail(rpcError('featureHandlerFailed', `Internal error: ${what} returned an input request with an unknown method`));
        if (s.capabilities[capability] === undefined) missing[capability] = {};
      }
    }
    if (Object.keys(missing).length > 0) {
      return fail(rpcError('missingClientCapability', `Missing required client capability: ${Object.keys(missing).join(', ')} (${what} needs it)`, { data: { requiredCapabilities: missing } }));
    }
    if (requests === undefined && typeof value.requestState !== 'string') return fail(rpcError('featureHandlerFailed', `Internal error: ${what} returned input_required without inputRequests or requestState`));
    const result: JsonObject = { resultType: 'input_required' };
    if (requests !== undefined) result.inputRequests = requests;
    if (typeof value.requestState === 'string') result.requestState = value.requestState;
    return respond(result);
  }

  // ---- completion ----
  if (prompts.size > 0 || templates.length > 0) {
    capabilities.completions = {};
    routes.set('completion/complete', (s) => complete(s));
  }

  async function complete(s: RequestState): Promise<Stop> {
    const { ref, argument, context } = s.params;
    if (!isJsonObject(ref) || typeof ref.type !== 'string') return badParams('Invalid params: completion/complete needs a "ref" object');
    if (!isJsonObject(argument) || typeof argument.name !== 'string' || typeof argument.value !== 'string') {
      return badParams('Invalid params: completion/complete needs "argument" with string "name" and "value"');
    }
    let completer: Completer | undefined;
    if (ref.type === 'ref/prompt') {
      const prompt = typeof ref.name === 'string' ? prompts.get(ref.name) : undefined;
      if (prompt === undefined) return fail(rpcError('unknownPrompt', `Unknown prompt: ${echoText(String(ref.name))}`, { data: { name: ref.name } }));
      completer = prompt.complete[argument.name];
    } else if (ref.type === 'ref/resource') {
      if (typeof ref.uri !== 'string') return badParams('Invalid params: ref/resource needs a string "uri"');
      const template = templates.find((t) => t.descriptor.uriTemplate === ref.uri);
      if (template === undefined && !fixed.has(ref.uri)) return fail(rpcError('unknownResource', `Resource not found: ${echoText(String(ref.uri))}`, { data: { uri: ref.uri } }));
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

  // ---- subscriptions ----
  routes.set('subscriptions/listen', async (s) => {
    const accepted = acceptFilter(s.params.notifications, support);
    if ('problem' in accepted) return badParams(accepted.problem);
    const id = s.id as NonNullable<RequestState['id']>;
    const how = await hub.hold(id, accepted.filter, (n) => s.message.notify(n), s.message.signal, s.auth?.subject ?? '');
    if (how === 'cancelled') return { kind: 'cancelled' };
    return respond({ resultType: 'complete', _meta: { [META.subscriptionId]: id } });
  });

  return { routes, capabilities, hub };
}
