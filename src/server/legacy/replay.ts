/**
 * Resumability of legacy (2025) Streamable HTTP streams ("Resumability and Redelivery" of
 * 2025-03-26, 2025-06-18 and 2025-11-25): every SSE event of a session's streams (its GET stream
 * and each POST's stream) carries an id, and the stream's recent events are kept in a bounded
 * replay buffer in the server's store, so a client whose stream dropped sends GET with
 * `Last-Event-ID` (to any instance sharing the store) and gets exactly what followed that event on
 * THAT stream, then the stream's live events (and, for a POST's stream, the call's answer).
 *
 * Event ids are `<stream>-<seq>`: the stream is `g` + 12 hex digits of a hash of the session id
 * (the GET stream: the same across reconnections, and never another session's) or `p` + 16 random
 * hex digits (one POST's stream); `seq` counts that stream's events. A stream's buffer may expire
 * while the stream lives on (nothing sent on it for the idle time: a quiet GET stream, a long silent
 * call), so each new buffer starts counting at 100 × the time in ms, above every id the expired one
 * issued: an old id then reads as evicted instead of naming an event of the new buffer, and the new
 * buffer's first event is marked `restart` so that a stream being shown takes it as its next event.
 * An id is unique per session and names its stream, and the buffer is found from it with no index.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { JsonValue } from '../../protocol/json-rpc.js';
import type { Clock, Store } from '../store/store.js';

/** `Last-Event-ID` values longer than this are refused before anything is read (hostile-input bound). */
export const MAX_LAST_EVENT_ID_LENGTH = 64;
const EVENT_ID = /^([gp][0-9a-f]{12,16})-([1-9][0-9]{0,14})$/;
// 100 × this is the largest 15-digit sequence start (the year 2286 in ms).
const MAX_FIRST_MS = 9_999_999_999_999;
// Appends to one buffer that lose compare-and-set this often in a row are a bug, not contention.
const MAX_WRITE_ATTEMPTS = 8;

/**
 * How long a POST stream's buffer outlives the call's answer: long enough for a client whose
 * connection dropped to reconnect and read it, short enough that a session making many streamed
 * calls does not keep one buffer (up to maxBytes) per call for the whole session idle time, in a
 * record space shared with the session records themselves.
 */
export const FINISHED_STREAM_TTL_MS = 60_000;

/** Bounds of each stream's replay buffer. */
export interface ReplayBounds {
  /** Events kept per stream (the oldest are dropped first). */
  readonly maxEvents: number;
  /** Bytes of event data kept per stream; the newest event is always kept, whatever its size. */
  readonly maxBytes: number;
  /** A buffer nobody appended to for this long expires (the session idle timeout). */
  readonly ttlMs: number;
}

interface BufferedEvent {
  readonly seq: number;
  readonly json: string;
  /** The last event of a POST's stream: the call's answer (the stream ends after it). */
  readonly final?: true;
  /** The first event of a new buffer (the stream's previous one expired): nothing is missing before it. */
  readonly restart?: true;
}

/** One stream's buffer as stored: its events in order, and the next sequence number to issue. */
interface ReplayBuffer {
  readonly next: number;
  readonly bytes: number;
  readonly events: readonly BufferedEvent[];
}

/** One event of a stream, as written to an SSE stream. */
export interface StreamEvent {
  readonly seq: number;
  readonly id: string;
  readonly json: string;
  readonly final: boolean;
  /** The first event of a new buffer of the stream (see the top of this file). */
  readonly restart: boolean;
}

/** What a `Last-Event-ID` resumes: the stream, and its events after that id (undefined: refused, and why). */
export type ReplayLookup =
  | { readonly ok: true; readonly stream: string; readonly after: number; readonly events: readonly StreamEvent[] }
  | { readonly ok: false; readonly reason: 'unknown' | 'evicted' };

/** The GET stream's name in session `sessionId` (stable across reconnections; another session's never matches). */
export function getStreamOf(sessionId: string): string {
  return `g${createHash('sha256').update(sessionId).digest('hex').slice(0, 12)}`;
}

/** A new POST stream's name (random: a stream of another session is never found in this one). */
export function newPostStream(): string {
  return `p${randomBytes(8).toString('hex')}`;
}

/** The SSE id of event `seq` of `stream`. */
export function eventIdOf(stream: string, seq: number): string {
  return `${stream}-${seq}`;
}

/** The stream and sequence number an event id names, or undefined when it is not one of ours. */
export function parseEventId(text: string): { stream: string; seq: number } | undefined {
  if (text.length > MAX_LAST_EVENT_ID_LENGTH) return undefined;
  const match = EVENT_ID.exec(text);
  return match === null ? undefined : { stream: match[1] as string, seq: Number(match[2]) };
}

const keyOf = (sessionId: string, stream: string): string => `legacy-replay:${sessionId}:${stream}`;

/** One message waiting to be appended to a stream's buffer. */
interface PendingAppend {
  readonly json: string;
  readonly final: boolean;
  readonly deliver: (event: StreamEvent) => void;
  readonly resolve: (event: StreamEvent) => void;
  readonly reject: (error: unknown) => void;
}

/** The replay buffers of every session's streams, in the (possibly shared) store. */
export class ReplayLog {
  readonly #store: Store;
  readonly #bounds: ReplayBounds;
  readonly #clock: Clock;
  /**
   * Appends to one buffer from this process are written one batch after another, so events keep
   * their order on the wire; those arriving while a write is in progress go into the next batch,
   * so a burst (progress, logs) costs one read and one write of the buffer, not one per event.
   */
  readonly #writers = new Map<string, PendingAppend[]>();

  /** `clock`: the one the store's expiry follows (a GET stream's new buffer counts from its time). */
  constructor(store: Store, bounds: ReplayBounds, clock: Clock) {
    this.#store = store;
    this.#bounds = bounds;
    this.#clock = clock;
  }

  /**
   * Appends one message to a stream's buffer and runs `deliver` with it once stored, in the order of
   * the calls for that stream. Resolves to the event (rejects when the store cannot be reached).
   */
  append(sessionId: string, stream: string, json: string, final: boolean, deliver: (event: StreamEvent) => void): Promise<StreamEvent> {
    const key = keyOf(sessionId, stream);
    return new Promise((resolve, reject) => {
      const pending: PendingAppend = { json, final, deliver, resolve, reject };
      const waiting = this.#writers.get(key);
      if (waiting !== undefined) {
        waiting.push(pending);
        return;
      }
      // #drain settles every append itself and never rejects.
      const batch = [pending];
      this.#writers.set(key, batch);
      void this.#drain(key, stream, batch);
    });
  }

  /**
   * What `Last-Event-ID` (already parsed: parseEventId) resumes in session `sessionId`.
   * `acrossRestart`: a stream being shown live asks; it has every event of the expired buffer, so a
   * new buffer still holding its first (`restart`) event is no gap for it.
   */
  async lookup(sessionId: string, from: { readonly stream: string; readonly seq: number }, options: { acrossRestart?: boolean } = {}): Promise<ReplayLookup> {
    const stored = await this.#store.get(keyOf(sessionId, from.stream));
    if (stored === undefined) return { ok: false, reason: 'unknown' };
    const buffer = stored.value as unknown as ReplayBuffer;
    // An id this stream never issued (forged, or of a stream of the same name elsewhere) is unknown.
    if (from.seq >= buffer.next) return { ok: false, reason: 'unknown' };
    const first = buffer.events[0];
    const oldest = first?.seq ?? buffer.next;
    // Events after the id were dropped from the bounded buffer: a partial replay would hide the gap.
    if (from.seq < oldest - 1 && !(options.acrossRestart === true && first?.restart === true)) return { ok: false, reason: 'evicted' };
    const events = buffer.events.filter((e) => e.seq > from.seq).map((e) => toStreamEvent(from.stream, e));
    return { ok: true, stream: from.stream, after: from.seq, events };
  }

  /** The last sequence number `stream` issued (undefined: it has no buffer now). */
  async position(sessionId: string, stream: string): Promise<number | undefined> {
    const stored = await this.#store.get(keyOf(sessionId, stream));
    return stored === undefined ? undefined : (stored.value as unknown as ReplayBuffer).next - 1;
  }

  /** Writes batch after batch of `waiting` (appends keep arriving into it) until none is left. */
  async #drain(key: string, stream: string, waiting: PendingAppend[]): Promise<void> {
    while (waiting.length > 0) {
      const batch = waiting.splice(0, waiting.length);
      let events: StreamEvent[];
      try {
        events = await this.#write(key, stream, batch);
      } catch (error) {
        for (const pending of batch) pending.reject(error);
        continue;
      }
      for (const [index, pending] of batch.entries()) {
        const event = events[index] as StreamEvent;
        try {
          pending.deliver(event);
          pending.resolve(event);
        } catch (error) {
          pending.reject(error);
        }
      }
    }
    this.#writers.delete(key);
  }

  async #write(key: string, stream: string, batch: readonly PendingAppend[]): Promise<StreamEvent[]> {
    for (let attempt = 0; attempt < MAX_WRITE_ATTEMPTS; attempt++) {
      const current = await this.#store.get(key);
      const fresh = current === undefined;
      const buffer = (current?.value as unknown as ReplayBuffer | undefined) ?? { next: this.#firstSeq(), bytes: 0, events: [] };
      let bytes = buffer.bytes;
      const added = batch.map(({ json, final }, index): BufferedEvent => {
        bytes += Buffer.byteLength(json);
        const event: { seq: number; json: string; final?: true; restart?: true } = { seq: buffer.next + index, json };
        if (final) event.final = true;
        if (fresh && index === 0) event.restart = true;
        return event;
      });
      const next: ReplayBuffer = this.#bounded({ next: buffer.next + batch.length, bytes, events: [...buffer.events, ...added] });
      const ttlMs = batch.some((p) => p.final) ? Math.min(FINISHED_STREAM_TTL_MS, this.#bounds.ttlMs) : this.#bounds.ttlMs;
      const written = await this.#store.compareAndSet(key, current?.version ?? 0, next as unknown as JsonValue, { ttlMs });
      if (written.ok) return added.map((e) => toStreamEvent(stream, e));
    }
    throw new Error(`replay buffer ${key}: ${MAX_WRITE_ATTEMPTS} concurrent appends in a row; giving up`);
  }

  /**
   * Where a new buffer starts counting (see the top of this file): 100 × the clock in ms, kept
   * within the 15 digits parseEventId accepts whatever clock the server was given.
   */
  #firstSeq(): number {
    const ms = Math.floor(this.#clock.now());
    return Math.min(Math.max(ms, 1), MAX_FIRST_MS) * 100;
  }

  /** Drops the oldest events beyond the bounds (the newest always stays: it may be a call's answer). */
  #bounded(buffer: ReplayBuffer): ReplayBuffer {
    let { bytes } = buffer;
    let start = 0;
    const { events } = buffer;
    while (events.length - start > 1 && (events.length - start > this.#bounds.maxEvents || bytes > this.#bounds.maxBytes)) {
      bytes -= Buffer.byteLength((events[start] as BufferedEvent).json);
      start++;
    }
    return start === 0 ? buffer : { next: buffer.next, bytes, events: events.slice(start) };
  }
}

function toStreamEvent(stream: string, e: BufferedEvent): StreamEvent {
  return { seq: e.seq, id: eventIdOf(stream, e.seq), json: e.json, final: e.final === true, restart: e.restart === true };
}
