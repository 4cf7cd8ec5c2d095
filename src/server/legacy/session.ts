/**
 * One legacy (2025) session, on either transport: the methods answered per session (`ping`,
 * `logging/setLevel`, `resources/subscribe|unsubscribe`), and every other request translated into
 * a 2026-07-28 request (the session's capabilities and log level become `_meta`) and run through
 * the same pipeline, so tools, resources and prompts are written once.
 *
 * Input-required results become what a 2025 client understands: the input requests are sent as
 * server-to-client requests (`elicitation/create`, `sampling/createMessage`, `roots/list`) on the
 * request's own stream (the POST's SSE stream, or the stdio pipe), falling back to the session's
 * channel (the GET stream); the call is re-run with the answers and the sealed `requestState`
 * until it completes. Change notifications reach the session's channel through the server's one
 * SubscriptionHub.
 */
import { META } from '../../protocol/constants.js';
import { PROTOCOL_VERSION } from '../../protocol/versions.js';
import { ProtocolError } from '../../protocol/protocol-error.js';
import { isJsonObject, isJsonRpcId } from '../../protocol/json-rpc.js';
import type { JsonObject, JsonRpcId, JsonRpcNotification } from '../../protocol/json-rpc.js';
import { buildParamHeaders, encodeHeaderValue, scanHeaderAnnotations } from '../../protocol/x-mcp-header.js';
import type { HeaderAnnotation } from '../../protocol/x-mcp-header.js';
import type { Implementation, ServerCapabilities, ToolDescriptor } from '../../protocol/wire-types.js';
import type { HeaderLookup, InboundMessage, Reply } from '../../transport/message-dispatcher.js';
import type { LegacySessionRecord } from './session-store.js';
import { legacyCapabilities, legacyServerInfo, toLegacyResult } from './translate.js';
import { askClient, canStream } from './client-requests.js';
import { ForwardedMessage, requestIdText, requestKey } from './forwarded.js';
import { OUTCOMES, rpcError } from '../outcomes.js';
import { errorReply } from '../pipeline/reply.js';
import { vouchFor } from '../auth/vouched.js';
import type { AuthInfo } from '../contract/tool-types.js';
import type { ListChangedKind, SubscriptionHub } from '../catalog/subscriptions.js';
import { isLogLevel, LOG_LEVELS } from '../features/log-levels.js';

/** What the legacy wire needs to know about the server. */
export interface LegacyServerInfo {
  serverInfo: Implementation;
  capabilities: ServerCapabilities;
  instructions: string | undefined;
  tools: readonly Readonly<ToolDescriptor>[];
}

/** Settings shared by every session of one server. */
export interface LegacySessionSettings {
  /** How long to wait for a client's answer to a server-to-client request. */
  inputTimeoutMs: number;
  /** Input-required rounds per call before giving up. */
  maxInputRounds: number;
}

/** Sends one serialized JSON-RPC message outside any request; false when nobody is listening. */
export type SessionChannel = (json: string) => boolean;

/**
 * How a session reaches its parts held by other instances (HTTP wire on a shared store): the GET
 * stream, server-to-client requests awaiting answers, requests in flight, and the stream's filter.
 */
export interface SessionRelay {
  /** Sends to the GET stream held by another instance; false when no live instance holds one. */
  send(json: string): boolean;
  /** A client's answer to a server-to-client request this instance is not waiting for. */
  answer(message: JsonObject): void;
  /** `notifications/cancelled` for a request not running here, by its {@link requestKey}. */
  cancel(requestKey: string): void;
  /**
   * The subscriptions of `record` (as just stored) reach the GET stream's holder; settles once the
   * store has delivered them, so a notification raised after the change is answered is heard.
   */
  changed(record: LegacySessionRecord): Promise<void>;
}

/** Writes a change to the session record (read-modify-write); resolves to the record now stored, undefined when the session is gone. */
export type SaveRecord = (change: (record: LegacySessionRecord) => LegacySessionRecord) => Promise<LegacySessionRecord | undefined>;

const MODERN_ONLY_METHODS = new Set(['server/discover', 'subscriptions/listen']);
const NO_CONTENT: Reply = { status: 202, body: undefined };

/**
 * The request's params with `_meta` replaced: what `{ ...params, _meta }` gives. Not written so for
 * the usual call (`name`, `arguments`, maybe `_meta`): V8 gives every such copy of a JSON.parse'd
 * object a hidden class of its own, so each stage then read the params through megamorphic lookups
 * (in process, a 2025 call spent ~0.6 µs in find-tool against ~0.1 µs for a 2026-07-28 call, and
 * building the copy cost twice as much). Fixed keys give one hidden class for every call.
 */
export function withMeta(params: JsonObject, meta: JsonObject): JsonObject {
  for (const key in params) if (key !== 'name' && key !== 'arguments' && key !== '_meta') return { ...params, _meta: meta };
  if (!Object.hasOwn(params, 'name')) return { ...params, _meta: meta };
  return Object.hasOwn(params, 'arguments') ? { name: params.name, arguments: params.arguments, _meta: meta } : { name: params.name, _meta: meta };
}

/**
 * `{ ...clientMeta, ...translated }` (the client's `_meta`, e.g. a progressToken, under the
 * translated keys), with one hidden class per shape of the client's `_meta`: that spread gave every
 * call's copy a class of its own (a 2025 call with a progressToken cost ~12.4 µs in process instead
 * of ~8.9). The three keys `translated` always holds are written first, as literals (a computed key
 * would make a dictionary), and every translated key is set again after the client's keys.
 */
export function mergeMeta(clientMeta: JsonObject, translated: JsonObject): JsonObject {
  const merged: JsonObject = {
    'io.modelcontextprotocol/protocolVersion': undefined,
    'io.modelcontextprotocol/clientCapabilities': undefined,
    'io.modelcontextprotocol/logLevel': undefined,
    ...clientMeta,
  };
  for (const key in translated) merged[key] = translated[key];
  return merged;
}

function resultReply(id: JsonRpcId, result: JsonObject, headers?: Record<string, string>): Reply {
  return { status: 200, body: JSON.stringify({ jsonrpc: '2.0', id, result }), headers };
}

/** The process-local half of a session: what cannot live in a shared store. */
export class LiveSession {
  record: LegacySessionRecord;
  /** Server-to-client requests awaiting the client's answer. */
  readonly pending = new Map<JsonRpcId, (answer: JsonObject) => void>();
  /** Client requests in flight by {@link requestKey}, for `notifications/cancelled`. */
  readonly inflight = new Map<string, ForwardedMessage>();
  /** The GET stream (HTTP) or the pipe (stdio), when open. */
  channel: SessionChannel | undefined;
  /** Closes the channel's stream when the session ends (DELETE, expiry, shutdown). */
  onEnd: (() => void) | undefined;
  /** Its parts on other instances (undefined: this process holds the whole session). */
  relay: SessionRelay | undefined;
  /** Prefix of server-to-client request ids; unique per instance so answers relayed between instances never collide. */
  requestIdPrefix = 'tw-';
  nextRequestId = 1;
  /**
   * The caller as last authenticated on this instance (HTTP, with `authorize`): change
   * notifications held from then on are judged against its view of the catalog (catalog-view.ts).
   */
  auth: AuthInfo | undefined;
  #listening: AbortController | undefined;

  constructor(record: LegacySessionRecord) {
    this.record = record;
  }

  /**
   * Takes `record` as the session's, keeping the subscriptions already held when they are newer
   * (a change heard from another instance after `record` was read). True when the subscriptions
   * changed, so a held channel must listen again.
   */
  adopt(record: LegacySessionRecord): boolean {
    const held = this.record;
    const newer = (record.subscriptionsRevision ?? 0) >= (held.subscriptionsRevision ?? 0);
    this.record = newer ? record : { ...record, subscriptions: held.subscriptions, subscriptionsRevision: held.subscriptionsRevision };
    return newer && !sameList(held.subscriptions, record.subscriptions);
  }

  /** Sends to the GET stream, here or on the instance holding it; false when there is none. */
  send(json: string): boolean {
    if (this.channel !== undefined) return this.channel(json);
    return this.relay?.send(json) ?? false;
  }

  /** Delivers the hub's change notifications to `channel` with the session's current subscriptions. */
  listen(hub: SubscriptionHub, kinds: readonly ListChangedKind[]): void {
    this.#listening?.abort();
    this.#listening = undefined;
    if (this.channel === undefined || (kinds.length === 0 && this.record.subscriptions.length === 0)) return;
    const controller = new AbortController();
    this.#listening = controller;
    const filter = {
      ...(kinds.includes('tools') ? { toolsListChanged: true } : {}),
      ...(kinds.includes('prompts') ? { promptsListChanged: true } : {}),
      ...(kinds.includes('resources') ? { resourcesListChanged: true } : {}),
      ...(this.record.subscriptions.length > 0 ? { resourceSubscriptions: [...this.record.subscriptions] } : {}),
    };
    void hub.hold(this.record.id, filter, (n) => {
      if (n.method === 'notifications/subscriptions/acknowledged') return;
      this.channel?.(JSON.stringify(toLegacyNotification(n)));
    }, controller.signal, this.auth?.subject ?? '', this.auth);
  }

  /** Stops change notifications, fails pending server-to-client requests, aborts requests in flight. */
  end(): void {
    this.#listening?.abort();
    this.#listening = undefined;
    this.channel = undefined;
    const onEnd = this.onEnd;
    this.onEnd = undefined;
    onEnd?.();
    for (const request of this.inflight.values()) request.cancel();
    for (const answer of this.pending.values()) answer({ jsonrpc: '2.0', error: rpcError('internalFault', 'session ended').toErrorObject() });
  }
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

/** A hub notification without the 2026-07-28 subscription tag. */
function toLegacyNotification(n: JsonRpcNotification): JsonRpcNotification {
  if (!isJsonObject(n.params)) return n;
  const { _meta: meta, ...params } = n.params;
  const rest = isJsonObject(meta) ? Object.fromEntries(Object.entries(meta).filter(([k]) => k !== META.subscriptionId)) : {};
  if (Object.keys(rest).length > 0) params._meta = rest;
  return Object.keys(params).length === 0 ? { jsonrpc: '2.0', method: n.method } : { jsonrpc: '2.0', method: n.method, params };
}

/** Serves the messages of legacy sessions on top of the 2026-07-28 pipeline. */
export class LegacySessionWire {
  readonly #modern: (message: InboundMessage) => Promise<Reply>;
  #info: LegacyServerInfo;
  readonly #settings: LegacySessionSettings;
  readonly #hub: SubscriptionHub;
  readonly #capabilities: JsonObject;
  readonly #listKinds: ListChangedKind[];
  /** Built on the first translated HTTP call, so start-up of a server no 2025 client uses pays nothing. */
  #annotations: Map<string, HeaderAnnotation[]> | undefined;

  constructor(modern: (message: InboundMessage) => Promise<Reply>, info: LegacyServerInfo, hub: SubscriptionHub, settings: LegacySessionSettings) {
    this.#modern = modern;
    this.#info = info;
    this.#hub = hub;
    this.#settings = settings;
    this.#capabilities = legacyCapabilities(info.capabilities);
    const caps = info.capabilities;
    this.#listKinds = (['tools', 'prompts', 'resources'] as const).filter((k) => (caps[k] as { listChanged?: boolean } | undefined)?.listChanged === true);
  }

  /** The server's tool list changed (a mount's tools were read again): header annotations are found anew. */
  toolsChanged(tools: readonly Readonly<ToolDescriptor>[]): void {
    this.#info = { ...this.#info, tools };
    this.#annotations = undefined;
  }

  #annotationsOf(tool: string): HeaderAnnotation[] | undefined {
    if (this.#annotations === undefined) {
      this.#annotations = new Map();
      for (const descriptor of this.#info.tools) {
        const found = scanHeaderAnnotations(descriptor.inputSchema).annotations;
        if (found.length > 0) this.#annotations.set(descriptor.name, found);
      }
    }
    return this.#annotations.get(tool);
  }

  /** The `InitializeResult` of a new session. */
  initializeResult(record: LegacySessionRecord): JsonObject {
    const result: JsonObject = { protocolVersion: record.protocolVersion, capabilities: this.#capabilities, serverInfo: legacyServerInfo(this.#info.serverInfo, record.protocolVersion) };
    if (this.#info.instructions !== undefined) result.instructions = this.#info.instructions;
    return result;
  }

  /** (Re)starts change notifications on the session's channel, with its current subscriptions (stops them when there are none). */
  listen(session: LiveSession): void {
    session.listen(this.#hub, this.#listKinds);
  }

  /**
   * One parsed message of an initialized session. `save` persists a changed record. `auth` is the
   * caller as the era router authenticated it (HTTP): the pipeline then does not ask the authorizer
   * again. Returns the reply (202 for notifications and answers to our requests).
   */
  async handle(session: LiveSession, m: JsonObject, message: InboundMessage, save: SaveRecord, auth?: AuthInfo): Promise<Reply> {
    const id = isJsonRpcId(m.id) ? m.id : undefined;
    const params = isJsonObject(m.params) ? m.params : {};
    if (auth !== undefined) session.auth = auth;
    if (typeof m.method !== 'string') {
      // A client's answer to one of our server-to-client requests (or to another instance's).
      if (id !== undefined) {
        const waiting = session.pending.get(id);
        if (waiting !== undefined) waiting(m);
        else session.relay?.answer(m);
      }
      return NO_CONTENT;
    }
    if (id === undefined) {
      if (m.method === 'notifications/cancelled' && isJsonRpcId(params.requestId)) {
        const key = requestKey(params.requestId, message, ['params', 'requestId']);
        const running = session.inflight.get(key);
        if (running !== undefined) running.cancel();
        else session.relay?.cancel(key);
      }
      return NO_CONTENT;
    }
    switch (m.method) {
      case 'ping':
        return resultReply(id, {});
      case 'logging/setLevel': {
        if (!isLogLevel(params.level)) {
          return errorReply(rpcError('legacyInvalidParams', `Invalid params: level must be one of ${LOG_LEVELS.join(', ')}`), id);
        }
        const level = params.level;
        session.record = (await save((r) => ({ ...r, logLevel: level }))) ?? { ...session.record, logLevel: level };
        return resultReply(id, {});
      }
      case 'resources/subscribe':
      case 'resources/unsubscribe': {
        if (this.#info.capabilities.resources === undefined) return errorReply(rpcError('methodNotFound', `Method not found: ${m.method} (this server has no resources)`), id);
        if (typeof params.uri !== 'string' || params.uri === '') return errorReply(rpcError('legacyInvalidParams', `Invalid params: ${m.method} needs a string "uri"`), id);
        const uri = params.uri;
        const change = (r: LegacySessionRecord): LegacySessionRecord => {
          const others = r.subscriptions.filter((u) => u !== uri);
          return { ...r, subscriptions: m.method === 'resources/subscribe' ? [...others, uri] : others, subscriptionsRevision: (r.subscriptionsRevision ?? 0) + 1 };
        };
        const saved = (await save(change)) ?? change(session.record);
        session.adopt(saved);
        // Answered only once the stream's holder has the change (here, or delivered by the store):
        // a client that saw this answer and then causes an update hears of it.
        if (session.channel !== undefined) session.listen(this.#hub, this.#listKinds);
        else await session.relay?.changed(saved);
        return resultReply(id, {});
      }
      default:
        if (MODERN_ONLY_METHODS.has(m.method)) return errorReply(rpcError('methodNotFound', `Method not found: ${m.method} (not part of ${session.record.protocolVersion})`), id);
        return this.#forward(session, message, id, m.method, params, auth);
    }
  }

  /** HTTP header view of a translated request: the 2026-07-28 headers the pipeline checks, mirrored from the body. */
  #headers(message: InboundMessage, method: string, params: JsonObject): HeaderLookup | undefined {
    const original = message.header;
    if (original === undefined) return undefined;
    return (name) => {
      if (name === 'mcp-protocol-version') return PROTOCOL_VERSION;
      if (name === 'mcp-method') return method;
      if (name === 'mcp-name') {
        const value = method === 'resources/read' ? params.uri : params.name;
        return typeof value === 'string' ? encodeHeaderValue(value) : undefined;
      }
      if (name.startsWith('mcp-param-')) {
        const found = method === 'tools/call' && typeof params.name === 'string' ? this.#annotationsOf(params.name) : undefined;
        if (found === undefined || !isJsonObject(params.arguments)) return undefined;
        const mirrored = buildParamHeaders(found, params.arguments);
        const key = Object.keys(mirrored).find((k) => k.toLowerCase() === name);
        return key === undefined ? undefined : mirrored[key];
      }
      return original(name);
    };
  }

  async #forward(session: LiveSession, message: InboundMessage, id: JsonRpcId, method: string, params: JsonObject, auth: AuthInfo | undefined): Promise<Reply> {
    // META's keys written as literals: built from computed keys and a spread, this object became a
    // slow dictionary that every stage then reads (per-call hot path; the legacy tests break if a key drifts).
    const translated: JsonObject = {
      'io.modelcontextprotocol/protocolVersion': PROTOCOL_VERSION,
      'io.modelcontextprotocol/clientCapabilities': session.record.capabilities,
      'io.modelcontextprotocol/logLevel': session.record.logLevel ?? 'debug',
    };
    const clientInfo = session.record.clientInfo;
    if (clientInfo !== undefined) translated['io.modelcontextprotocol/clientInfo'] = { name: clientInfo.name, version: clientInfo.version };
    const meta = isJsonObject(params._meta) ? params._meta : undefined;
    let current = withMeta(params, meta === undefined ? translated : mergeMeta(meta, translated));
    // Progress and logs go on the request's stream; a POST that accepts no stream gets them on the GET stream.
    const notify = canStream(message) ? (n: JsonRpcNotification): void => message.notify(n) : (n: JsonRpcNotification): void => void session.send(JSON.stringify(n));
    const forwarded = new ForwardedMessage(message, this.#headers(message, method, params), notify);
    if (auth !== undefined) vouchFor(forwarded, auth);
    const key = requestKey(id, message, ['id']);
    // A request reusing the id of one still running would hide it from cancellation: the later one is refused.
    if (session.inflight.has(key)) return errorReply(rpcError('invalidRequest', `Invalid request: request id ${requestIdText(key)} is already in use by a request in flight in this session`), id);
    session.inflight.set(key, forwarded);
    const revision = session.record.protocolVersion;
    try {
      for (let round = 0; ; round++) {
        forwarded.parsed = { jsonrpc: '2.0', id, method, params: current };
        const answer = await this.#modern(forwarded);
        if (answer.body === undefined) return answer;
        const result = answer.result ?? (JSON.parse(answer.body) as JsonObject).result;
        if (!isJsonObject(result)) {
          // Errors keep their code; only authentication keeps its HTTP status (2025 clients read the body otherwise).
          return answer.status === 401 || answer.status === 403 ? answer : { status: 200, body: answer.body };
        }
        if (result.resultType !== 'input_required') return resultReply(id, toLegacyResult(method, result, revision));
        if (round >= this.#settings.maxInputRounds) {
          return errorReply(rpcError('legacyInputRounds', `Internal error: ${method} still needed input after ${this.#settings.maxInputRounds} rounds`), id);
        }
        const requests = Object.entries(isJsonObject(result.inputRequests) ? result.inputRequests : {}).filter((e): e is [string, JsonObject] => isJsonObject(e[1]));
        const answers = await Promise.all(requests.map(([, request]) => askClient(session, request, message, forwarded.signal, this.#settings.inputTimeoutMs)));
        const responses: JsonObject = {};
        for (const [index, [key, request]] of requests.entries()) {
          const response = answers[index] as JsonObject;
          if (isJsonObject(response.error)) {
            return errorReply(rpcError('legacyInputFailed', `Internal error: the client answered ${String(request.method)} with error ${String(response.error.code)}: ${String(response.error.message)}`), id);
          }
          responses[key] = response.result;
        }
        current = { ...current, inputResponses: responses };
        if (typeof result.requestState === 'string') current.requestState = result.requestState;
        else delete current.requestState;
      }
    } catch (error) {
      if (forwarded.isAborted()) return { status: 499, body: undefined };
      if (error instanceof ProtocolError && error.code === OUTCOMES.legacyInputTimeout.code) return errorReply(error, id);
      return errorReply(rpcError('legacyInputFailed', `Internal error: ${error instanceof Error ? error.message : String(error)}`), id);
    } finally {
      session.inflight.delete(key);
    }
  }
}
