/**
 * The operator entry point of THE approval mechanism (approvals.ts): a `tools/call` is held open
 * while an out-of-band operator (a console, a teach pendant) approves or declines exactly what it
 * would do, bound to its digest, before a deadline. Each pending call is one claim key in the
 * server's store; the first of {operator decision, deadline, client cancel, server close} to claim
 * it wins, so two consoles deciding at once (or a decision racing the deadline) settle it exactly
 * once, and a replayed decision is refused. The record names the operator.
 *
 * The queue lists the calls held by this process (the held-open request lives here); with several
 * instances the claims are shared through the store, but a console must decide on the instance that
 * holds the call (`pending()` of that instance).
 */
import { randomBytes } from 'node:crypto';
import type { DeclaredClient } from '../../protocol/client-info.js';
import type { JsonValue } from '../../protocol/json-rpc.js';
import type { ApprovalRecord, OperatorApprover } from './approvals.js';
import { toolError } from '../outcomes.js';
import type { Clock, Store } from '../store/store.js';
import type { AwaitOperatorOptions, OperatorDecision, OperatorRefusalReason, ToolApprovals } from '../contract/approval.js';
import { isJsonObject } from '../../json/json-object.js';

export type { AwaitOperatorOptions, OperatorDecision, OperatorRefusalReason, ToolApprovals } from '../contract/approval.js';

/** A call held open until an operator decides (what `server.approvals.pending()` lists). */
export interface PendingApproval {
  /** Opaque, unguessable id to pass to {@link ApprovalQueue.decide}. */
  readonly id: string;
  /** The call, e.g. `tools/call move_arm`. */
  readonly call: string;
  readonly tool: string;
  /** Digest of exactly what would run (default: tool name + canonical arguments; the robot: its plan hash). */
  readonly digest: string;
  /** What the operator is asked to approve, in plain words. */
  readonly summary: string;
  /** Anything the tool wants the operator to see (e.g. the planned path); JSON. */
  readonly details: JsonValue | undefined;
  /** The authenticated subject of the held call ('' when anonymous). */
  readonly subject: string;
  /**
   * The client's name and version as it declared them (2025: `initialize`'s clientInfo; 2026-07-28: the
   * request's clientInfo `_meta`), undefined when it declared none. Self-declared, not authenticated:
   * it tells apart the hosts behind one subject (e.g. the desktop bridge's token), nothing more.
   */
  readonly client: DeclaredClient | undefined;
  /** ms since epoch (server clock). */
  readonly requestedAt: number;
  /** After this (ms since epoch, server clock) the call is refused as timed out. */
  readonly deadline: number;
}

/** What an operator sends to {@link ApprovalQueue.decide}. */
export interface OperatorDecisionInit {
  approve: boolean;
  /** Who decides (non-empty; recorded as `approvedBy.operator`). */
  operator: string;
  /** The digest the operator saw. Required to approve; when given to decline it must match too. */
  digest?: string;
}

/** Outcome of {@link ApprovalQueue.decide}. */
export type DecideResult =
  | { readonly ok: true; readonly pending: PendingApproval; readonly decidedBy: OperatorApprover }
  | {
      readonly ok: false;
      /** `unknown`: no such pending call; `settled`: already decided, timed out, cancelled or closed (a replay); `wrong-digest`: the call would do something else than what the operator saw. */
      readonly reason: 'unknown' | 'settled' | 'wrong-digest';
      readonly message: string;
    };

/** How a pending call ended, as {@link ApprovalQueueEvent} reports it. */
export type SettledOutcome =
  | { readonly approved: true; readonly by: OperatorApprover }
  | { readonly approved: false; readonly reason: OperatorRefusalReason; readonly by: OperatorApprover | undefined };

/** What a queue listener hears: a call starts waiting, or a waiting call ends. */
export type ApprovalQueueEvent =
  | { readonly type: 'pending'; readonly pending: PendingApproval }
  | { readonly type: 'settled'; readonly pending: PendingApproval; readonly outcome: SettledOutcome };

/** `server.approvals`: the calls waiting for an operator, and how an operator decides them. */
export interface ApprovalQueue {
  /** The calls held open now, oldest first. */
  pending(): readonly PendingApproval[];
  /** One pending call, or undefined. */
  get(id: string): PendingApproval | undefined;
  /**
   * Approves or declines a pending call. Exactly one decision counts (also across concurrent calls
   * and against the deadline); later ones get `settled`. A wrong digest changes nothing.
   * @throws TypeError when `operator` is empty, `approve` not a boolean, or an approval lacks `digest`.
   */
  decide(id: string, decision: OperatorDecisionInit): Promise<DecideResult>;
  /** Listens to `pending` and `settled` events; returns the function that stops listening. */
  subscribe(listener: (event: ApprovalQueueEvent) => void): () => void;
  /**
   * Names where an operator can decide, e.g. `in the operator console at /console on this server`
   * (the console's approval routes do this). A waiting call's progress message then tells its client
   * where its approval is decided, beside the approval id; without a place it names only the id.
   * Never put a credential here: the client reads it. Returns the function that withdraws it.
   */
  advertise(where: string): () => void;
  /**
   * Times out every pending call whose deadline has passed by the server clock; resolves to how many.
   * Timers call it; call it yourself after moving an injected clock.
   */
  expireDue(): Promise<number>;
}

/** Options of {@link createApprovalQueue}. */
export interface ApprovalQueueOptions {
  store: Store;
  clock: Clock;
  /** Longest hold allowed (the server's `approvalTtlMs`). */
  maxTimeoutMs: number;
  /** How often a waiting call with a progress token is told it is still waiting (default 5000 ms). */
  progressIntervalMs?: number;
  /** Where listener faults are reported. */
  onListenerError?: (error: unknown) => void;
}

/** What a call holds while it waits: the parts of its context the queue needs. */
export interface HeldCall {
  readonly call: string;
  readonly tool: string;
  readonly defaultDigest: string;
  readonly subject: string;
  /** The client's self-declared name and version, if any. */
  readonly client: DeclaredClient | undefined;
  readonly signal: AbortSignal;
  progress(progress: number, total?: number, message?: string): void;
  /** Sends `notifications/message` if the request asked for logs at this level. */
  log(level: 'notice', data: string): void;
}

/** The queue plus what the server itself needs of it. */
export interface ServerApprovalQueue extends ApprovalQueue {
  /** The operator part of `ctx.approvals` of one call. */
  forCall(held: HeldCall): Pick<ToolApprovals, 'awaitOperator'>;
  /** Refuses every waiting call (reason `closed`) and stops the timers. */
  close(): Promise<void>;
}

export const DEFAULT_OPERATOR_TIMEOUT_MS = 45_000;
const DEFAULT_PROGRESS_INTERVAL_MS = 5_000;
// A settled claim is kept this long after the deadline so late replays read `settled`, not `unknown`.
const SETTLED_RETENTION_MS = 10 * 60_000;

interface Waiting {
  readonly pending: PendingApproval;
  readonly held: HeldCall;
  /** The call's signal, combined with the wait's own (`AwaitOperatorOptions.signal`). */
  readonly signal: AbortSignal;
  readonly resolve: (decision: OperatorDecision) => void;
  timer: NodeJS.Timeout;
  readonly heartbeat: NodeJS.Timeout | undefined;
  readonly onAbort: () => void;
}

function refusal(pending: PendingApproval, reason: OperatorRefusalReason, operator: string | undefined, places: readonly string[] = []): OperatorDecision {
  // Passive, so that any operator name reads once ("The operator console operator ... declined" did not).
  // A timeout names where approvals are decided: a client that showed no progress learns it here.
  // Every message ends "; it was not executed.", so a tool that says so itself can cut it off whole.
  const where = placesText(places);
  const message =
    reason === 'declined' ? `The call of ${pending.tool} was declined by ${operator ?? 'an unknown operator'}; it was not executed.`
    : reason === 'timeout' ? `No operator decided on the call of ${pending.tool} within ${pending.deadline - pending.requestedAt} ms${where === '' ? '' : ` (calls held for approval are approved or declined ${where})`}; it was not executed.`
    : reason === 'cancelled' ? `The call of ${pending.tool} was cancelled while waiting for an operator; it was not executed.`
    : `The server closed while the call of ${pending.tool} waited for an operator; it was not executed.`;
  const error = toolError(reason === 'declined' ? 'approvalDeclined' : 'approvalTimedOut', message);
  return { approved: false, reason, operator, message, result: { content: error.content, isError: true } };
}

/** Creates the operator approval queue of one server (`createServer` does; exposed as `server.approvals`). */
export function createApprovalQueue(options: ApprovalQueueOptions): ServerApprovalQueue {
  const { store, clock, maxTimeoutMs } = options;
  const progressIntervalMs = options.progressIntervalMs ?? DEFAULT_PROGRESS_INTERVAL_MS;
  const waiting = new Map<string, Waiting>();
  const listeners = new Set<(event: ApprovalQueueEvent) => void>();
  // An array, not a set: two consoles advertising the same place each withdraw their own entry.
  const places: string[] = [];
  const claimKey = (id: string): string => `approval:operator:${id}`;

  function emit(event: ApprovalQueueEvent): void {
    for (const listener of [...listeners]) {
      try {
        listener(event);
      } catch (error) {
        options.onListenerError?.(error);
      }
    }
  }

  /** Ends a waiting call with `decision` if it is still waiting (the claim decided who gets here). */
  function settle(id: string, decision: OperatorDecision, outcome: SettledOutcome): void {
    const entry = waiting.get(id);
    if (entry === undefined) return;
    waiting.delete(id);
    clearTimeout(entry.timer);
    if (entry.heartbeat !== undefined) clearInterval(entry.heartbeat);
    entry.signal.removeEventListener('abort', entry.onAbort);
    entry.resolve(decision);
    emit({ type: 'settled', pending: entry.pending, outcome });
  }

  /** Claims the pending call for a non-operator ending; false when a decision (or another ending) came first. */
  async function end(id: string, reason: Exclude<OperatorRefusalReason, 'declined'>): Promise<boolean> {
    const entry = waiting.get(id);
    if (entry === undefined) return false;
    // A refusal needs no memory to be safe: if the store cannot record it, the call is refused anyway.
    const claimed = await store.claimOnce(claimKey(id), { expiresAt: entry.pending.deadline + SETTLED_RETENTION_MS, value: { outcome: reason } }).then(
      (claim) => claim.claimed,
      () => true,
    );
    if (!claimed) return false;
    settle(id, refusal(entry.pending, reason, undefined, places), { approved: false, reason, by: undefined });
    return true;
  }

  async function expireDue(): Promise<number> {
    const now = clock.now();
    const due = [...waiting.values()].filter((w) => w.pending.deadline <= now).map((w) => w.pending.id);
    const ended = await Promise.all(due.map((id) => end(id, 'timeout')));
    return ended.filter(Boolean).length;
  }

  /** The deadline timer: times the call out when the server clock says so, else waits the rest. */
  function onDeadline(id: string): void {
    const entry = waiting.get(id);
    if (entry === undefined) return;
    const left = entry.pending.deadline - clock.now();
    if (left <= 0) void end(id, 'timeout');
    else entry.timer = setTimeout(onDeadline, left, id).unref();
  }

  function awaitOperator(held: HeldCall, request: AwaitOperatorOptions): Promise<OperatorDecision> {
    if (typeof request !== 'object' || request === null || typeof request.summary !== 'string' || request.summary === '') {
      throw new TypeError('approvals.awaitOperator: summary must be a non-empty string');
    }
    const timeoutMs = request.timeoutMs ?? Math.min(DEFAULT_OPERATOR_TIMEOUT_MS, maxTimeoutMs);
    if (!Number.isInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > maxTimeoutMs) {
      throw new RangeError(`approvals.awaitOperator: timeoutMs must be an integer from 1 to ${maxTimeoutMs} (the server's approvalTtlMs), got ${String(request.timeoutMs)}`);
    }
    if (request.digest !== undefined && (typeof request.digest !== 'string' || request.digest === '')) {
      throw new TypeError('approvals.awaitOperator: digest must be a non-empty string');
    }
    const now = clock.now();
    const pending: PendingApproval = Object.freeze({
      id: randomBytes(16).toString('base64url'),
      call: held.call,
      tool: held.tool,
      digest: request.digest ?? held.defaultDigest,
      summary: request.summary,
      details: request.details === undefined ? undefined : (JSON.parse(JSON.stringify(request.details)) as JsonValue),
      subject: held.subject,
      client: held.client,
      requestedAt: now,
      deadline: now + timeoutMs,
    });
    if (request.signal !== undefined && !(request.signal instanceof AbortSignal)) throw new TypeError('approvals.awaitOperator: signal must be an AbortSignal');
    const signal = request.signal === undefined ? held.signal : AbortSignal.any([held.signal, request.signal]);
    if (signal.aborted) return Promise.resolve(refusal(pending, 'cancelled', undefined));
    return new Promise<OperatorDecision>((resolve) => {
      const timer = setTimeout(onDeadline, timeoutMs, pending.id).unref();
      let beats = 0;
      const beat = (): void => held.progress(++beats, undefined, waitingMessage(pending, places, clock.now()));
      const heartbeat = setInterval(beat, progressIntervalMs).unref();
      const onAbort = (): void => void end(pending.id, 'cancelled');
      signal.addEventListener('abort', onAbort, { once: true });
      waiting.set(pending.id, { pending, held, signal, resolve, timer, heartbeat, onAbort });
      beat();
      // Once, for clients that show log messages but sent no progress token (2025 sessions log by default).
      held.log('notice', waitingMessage(pending, places, now));
      emit({ type: 'pending', pending });
    });
  }

  return {
    pending: () => [...waiting.values()].map((w) => w.pending),
    get: (id) => waiting.get(id)?.pending,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    expireDue,
    advertise(where) {
      if (typeof where !== 'string' || where.trim() === '') throw new TypeError('approvals.advertise: where must be a non-empty string');
      places.push(where);
      return () => {
        const at = places.indexOf(where);
        if (at >= 0) places.splice(at, 1);
      };
    },
    async decide(id, decision) {
      if (typeof decision !== 'object' || decision === null || typeof decision.approve !== 'boolean') throw new TypeError('approvals.decide: approve must be true or false');
      if (typeof decision.operator !== 'string' || decision.operator.trim() === '') throw new TypeError('approvals.decide: operator must name who decides (a non-empty string)');
      if (decision.digest !== undefined && typeof decision.digest !== 'string') throw new TypeError('approvals.decide: digest must be a string');
      if (decision.approve && (decision.digest === undefined || decision.digest === '')) throw new TypeError('approvals.decide: approving needs the digest the operator saw');
      const entry = waiting.get(id);
      if (entry === undefined) {
        const claim = typeof id === 'string' ? await store.getClaim(claimKey(id)) : undefined;
        return claim === undefined
          ? { ok: false, reason: 'unknown', message: `no pending approval has id ${JSON.stringify(id)}` }
          : { ok: false, reason: 'settled', message: `approval ${id} was already settled (${describeClaim(claim.value)}); a decision counts once` };
      }
      if (clock.now() >= entry.pending.deadline) {
        await end(id, 'timeout');
        return { ok: false, reason: 'settled', message: `approval ${id} timed out before the decision; the call was refused` };
      }
      if (decision.digest !== undefined && decision.digest !== entry.pending.digest) {
        return { ok: false, reason: 'wrong-digest', message: `approval ${id} is for digest ${entry.pending.digest}, not ${decision.digest}; nothing was decided` };
      }
      const by: OperatorApprover = { kind: 'operator', operator: decision.operator, via: 'console' };
      const claim = await store.claimOnce(claimKey(id), {
        expiresAt: entry.pending.deadline + SETTLED_RETENTION_MS,
        value: { outcome: decision.approve ? 'approved' : 'declined', call: entry.pending.call, approves: entry.pending.digest, by: { kind: by.kind, operator: by.operator, via: by.via } },
      });
      if (!claim.claimed) return { ok: false, reason: 'settled', message: `approval ${id} was already settled (${describeClaim(claim.existing.value)}); a decision counts once` };
      if (decision.approve) {
        const record: ApprovalRecord = { call: entry.pending.call, approves: entry.pending.digest, approvedBy: by, redeemedAt: claim.record.claimedAt };
        settle(id, { approved: true, record }, { approved: true, by });
      } else {
        settle(id, refusal(entry.pending, 'declined', decision.operator), { approved: false, reason: 'declined', by });
      }
      return { ok: true, pending: entry.pending, decidedBy: by };
    },
    forCall: (held) => ({ awaitOperator: (request) => awaitOperator(held, request) }),
    async close() {
      await Promise.all([...waiting.keys()].map((id) => end(id, 'closed')));
      listeners.clear();
    },
  };
}

/**
 * The progress message a waiting call's client gets: which call, its approval id (what the operator
 * finds it by) and where it is decided. The id alone decides nothing: deciding needs the operator's
 * own access (the console token), which is never part of this text.
 */
function waitingMessage(pending: PendingApproval, places: readonly string[], now: number): string {
  const left = Math.max(0, Math.ceil((pending.deadline - now) / 1000));
  const waiting = `waiting for an operator to approve ${pending.tool} (approval id ${pending.id}; ${left} s left)`;
  const where = placesText(places);
  return where === '' ? waiting : `${waiting}: it is approved or declined ${where}`;
}

/** The advertised places (`advertise`), each once: "on the teach pendant or in the console at ...". */
function placesText(places: readonly string[]): string {
  return [...new Set(places)].join(' or ');
}

function describeClaim(value: JsonValue): string {
  const outcome = isJsonObject(value) ? value.outcome : undefined;
  return typeof outcome === 'string' ? outcome : 'settled';
}
