import { createHash } from 'node:crypto';
import { isJsonObject, isJsonRpcId } from '../protocol/index.js';
import type { JsonRpcNotification, JsonRpcRequest, JsonRpcResponse } from '../protocol/index.js';
import { McpClientError } from './client-error.js';
import type { Connection, ReceivedResponse, SendOptions } from './connection.js';
import { SseReader } from './sse-reader.js';

/** Streamable HTTP target. */
export interface HttpTarget {
  url: string | URL;
  /** Sent on every request (e.g. `Authorization: Bearer ...`, R-89). */
  headers?: Record<string, string>;
  /** A fetch implementation (default: the global one). */
  fetch?: typeof fetch;
  /** Largest JSON body or single SSE event accepted, in bytes (default 16 MiB); more is a protocol error. */
  maxMessageBytes?: number;
}

const BODY_EXCERPT = 300;

function isResponse(value: unknown): value is JsonRpcResponse {
  return isJsonObject(value) && value.jsonrpc === '2.0' && ('result' in value || 'error' in value) && !('method' in value);
}

function isNotification(value: unknown): value is JsonRpcNotification {
  return isJsonObject(value) && value.jsonrpc === '2.0' && typeof value.method === 'string' && !('id' in value);
}

function excerpt(text: string): string {
  const trimmed = text.trim();
  return trimmed.length > BODY_EXCERPT ? `${trimmed.slice(0, BODY_EXCERPT)}...` : trimmed;
}

function networkReason(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}

/**
 * POSTs each request to the one MCP endpoint; the answer is either one JSON body or an SSE stream
 * scoped to the request (notifications first, the response last). Aborting the fetch closes the
 * stream, which is how 2026-07-28 cancels a request over HTTP.
 */
export function createHttpConnection(target: HttpTarget): Connection {
  const url = new URL(target.url);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new McpClientError('usage', `unsupported URL scheme ${url.protocol} (use http: or https:)`);
  const doFetch = target.fetch ?? fetch;
  const maxBytes = target.maxMessageBytes ?? 16 * 1024 * 1024;
  const fixedHeaders = { ...(target.headers ?? {}) };
  const authorization = Object.entries(fixedHeaders).filter(([name]) => ['authorization', 'cookie'].includes(name.toLowerCase())).map(([n, v]) => `${n.toLowerCase()}=${v}`).join('\n');
  const authContext = authorization === '' ? 'anonymous' : createHash('sha256').update(authorization).digest('hex');
  let closed = false;
  const inFlight = new Set<AbortController>();

  async function send(request: JsonRpcRequest, options: SendOptions): Promise<ReceivedResponse> {
    if (closed) throw new McpClientError('closed', 'the client is closed', { method: request.method });
    const controller = new AbortController();
    inFlight.add(controller);
    const onAbort = (): void => controller.abort(options.signal.reason);
    if (options.signal.aborted) onAbort();
    else options.signal.addEventListener('abort', onAbort, { once: true });
    const aborted = (): never => {
      if (closed) throw new McpClientError('closed', 'the client was closed while the request ran', { method: request.method });
      throw options.signal.reason;
    };
    try {
      let response: Response;
      try {
        response = await doFetch(url, {
          method: 'POST',
          headers: { ...fixedHeaders, ...options.headers, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          body: JSON.stringify(request),
          signal: controller.signal,
        });
      } catch (error) {
        if (controller.signal.aborted) aborted();
        throw new McpClientError('transport', `cannot reach ${url.href}: ${networkReason(error)}`, { method: request.method, cause: error });
      }
      const status = response.status;
      const type = (response.headers.get('content-type') ?? '').toLowerCase();
      if (type.startsWith('text/event-stream') && response.body !== null) {
        return await readStream(response.body, request, options, status, controller.signal, aborted);
      }
      let text: string;
      try {
        text = await readBounded(response, request.method, status);
      } catch (error) {
        if (error instanceof McpClientError) throw error;
        if (controller.signal.aborted) aborted();
        throw new McpClientError('transport', `${request.method}: the response body broke off: ${networkReason(error)}`, { method: request.method, httpStatus: status, cause: error });
      }
      let parsed: unknown;
      try {
        parsed = text === '' ? undefined : JSON.parse(text);
      } catch {
        parsed = undefined;
      }
      if (isResponse(parsed) && (!('id' in parsed) || parsed.id === request.id || !isJsonRpcId(parsed.id) || 'error' in parsed)) {
        return { message: parsed, httpStatus: status };
      }
      if (status < 200 || status >= 300) {
        throw new McpClientError('http', `${request.method}: HTTP ${status}${text.trim() === '' ? ' with an empty body' : `: ${excerpt(text)}`}`, { method: request.method, httpStatus: status, data: text === '' ? undefined : excerpt(text) });
      }
      throw new McpClientError('protocol', `${request.method}: HTTP ${status} answered with ${type === '' ? 'no content type' : type} and no JSON-RPC response${text.trim() === '' ? '' : `: ${excerpt(text)}`}`, { method: request.method, httpStatus: status });
    } finally {
      options.signal.removeEventListener('abort', onAbort);
      inFlight.delete(controller);
    }
  }

  async function readBounded(response: Response, method: string, status: number): Promise<string> {
    if (response.body === null) return '';
    const reader = response.body.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    try {
      for (;;) {
        const chunk = await reader.read();
        if (chunk.done) break;
        size += chunk.value.byteLength;
        if (size > maxBytes) throw new McpClientError('protocol', `${method}: the response body exceeds ${maxBytes} bytes`, { method, httpStatus: status });
        chunks.push(chunk.value);
      }
    } finally {
      reader.cancel().catch(() => {});
    }
    return Buffer.concat(chunks).toString('utf8');
  }

  async function readStream(
    body: ReadableStream<Uint8Array>,
    request: JsonRpcRequest,
    options: SendOptions,
    status: number,
    signal: AbortSignal,
    aborted: () => never,
  ): Promise<ReceivedResponse> {
    const reader = body.getReader();
    const decoder = new TextDecoder();
    const sse = new SseReader();
    try {
      for (;;) {
        let chunk: ReadableStreamReadResult<Uint8Array>;
        try {
          chunk = await reader.read();
        } catch (error) {
          if (signal.aborted) aborted();
          throw new McpClientError('transport', `${request.method}: the event stream broke off before the response: ${networkReason(error)}`, { method: request.method, httpStatus: status, cause: error });
        }
        if (chunk.done) {
          throw new McpClientError('transport', `${request.method}: the event stream ended before the response (re-issue the request with a new id)`, { method: request.method, httpStatus: status });
        }
        const events = sse.push(decoder.decode(chunk.value, { stream: true }));
        if (sse.pendingLength > maxBytes) throw new McpClientError('protocol', `${request.method}: an event on the stream exceeds ${maxBytes} bytes`, { method: request.method, httpStatus: status });
        for (const data of events) {
          let message: unknown;
          try {
            message = JSON.parse(data);
          } catch {
            throw new McpClientError('protocol', `${request.method}: an event on the stream is not JSON: ${excerpt(data)}`, { method: request.method, httpStatus: status });
          }
          if (isNotification(message)) {
            options.onNotification(message);
            continue;
          }
          if (isResponse(message) && (message.id === request.id || ('error' in message && !('id' in message)))) return { message, httpStatus: status };
          // Anything else (a server-to-client request, a response to another id) is not allowed on this stream; it is skipped.
        }
      }
    } finally {
      // Closing the reader closes the stream: after the response, and on abort (= cancellation).
      reader.cancel().catch(() => {});
    }
  }

  return {
    kind: 'http',
    identity: url.href,
    authContext,
    send,
    async close() {
      closed = true;
      for (const controller of inFlight) controller.abort(new McpClientError('closed', 'the client was closed'));
    },
  };
}
