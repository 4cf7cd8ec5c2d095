/**
 * THE event-stream reader of the tests. Three ways in, one parser:
 * - `sseMessages(text)` / `bodyMessages(text)`: a whole body already read (as a test that only
 *   wants the JSON-RPC messages of an answer has it);
 * - `sseEventsAsTheyArrive(body)` / `sseMessagesAsTheyArrive(body)`: each event as soon as it is
 *   complete, so a test can answer a server request (an elicitation) while the stream stays open;
 * - `openEvents(url, init)`: one request whose events are read one by one, with their `id`, on a
 *   connection the test can drop at any moment: for resumability tests, which must see exactly
 *   which event ids reached the client and what a resumption replays.
 * An event without a `data:` line (a keep-alive comment) is skipped; several `data:` lines are
 * joined with a newline, as the event-stream format says.
 */
import assert from 'node:assert/strict';

/** One event as received. */
export interface SseEvent {
  readonly id: string | undefined;
  /** The `event:` field (`message` for every event Toolwright writes), undefined when absent. */
  readonly event: string | undefined;
  readonly data: Record<string, unknown>;
}

/** One event block (the text between two blank lines); undefined when it has no data. */
function parseEvent(block: string): SseEvent | undefined {
  let id: string | undefined;
  let event: string | undefined;
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line === '' || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(line[colon + 1] === ' ' ? colon + 2 : colon + 1);
    if (field === 'data') data.push(value);
    else if (field === 'id') id = value;
    else if (field === 'event') event = value;
  }
  if (data.length === 0) return undefined;
  return { id, event, data: JSON.parse(data.join('\n')) as Record<string, unknown> };
}

/** The events of a whole event-stream body. */
export function parseSse(text: string): SseEvent[] {
  const events: SseEvent[] = [];
  for (const block of text.replace(/\r\n?/g, '\n').split('\n\n')) {
    const event = parseEvent(block);
    if (event !== undefined) events.push(event);
  }
  return events;
}

/** The JSON-RPC messages of a whole event-stream body, one per event, in order. */
export function sseMessages(text: string): Record<string, unknown>[] {
  return parseSse(text).map((e) => e.data);
}

/** The messages of an answer's body, whether it is one JSON message or an event stream ('' has none). */
export function bodyMessages(text: string): Record<string, unknown>[] {
  const start = text.trimStart();
  if (start === '') return [];
  return start.startsWith('{') || start.startsWith('[') ? [JSON.parse(text) as Record<string, unknown>] : sseMessages(text);
}

/** The last message of an answer's body (the JSON-RPC response after any notifications); fails when there is none. */
export function lastMessage(text: string): Record<string, unknown> {
  const last = bodyMessages(text).at(-1);
  assert.ok(last !== undefined, `no message in the body: ${JSON.stringify(text.slice(0, 200))}`);
  return last;
}

/** The events of `body`, each as soon as it is complete; ends when the server ends the stream. */
export async function* sseEventsAsTheyArrive(body: NonNullable<Response['body']>): AsyncGenerator<SseEvent> {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let cut: number;
    while ((cut = buffer.indexOf('\n\n')) >= 0) {
      const event = parseEvent(buffer.slice(0, cut));
      buffer = buffer.slice(cut + 2);
      if (event !== undefined) yield event;
    }
  }
}

/** The messages of `body`, one per event, each as soon as it is complete. */
export async function* sseMessagesAsTheyArrive(body: NonNullable<Response['body']>): AsyncGenerator<Record<string, unknown>> {
  for await (const event of sseEventsAsTheyArrive(body)) yield event.data;
}

/** An event-stream response being read. */
export interface EventReader {
  readonly status: number;
  readonly headers: Headers;
  /** The next event (rejects after 10 s, or when the stream ends first). */
  next(what?: string): Promise<SseEvent>;
  /** Every remaining event, once the server ends the stream. */
  rest(): Promise<SseEvent[]>;
  /** Drops the connection (the client's network went away). */
  drop(): void;
}

/** Sends one request and reads its event-stream answer; `refused` gets the body of a non-200 answer. */
export async function openEvents(url: string, init: { method: 'GET' | 'POST'; headers: Record<string, string>; body?: unknown }): Promise<EventReader & { refused?: Record<string, unknown> }> {
  const controller = new AbortController();
  const response = await fetch(url, {
    method: init.method,
    headers: { accept: init.method === 'GET' ? 'text/event-stream' : 'application/json, text/event-stream', 'content-type': 'application/json', ...init.headers },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
    signal: controller.signal,
  });
  if (response.status !== 200 || !(response.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
    const text = await response.text();
    return { status: response.status, headers: response.headers, refused: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>), next: () => Promise.reject(new Error('no stream')), rest: async () => [], drop: () => controller.abort() };
  }
  const events = sseEventsAsTheyArrive(response.body as NonNullable<Response['body']>);
  // A dropped connection ends the stream as far as the reader is concerned.
  const read = async (): Promise<SseEvent | undefined> => (await events.next().catch(() => ({ done: true as const, value: undefined }))).value;
  return {
    status: response.status,
    headers: response.headers,
    async next(what = 'an event') {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no ${what} within 10 s`)), 10_000)));
      try {
        const event = await Promise.race([read(), timeout]);
        assert.ok(event !== undefined, `the stream ended before ${what}`);
        return event;
      } finally {
        clearTimeout(timer);
      }
    },
    async rest() {
      const all: SseEvent[] = [];
      for (let e = await read(); e !== undefined; e = await read()) all.push(e);
      return all;
    },
    drop: () => controller.abort(),
  };
}

/** The id of the event `k` after event `id` on the same stream (ids are `<stream>-<seq>`: src/server/legacy/replay.ts). */
export function later(id: string | undefined, k: number): string {
  const at = (id ?? '').lastIndexOf('-');
  if (at <= 0) throw new Error(`not an event id: ${String(id)}`);
  return `${(id as string).slice(0, at)}-${Number((id as string).slice(at + 1)) + k}`;
}
