/**
 * One open SSE stream showing a stream's events (replay.ts): the GET stream, or a POST's
 * stream resumed by GET. Events reach it from the replay buffer and live, from this process or
 * (published through the store) from another instance, possibly both, and not always in order:
 * two instances may append to one GET stream's buffer, and their events arrive over different
 * connections. Each event is written once, in sequence order, with no gap: an event that arrives
 * ahead of one still missing waits while the buffer is read again (every event before it was
 * stored before it, so the read has the missing ones). A buffer that expired while the stream was
 * quiet is followed by one counting from a higher number: the read shows its first event marked
 * `restart`, and the stream goes on from there. Events may arrive before the HTTP stream
 * exists (during the replay read); they wait too. A POST's stream ends after the call's answer.
 */
import type { EventStream } from '../../transport/message-dispatcher.js';
import type { StreamEvent } from './replay.js';

/** Reads the stream's buffered events after `after`; 'gone' when some of them are no longer kept. */
export type Refill = (after: number) => Promise<readonly StreamEvent[] | 'gone'>;

export class StreamAttachment {
  /** The last sequence number written (undefined: nothing yet, and the client named none). */
  #last: number | undefined;
  #stream: EventStream | undefined;
  /** Events that arrived before the HTTP stream, or ahead of a missing one, by sequence number. */
  readonly #waiting = new Map<number, StreamEvent>();
  readonly #refill: Refill;
  #refilling = false;
  #ended = false;

  /**
   * `after`: the sequence number the client already has (undefined: a plain GET, which shows what
   * comes next, from the first event it sees). `refill` reads the buffer when a gap shows.
   */
  constructor(after: number | undefined, refill: Refill) {
    this.#last = after;
    this.#refill = refill;
  }

  /** Shows `event` in order, unless written already (or older than what the client has). */
  deliver(event: StreamEvent): void {
    if (this.#ended || (this.#last !== undefined && event.seq <= this.#last)) return;
    this.#waiting.set(event.seq, event);
    this.#flush();
  }

  /** The HTTP stream is open: writes what waited, in order. */
  bind(stream: EventStream): void {
    this.#stream = stream;
    this.#flush();
  }

  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#waiting.clear();
    this.#stream?.end();
  }

  /** Writes the waiting events that follow the last one written; reads the buffer for a gap. */
  #flush(): void {
    if (this.#stream === undefined || this.#ended) return;
    if (this.#last === undefined) {
      if (this.#waiting.size === 0) return;
      this.#last = Math.min(...this.#waiting.keys()) - 1;
    }
    for (let next = this.#waiting.get(this.#last + 1); next !== undefined; next = this.#waiting.get(this.#last + 1)) {
      this.#waiting.delete(next.seq);
      this.#last = next.seq;
      this.#stream.send(next.json, next.id);
      if (next.final) return this.end();
    }
    if (this.#waiting.size > 0 && !this.#refilling) void this.#fillGap(this.#last);
  }

  async #fillGap(after: number): Promise<void> {
    this.#refilling = true;
    let found: readonly StreamEvent[] | 'gone';
    try {
      found = await this.#refill(after);
    } catch {
      found = 'gone';
    }
    this.#refilling = false;
    if (this.#ended) return;
    if (found === 'gone') return this.end();
    // Live events may have been written meanwhile: what is missing now follows the last one written.
    let last = this.#last ?? after;
    // A buffer that expired while the stream was quiet was followed by a new one counting from a
    // higher number: nothing is missing before its first (restart) event.
    const first = found[0];
    if (first?.restart === true && first.seq > last + 1) {
      for (const seq of this.#waiting.keys()) if (seq < first.seq) this.#waiting.delete(seq);
      last = this.#last = first.seq - 1;
    }
    for (const event of found) if (event.seq > last) this.#waiting.set(event.seq, event);
    // The missing events left the buffer, or it lacks them (nothing else would fill the gap): the
    // stream ends, and the client resuming from its last id learns which.
    if (this.#waiting.size > 0 && !this.#waiting.has(last + 1)) return this.end();
    this.#flush();
  }
}
