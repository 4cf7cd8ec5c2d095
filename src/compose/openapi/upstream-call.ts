import type { ToolResultInit } from '../../server/index.js';
import type { ArgumentPlace } from './operation-input.js';
import { isJsonObject } from '../../json/json-object.js';

/** A credential for one security scheme of the upstream API (given by the operator, never by the caller). */
export type UpstreamCredential =
  | { type: 'bearer'; token: string }
  | { type: 'apiKey'; value: string }
  | { type: 'basic'; username: string; password: string };

/** How a credential is applied to a request, resolved from the document's security scheme at import. */
export type AppliedCredential =
  | { in: 'header'; name: string; value: string }
  | { in: 'query'; name: string; value: string };

/** Everything one tool needs to call its operation. */
export interface UpstreamRequestPlan {
  method: string;
  baseUrl: string;
  path: string;
  places: readonly ArgumentPlace[];
  hasBody: boolean;
  credentials: readonly AppliedCredential[];
  timeoutMs: number;
  maxResponseBytes: number;
  /** Return a JSON object body as `structuredContent` (the tool has an `outputSchema`). */
  structured: boolean;
}

const EXCERPT_CHARS = 500;

function text(message: string, isError = true): ToolResultInit {
  return { content: [{ type: 'text', text: message }], isError };
}

/** Builds the request URL, headers and body from the tool's arguments. */
function buildRequest(plan: UpstreamRequestPlan, args: Record<string, unknown>): { url: URL; headers: Headers; body: string | undefined } {
  let path = plan.path;
  const headers = new Headers({ accept: 'application/json' });
  const query: [string, string][] = [];
  let body: Record<string, unknown> | unknown = undefined;
  for (const place of plan.places) {
    const value = args[place.argument];
    if (value === undefined) continue;
    if (place.in === 'path') path = path.split(`{${place.name}}`).join(encodeURIComponent(Array.isArray(value) ? value.join(',') : String(value)));
    else if (place.in === 'query' && Array.isArray(value) && place.explode === false) query.push([place.name, value.join(',')]);
    else if (place.in === 'query') for (const item of Array.isArray(value) ? value : [value]) query.push([place.name, String(item)]);
    else if (place.in === 'header') headers.set(place.name, Array.isArray(value) ? value.join(',') : String(value));
    else if (place.in === 'body') body = value;
    else body = { ...(body as Record<string, unknown> | undefined), [place.name]: value };
  }
  const url = new URL(plan.baseUrl.replace(/\/+$/, '') + path);
  for (const [name, value] of query) url.searchParams.append(name, value);
  for (const credential of plan.credentials) {
    if (credential.in === 'header') headers.set(credential.name, credential.value);
    else url.searchParams.set(credential.name, credential.value);
  }
  if (plan.hasBody && body !== undefined) headers.set('content-type', 'application/json');
  return { url, headers, body: plan.hasBody && body !== undefined ? JSON.stringify(body) : undefined };
}

/**
 * Reads a response body up to `limit` bytes, stopping (and cancelling the stream) as soon as it
 * passes the limit; `truncated` says it did. A declared `content-length` over the limit is not read.
 */
async function readLimited(response: Response, limit: number): Promise<{ bytes: Uint8Array; truncated: boolean }> {
  const declared = Number(response.headers.get('content-length'));
  if (response.body === null) return { bytes: new Uint8Array(), truncated: false };
  if (Number.isFinite(declared) && declared > limit && response.status < 300) {
    await response.body.cancel();
    return { bytes: new Uint8Array(), truncated: true };
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return { bytes: Buffer.concat(chunks).subarray(0, limit), truncated: true };
    }
  }
  return { bytes: Buffer.concat(chunks), truncated: false };
}

/**
 * Calls the upstream operation with `fetch`: a timeout on the whole exchange (aborted too when the
 * MCP call is cancelled), a cap on the response size, redirects not followed (credentials must not
 * travel to another origin). Every failure is an `isError` result a model can act on: the HTTP
 * status and a short excerpt of the body, or what went wrong with the exchange.
 */
export async function callUpstream(plan: UpstreamRequestPlan, args: Record<string, unknown>, cancelled: AbortSignal): Promise<ToolResultInit> {
  const { url, headers, body } = buildRequest(plan, args);
  const where = `${plan.method.toUpperCase()} ${plan.path}`;
  const timeout = AbortSignal.timeout(plan.timeoutMs);
  const signal = AbortSignal.any([timeout, cancelled]);
  let response: Response;
  let read: { bytes: Uint8Array; truncated: boolean };
  try {
    response = await fetch(url, { method: plan.method.toUpperCase(), headers, body, signal, redirect: 'manual' });
    read = await readLimited(response, plan.maxResponseBytes);
  } catch (error) {
    if (timeout.aborted) return text(`Upstream ${where} did not answer within ${plan.timeoutMs} ms.`);
    if (cancelled.aborted) return text(`Call to upstream ${where} was cancelled.`);
    const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
    return text(`Upstream ${where} could not be reached (${error instanceof Error ? error.message : String(error)}${cause}).`);
  }
  // An error answer is reported with what was read of it; a success answer must be whole.
  const bodyText = new TextDecoder().decode(read.bytes);
  if (response.status >= 300) {
    const excerpt = bodyText.length > EXCERPT_CHARS ? `${bodyText.slice(0, EXCERPT_CHARS)}...` : bodyText;
    const redirect = response.status < 400 ? ` (redirect to ${response.headers.get('location') ?? 'nowhere'} not followed)` : '';
    return text(`Upstream ${where} answered HTTP ${response.status} ${response.statusText}${redirect}${excerpt ? `: ${excerpt}` : ''}`);
  }
  if (read.truncated) return text(`Upstream response to ${where} is larger than ${plan.maxResponseBytes} bytes; it was not read. Narrow the request (filters, pagination) and try again.`);
  if (bodyText.length === 0) return text(`HTTP ${response.status} (no content)`, false);
  const isJson = /json/i.test(response.headers.get('content-type') ?? '');
  if (isJson && plan.structured) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(bodyText);
    } catch {
      return text(`Upstream ${where} answered HTTP ${response.status} with a body that is not valid JSON: ${bodyText.slice(0, EXCERPT_CHARS)}`);
    }
    if (isJsonObject(parsed)) return { content: [{ type: 'text', text: bodyText }], structuredContent: parsed };
  }
  return text(bodyText, false);
}
