/**
 * Raw SSE events (their `id` and parsed `data`) as they arrive, on a request the test can drop at
 * any moment (its connection is aborted, as when a network fails): for resumability tests, which
 * must see exactly which event ids reached the client and what a resumption replays.
 */
import assert from 'node:assert/strict';

/** One event as received. */
export interface SseEvent {
  readonly id: string | undefined;
  readonly data: Record<string, unknown>;
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
  const reader = (response.body as NonNullable<Response['body']>).pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  let ended = false;
  const queue: SseEvent[] = [];
  async function read(): Promise<SseEvent | undefined> {
    for (;;) {
      const cut = buffer.indexOf('\n\n');
      if (cut >= 0) {
        const lines = buffer.slice(0, cut).split('\n');
        buffer = buffer.slice(cut + 2);
        const data = lines.find((l) => l.startsWith('data: '));
        if (data === undefined) continue; // a keep-alive comment
        const id = lines.find((l) => l.startsWith('id: '))?.slice(4);
        return { id, data: JSON.parse(data.slice(6)) as Record<string, unknown> };
      }
      if (ended) return undefined;
      const chunk = await reader.read().catch(() => ({ done: true as const, value: undefined }));
      if (chunk.done) ended = true;
      else buffer += chunk.value;
    }
  }
  return {
    status: response.status,
    headers: response.headers,
    async next(what = 'an event') {
      const queued = queue.shift();
      if (queued !== undefined) return queued;
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
      const all = queue.splice(0);
      for (let e = await read(); e !== undefined; e = await read()) all.push(e);
      return all;
    },
    drop: () => controller.abort(),
  };
}

/** The id of the event `k` after event `id` on the same stream (ids are `<stream>-<seq>`: src/server/legacy-replay.ts). */
export function later(id: string | undefined, k: number): string {
  const at = (id ?? '').lastIndexOf('-');
  if (at <= 0) throw new Error(`not an event id: ${String(id)}`);
  return `${(id as string).slice(0, at)}-${Number((id as string).slice(at + 1)) + k}`;
}
