/**
 * A minimal 2025 Streamable HTTP client for tests that spread one legacy session over several
 * endpoints (instances of one deployment): initialize at one URL, POST, GET and DELETE at others.
 */
import assert from 'node:assert/strict';
import { sseMessages, sseMessagesAsTheyArrive } from './sse-events.js';

/** A JSON-RPC message as parsed. */
export type Json = Record<string, unknown>;

/** What one POST, GET or DELETE answered. */
export interface LegacyExchange {
  status: number;
  headers: Headers;
  /** Every JSON-RPC message of the body (one for JSON, each event's for an event stream). */
  messages: Json[];
  /** The body as received (ids beyond 2^53 exactly as the server wrote them). */
  text: string;
}

/** A session opened by {@link openSession}. */
export interface LegacySession {
  /** `Mcp-Session-Id` and `Mcp-Protocol-Version`. */
  readonly headers: Record<string, string>;
  readonly id: string;
}

/**
 * One request at `url`; `accept` defaults to JSON and event streams. `body` may be JSON text, sent
 * as is (ids beyond 2^53, which JSON.stringify of a parsed number cannot write).
 */
export async function exchange(url: string, body: Json | string | undefined, headers: Record<string, string>, init: { method?: string; accept?: string } = {}): Promise<LegacyExchange> {
  const method = init.method ?? 'POST';
  const response = await fetch(url, {
    method,
    headers: { 'content-type': 'application/json', accept: init.accept ?? 'application/json, text/event-stream', ...headers },
    body: method !== 'POST' ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    signal: AbortSignal.timeout(20_000),
  });
  const text = await response.text();
  const messages = text === '' ? [] : (response.headers.get('content-type') ?? '').startsWith('text/event-stream') ? sseMessages(text) : [JSON.parse(text) as Json];
  return { status: response.status, headers: response.headers, messages, text };
}

/** `initialize` + `notifications/initialized` at `url`. */
export async function openSession(url: string, capabilities: Json = { elicitation: {} }, protocolVersion = '2025-11-25'): Promise<LegacySession> {
  const opened = await exchange(url, { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion, capabilities, clientInfo: { name: 'test', version: '1' } } }, {});
  assert.equal(opened.status, 200, JSON.stringify(opened.messages));
  const id = opened.headers.get('mcp-session-id');
  assert.ok(id !== null, 'initialize answered an Mcp-Session-Id');
  const headers = { 'mcp-session-id': id, 'mcp-protocol-version': protocolVersion };
  assert.equal((await exchange(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers)).status, 202);
  return { headers, id };
}

/** A GET stream, read message by message. */
export interface SessionStream {
  /** The next message (rejects after 10 s without one; `awaited` names it in that error). */
  next(awaited?: string): Promise<Json>;
  /** Settles when the server ends the stream. */
  readonly closed: Promise<void>;
  cancel(): Promise<void>;
}

/**
 * Opens the session's GET stream at `url` (asserts 200 and an event stream). `check` sees every
 * message first (e.g. a wire-schema assertion); a message it throws on is never handed out, so the
 * waiting `next()` fails.
 */
export async function openStream(url: string, session: Pick<LegacySession, 'headers'>, check?: (message: Json) => void): Promise<SessionStream> {
  const controller = new AbortController();
  const response = await fetch(url, { method: 'GET', headers: { accept: 'text/event-stream', ...session.headers }, signal: controller.signal });
  if (response.status !== 200) assert.fail(`GET stream: ${response.status} ${await response.text()}`);
  assert.match(response.headers.get('content-type') ?? '', /^text\/event-stream/);
  const queue: Json[] = [];
  const waiting: ((m: Json) => void)[] = [];
  const closed = (async () => {
    try {
      for await (const m of sseMessagesAsTheyArrive(response.body!)) {
        check?.(m);
        const w = waiting.shift();
        if (w !== undefined) w(m);
        else queue.push(m);
      }
    } catch {
      // aborted by cancel()
    }
  })();
  return {
    next: (awaited) => {
      const m = queue.shift();
      if (m !== undefined) return Promise.resolve(m);
      return new Promise<Json>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no message on the GET stream within 10 s${awaited === undefined ? '' : ` (awaiting ${awaited})`}`)), 10_000);
        waiting.push((msg) => {
          clearTimeout(timer);
          resolve(msg);
        });
      });
    },
    closed,
    cancel: async () => {
      controller.abort();
      await closed;
    },
  };
}
