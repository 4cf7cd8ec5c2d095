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
import { isJsonObject } from '../../protocol/json-rpc.js';
import type { JsonObject } from '../../protocol/json-rpc.js';
import type { ClientCapabilities, InputRequest } from '../../protocol/wire-types.js';
import { INPUT_REQUEST_CAPABILITY } from '../../protocol/input-requests.js';
import { randomBytes } from 'node:crypto';
import { compileSchema } from '../../schema/index.js';
import type { CompiledSchema } from '../../schema/index.js';
import type { ProtocolError } from '../../protocol/protocol-error.js';
import { rpcError } from '../outcomes.js';
import { digestArguments } from './request-state-seal.js';
import { StoreUnavailableError } from '../store/store.js';
import type { RequestStateSigner, SealedClaims } from './request-state-seal.js';
import { DIFFERENT_CALL, defaultApprovalDigest, stateError } from './approvals.js';
import type { ApprovalRecord } from './approvals.js';
import type { ElicitationInputRequest, InputFlow, InputGathering, InputResponses, RequireInputsOptions, RootsInputRequest, SamplingInputRequest } from '../contract/input-flow.js';

export type { ElicitationInputRequest, InputFlow, InputGathering, InputResponseFor, InputResponses, RequireInputsOptions, RootsInputRequest, SamplingInputRequest } from '../contract/input-flow.js';

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

/** Which client capability an MRTR input request needs; undefined for an unknown method. */
export function capabilityFor(request: unknown): 'elicitation' | 'sampling' | 'roots' | undefined {
  const method = isJsonObject(request) ? request.method : undefined;
  return typeof method === 'string' && Object.hasOwn(INPUT_REQUEST_CAPABILITY, method) ? INPUT_REQUEST_CAPABILITY[method as InputRequest['method']] : undefined;
}

/** What an input flow is bound to. */
export interface InputFlowScope {
  signer: RequestStateSigner;
  /** The call, e.g. `tools/call grasp_object` or `prompts/get greet`. */
  call: string;
  args: unknown;
  /** Authenticated subject, '' when anonymous. */
  caller: string;
  /** The caller's OAuth client id, '' when none. */
  client: string;
  capabilities: ClientCapabilities;
  inputResponses: Record<string, unknown> | undefined;
  requestState: string | undefined;
  ttlMs: number;
  /** The store's epoch now, sealed into single-use states (approvals.ts). */
  epoch: () => string;
  /** The approval claimed for this request's single-use state, once claimed (approvals.ts). */
  redeemed: () => ApprovalRecord | undefined;
  /**
   * True for tools/call: the pipeline claims an authentic single-use state of this call right before
   * `execute`, so an answer under it counts before the claim (a replay is refused at the claim).
   */
  claimAhead: boolean;
  /** Whether this caller may approve by elicitation, and its refusal when not (approver-trust.ts). */
  approver: { readonly trusted: boolean; refuse(): ProtocolError };
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

/** The epoch a single-use state is sealed under; a shared store not reached yet refuses the question (503). */
function storeEpoch(scope: InputFlowScope): string {
  try {
    return scope.epoch();
  } catch (error) {
    if (error instanceof StoreUnavailableError) throw rpcError('storeUnavailable', 'Service unavailable: the shared store cannot be reached, so no approval can be asked now; nothing was done; retry shortly');
    throw error;
  }
}

/** Creates the input flow of one request. Used by the tool pipeline, prompts/get and resources/read. */
export function createInputFlow(scope: InputFlowScope): InputFlow {
  let verified = false;
  let sealed: SealedClaims | undefined;
  let argsDigest: string | undefined;
  // Once any require() of this request is single use, every state it issues is too.
  let once = false;
  // Answers known in this request: sealed ones first, then valid fresh ones as require() sees them.
  const collected: Record<string, unknown> = {};

  const digestOfArgs = (): string => (argsDigest ??= digestArguments(scope.args));

  function verifyState(): void {
    if (verified) return;
    verified = true;
    const token = scope.requestState;
    if (token === undefined) return;
    const verdict = scope.signer.verify(token);
    if (!verdict.ok) throw stateError(verdict.reason);
    const claims = verdict.claims;
    if (claims.call !== scope.call || claims.args !== digestOfArgs() || claims.sub !== scope.caller || claims.cid !== scope.client) throw stateError(DIFFERENT_CALL);
    sealed = claims;
    once = claims.once;
    Object.assign(collected, claims.answers);
  }

  function declared(method: InputRequest['method']): boolean {
    const capability = scope.capabilities[INPUT_REQUEST_CAPABILITY[method]];
    return capability !== undefined && capability !== null;
  }

  return {
    supports: declared,
    require<T extends Record<string, InputRequest>>(requests: T, options: RequireInputsOptions = {}): InputGathering<T> {
      const singleUse = options.singleUse === true;
      // An approval is a human's only when this caller is trusted to ask one: never ask, never accept otherwise.
      if (singleUse && !scope.approver.trusted) throw scope.approver.refuse();
      verifyState();
      if (singleUse) once = true;
      const approves = options.approves ?? defaultApprovalDigest(scope.call, scope.args);
      // Which answers count: a single-use approval only those of a state claimed (or claimed before execute) for this request.
      const trusted = singleUse
        ? sealed !== undefined && sealed.once && (scope.claimAhead || scope.redeemed() !== undefined)
        : options.requireState !== true || sealed !== undefined;
      if (trusted && singleUse && sealed?.approves !== approves && options.onOtherDigest !== 'complete') {
        throw stateError('requestState approved a different action (the approval digest differs); start the call again without it');
      }
      const fresh = trusted ? scope.inputResponses : undefined;
      const missing: Record<string, InputRequest> = {};
      const undeclared: Record<string, unknown> = {};
      let askable = 0;
      for (const [key, request] of Object.entries(requests)) {
        const capability = capabilityFor(request);
        if (capability === undefined) throw new TypeError(`inputs.require(): request ${JSON.stringify(key)} has unknown method ${JSON.stringify(request?.method)}`);
        const answer = fresh?.[key];
        if (answer !== undefined && isValidInputResponse(request, answer)) collected[key] = answer;
        if (trusted && collected[key] !== undefined && isValidInputResponse(request, collected[key])) continue;
        if (!trusted) delete collected[key];
        if (!declared(request.method)) {
          undeclared[capability] = {};
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
        const responses: Record<string, unknown> = {};
        for (const key of Object.keys(requests)) if (collected[key] !== undefined) responses[key] = collected[key];
        return { ready: true, responses: responses as InputResponses<T>, data: sealed?.data, approval: singleUse ? scope.redeemed() : undefined };
      }
      const claims: SealedClaims = {
        call: scope.call,
        args: digestOfArgs(),
        sub: scope.caller,
        cid: scope.client,
        exp: scope.signer.now() + scope.ttlMs,
        nonce: randomBytes(12).toString('base64url'),
        once,
        answers: collected,
      };
      if (once) {
        claims.approves = approves;
        claims.epoch = storeEpoch(scope);
      }
      const data = options.data ?? sealed?.data;
      if (data !== undefined) claims.data = data;
      return { ready: false, result: { resultType: 'input_required', inputRequests: missing, requestState: scope.signer.sign(claims) } };
    },
  };
}
