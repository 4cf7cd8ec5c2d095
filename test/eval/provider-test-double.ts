/**
 * A loopback TEST DOUBLE of three model provider APIs (not a model): OpenAI Chat Completions
 * (`POST /v1/chat/completions`), Anthropic Messages (`POST /v1/messages`) and Gemini
 * (`POST /v1beta/models/{model}:generateContent`). It records every request and answers with
 * whatever the test scripts, in the response shapes of each provider's API reference. No figure a
 * test reads from it says anything about a real model.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export type DoubleApi = 'openai-chat' | 'anthropic' | 'gemini';

export interface RecordedRequest {
  api: DoubleApi;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: Record<string, unknown>;
}

/** What the script returns for one request. */
export interface DoubleReply { status?: number; body: unknown }

export interface ProviderTestDouble {
  /** Base URL to pass as --base-url (OpenAI-style clients get `/v1` appended by the caller). */
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

function apiOf(method: string | undefined, path: string): DoubleApi | undefined {
  if (method !== 'POST') return undefined;
  if (path === '/v1/chat/completions') return 'openai-chat';
  if (path === '/v1/messages') return 'anthropic';
  if (/^\/v1beta\/models\/[^/]+:generateContent$/.test(path)) return 'gemini';
  return undefined;
}

/** Starts the double on 127.0.0.1, port 0. */
export async function startProviderTestDouble(script: (request: RecordedRequest) => DoubleReply): Promise<ProviderTestDouble> {
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
      const api = apiOf(req.method, path);
      if (api === undefined) {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}');
        return;
      }
      const recorded: RecordedRequest = { api, path, headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown> };
      requests.push(recorded);
      const reply = script(recorded);
      res.writeHead(reply.status ?? 200, { 'content-type': 'application/json' }).end(JSON.stringify(reply.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve()))),
  };
}

/** A reply that calls one tool, shaped as each API reference shows it. */
export function toolCallReply(api: DoubleApi, name: string, args: Record<string, unknown>): DoubleReply {
  if (api === 'openai-chat') {
    return { body: {
      id: 'chatcmpl-double', object: 'chat.completion', created: 1764547200, model: 'double',
      choices: [{ index: 0, message: { role: 'assistant', content: null, tool_calls: [{ id: 'call_double1', type: 'function', function: { name, arguments: JSON.stringify(args) } }] }, logprobs: null, finish_reason: 'tool_calls' }],
      usage: { prompt_tokens: 82, completion_tokens: 17, total_tokens: 99 },
    } };
  }
  if (api === 'anthropic') {
    return { body: {
      id: 'msg_double', type: 'message', role: 'assistant', model: 'double', stop_reason: 'tool_use', stop_sequence: null,
      content: [{ type: 'text', text: 'I will do that.' }, { type: 'tool_use', id: 'toolu_double1', name, input: args }],
      usage: { input_tokens: 120, output_tokens: 30 },
    } };
  }
  return { body: {
    candidates: [{ content: { role: 'model', parts: [{ functionCall: { name, args } }] }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: 120, candidatesTokenCount: 12, totalTokenCount: 132 }, modelVersion: 'double',
  } };
}

/** A reply with text only (no tool call). */
export function textReply(api: DoubleApi, text: string): DoubleReply {
  if (api === 'openai-chat') {
    return { body: { id: 'chatcmpl-double', object: 'chat.completion', created: 1764547200, model: 'double', choices: [{ index: 0, message: { role: 'assistant', content: text }, logprobs: null, finish_reason: 'stop' }] } };
  }
  if (api === 'anthropic') return { body: { id: 'msg_double', type: 'message', role: 'assistant', model: 'double', stop_reason: 'end_turn', content: [{ type: 'text', text }] } };
  return { body: { candidates: [{ content: { role: 'model', parts: [{ text }] }, finishReason: 'STOP', index: 0 }] } };
}

/** An authentication error in each API's documented error shape. */
export function authErrorReply(api: DoubleApi): DoubleReply {
  if (api === 'anthropic') return { status: 401, body: { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } } };
  if (api === 'gemini') return { status: 400, body: { error: { code: 400, message: 'API key not valid. Please pass a valid API key.', status: 'INVALID_ARGUMENT' } } };
  return { status: 401, body: { error: { message: 'Incorrect API key provided', type: 'invalid_request_error', param: null, code: 'invalid_api_key' } } };
}
