/**
 * What a stage's unit test needs: a PipelineEnv built the way createServer builds it (from tools,
 * with a memory store, a signer and an approval queue), a message, and the call state at the point
 * a stage expects it. States are built directly, not by running the earlier stages, so a stage test
 * fails only for its own stage. Helpers at the bottom check a stop against one OUTCOMES row.
 */
import assert from 'node:assert/strict';
import type { JsonObject, JsonRpcNotification } from '../../src/protocol/json-rpc.js';
import { META } from '../../src/protocol/constants.js';
import { SUPPORTED_PROTOCOL_VERSIONS } from '../../src/protocol/versions.js';
import { ProtocolError } from '../../src/protocol/protocol-error.js';
import type { ClientCapabilities } from '../../src/protocol/wire-types.js';
import type { InboundMessage, TransportKind } from '../../src/transport/message-dispatcher.js';
import { DEFAULT_APPROVER_SCOPE } from '../../src/server/approvals/approver-trust.js';
import { CallContext } from '../../src/server/stages/call-context.js';
import { CatalogViews, defaultTenantOf } from '../../src/server/catalog/catalog-view.js';
import { createApprovalQueue } from '../../src/server/approvals/operator-approvals.js';
import { OUTCOMES } from '../../src/server/outcomes.js';
import type { OutcomeName } from '../../src/server/outcomes.js';
import { RequestStateSigner } from '../../src/server/approvals/request-state-seal.js';
import { resolveEnv } from '../../src/server/stages/pipeline-env.js';
import type { PipelineConfig, PipelineEnv } from '../../src/server/stages/pipeline-env.js';
import { receive } from '../../src/server/stages/stage.js';
import type { AnyState, Decoded, Enveloped, Received, Redeemed, Shaped, Stop, ToolFound, Versioned } from '../../src/server/stages/stage.js';

/** A state at one stage that also reads every later field (undefined until a stage sets it): what a test inspects after `run`. */
export type At<S> = S & AnyState;
import { createMemoryStore } from '../../src/server/store/memory-store.js';
import { registerTools } from '../../src/server/tools/tool-registry.js';
import type { AuthInfo, Tool } from '../../src/server/contract/tool-types.js';
import { sampleTool } from './sample-tool.js';

export const VERSION = SUPPORTED_PROTOCOL_VERSIONS[0]!;
export const STATE_SECRET = 'stage-fixture-secret-0123456789';

/** Everything a test may record from an env: what the server logged. */
/** Sets fields on a state and returns it with the wider type: how these fixtures build a state stage by stage. */
export function extend<S extends object, A extends object>(state: S, added: A): S & A {
  return Object.assign(state, added);
}

export interface TestEnv extends PipelineEnv {
  readonly logged: { message: string; detail: Record<string, unknown> | undefined }[];
}

/** A PipelineEnv over `tools` (default: the sample tool); any config field can be overridden. */
export function stageEnv(options: Omit<Partial<PipelineConfig>, 'tools'> & { tools?: readonly Tool<unknown>[] } = {}): TestEnv {
  const { tools = [sampleTool()], ...overrides } = options;
  const store = overrides.store ?? createMemoryStore();
  const logged: TestEnv['logged'] = [];
  const config: PipelineConfig = {
    tools: registerTools(tools, { canAuthorize: true }),
    routes: new Map(),
    resultMeta: {},
    authorize: undefined,
    resourceMetadataUrl: undefined,
    onStageEvent: undefined,
    logger: { error: (message, detail) => logged.push({ message, detail }) },
    signer: new RequestStateSigner(STATE_SECRET),
    approvalTtlMs: 60_000,
    store,
    approvals: overrides.approvals ?? createApprovalQueue({ store, clock: { now: () => Date.now() }, maxTimeoutMs: 60_000 }),
    tasks: undefined,
    views: new CatalogViews({ tools: [], resources: [], prompts: [] }, defaultTenantOf, { error: () => undefined }),
    approverTrust: { scope: DEFAULT_APPROVER_SCOPE, trustStdio: true, challenge: { resourceMetadataUrl: undefined, scopes: [] } },
    ...overrides,
  };
  return Object.assign(resolveEnv(config), { logged });
}

export interface MessageInit {
  body?: string | Uint8Array;
  parsed?: unknown;
  transport?: TransportKind;
  /** HTTP headers (any case); absent = no header lookup at all (stdio). */
  headers?: Record<string, string>;
  signal?: AbortSignal;
  operator?: string;
}

/** A message as a transport hands it over; `notifications` collects what the request sent. */
export function message(init: MessageInit = {}): InboundMessage & { notifications: JsonRpcNotification[] } {
  const signal = init.signal ?? new AbortController().signal;
  const notifications: JsonRpcNotification[] = [];
  const lower = init.headers === undefined ? undefined : new Map(Object.entries(init.headers).map(([k, v]) => [k.toLowerCase(), v]));
  return {
    body: init.body ?? '',
    ...(init.parsed !== undefined ? { parsed: init.parsed } : {}),
    transport: init.transport ?? (lower === undefined ? 'stdio' : 'http'),
    ...(init.operator !== undefined ? { operator: init.operator } : {}),
    header: lower === undefined ? undefined : (name) => lower.get(name),
    signal,
    isAborted: () => signal.aborted,
    notify: (n) => notifications.push(n),
    notifications,
  };
}

/** The state `authenticate` and `decode` expect. */
export function received(init: MessageInit = {}, auth?: AuthInfo): At<Received> {
  const s = receive(message(init)) as At<Received>;
  s.auth = auth;
  return s;
}

/** The state `envelope` expects: `parsed` set. */
export function decoded(parsed: unknown, init: MessageInit = {}): At<Decoded> {
  return extend(received(init), { parsed });
}

/** The state `version` expects: a request envelope. */
export function enveloped(method: string, params: JsonObject, init: MessageInit = {}): At<Enveloped> {
  return extend(decoded({ jsonrpc: '2.0', id: 1, method, params }, init), { id: 1, method, params });
}

export interface VersionedInit extends MessageInit {
  capabilities?: ClientCapabilities;
  auth?: AuthInfo;
}

/** The state `headers`, `route` and `find-tool` expect: `_meta` read. */
export function versioned(method: string, params: JsonObject = {}, init: VersionedInit = {}): At<Versioned> {
  const capabilities = init.capabilities ?? {};
  const meta: JsonObject = { [META.protocolVersion]: VERSION, [META.clientCapabilities]: capabilities as JsonObject };
  const s = extend(enveloped(method, { ...params, _meta: meta }, init), { meta, version: VERSION, capabilities, logLevel: -1 });
  s.auth = init.auth;
  return s;
}

export interface CallInit extends VersionedInit {
  tool?: string;
  args?: Record<string, unknown>;
  inputResponses?: Record<string, unknown>;
  requestState?: string;
}

/** The state the stages after `find-tool` expect: the tool found in `env`, its arguments typed. */
export function toolFound(env: PipelineEnv, init: CallInit = {}): At<ToolFound> {
  const name = init.tool ?? env.tools[0]!.name;
  const tool = env.toolsByName.get(name);
  if (tool === undefined) throw new Error(`stage-fixture: no tool ${name} in the env`);
  const args = init.args ?? {};
  const params: JsonObject = { name, arguments: args as JsonObject };
  if (init.inputResponses !== undefined) params.inputResponses = init.inputResponses as JsonObject;
  if (init.requestState !== undefined) params.requestState = init.requestState;
  return extend(versioned('tools/call', params, init), { tool, args, inputResponses: init.inputResponses, requestState: init.requestState });
}

/** After `request-state` (no approval state verified, none claimed). */
export function redeemed(env: PipelineEnv, init: CallInit = {}): At<Redeemed> {
  return extend(toolFound(env, init), { approvalState: undefined, redeemed: undefined });
}

/** After `shape` and `context`: the handler context exists. */
export function shaped(env: PipelineEnv, init: CallInit = {}): At<Shaped> {
  const s = redeemed(env, init);
  return extend(s, { ctx: new CallContext(s, env) });
}

/** Awaits a stage's answer, whether it came synchronously or not. */
export async function settle<T>(value: T | Promise<T>): Promise<T> {
  return value;
}

/** The stop a stage returned; fails when it passed instead. */
export function asStop(value: unknown): Stop {
  assert.ok(isStop(value), `expected the stage to stop, it passed`);
  return value;
}

function isStop(value: unknown): value is Stop {
  return typeof value === 'object' && value !== null && 'kind' in value && typeof (value as { kind: unknown }).kind === 'string' && !('message' in value && 'finished' in value);
}

/** Asserts the stage passed and handed on `state` itself (the object the runner goes on with). */
export function assertPassed<S>(value: unknown, state: S): S {
  assert.ok(!isStop(value), `expected the stage to pass, it stopped with ${JSON.stringify(value)}`);
  assert.equal(value, state);
  return state;
}

/** Asserts a JSON-RPC error stop of one OUTCOMES row: its code, HTTP status and exact message. */
export function assertRefused(value: unknown, row: OutcomeName, message: string, extra: { data?: unknown; headers?: Record<string, string> } = {}): ProtocolError {
  const stop = asStop(value);
  assert.equal(stop.kind, 'error', `expected an error stop, got ${JSON.stringify(stop)}`);
  const error = (stop as { error: ProtocolError }).error;
  assert.ok(error instanceof ProtocolError);
  const rule = OUTCOMES[row];
  assert.equal(rule.kind, 'rpc-error');
  assert.equal(error.code, (rule as { code: number }).code);
  assert.equal(error.httpStatus, (rule as { httpStatus: number }).httpStatus);
  assert.equal(error.message, message);
  if ('data' in extra) assert.deepEqual(error.data, extra.data);
  if ('headers' in extra) assert.deepEqual(error.headers, extra.headers);
  return error;
}

/** Asserts an `isError` tool result stop (a tool-error row) with exactly `text`. */
export function assertToolError(value: unknown, row: OutcomeName, text: string): void {
  assert.equal(OUTCOMES[row].kind, 'tool-error');
  assert.deepEqual(asStop(value), { kind: 'result', outcome: 'tool-error', result: { resultType: 'complete', content: [{ type: 'text', text }], isError: true } });
}
