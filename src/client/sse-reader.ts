/**
 * Incremental `text/event-stream` parsing (WHATWG rules that matter here: `data:` lines joined by
 * newlines, one optional space after the colon, events end at a blank line, CR/LF/CRLF line ends).
 * MCP 2026-07-28 only uses the data of each event; the 2025-11-25 resumable streams also need the
 * last `id` and the `retry` delay, which are kept; `event` is ignored.
 */
export class SseReader {
  #buffer = '';
  #data: string[] = [];
  #hasData = false;
  #lastEventId: string | undefined;
  #retryMs: number | undefined;

  /** The last `id:` seen (what `Last-Event-ID` resumes from), if any. */
  get lastEventId(): string | undefined {
    return this.#lastEventId;
  }

  /** The last `retry:` in ms (the server's reconnection delay), if any. */
  get retryMs(): number | undefined {
    return this.#retryMs;
  }

  /** Characters held for the event still incomplete (to bound memory against a runaway event). */
  get pendingLength(): number {
    let length = this.#buffer.length;
    for (const line of this.#data) length += line.length;
    return length;
  }

  /** Feeds decoded text; returns the data of every event completed by it. */
  push(text: string): string[] {
    this.#buffer += text;
    const events: string[] = [];
    for (;;) {
      const match = /\r\n|\r|\n/.exec(this.#buffer);
      if (match === null) break;
      // A lone CR at the very end may be the first half of CRLF: wait for more input.
      if (match[0] === '\r' && match.index === this.#buffer.length - 1) break;
      const line = this.#buffer.slice(0, match.index);
      this.#buffer = this.#buffer.slice(match.index + match[0].length);
      if (line === '') {
        if (this.#hasData) events.push(this.#data.join('\n'));
        this.#data = [];
        this.#hasData = false;
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      let value = colon < 0 ? '' : line.slice(colon + 1);
      if (value.startsWith(' ')) value = value.slice(1);
      if (field === 'id' && !value.includes('\0')) this.#lastEventId = value;
      if (field === 'retry' && /^\d+$/.test(value)) this.#retryMs = Number(value);
      if (field !== 'data') continue;
      this.#data.push(value);
      this.#hasData = true;
    }
    return events;
  }
}
