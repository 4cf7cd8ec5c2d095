/**
 * One upstream MCP server behind the proxy: the `toolwright/client` connection to it, replaced
 * (at most `maxReconnects` times per `reconnectWindowMs`) when it dies; a per-call timeout; a limit
 * on calls in flight with a bounded queue; and every failure turned into an `isError` result that
 * says what happened, so a dead or hanging upstream never takes the front server down.
 *
 * Over 400 lines because the connection's whole life is one concept here: which client is current,
 * retired or listening decides how every call, request and re-list behaves, and splitting it would
 * spread that state over files that each need all of it.
 */
import { ErrorCode } from '../../protocol/error-codes.js';
import { connect, McpClientError, TASKS_EXTENSION } from '../../client/index.js';
import type { CallToolOptions, ClientWarning, McpClient, OAuthClient, ProtocolEra, ToolListing } from '../../client/index.js';
import type { JsonObject, JsonRpcNotification } from '../../protocol/json-rpc.js';
import { isJsonObject } from '../../json/json-object.js';
import { META } from '../../protocol/index.js';
import type { CallToolResult, ContentBlock, JsonValue } from '../../protocol/index.js';
import type { ToolContext, ToolResultInit } from '../../server/index.js';
import { ProxyError } from './proxy-error.js';

/** A stdio upstream: a program the proxy starts and speaks newline-delimited JSON-RPC with. */
export interface StdioUpstreamTarget {
  command: string;
  args?: readonly string[];
  /** The child's environment (default: this process's). Caller tokens are never put here. */
  env?: Readonly<Record<string, string>>;
  cwd?: string;
}

/**
 * A Streamable HTTP upstream. `headers` (e.g. `Authorization: Bearer ...`) are the upstream's own
 * credentials, sent on every request; or `oauth`, the proxy's own OAuth client for an upstream that
 * asks for OAuth (its tokens are the proxy's, never a caller's).
 */
export interface HttpUpstreamTarget {
  url: string;
  headers?: Readonly<Record<string, string>>;
  oauth?: OAuthClient;
}

/** Where the upstream is. */
export type UpstreamTarget = StdioUpstreamTarget | HttpUpstreamTarget;

/** Limits and behaviour of one upstream. */
export interface UpstreamOptions {
  /** How the upstream is named in messages (default: the prefix, else the URL or command). */
  label?: string;
  /** Longest time one call may take, queue wait included, in ms (default 60 000); then it is cancelled upstream. */
  timeoutMs?: number;
  /** Calls in flight to this upstream at once (default 16). */
  maxConcurrent?: number;
  /** Calls waiting for a free slot (default 64); one more is refused at once. */
  maxQueued?: number;
  /** New connections after the first, within `reconnectWindowMs` (default 3). */
  maxReconnects?: number;
  /** The window `maxReconnects` counts in, in ms (default 60 000). */
  reconnectWindowMs?: number;
  /** Largest JSON-RPC message accepted from the upstream, in bytes (default 4 MiB); a larger result fails its call. */
  maxMessageBytes?: number;
  /** Which protocol era to speak (default `auto`: found as the spec's backward-compatibility rules say). */
  era?: 'auto' | ProtocolEra;
}

interface Resolved {
  label: string;
  timeoutMs: number;
  maxConcurrent: number;
  maxQueued: number;
  maxReconnects: number;
  reconnectWindowMs: number;
  maxMessageBytes: number;
  era: 'auto' | ProtocolEra;
}

const EXCERPT = 500;
/** How long the upstream's tool list (which the client reads to mirror x-mcp-header values) is reused between calls. */
const LIST_REUSE_MS = 5 * 60_000;
const CONTENT_TYPES = new Set(['text', 'image', 'audio', 'resource', 'resource_link']);
/** A modern upstream's `subscriptions/listen` is held open for as long as setTimeout allows, and reopened when it ends. */
const LISTEN_MS = 2 ** 31 - 1;
/** Times a modern listen stream is reopened in a row when it fails at once (then the next reconnect or re-list tries again). */
const LISTEN_RETRIES = 3;
const LIST_KINDS = ['tools', 'prompts', 'resources'] as const;

/** A list the upstream says changed. */
export type UpstreamListKind = (typeof LIST_KINDS)[number];

/** The list a `notifications/<kind>/list_changed` names, if any. */
function changedList(notification: JsonRpcNotification): UpstreamListKind | undefined {
  return LIST_KINDS.find((kind) => notification.method === `notifications/${kind}/list_changed`);
}

function positive(name: string, value: number | undefined, fallback: number, zeroOk = false): number {
  const chosen = value ?? fallback;
  if (!Number.isInteger(chosen) || chosen < (zeroOk ? 0 : 1)) throw new ProxyError('invalid_options', `${name} must be a ${zeroOk ? 'non-negative' : 'positive'} integer, got ${JSON.stringify(value)}`);
  return chosen;
}

/** Is `target` an HTTP target (else stdio)? */
export function isHttpTarget(target: UpstreamTarget): target is HttpUpstreamTarget {
  return 'url' in target;
}

/** The target's name in messages when no label is given. */
export function describeTarget(target: UpstreamTarget): string {
  return isHttpTarget(target) ? target.url : [target.command, ...(target.args ?? [])].join(' ');
}

/** True for the -32021 a task-only tool answers a call that did not declare the tasks extension. */
function asksForTasks(error: unknown): boolean {
  if (!(error instanceof McpClientError) || error.kind !== 'rpc' || error.code !== ErrorCode.MissingRequiredClientCapability || !isJsonObject(error.data)) return false;
  const required = error.data['requiredCapabilities'];
  return isJsonObject(required) && isJsonObject(required['extensions']) && isJsonObject(required['extensions'][TASKS_EXTENSION]);
}

function failure(text: string): ToolResultInit {
  return { content: [{ type: 'text', text }], isError: true };
}

function excerpt(text: string): string {
  return text.length > EXCERPT ? `${text.slice(0, EXCERPT)}...` : text;
}

/** A content block the front can pass on: an object with a known `type` (text blocks with string `text`). */
function isContentBlock(value: unknown): value is ContentBlock {
  if (!isJsonObject(value) || typeof value.type !== 'string' || !CONTENT_TYPES.has(value.type)) return false;
  return value.type !== 'text' || typeof value.text === 'string';
}

/** One client to the upstream and the calls it carries. */
interface Live {
  readonly client: McpClient;
  calls: number;
  /** Failed as a whole: no new call gets it, and it is closed once its last call is done. */
  retired: boolean;
}

/** A connected upstream; see the module comment. Made by `toolsFromUpstream`. */
export class Upstream {
  readonly label: string;
  readonly #target: UpstreamTarget;
  readonly #options: Resolved;
  #live: Live | undefined;
  /** Retired clients whose calls are still running (closed with the upstream if it closes first). */
  readonly #retired = new Set<Live>();
  readonly #reconnects: number[] = [];
  #active = 0;
  readonly #queue: (() => void)[] = [];
  #closed = false;
  /** Warnings the client gave (tools it excluded), for the proxy's problems. */
  readonly warnings: ClientWarning[] = [];
  /** Told of the upstream's list changes, and of a new connection (its lists may have changed meanwhile). */
  readonly #watch: ((kind: UpstreamListKind) => void) | undefined;
  /** Clients whose modern `subscriptions/listen` stream is open (or opening). */
  readonly #listening = new WeakSet<McpClient>();
  readonly #stopListening = new AbortController();

  /** `watch`: follow the upstream's `list_changed` (legacy: notifications; modern: a `subscriptions/listen` stream). */
  constructor(target: UpstreamTarget, options: UpstreamOptions = {}, watch?: (kind: UpstreamListKind) => void) {
    if (!isJsonObject(target) || (!('url' in target) && !('command' in target))) throw new ProxyError('invalid_options', 'an upstream needs { url, headers? } (Streamable HTTP) or { command, args?, env? } (stdio)');
    if (isHttpTarget(target) && (typeof target.url !== 'string' || !URL.canParse(target.url) || !/^https?:$/.test(new URL(target.url).protocol))) throw new ProxyError('invalid_options', `upstream url must be an http(s) URL, got ${JSON.stringify(target.url)}`);
    if (!isHttpTarget(target) && (typeof target.command !== 'string' || target.command.trim() === '')) throw new ProxyError('invalid_options', 'a stdio upstream needs a command');
    if (options.era !== undefined && !['auto', 'modern', 'legacy'].includes(options.era)) throw new ProxyError('invalid_options', `era must be "auto", "modern" or "legacy", got ${JSON.stringify(options.era)}`);
    this.#target = target;
    this.#watch = watch;
    this.label = options.label ?? describeTarget(target);
    this.#options = {
      label: this.label,
      timeoutMs: positive('timeoutMs', options.timeoutMs, 60_000),
      maxConcurrent: positive('maxConcurrent', options.maxConcurrent, 16),
      maxQueued: positive('maxQueued', options.maxQueued, 64, true),
      maxReconnects: positive('maxReconnects', options.maxReconnects, 3, true),
      reconnectWindowMs: positive('reconnectWindowMs', options.reconnectWindowMs, 60_000),
      maxMessageBytes: positive('maxMessageBytes', options.maxMessageBytes, 4 * 1024 * 1024),
      era: options.era ?? 'auto',
    };
    this.#live = this.#connect();
  }

  /** The era the upstream speaks, once known. */
  get era(): ProtocolEra | undefined {
    return this.#live?.client.era;
  }

  #connect(): Live {
    const target = this.#target;
    const bytes = this.#options.maxMessageBytes;
    const client = connect(
      isHttpTarget(target)
        ? { url: target.url, headers: { ...target.headers }, maxMessageBytes: bytes, ...(target.oauth !== undefined ? { oauth: target.oauth } : {}) }
        : { command: target.command, args: [...(target.args ?? [])], ...(target.env !== undefined ? { env: { ...target.env } } : {}), ...(target.cwd !== undefined ? { cwd: target.cwd } : {}), stderr: 'capture', maxMessageBytes: bytes, label: `upstream ${JSON.stringify(this.label)}` },
      {
        clientInfo: { name: 'toolwright-proxy', version: '0.1.0' },
        // Elicitation and sampling during a call are put to the front's caller (held-input-calls.ts);
        // roots are not declared: a proxy has no roots of its own to answer with between calls.
        capabilities: { elicitation: {}, sampling: {} },
        timeoutMs: this.#options.timeoutMs,
        era: this.#options.era,
        // The front's pipeline checks structuredContent against the outputSchema it lists.
        validateOutput: false,
        // A call does not list the upstream again first: the proxy lists again when the upstream says its list changed.
        minListTtlMs: LIST_REUSE_MS,
        onWarning: (warning) => void this.#keepWarning(warning),
        // Listening opens a legacy HTTP session's GET stream, where its list_changed arrive.
        ...(this.#watch !== undefined ? { onNotification: (n: JsonRpcNotification) => this.#heard(n) } : {}),
      },
    );
    return { client, calls: 0, retired: false };
  }

  /** Bounded: an upstream that re-lists often must not grow the warnings without end. */
  #keepWarning(warning: ClientWarning): void {
    if (this.warnings.length < 1000) this.warnings.push(warning);
  }

  #heard(notification: JsonRpcNotification): void {
    const kind = changedList(notification);
    if (kind !== undefined && !this.#closed) this.#watch?.(kind);
  }

  /**
   * A modern upstream sends list changes only on a `subscriptions/listen` stream: opens one for the
   * current client once its era is known (after a listing), and reopens it when it ends, a few
   * times in a row at most.
   */
  #listenIfModern(client: McpClient): void {
    if (this.#watch === undefined || client.era !== 'modern' || this.#listening.has(client)) return;
    this.#listening.add(client);
    const params: JsonObject = { notifications: { toolsListChanged: true, promptsListChanged: true, resourcesListChanged: true } };
    void (async () => {
      for (let failures = 0; failures < LISTEN_RETRIES && !this.#closed && this.#live?.client === client;) {
        const opened = Date.now();
        try {
          await client.request('subscriptions/listen', params, { signal: this.#stopListening.signal, timeoutMs: LISTEN_MS, onNotification: (n) => this.#heard(n) });
        } catch {
          // Ended by close, a dead connection (the next call reconnects) or a refusal: counted below.
        }
        failures = Date.now() - opened < 1000 ? failures + 1 : 0;
      }
      this.#listening.delete(client);
    })();
  }

  /** The current client, or a new one when the last died and the reconnect budget allows; else why not. */
  #current(): Live | string {
    if (this.#closed) return `Upstream ${this.label} is closed (the proxy is shutting down).`;
    if (this.#live !== undefined) return this.#live;
    const now = Date.now();
    while (this.#reconnects.length > 0 && this.#reconnects[0]! <= now - this.#options.reconnectWindowMs) this.#reconnects.shift();
    if (this.#reconnects.length >= this.#options.maxReconnects) {
      return `Upstream ${this.label} is down: it was reconnected ${this.#reconnects.length} time(s) in the last ${this.#options.reconnectWindowMs} ms (the limit), so no call is sent until that window has passed.`;
    }
    this.#reconnects.push(now);
    this.#live = this.#connect();
    // The lists may have changed while the upstream was away; listing them again also reopens a modern listen stream.
    if (this.#watch !== undefined) queueMicrotask(() => this.#watch?.('tools'));
    return this.#live;
  }

  /** Every tool the upstream lists (all pages); at setup. */
  async listTools(): Promise<ToolListing> {
    const live = this.#current();
    if (typeof live === 'string') throw new ProxyError('upstream_unavailable', live);
    try {
      const listing = await live.client.listTools({ refresh: true });
      this.#listenIfModern(live.client);
      return listing;
    } catch (error) {
      throw new ProxyError('upstream_unavailable', `upstream ${this.label}: tools/list failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
  }

  /** What the upstream declares it serves (its `server/discover` or `initialize` answer). */
  async capabilities(): Promise<JsonObject> {
    const live = this.#current();
    if (typeof live === 'string') throw new ProxyError('upstream_unavailable', live);
    try {
      return (await live.client.discover()).capabilities as JsonObject;
    } catch (error) {
      throw new ProxyError('upstream_unavailable', `upstream ${this.label}: its capabilities could not be read: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
  }

  /**
   * Sends one request that is not a tool call (resources, prompts) with the per-call timeout.
   * Throws ProxyError `upstream_unavailable` naming the upstream and method when it fails.
   */
  async request(method: string, params: JsonObject, signal?: AbortSignal): Promise<JsonObject> {
    const live = this.#current();
    if (typeof live === 'string') throw new ProxyError('upstream_unavailable', live);
    live.calls++;
    try {
      return await live.client.request(method, params, { timeoutMs: this.#options.timeoutMs, ...(signal !== undefined ? { signal } : {}) });
    } catch (error) {
      if (error instanceof McpClientError && (error.kind === 'transport' || error.kind === 'closed')) this.#retire(live);
      const why = error instanceof McpClientError && error.kind === 'rpc' ? `JSON-RPC error ${String(error.code)}: ${excerpt(error.serverMessage ?? error.message)}` : excerpt(error instanceof Error ? error.message : String(error));
      throw new ProxyError('upstream_unavailable', `upstream ${this.label}: ${method} failed: ${why}`, { cause: error });
    } finally {
      this.#doneWith(live);
    }
  }

  /** Hands the slot of a finished call to the next one waiting, or frees it. */
  readonly #release = (): void => {
    const next = this.#queue.shift();
    if (next !== undefined) next();
    else this.#active--;
  };

  /**
   * A slot: the release function at once when one is free (no promise: nearly every call), else
   * the wait for one (at most `timeoutMs`, or until `caller` aborts), which resolves to the release
   * function or a refusal text.
   */
  #acquire(caller: AbortSignal): (() => void) | string | Promise<(() => void) | string> {
    const release = this.#release;
    if (this.#active < this.#options.maxConcurrent) {
      this.#active++;
      return release;
    }
    if (this.#queue.length >= this.#options.maxQueued) {
      return `Upstream ${this.label} is busy: ${this.#options.maxConcurrent} call(s) in flight and ${this.#queue.length} waiting (the limits); try again shortly.`;
    }
    // The deadline is made only for a call that must wait: a free slot is taken with no timer at all.
    const signal = AbortSignal.any([caller, AbortSignal.timeout(this.#options.timeoutMs)]);
    return new Promise((resolve) => {
      const onAbort = (): void => {
        const index = this.#queue.indexOf(grant);
        if (index >= 0) this.#queue.splice(index, 1);
        resolve(signal.reason instanceof DOMException && signal.reason.name === 'TimeoutError'
          ? `Upstream ${this.label} had no free slot within ${this.#options.timeoutMs} ms (${this.#options.maxConcurrent} call(s) in flight); the call was not sent.`
          : `The call was cancelled while waiting for upstream ${this.label}; it was not sent.`);
      };
      const grant = (): void => {
        signal.removeEventListener('abort', onAbort);
        resolve(release);
      };
      this.#queue.push(grant);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  /**
   * Calls `name` upstream with exactly `args`, cancelled with `ctx.signal`, its progress passed to
   * `ctx.progress` when the caller asked for progress, its input requests (either era) to
   * `onInputRequired` (held-input-calls.ts). Never throws: every failure is an `isError` result
   * naming the upstream and what went wrong.
   */
  async call(name: string, args: Record<string, unknown>, ctx: Pick<ToolContext, 'signal' | 'progress' | 'requestMeta'>, onInputRequired?: CallToolOptions['onInputRequired']): Promise<ToolResultInit> {
    if (this.#closed) return failure(`Upstream ${this.label} is closed (the proxy is shutting down).`);
    const started = Date.now();
    const slot = this.#acquire(ctx.signal);
    const release = typeof slot === 'object' ? await slot : slot;
    if (typeof release === 'string') return failure(release);
    const live = this.#current();
    if (typeof live === 'string') {
      release();
      return failure(live);
    }
    live.calls++;
    try {
      const wantsProgress = ctx.requestMeta[META.progressToken] !== undefined;
      const remaining = Math.max(1, this.#options.timeoutMs - (Date.now() - started));
      const options: CallToolOptions = {
        signal: ctx.signal,
        timeoutMs: remaining,
        ...(wantsProgress ? { onProgress: (update) => ctx.progress(update.progress, update.total, update.message) } : {}),
        ...(onInputRequired !== undefined ? { onInputRequired } : {}),
      };
      try {
        const result = await live.client.callTool<JsonValue>(name, args, options);
        return this.#adopt(name, result);
      } catch (error) {
        // A tool that runs only as a task refuses before anything runs: call it again as one.
        if (asksForTasks(error)) return await this.#callAsTask(live, name, args, options, ctx, started);
        return this.#explain(name, live, error);
      }
    } finally {
      this.#doneWith(live);
      release();
    }
  }

  /**
   * Calls `name` as an upstream task (the tasks extension declared on the call) and waits for its
   * end within the call's `timeoutMs`: its progress goes to the caller, cancelling the front call
   * (or the deadline) cancels the upstream task, its input requests go where the call's do.
   */
  async #callAsTask(live: Live, name: string, args: Record<string, unknown>, options: CallToolOptions, ctx: Pick<ToolContext, 'signal' | 'progress' | 'requestMeta'>, started: number): Promise<ToolResultInit> {
    const { onProgress, ...rest } = options;
    const remaining = Math.max(1, this.#options.timeoutMs - (Date.now() - started));
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(), remaining);
    const signal = AbortSignal.any([ctx.signal, deadline.signal]);
    try {
      const task = await live.client.callTool(name, args, { ...rest, signal, task: true });
      const stopProgress = onProgress === undefined ? undefined : task.on('progress', onProgress);
      const cancel = (): void => void task.cancel().catch(() => {});
      signal.addEventListener('abort', cancel, { once: true });
      try {
        return this.#adopt(name, await task.result({ signal }));
      } finally {
        signal.removeEventListener('abort', cancel);
        stopProgress?.();
      }
    } catch (error) {
      if (deadline.signal.aborted && !ctx.signal.aborted) return failure(`Upstream ${this.label} did not finish the task of ${name} within ${this.#options.timeoutMs} ms; the task was cancelled upstream.`);
      return this.#explain(name, live, error);
    } finally {
      clearTimeout(timer);
    }
  }

  /** The upstream's result as the front returns it: content, structuredContent and isError only. */
  #adopt(name: string, result: CallToolResult): ToolResultInit {
    const bad = result.content.findIndex((block) => !isContentBlock(block));
    if (bad >= 0) return failure(`Upstream ${this.label} answered ${name} with a malformed result: content[${bad}] is not a content block (${excerpt(JSON.stringify(result.content[bad]) ?? 'undefined')}).`);
    return {
      content: result.content,
      ...(result.structuredContent !== undefined ? { structuredContent: result.structuredContent } : {}),
      ...(result.isError === true ? { isError: true } : {}),
    };
  }

  /** The connection failed as a whole: the next call gets a new one; this one closes now (stdio) or after its last call (HTTP). */
  #retire(live: Live): void {
    if (this.#live !== live || this.#closed) return;
    this.#live = undefined;
    live.retired = true;
    if (isHttpTarget(this.#target) && live.calls > 0) this.#retired.add(live);
    else void live.client.close().catch(() => {});
  }

  /** One call or request on `live` is over: a retired HTTP client closes after its last. */
  #doneWith(live: Live): void {
    live.calls--;
    if (live.retired && live.calls === 0 && this.#retired.delete(live)) void live.client.close().catch(() => {});
  }

  #explain(name: string, live: Live, error: unknown): ToolResultInit {
    if (!(error instanceof McpClientError)) return failure(`Call to upstream ${this.label} (${name}) failed: ${error instanceof Error ? error.message : String(error)}`);
    // A connection that failed as a whole is replaced for the next call (never is this call retried: it may have run).
    // Over HTTP it is closed when its last call is done, not now: one request's failure says nothing of the
    // others in flight, and closing would fail them all ("the client was closed"). A stdio child is one pipe: closed now.
    if (error.kind === 'transport' || error.kind === 'closed' || (error.kind === 'protocol' && error.method === undefined)) this.#retire(live);
    switch (error.kind) {
      case 'rpc':
        return failure(`Upstream ${this.label} refused ${name}: JSON-RPC error ${String(error.code)}: ${excerpt(error.serverMessage ?? error.message)}`);
      case 'timeout':
        return failure(`Upstream ${this.label} did not answer ${name} within ${this.#options.timeoutMs} ms; the call was cancelled upstream.`);
      case 'aborted':
        return failure(`The call to upstream ${this.label} (${name}) was cancelled.`);
      case 'transport':
      case 'closed':
        return failure(`Upstream ${this.label} failed during ${name}: ${excerpt(error.message)}. The call may or may not have run there; the next call reconnects.`);
      case 'protocol':
        return failure(`Upstream ${this.label} sent a malformed answer to ${name}: ${excerpt(error.message)}`);
      case 'http':
        return failure(`Upstream ${this.label} answered ${name} with HTTP ${String(error.httpStatus)}: ${excerpt(error.message)}`);
      case 'input_required':
        return failure(`Upstream ${this.label} asked for input during ${name} that could not be answered: ${excerpt(error.message)}`);
      default:
        return failure(`Call to upstream ${this.label} (${name}) failed (${error.kind}): ${excerpt(error.message)}`);
    }
  }

  /** Closes the connection (a stdio child is stopped); later calls get an error result. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#stopListening.abort();
    const clients = [...(this.#live !== undefined ? [this.#live] : []), ...this.#retired].map((live) => live.client);
    this.#live = undefined;
    this.#retired.clear();
    for (const grant of this.#queue.splice(0)) grant();
    await Promise.all(clients.map((client) => client.close().catch(() => {})));
  }
}
