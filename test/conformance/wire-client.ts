/**
 * A raw Streamable HTTP client for the conformance tests: like test/fixtures/servers/raw-http.ts,
 * but it knows the official result and notification definitions of every feature the everything
 * server serves (resources, prompts, completion, subscriptions), and checks each message with them.
 */
import assert from 'node:assert/strict';
import { assertWireDef } from '../fixtures/servers/wire-schema.js';
import { standardHeaders } from '../fixtures/servers/raw-http.js';
import type { RawResponse } from '../fixtures/servers/raw-http.js';

const RESULTS: Readonly<Record<string, string>> = {
  'server/discover': 'DiscoverResult',
  'tools/list': 'ListToolsResult',
  'tools/call': 'CallToolResult',
  'resources/list': 'ListResourcesResult',
  'resources/templates/list': 'ListResourceTemplatesResult',
  'resources/read': 'ReadResourceResult',
  'prompts/list': 'ListPromptsResult',
  'prompts/get': 'GetPromptResult',
  'completion/complete': 'CompleteResult',
  'subscriptions/listen': 'SubscriptionsListenResult',
};

const NOTIFICATIONS: Readonly<Record<string, string>> = {
  'notifications/progress': 'ProgressNotification',
  'notifications/message': 'LoggingMessageNotification',
  'notifications/tools/list_changed': 'ToolListChangedNotification',
  'notifications/prompts/list_changed': 'PromptListChangedNotification',
  'notifications/resources/list_changed': 'ResourceListChangedNotification',
  'notifications/resources/updated': 'ResourceUpdatedNotification',
  'notifications/subscriptions/acknowledged': 'SubscriptionsAcknowledgedNotification',
};

const ERRORS: Readonly<Record<number, string>> = {
  [-32601]: 'MethodNotFoundError',
  [-32602]: 'InvalidParamsError',
  [-32603]: 'InternalError',
  [-32020]: 'HeaderMismatchError',
  [-32021]: 'MissingRequiredClientCapabilityError',
  [-32022]: 'UnsupportedProtocolVersionError',
};

/** Asserts `message` is a valid server message of the official schema, as specific as its kind allows. */
export function assertMessage(message: unknown, requestMethod: string | undefined): void {
  assert.ok(typeof message === 'object' && message !== null);
  const m = message as Record<string, unknown>;
  assertWireDef(m, 'JSONRPCMessage');
  if ('error' in m) {
    const code = (m.error as { code: number }).code;
    const def = ERRORS[code];
    if (def !== undefined) assertWireDef(code <= -32600 ? m.error : m, def);
    return;
  }
  if ('result' in m) {
    const result = m.result as Record<string, unknown>;
    assert.ok((result._meta as Record<string, unknown> | undefined)?.['io.modelcontextprotocol/serverInfo'], 'every result carries serverInfo');
    const def = result.resultType === 'input_required' ? 'InputRequiredResult' : requestMethod === undefined ? undefined : RESULTS[requestMethod];
    assert.ok(def, `no result definition for ${String(requestMethod)}`);
    assertWireDef(result, def);
    return;
  }
  assert.ok(!('id' in m), 'the server never sends requests');
  assertWireDef(m, NOTIFICATIONS[m.method as string] ?? 'JSONRPCNotification');
}

function parseSse(text: string): Record<string, unknown>[] {
  return text
    .split('\n\n')
    .map((event) => event.split('\n').filter((l) => l.startsWith('data: ')).map((l) => l.slice(6)).join('\n'))
    .filter((data) => data !== '')
    .map((data) => JSON.parse(data) as Record<string, unknown>);
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
  const messages = text === '' ? [] : type.startsWith('text/event-stream') ? parseSse(text) : [JSON.parse(text) as Record<string, unknown>];
  for (const m of messages) assertMessage(m, message.method as string);
  return { status: response.status, headers: response.headers, text, messages, body: messages.at(-1) };
}
