/**
 * JSON-RPC batches in 2025-03-26 sessions, on HTTP and stdio. MCP 2025-03-26 lets a client send an
 * array of requests, notifications and responses (basic/index "Batching", basic/transports); the
 * next revision removed batching, so sessions negotiated at 2025-06-18 or later, and all 2026-07-28
 * traffic, keep refusing arrays exactly as before (the callers, http-wire.ts and stdio.ts,
 * decide that; this file only runs batches they accept).
 *
 * Each member is handled as if it had been sent alone in the session (`run`, which is
 * `LegacySessionWire.handle`): every call goes through the whole pipeline, answers to
 * server-to-client requests and `notifications/cancelled` do what they do alone. Members run
 * concurrently. The member count is bounded before anything runs (docs/hostile-input.md).
 */
import { META } from '../../protocol/constants.js';
import { echoExactId, isJsonObject, isJsonRpcId } from '../../protocol/json-rpc.js';
import type { JsonObject, JsonRpcId, JsonRpcNotification } from '../../protocol/json-rpc.js';
import type { HeaderLookup, InboundMessage, Reply } from '../../transport/message-dispatcher.js';
import { errorReply } from '../pipeline/reply.js';
import { rpcError } from '../outcomes.js';
import { describeType } from '../stages/stage.js';

/** The revisions whose sessions accept batches: 2025-03-26 only (2025-06-18 removed them). */
const BATCH_REVISIONS: ReadonlySet<string> = new Set(['2025-03-26']);

/** The default `legacy.maxBatchSize`: members per batch. */
export const DEFAULT_MAX_BATCH_SIZE = 32;

/** Whether a session (or a version header) of this revision may send batches. */
export function acceptsBatches(protocolVersion: string): boolean {
  return BATCH_REVISIONS.has(protocolVersion);
}

/** The refusal of an array outside a 2025-03-26 session, word for word what every array got before batches existed. */
export function notOneMessage(): Reply {
  return errorReply(rpcError('invalidRequest', 'Invalid request: expected one JSON-RPC 2.0 message (batches are not accepted)'), undefined);
}

const INITIALIZE_IN_BATCH = 'Invalid request: initialize must not be part of a JSON-RPC batch (MCP 2025-03-26, lifecycle); send it alone, then batch the requests that follow';

/** True when a member of `members` is an `initialize` request. */
export function holdsInitialize(members: readonly unknown[]): boolean {
  return members.some((m) => isJsonObject(m) && m.method === 'initialize');
}

/** The refusal of a batch holding `initialize` where no session is open yet (nothing in it runs: there is no session to run it in). */
export function initializeInBatch(): Reply {
  return errorReply(rpcError('legacyBatchInitialize', INITIALIZE_IN_BATCH), undefined);
}

/** Runs one member as if it had arrived alone in the session. */
export type RunMember = (m: JsonObject, member: InboundMessage) => Promise<Reply>;

/** What a member is, or why it is refused (the JSON-RPC 2.0 envelope rules, per member). */
function classify(m: unknown, index: number): 'request' | 'other' | { problem: string; id?: JsonRpcId } {
  if (!isJsonObject(m)) return { problem: `Invalid request: batch member ${index} is ${describeType(m)}, not a JSON-RPC message` };
  const id = isJsonRpcId(m.id) ? m.id : undefined;
  if (m.jsonrpc !== '2.0') return { problem: `Invalid request: batch member ${index}: jsonrpc must be "2.0"`, id };
  if (typeof m.method !== 'string') {
    // A client's answer to a server-to-client request: handled as if alone (an error answer may carry a null id).
    if (('result' in m || 'error' in m) && (id !== undefined || m.id === null)) return 'other';
    return { problem: `Invalid request: batch member ${index}: method must be a string`, id };
  }
  if ('id' in m && id === undefined) return { problem: `Invalid request: batch member ${index}: id must be a string or an integer, got ${describeType(m.id)}` };
  if (m.method === 'initialize') return { problem: INITIALIZE_IN_BATCH, id };
  // A 2026-07-28 request makes no sense inside a 2025-03-26 batch (2026-07-28 has no batches); refused rather than silently translated.
  const meta = isJsonObject(m.params) ? m.params._meta : undefined;
  if (isJsonObject(meta) && typeof meta[META.protocolVersion] === 'string') return { problem: `Invalid request: batch member ${index} claims ${String(meta[META.protocolVersion])}, which has no batches; send it alone`, id };
  return id === undefined ? 'other' : 'request';
}

/**
 * The raw text of each member of a JSON array, so each member keeps the exact digits of an id
 * beyond 2^53 (for its cancellation key and its answer). `text` must be valid JSON (it parsed).
 */
function splitArrayText(text: string): string[] | undefined {
  const start = text.indexOf('[');
  if (start < 0) return undefined;
  const members: string[] = [];
  let depth = 0;
  let from = start + 1;
  for (let i = start + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      for (i++; i < text.length && text.charCodeAt(i) !== 0x22; i++) if (text.charCodeAt(i) === 0x5c) i++;
    } else if (c === 0x5b || c === 0x7b) depth++;
    else if ((c === 0x5d || c === 0x7d) && depth > 0) depth--;
    else if (depth === 0 && (c === 0x2c || c === 0x5d)) {
      const member = text.slice(from, i).trim();
      if (member !== '') members.push(member);
      from = i + 1;
      if (c === 0x5d) return members;
    }
  }
  return undefined;
}

/** One member as the session sees it: the batch's transport, headers and abort signal; its own text. */
class BatchMember implements InboundMessage {
  readonly transport: InboundMessage['transport'];
  readonly header: HeaderLookup | undefined;
  readonly body: string;
  parsed: unknown;
  readonly #batch: BatchAnswer;

  constructor(batch: BatchAnswer, body: string, parsed: unknown) {
    this.#batch = batch;
    this.transport = batch.message.transport;
    this.header = batch.message.header;
    this.body = body;
    this.parsed = parsed;
  }

  get signal(): AbortSignal {
    return this.#batch.message.signal;
  }

  isAborted(): boolean {
    return this.#batch.message.isAborted();
  }

  get connectionSignal(): AbortSignal | undefined {
    return this.#batch.message.connectionSignal;
  }

  notify(notification: JsonRpcNotification): void {
    this.#batch.notify(notification);
  }
}

/**
 * Where the answers of one batch go. Over HTTP the POST is answered with one `application/json`
 * array (in member order) unless something has to be streamed first (progress, a log, a
 * server-to-client request, on a POST whose Accept allows an event stream, as for a request sent
 * alone); then the POST is an SSE stream, and it ends with the responses, each its own event, in
 * member order (`Reply.events`: the official SDK v1 client parses no arrays on a stream, and the
 * transport writes final events whatever the backpressure, where a notification may be dropped).
 * On stdio the answer is one array line once every member is done (JSON-RPC 2.0's batch rule);
 * notifications and server-to-client requests go out as their own lines meanwhile.
 */
class BatchAnswer {
  readonly message: InboundMessage;
  readonly answers: (string | undefined)[];

  constructor(message: InboundMessage, size: number) {
    this.message = message;
    this.answers = new Array<string | undefined>(size);
  }

  notify(notification: JsonRpcNotification): void {
    this.message.notify(notification);
  }
}

/**
 * Runs one batch of a 2025-03-26 session. `members` is the parsed array; `maxBatchSize` bounds it
 * (a larger batch is refused whole, nothing in it runs); `run` handles one member as if alone.
 */
export async function runBatch(members: readonly unknown[], message: InboundMessage, maxBatchSize: number, run: RunMember): Promise<Reply> {
  if (members.length === 0) return errorReply(rpcError('invalidRequest', 'Invalid request: the batch is empty; a JSON-RPC batch holds at least one message'), undefined);
  if (members.length > maxBatchSize) {
    return errorReply(rpcError('legacyBatchTooLarge', `Batch too large: ${members.length} messages; this server accepts at most ${maxBatchSize} per batch (legacy.maxBatchSize); nothing in it was run`, {
      data: { limit: maxBatchSize, received: members.length },
    }), undefined);
  }
  const text = typeof message.body === 'string' ? message.body : new TextDecoder().decode(message.body);
  const split = splitArrayText(text);
  const texts = split?.length === members.length ? split : members.map((m) => JSON.stringify(m));
  const batch = new BatchAnswer(message, members.length);
  let requests = 0;
  let authRefusal: Reply | undefined;
  await Promise.all(members.map(async (m, index) => {
    const kind = classify(m, index);
    if (typeof kind === 'object') {
      const rule = kind.problem === INITIALIZE_IN_BATCH ? 'legacyBatchInitialize' : 'invalidRequest';
      batch.answers[index] = errorReply(rpcError(rule, kind.problem), kind.id).body;
      return;
    }
    if (kind === 'request') requests++;
    const memberText = texts[index] as string;
    const reply = await run(m as JsonObject, new BatchMember(batch, memberText, m));
    // Authentication is the same for every member: a refusal keeps its status and headers (WWW-Authenticate), as alone.
    if ((reply.status === 401 || reply.status === 403) && authRefusal === undefined) authRefusal = reply;
    if (reply.body !== undefined) batch.answers[index] = echoExactId(memberText, reply.body);
  }));
  const answers = batch.answers.filter((a): a is string => a !== undefined);
  if (answers.length === 0) {
    // Only notifications and responses (or requests all cancelled): 202 with no body, as for one of them alone.
    // A POST that already became an event stream ends it; the transports ignore the status then.
    return { status: 202, body: undefined };
  }
  const body = `[${answers.join(',')}]`;
  if (authRefusal !== undefined) return { status: authRefusal.status, body, headers: authRefusal.headers, events: answers };
  // Nothing but refused members: the input as a whole was not accepted (transports: "an HTTP error status").
  return { status: requests > 0 ? 200 : 400, body, events: answers };
}
