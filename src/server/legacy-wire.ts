/**
 * The 2025-11-25 (legacy, stateful) wire over Streamable HTTP, for dual-era servers (digest §1.4):
 * `initialize` opens a session (`Mcp-Session-Id`), `ping`, `logging/setLevel` and
 * `resources/subscribe|unsubscribe` are answered per session, and every other request is
 * translated into a 2026-07-28 request (the session's capabilities and log level become `_meta`)
 * and run through the same pipeline, so tools, resources and prompts are written once.
 *
 * Input-required results become what a legacy client understands: the server sends the input
 * requests (`elicitation/create`, `sampling/createMessage`, `roots/list`) as JSON-RPC requests on
 * the call's SSE stream, waits for the client to POST the answers, and re-runs the call with
 * `inputResponses` and the sealed `requestState`, until it completes.
 *
 * Not covered: stdio (legacy `initialize` there still gets -32022), the GET listening stream and
 * DELETE (the endpoint answers 405, which 2025-11-25 permits), so `resources/updated` and list
 * change notifications are never delivered to legacy sessions.
 */
import { randomUUID } from 'node:crypto';
import { META } from '../protocol/constants.js';
import { isJsonObject, isJsonRpcId } from '../protocol/json-rpc.js';
import type { JsonObject, JsonRpcId, JsonRpcNotification } from '../protocol/json-rpc.js';
import { buildParamHeaders, encodeHeaderValue, scanHeaderAnnotations } from '../protocol/x-mcp-header.js';
import type { HeaderAnnotation } from '../protocol/x-mcp-header.js';
import type { Implementation, ServerCapabilities, ToolDescriptor } from '../protocol/wire-types.js';
import type { HeaderLookup, InboundMessage, Reply } from '../transport/message-dispatcher.js';
import { PROTOCOL_VERSION } from '../protocol/constants.js';

/** Protocol revisions served on the legacy wire, newest first. */
export const LEGACY_PROTOCOL_VERSIONS: readonly string[] = Object.freeze(['2025-11-25', '2025-06-18', '2025-03-26']);

/** Options of the legacy wire (`createServer({ legacyWire })`). */
export interface LegacyWireOptions {
  /** Sessions unused for this long are dropped (default 30 minutes). */
  sessionIdleMs?: number;
  /** At most this many sessions; the least recently used goes first (default 1000). */
  maxSessions?: number;
  /** How long to wait for a client's answer to an input request (default 5 minutes). */
  inputTimeoutMs?: number;
  /** Input-required rounds per call before giving up (default 10). */
  maxInputRounds?: number;
}

/** What the legacy wire needs to know about the server. */
export interface LegacyServerInfo {
  serverInfo: Implementation;
  capabilities: ServerCapabilities;
  instructions: string | undefined;
  tools: readonly Readonly<ToolDescriptor>[];
}

interface Session {
  id: string;
  capabilities: JsonObject;
  logLevel: string | undefined;
  lastUsed: number;
  /** Server-to-client requests awaiting the client's answer. */
  pending: Map<JsonRpcId, { resolve(answer: JsonObject): void }>;
  /** Client requests in flight, for `notifications/cancelled`. */
  inflight: Map<JsonRpcId, AbortController>;
  nextRequestId: number;
}

const LOG_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];
const JSON_HEADERS = { 'Content-Type': 'application/json' } as const;
const LOCAL_METHODS = new Set(['initialize', 'ping', 'logging/setLevel', 'resources/subscribe', 'resources/unsubscribe']);
const MODERN_ONLY_METHODS = new Set(['server/discover', 'subscriptions/listen']);

function reply(status: number, body: JsonObject | undefined, headers?: Record<string, string>): Reply {
  return body === undefined ? { status, body: undefined, headers } : { status, body: JSON.stringify(body), headers: headers === undefined ? JSON_HEADERS : { ...JSON_HEADERS, ...headers } };
}

function errorReply(status: number, id: JsonRpcId | undefined, code: number, message: string): Reply {
  return reply(status, id === undefined ? { jsonrpc: '2.0', error: { code, message } } : { jsonrpc: '2.0', id, error: { code, message } });
}

function resultReply(id: JsonRpcId, result: JsonObject, headers?: Record<string, string>): Reply {
  return reply(200, { jsonrpc: '2.0', id, result }, headers);
}

/** Capabilities as a 2025-11-25 `InitializeResult` states them. */
function legacyCapabilities(modern: ServerCapabilities): JsonObject {
  const out: JsonObject = {};
  if (modern.tools !== undefined) out.tools = { ...modern.tools };
  if (modern.prompts !== undefined) out.prompts = { ...modern.prompts };
  // Subscribing is accepted (and answered with {}); updates would need the GET stream this server does not keep.
  if (modern.resources !== undefined) out.resources = { ...modern.resources, subscribe: true };
  if (modern.logging !== undefined) out.logging = {};
  if (modern.completions !== undefined) out.completions = {};
  return out;
}

/** Strips the 2026-07-28-only fields from a result so it reads as a 2025-11-25 one. */
function toLegacyResult(result: JsonObject): JsonObject {
  const { resultType: _type, ttlMs: _ttl, cacheScope: _scope, ...rest } = result;
  if (isJsonObject(rest._meta)) {
    const { [META.serverInfo]: _info, [META.subscriptionId]: _sub, ...meta } = rest._meta;
    if (Object.keys(meta).length === 0) delete rest._meta;
    else rest._meta = meta;
  }
  return rest;
}

/**
 * Wraps a 2026-07-28 dispatcher so the same endpoint also serves 2025-11-25 clients. Requests that
 * make a 2026-07-28 claim (no session, no legacy version header, not `initialize`) pass straight
 * through.
 */
export function createLegacyWire(
  modern: (message: InboundMessage) => Promise<Reply>,
  info: LegacyServerInfo,
  options: LegacyWireOptions = {},
): (message: InboundMessage) => Promise<Reply> {
  const idleMs = options.sessionIdleMs ?? 30 * 60_000;
  const maxSessions = options.maxSessions ?? 1000;
  const inputTimeoutMs = options.inputTimeoutMs ?? 5 * 60_000;
  const maxRounds = options.maxInputRounds ?? 10;
  const sessions = new Map<string, Session>();
  const capabilities = legacyCapabilities(info.capabilities);
  const annotations = new Map<string, HeaderAnnotation[]>();
  for (const tool of info.tools) {
    const found = scanHeaderAnnotations(tool.inputSchema).annotations;
    if (found.length > 0) annotations.set(tool.name, found);
  }
  const legacyVersions = new Set(LEGACY_PROTOCOL_VERSIONS);
  const decoder = new TextDecoder();

  function sweep(now: number): void {
    for (const [id, session] of sessions) if (now - session.lastUsed > idleMs && session.inflight.size === 0) sessions.delete(id);
    while (sessions.size >= maxSessions) {
      const oldest = sessions.keys().next().value as string;
      sessions.delete(oldest);
    }
  }

  function initialize(id: JsonRpcId, params: JsonObject, sessionHeader: string | undefined): Reply {
    if (sessionHeader !== undefined) return errorReply(400, id, -32600, 'Invalid request: initialize must not carry an Mcp-Session-Id');
    if (typeof params.protocolVersion !== 'string' || !isJsonObject(params.capabilities)) {
      return errorReply(400, id, -32602, 'Invalid params: initialize needs protocolVersion and capabilities');
    }
    const now = Date.now();
    sweep(now);
    const session: Session = { id: randomUUID(), capabilities: params.capabilities, logLevel: undefined, lastUsed: now, pending: new Map(), inflight: new Map(), nextRequestId: 1 };
    sessions.set(session.id, session);
    const version = legacyVersions.has(params.protocolVersion) ? params.protocolVersion : (LEGACY_PROTOCOL_VERSIONS[0] as string);
    const result: JsonObject = { protocolVersion: version, capabilities, serverInfo: info.serverInfo };
    if (info.instructions !== undefined) result.instructions = info.instructions;
    return resultReply(id, result, { 'Mcp-Session-Id': session.id });
  }

  function local(session: Session, id: JsonRpcId, method: string, params: JsonObject): Reply {
    switch (method) {
      case 'logging/setLevel':
        if (typeof params.level !== 'string' || !LOG_LEVELS.includes(params.level)) return errorReply(200, id, -32602, `Invalid params: level must be one of ${LOG_LEVELS.join(', ')}`);
        session.logLevel = params.level;
        return resultReply(id, {});
      case 'resources/subscribe':
      case 'resources/unsubscribe':
        if (typeof params.uri !== 'string') return errorReply(200, id, -32602, `Invalid params: ${method} needs a string "uri"`);
        return resultReply(id, {});
      default: // ping
        return resultReply(id, {});
    }
  }

  /** Sends one input request to the client on the call's stream and waits for the answer. */
  function ask(session: Session, request: JsonObject, notify: (n: JsonRpcNotification) => void, signal: AbortSignal): Promise<JsonObject> {
    const id = `tw-${session.nextRequestId++}`;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => finish(new Error(`no answer to ${String(request.method)} within ${inputTimeoutMs} ms`)), inputTimeoutMs);
      const onAbort = (): void => finish(new Error('cancelled'));
      const finish = (outcome: JsonObject | Error): void => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        session.pending.delete(id);
        if (outcome instanceof Error) reject(outcome);
        else resolve(outcome);
      };
      session.pending.set(id, { resolve: finish });
      signal.addEventListener('abort', onAbort, { once: true });
      const params = isJsonObject(request.params) ? request.params : {};
      notify({ jsonrpc: '2.0', id, method: request.method as string, params } as unknown as JsonRpcNotification);
    });
  }

  async function forward(message: InboundMessage, session: Session, id: JsonRpcId, method: string, params: JsonObject): Promise<Reply> {
    const controller = new AbortController();
    if (message.isAborted()) controller.abort();
    else message.signal.addEventListener('abort', () => controller.abort(), { once: true });
    session.inflight.set(id, controller);
    const header: HeaderLookup = (name) => {
      if (name === 'mcp-protocol-version') return PROTOCOL_VERSION;
      if (name === 'mcp-method') return method;
      if (name === 'mcp-name') {
        const value = method === 'resources/read' ? params.uri : params.name;
        return typeof value === 'string' ? encodeHeaderValue(value) : undefined;
      }
      if (name.startsWith('mcp-param-')) {
        const found = method === 'tools/call' && typeof params.name === 'string' ? annotations.get(params.name) : undefined;
        if (found === undefined || !isJsonObject(params.arguments)) return undefined;
        const mirrored = buildParamHeaders(found, params.arguments);
        const key = Object.keys(mirrored).find((k) => k.toLowerCase() === name);
        return key === undefined ? undefined : mirrored[key];
      }
      return message.header?.(name);
    };
    const meta = isJsonObject(params._meta) ? params._meta : {};
    let current: JsonObject = {
      ...params,
      _meta: { ...meta, [META.protocolVersion]: PROTOCOL_VERSION, [META.clientCapabilities]: session.capabilities, [META.logLevel]: session.logLevel ?? 'debug' },
    };
    try {
      for (let round = 0; ; round++) {
        const answer = await modern({
          body: JSON.stringify({ jsonrpc: '2.0', id, method, params: current }),
          transport: message.transport,
          header,
          signal: controller.signal,
          isAborted: () => controller.signal.aborted,
          notify: (n) => message.notify(n),
        });
        if (answer.body === undefined) return answer;
        const parsed = JSON.parse(answer.body) as JsonObject;
        const result = parsed.result;
        if (!isJsonObject(result)) return answer;
        if (result.resultType !== 'input_required') return { ...answer, body: JSON.stringify({ ...parsed, result: toLegacyResult(result) }) };
        if (round >= maxRounds) return errorReply(500, id, -32603, `Internal error: ${method} still needed input after ${maxRounds} rounds`);
        const responses: JsonObject = {};
        for (const [key, request] of Object.entries(isJsonObject(result.inputRequests) ? result.inputRequests : {})) {
          if (!isJsonObject(request)) continue;
          const response = await ask(session, request, message.notify.bind(message), controller.signal);
          if (isJsonObject(response.error)) {
            return errorReply(200, id, -32603, `Internal error: the client answered ${String(request.method)} with error ${String(response.error.code)}: ${String(response.error.message)}`);
          }
          responses[key] = response.result;
        }
        current = { ...current, inputResponses: responses };
        if (typeof result.requestState === 'string') current.requestState = result.requestState;
        else delete current.requestState;
      }
    } catch (error) {
      if (controller.signal.aborted) return { status: 499, body: undefined };
      return errorReply(200, id, -32603, `Internal error: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      session.inflight.delete(id);
    }
  }

  return async function handleMessage(message: InboundMessage): Promise<Reply> {
    if (message.transport !== 'http' || message.header === undefined) return modern(message);
    const sessionHeader = message.header('mcp-session-id')?.trim();
    const versionHeader = message.header('mcp-protocol-version')?.trim();
    // A 2026-07-28 claim wins; such clients' stray Mcp-Session-Id headers are ignored (R-80).
    if (versionHeader !== undefined && !legacyVersions.has(versionHeader)) return modern(message);
    let parsed: unknown;
    try {
      parsed = JSON.parse(typeof message.body === 'string' ? message.body : decoder.decode(message.body));
    } catch {
      return modern(message);
    }
    const m = isJsonObject(parsed) ? parsed : undefined;
    const params = m !== undefined && isJsonObject(m.params) ? m.params : {};
    const modernClaim = isJsonObject(params._meta) && typeof params._meta[META.protocolVersion] === 'string';
    if (sessionHeader === undefined && versionHeader === undefined && !(m?.method === 'initialize' && !modernClaim)) return modern(message);
    if (m === undefined || m.jsonrpc !== '2.0') return errorReply(400, undefined, -32600, 'Invalid request: expected one JSON-RPC 2.0 message');
    const id = isJsonRpcId(m.id) ? m.id : undefined;
    if (m.method === 'initialize' && id !== undefined) return initialize(id, params, sessionHeader);
    if (sessionHeader === undefined) return errorReply(400, id, -32600, 'Bad request: Mcp-Session-Id header is required; send initialize first');
    const session = sessions.get(sessionHeader);
    if (session === undefined) return errorReply(404, id, -32001, 'Session not found: initialize again');
    session.lastUsed = Date.now();
    sessions.delete(session.id);
    sessions.set(session.id, session); // keeps the map in least-recently-used order for eviction
    if (typeof m.method !== 'string') {
      // A client's answer to one of our input requests.
      const waiting = id === undefined ? undefined : session.pending.get(id);
      if (waiting !== undefined) waiting.resolve(m);
      return { status: 202, body: undefined };
    }
    if (id === undefined) {
      if (m.method === 'notifications/cancelled' && isJsonRpcId(params.requestId)) session.inflight.get(params.requestId)?.abort();
      return { status: 202, body: undefined };
    }
    if (LOCAL_METHODS.has(m.method)) return local(session, id, m.method, params);
    if (MODERN_ONLY_METHODS.has(m.method)) return errorReply(404, id, -32601, `Method not found: ${m.method}`);
    return forward(message, session, id, m.method, params);
  };
}
