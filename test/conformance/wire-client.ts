/**
 * A raw Streamable HTTP client for the conformance tests: like test/fixtures/servers/raw-http.ts,
 * but it knows the official result and notification definitions of every feature the everything
 * server serves (resources, prompts, completion, subscriptions), and checks each message with them.
 */
import { assertServerMessage } from '../fixtures/servers/wire-schema.js';
import { standardHeaders } from '../fixtures/servers/raw-http.js';
import type { RawResponse } from '../fixtures/servers/raw-http.js';
import { sseMessages } from '../support/sse-events.js';

/** Asserts `message` is a valid server message of the official schema, as specific as its kind allows. */
export function assertMessage(message: unknown, requestMethod: string | undefined): void {
  assertServerMessage(message, requestMethod);
}

/** POSTs `message` with a correct client's headers (Mcp-Name from params.name or params.uri) merged with `headers`. */
export async function post(url: string, message: Record<string, unknown>, headers: Record<string, string | null> = {}): Promise<RawResponse> {
  const merged: Record<string, string> = { ...standardHeaders(message) };
  const params = message.params as Record<string, unknown> | undefined;
  if (typeof params?.uri === 'string' && message.method === 'resources/read') merged['mcp-name'] = params.uri;
  for (const [key, value] of Object.entries(headers)) {
    const existing = Object.keys(merged).find((k) => k.toLowerCase() === key.toLowerCase());
    if (existing !== undefined) delete merged[existing];
    if (value !== null) merged[key] = value;
  }
  const response = await fetch(url, { method: 'POST', headers: merged, body: JSON.stringify(message), signal: AbortSignal.timeout(15_000) });
  const text = await response.text();
  const type = response.headers.get('content-type') ?? '';
  const messages = text === '' ? [] : type.startsWith('text/event-stream') ? sseMessages(text) : [JSON.parse(text) as Record<string, unknown>];
  for (const m of messages) assertMessage(m, message.method as string);
  return { status: response.status, headers: response.headers, text, messages, body: messages.at(-1) };
}
