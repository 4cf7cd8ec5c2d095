/**
 * The server asks the client for input in two ways, one per era, and both end up at the same
 * handlers: 2026-07-28 returns an `input_required` result (answered in a retry), legacy servers
 * send `roots/list`, `elicitation/create` or `sampling/createMessage` requests during a call (on
 * its SSE stream or on stdio) or at any time. Roots given to `connect()` answer `roots/list` in
 * both; a call's `onInputRequired` answers what belongs to the call; the client-level
 * `onServerRequest` answers the rest.
 */
import { INPUT_REQUEST_CAPABILITY, isJsonObject } from '../protocol/index.js';
import type { InputRequest, JsonObject, JsonRpcRequest } from '../protocol/index.js';
import { McpClientError } from './client-error.js';
import { refusal } from './refusals.js';
import type { ServerRequestHandler } from './connection.js';
import type { CallToolOptions, ClientOptions, ClientRoot, InputRequiredContext } from './types.js';

// The methods a server may ask the client: the keys of the one method→capability table.
const INPUT_METHODS: ReadonlySet<string> = new Set(Object.keys(INPUT_REQUEST_CAPABILITY));

function rootsResult(roots: readonly ClientRoot[]): JsonObject {
  return { roots: roots.map((root) => ({ uri: root.uri, ...(root.name !== undefined ? { name: root.name } : {}) })) };
}

function asInputRequest(request: JsonRpcRequest): InputRequest {
  if (!INPUT_METHODS.has(request.method)) throw refusal('notAnswered', `the client does not answer ${request.method}`);
  return { method: request.method, params: isJsonObject(request.params) ? request.params : {} } as InputRequest;
}

function checkedResult(value: unknown, method: string): JsonObject {
  if (!isJsonObject(value)) throw refusal('handlerFailed', `the client's handler for ${method} returned ${value === null ? 'null' : typeof value}, not a result object`);
  return value;
}

/** Answers server requests that belong to no call: roots from `roots`, the rest through `onServerRequest`. */
export function clientRequestHandler(options: Pick<ClientOptions, 'roots' | 'onServerRequest'>): ServerRequestHandler {
  return async (request, signal) => {
    if (request.method === 'ping') return {};
    const input = asInputRequest(request);
    if (input.method === 'roots/list' && options.roots !== undefined) return rootsResult(options.roots);
    if (options.onServerRequest === undefined) throw refusal('notAnswered', `the client has no handler for ${request.method}`);
    return checkedResult(await options.onServerRequest(input, { signal }), request.method);
  };
}

/** What a call's rounds share: its handler, its arguments, the round count. */
export interface CallInputState {
  tool: string;
  arguments: Record<string, unknown>;
  options: CallToolOptions;
  roots: readonly ClientRoot[] | undefined;
  maxRounds: number;
  round: number;
}

function context(state: CallInputState, signal: AbortSignal): InputRequiredContext {
  return { round: state.round, tool: state.tool, arguments: state.arguments, signal };
}

/**
 * Answers one modern `input_required` round: one response per key. Throws McpClientError kind
 * `input_required` when nobody can answer, the handler fails or leaves a key out.
 */
export async function answerInputRound(state: CallInputState, requests: Record<string, InputRequest>, data: JsonObject): Promise<Record<string, unknown>> {
  const responses: Record<string, unknown> = {};
  const forHandler: Record<string, InputRequest> = {};
  for (const [key, request] of Object.entries(requests)) {
    if (isJsonObject(request) && request.method === 'roots/list' && state.roots !== undefined) responses[key] = rootsResult(state.roots);
    else forHandler[key] = request;
  }
  if (Object.keys(forHandler).length === 0) return responses;
  const handler = state.options.onInputRequired;
  const name = JSON.stringify(state.tool);
  if (handler === undefined) {
    throw new McpClientError('input_required', `tool ${name} needs input (${Object.values(forHandler).map((r) => r.method).join(', ')}) and no onInputRequired handler was given`, { method: 'tools/call', data });
  }
  let answered: Record<string, unknown>;
  try {
    answered = await handler(forHandler, context(state, state.options.signal ?? new AbortController().signal));
  } catch (error) {
    throw new McpClientError('input_required', `onInputRequired failed: ${error instanceof Error ? error.message : String(error)}`, { method: 'tools/call', cause: error, data });
  }
  const missing = Object.keys(forHandler).filter((key) => !isJsonObject(answered) || !(key in answered));
  if (missing.length > 0) throw new McpClientError('input_required', `onInputRequired did not answer ${missing.map((k) => JSON.stringify(k)).join(', ')}; every input request needs a response`, { method: 'tools/call', data });
  for (const key of Object.keys(forHandler)) responses[key] = answered[key];
  return responses;
}

/**
 * A legacy server's requests during a call, put to the call's `onInputRequired` one at a time
 * (key `server-request-<id>`); roots come from `roots` when given, the rest of the client's
 * requests (ping, unknown methods) from `fallback`.
 */
export function callRequestHandler(state: CallInputState, fallback: ServerRequestHandler): ServerRequestHandler | undefined {
  const handler = state.options.onInputRequired;
  if (handler === undefined) return undefined;
  return async (request, signal) => {
    if (!INPUT_METHODS.has(request.method) || (request.method === 'roots/list' && state.roots !== undefined)) return fallback(request, signal);
    state.round++;
    if (state.round > state.maxRounds) throw refusal('handlerFailed', `the client answers at most ${state.maxRounds} input requests per call`);
    const key = `server-request-${String(request.id)}`;
    let answered: Record<string, unknown>;
    try {
      answered = await handler({ [key]: asInputRequest(request) }, context(state, signal));
    } catch (error) {
      throw refusal('handlerFailed', `the client's input handler failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (!isJsonObject(answered) || !(key in answered)) throw refusal('handlerFailed', `the client's input handler gave no answer for ${request.method}`);
    return checkedResult(answered[key], request.method);
  };
}
