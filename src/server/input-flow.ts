/**
 * Multi round-trip input (MRTR, digest R-57..R-61): a tool or prompt asks the client for
 * elicitation, sampling or roots by returning an `input_required` result; the client retries the
 * same call with `inputResponses` and the echoed `requestState`.
 *
 * The handler is simply re-run on every round. `inputs.require()` says whether everything it needs
 * has arrived; if not it builds the interim result. Answers gathered in earlier rounds travel in the
 * HMAC-sealed `requestState`, bound to this call (method, name, arguments, caller) and expiring, so a
 * client can neither forge nor replay them onto another call.
 */
import { isJsonObject } from '../protocol/json-rpc.js';
import type { JsonObject, JsonValue } from '../protocol/json-rpc.js';
import type { ClientCapabilities, InputRequest } from '../protocol/wire-types.js';
import type { CreateMessageResult, ElicitResult, ListRootsResult } from '../protocol/feature-wire-types.js';
import { randomBytes } from 'node:crypto';
import { compileSchema } from '../schema/index.js';
import type { CompiledSchema } from '../schema/index.js';
import { rpcError } from './outcomes.js';
import { digestArguments } from './request-state.js';
import type { ApprovalClaims, RequestStateSigner } from './request-state.js';
import type { InputRequiredInit } from './tool-types.js';

/** An `elicitation/create` input request. */
export type ElicitationInputRequest = { method: 'elicitation/create'; params: JsonObject };
/** A `sampling/createMessage` input request. */
export type SamplingInputRequest = { method: 'sampling/createMessage'; params: JsonObject };
/** A `roots/list` input request. */
export type RootsInputRequest = { method: 'roots/list'; params?: JsonObject };

/** The answer type of one input request. */
export type InputResponseFor<R> = R extends { method: 'elicitation/create' }
  ? ElicitResult
  : R extends { method: 'sampling/createMessage' }
    ? CreateMessageResult
    : R extends { method: 'roots/list' }
      ? ListRootsResult
      : never;

/** The answers, key by key, to a set of input requests. */
export type InputResponses<T extends Record<string, InputRequest>> = { [K in keyof T]: InputResponseFor<T[K]> };

/** Outcome of {@link InputFlow.require}. */
export type InputGathering<T extends Record<string, InputRequest>> =
  | {
      ready: true;
      /** Every requested answer (with `onlyDeclared`, answers to dropped requests are absent). */
      responses: InputResponses<T>;
      /** Data sealed into `requestState` by an earlier round (`options.data`), verified; else undefined. */
      data: JsonValue | undefined;
    }
  | {
      ready: false;
      /** Return this from the handler: the client answers it and retries. */
      result: InputRequiredInit;
    };

/** Options of {@link InputFlow.require}. */
export interface RequireInputsOptions {
  /** Application data sealed into `requestState` and handed back as `data` once the answers are in. */
  data?: JsonValue;
  /**
   * Leave out requests whose client capability was not declared instead of failing with -32021
   * (digest R-60). If no request at all can be sent, it still fails with -32021.
   */
  onlyDeclared?: boolean;
  /**
   * Accept answers only together with a `requestState` this server issued for this very call
   * (use for approvals: an answer the server never asked for is ignored and asked again).
   */
  requireState?: boolean;
  /**
   * Complete at most once per issued `requestState` (implies `requireState`): replaying the same
   * state and answers is -32602. Use for approvals of actions with side effects. Remembered per
   * server process until the state expires; replicas behind one endpoint do not share it.
   */
  singleUse?: boolean;
}

/** MRTR for one request; available as `ctx.inputs` in tools and prompts. */
export interface InputFlow {
  /**
   * Asks for `requests` unless their answers already arrived (in `inputResponses` or sealed in
   * `requestState`). Missing or malformed answers are asked again; unrelated keys are ignored.
   * @throws ProtocolError -32602 when `requestState` is forged, expired or belongs to another call;
   *   -32021 when a request needs a capability the client did not declare.
   * @example
   * const got = ctx.inputs.require({ user_name: elicitInput({ message: 'Your name?', requestedSchema }) });
   * if (!got.ready) return got.result;
   * return `Hello, ${got.responses.user_name.content?.name}!`;
   */
  require<T extends Record<string, InputRequest>>(requests: T, options?: RequireInputsOptions): InputGathering<T>;
  /** True when the client declared the capability `method` needs on this request. */
  supports(method: InputRequest['method']): boolean;
}

/** Builds an `elicitation/create` (form mode) input request. */
export function elicitInput(params: { message: string; requestedSchema: JsonObject; [key: string]: unknown }): ElicitationInputRequest {
  if (typeof params.message !== 'string' || params.message === '') throw new TypeError('elicitInput() needs a non-empty message');
  if (!isJsonObject(params.requestedSchema) || params.requestedSchema.type !== 'object') {
    throw new TypeError('elicitInput() needs a requestedSchema with type "object"');
  }
  return { method: 'elicitation/create', params: { ...params } };
}

/** Builds a `sampling/createMessage` input request. */
export function sampleInput(params: { messages: JsonObject[]; maxTokens: number; [key: string]: unknown }): SamplingInputRequest {
  if (!Array.isArray(params.messages) || params.messages.length === 0) throw new TypeError('sampleInput() needs at least one message');
  if (!Number.isInteger(params.maxTokens) || params.maxTokens < 1) throw new TypeError('sampleInput() maxTokens must be a positive integer');
  return { method: 'sampling/createMessage', params: { ...params } };
}

/** Builds a `roots/list` input request. */
export function listRootsInput(): RootsInputRequest {
  return { method: 'roots/list', params: {} };
}

/** The client capability each input-request method needs (the one method→capability table). */
const CAPABILITY: Readonly<Record<InputRequest['method'], 'elicitation' | 'sampling' | 'roots'>> = {
  'elicitation/create': 'elicitation',
  'sampling/createMessage': 'sampling',
  'roots/list': 'roots',
};

/** Which client capability an MRTR input request needs; undefined for an unknown method. */
export function capabilityFor(request: unknown): 'elicitation' | 'sampling' | 'roots' | undefined {
  const method = isJsonObject(request) ? request.method : undefined;
  return typeof method === 'string' && Object.hasOwn(CAPABILITY, method) ? CAPABILITY[method as InputRequest['method']] : undefined;
}

interface InputClaims extends ApprovalClaims {
  kind: 'mrtr';
  /** Random per issued state: the key of single-use bookkeeping. */
  nonce: string;
  answers: Record<string, unknown>;
  data?: JsonValue;
}

/** Nonces of single-use states that completed, per server (its signer), until they expire. */
const consumedBySigner = new WeakMap<RequestStateSigner, Map<string, number>>();

function consume(signer: RequestStateSigner, nonce: string, exp: number): boolean {
  let consumed = consumedBySigner.get(signer);
  if (consumed === undefined) consumedBySigner.set(signer, (consumed = new Map()));
  if (consumed.has(nonce)) return false;
  if (consumed.size >= 10_000) {
    const now = Date.now();
    for (const [key, expiry] of consumed) if (expiry < now) consumed.delete(key);
  }
  consumed.set(nonce, exp);
  return true;
}

/** What an input flow is bound to. */
export interface InputFlowScope {
  signer: RequestStateSigner;
  /** e.g. `tools/call grasp_object`; never equal to a bare tool name, so approval tokens do not fit. */
  subject: string;
  args: unknown;
  caller: string;
  capabilities: ClientCapabilities;
  inputResponses: Record<string, unknown> | undefined;
  requestState: string | undefined;
  ttlMs: number;
}

const schemaCache = new Map<string, CompiledSchema | null>();

function compiledRequestedSchema(schema: unknown): CompiledSchema | null {
  const key = JSON.stringify(schema);
  let compiled = schemaCache.get(key);
  if (compiled === undefined) {
    try {
      compiled = compileSchema(schema as object);
    } catch {
      compiled = null;
    }
    if (schemaCache.size > 256) schemaCache.clear();
    schemaCache.set(key, compiled);
  }
  return compiled;
}

/** Whether `answer` is a well-formed answer to `request` (and, for accepted forms, fits the schema). */
export function isValidInputResponse(request: InputRequest, answer: unknown): boolean {
  if (!isJsonObject(answer)) return false;
  switch (request.method) {
    case 'elicitation/create': {
      if (answer.action !== 'accept' && answer.action !== 'decline' && answer.action !== 'cancel') return false;
      if (answer.action !== 'accept') return answer.content === undefined || isJsonObject(answer.content);
      if (!isJsonObject(answer.content)) return false;
      const schema = compiledRequestedSchema(request.params.requestedSchema);
      return schema === null || schema.validate(answer.content).valid;
    }
    case 'sampling/createMessage':
      return (answer.role === 'user' || answer.role === 'assistant') && typeof answer.model === 'string' &&
        (isJsonObject(answer.content) || Array.isArray(answer.content));
    case 'roots/list':
      return Array.isArray(answer.roots) && answer.roots.every((root) => isJsonObject(root) && typeof root.uri === 'string');
    default:
      return false;
  }
}

/** Creates the input flow of one request. Used by the tool pipeline and prompts/get. */
export function createInputFlow(scope: InputFlowScope): InputFlow {
  let verified = false;
  let sealedData: JsonValue | undefined;
  let stateValid = false;
  let sealedNonce: string | undefined;
  let sealedExp = 0;
  let consumedHere = false;
  // Answers known in this request: sealed ones first, then valid fresh ones as require() sees them.
  const collected: Record<string, unknown> = {};

  function verifyState(): void {
    if (verified) return;
    verified = true;
    const token = scope.requestState;
    if (token === undefined) return;
    const verdict = scope.signer.verify(token);
    if (!verdict.ok) throw rpcError('invalidRequestState', `Invalid params: ${verdict.reason}`, { data: { field: 'requestState' } });
    const claims = verdict.claims as Partial<InputClaims>;
    // An authentic token of another kind (an approval) carries no answers for this flow.
    if (claims.kind !== 'mrtr') return;
    if (claims.tool !== scope.subject || claims.args !== digestArguments(scope.args) || claims.sub !== scope.caller) {
      throw rpcError('invalidRequestState', 'Invalid params: requestState belongs to a different call (method, name, arguments or caller differ)', { data: { field: 'requestState' } });
    }
    stateValid = true;
    sealedData = claims.data;
    sealedNonce = typeof claims.nonce === 'string' ? claims.nonce : undefined;
    sealedExp = typeof claims.exp === 'number' ? claims.exp : 0;
    if (isJsonObject(claims.answers)) Object.assign(collected, claims.answers);
  }

  function declared(method: InputRequest['method']): boolean {
    const capability = scope.capabilities[CAPABILITY[method]];
    return capability !== undefined && capability !== null;
  }

  return {
    supports: declared,
    require<T extends Record<string, InputRequest>>(requests: T, options: RequireInputsOptions = {}): InputGathering<T> {
      verifyState();
      const fresh = (options.requireState === true || options.singleUse === true) && !stateValid ? undefined : scope.inputResponses;
      const missing: Record<string, InputRequest> = {};
      const undeclared: Record<string, unknown> = {};
      let askable = 0;
      for (const [key, request] of Object.entries(requests)) {
        if (CAPABILITY[request?.method] === undefined) throw new TypeError(`inputs.require(): request ${JSON.stringify(key)} has unknown method ${JSON.stringify(request?.method)}`);
        const answer = fresh?.[key];
        if (answer !== undefined && isValidInputResponse(request, answer)) collected[key] = answer;
        if (collected[key] !== undefined && isValidInputResponse(request, collected[key])) continue;
        if (!declared(request.method)) {
          undeclared[CAPABILITY[request.method]] = {};
          if (options.onlyDeclared === true) continue;
        }
        missing[key] = request;
        askable++;
      }
      const undeclaredNames = Object.keys(undeclared);
      if (undeclaredNames.length > 0 && (options.onlyDeclared !== true || (askable === 0 && Object.keys(requests).every((k) => collected[k] === undefined)))) {
        throw rpcError('missingClientCapability', `Missing required client capability: ${undeclaredNames.join(', ')} (needed to ask the client for input)`, { data: { requiredCapabilities: undeclared } });
      }
      if (askable === 0) {
        if (options.singleUse === true && !consumedHere) {
          if (sealedNonce === undefined || !consume(scope.signer, sealedNonce, sealedExp)) {
            throw rpcError('invalidRequestState', 'Invalid params: requestState was already used; start the call again without it', { data: { field: 'requestState' } });
          }
          consumedHere = true;
        }
        const responses: Record<string, unknown> = {};
        for (const key of Object.keys(requests)) if (collected[key] !== undefined) responses[key] = collected[key];
        return { ready: true, responses: responses as InputResponses<T>, data: sealedData };
      }
      const claims: InputClaims = {
        kind: 'mrtr',
        tool: scope.subject,
        args: digestArguments(scope.args),
        sub: scope.caller,
        exp: Date.now() + scope.ttlMs,
        nonce: randomBytes(12).toString('base64url'),
        answers: collected,
      };
      const data = options.data ?? sealedData;
      if (data !== undefined) claims.data = data;
      return { ready: false, result: { resultType: 'input_required', inputRequests: missing, requestState: scope.signer.sign(claims) } };
    },
  };
}
