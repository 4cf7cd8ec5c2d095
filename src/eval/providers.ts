/**
 * The three chat APIs a regression set can run against, each sent the catalog exactly as the host
 * profile lowers it (src/host): OpenAI Chat Completions (which Ollama, vLLM, llama.cpp's server and
 * LM Studio also speak), Anthropic Messages, and Gemini generateContent. Only the request and the
 * reply's tool call are handled here; scoring is elsewhere.
 */
import { isJsonObject } from '../json/json-object.js';
import type { MappedCatalog, ProviderName } from '../host/index.js';
import { EvalError } from './eval-error.js';

/** A `--model provider:model` choice, resolved. */
export interface ModelTarget {
  /** What the user wrote before the colon. */
  provider: string;
  model: string;
  /** Which API shape is spoken. */
  api: 'openai-chat' | 'anthropic' | 'gemini';
  /** The host profile the catalog is lowered with. */
  profile: ProviderName;
  baseUrl: string;
  /** Environment variable holding the API key, when the endpoint needs one. */
  keyVariable: string | undefined;
}

interface ProviderEntry { api: ModelTarget['api']; profile: ProviderName; baseUrl: string; keyVariable?: string }

/** Known providers; the OpenAI-compatible local servers need no key. */
export const PROVIDERS: Readonly<Record<string, ProviderEntry>> = {
  openai: { api: 'openai-chat', profile: 'openai-chat', baseUrl: 'https://api.openai.com/v1', keyVariable: 'OPENAI_API_KEY' },
  ollama: { api: 'openai-chat', profile: 'openai-chat', baseUrl: 'http://127.0.0.1:11434/v1' },
  vllm: { api: 'openai-chat', profile: 'openai-chat', baseUrl: 'http://127.0.0.1:8000/v1' },
  llamacpp: { api: 'openai-chat', profile: 'openai-chat', baseUrl: 'http://127.0.0.1:8080/v1' },
  lmstudio: { api: 'openai-chat', profile: 'openai-chat', baseUrl: 'http://127.0.0.1:1234/v1' },
  anthropic: { api: 'anthropic', profile: 'anthropic', baseUrl: 'https://api.anthropic.com', keyVariable: 'ANTHROPIC_API_KEY' },
  gemini: { api: 'gemini', profile: 'gemini', baseUrl: 'https://generativelanguage.googleapis.com', keyVariable: 'GEMINI_API_KEY' },
};

/**
 * Resolves `provider:model` (e.g. `openai:gpt-4.1`, `anthropic:claude-sonnet-4-5`,
 * `gemini:gemini-2.5-flash`, `ollama:qwen3:8b`). `baseUrl` replaces the provider's endpoint.
 */
export function resolveModelTarget(spec: string, baseUrl?: string): ModelTarget {
  const colon = spec.indexOf(':');
  if (colon <= 0 || colon === spec.length - 1) throw new EvalError('model-target', `--model must be provider:model (providers: ${Object.keys(PROVIDERS).join(', ')}), got ${JSON.stringify(spec)}`);
  const provider = spec.slice(0, colon).toLowerCase();
  const entry = PROVIDERS[provider];
  if (entry === undefined) throw new EvalError('model-target', `unknown provider "${provider}" in --model (known: ${Object.keys(PROVIDERS).join(', ')})`);
  let url = entry.baseUrl;
  if (baseUrl !== undefined) {
    try {
      const parsed = new URL(baseUrl);
      if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error('not http');
    } catch {
      throw new EvalError('model-target', `--base-url must be an http(s) URL, got ${JSON.stringify(baseUrl)}`);
    }
    url = baseUrl;
  }
  return { provider, model: spec.slice(colon + 1), api: entry.api, profile: entry.profile, baseUrl: url.replace(/\/+$/, ''), keyVariable: entry.keyVariable };
}

/** One conversation turn to send: the case's context (system) and request (user). */
export interface ChatPrompt {
  system?: string;
  user: string;
}

/** What the model answered: its first tool call (arguments as received), and any text. */
export interface ModelReply {
  call: { name: string; arguments: unknown } | undefined;
  /** Further tool calls in the same reply (scored: only the first counts, the rest are reported). */
  extraCalls: number;
  text: string;
}

/** An HTTP request ready to send. */
export interface ProviderRequest {
  url: string;
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

/** Builds the provider request for one prompt with the lowered catalog (`withTools: false` for a plain question). */
export function buildRequest(target: ModelTarget, catalog: MappedCatalog | undefined, prompt: ChatPrompt, apiKey: string | undefined): ProviderRequest {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const tools = catalog?.request.tools;
  if (target.api === 'openai-chat') {
    if (apiKey !== undefined) headers.authorization = `Bearer ${apiKey}`;
    const messages = [...(prompt.system !== undefined ? [{ role: 'system', content: prompt.system }] : []), { role: 'user', content: prompt.user }];
    return { url: `${target.baseUrl}/chat/completions`, headers, body: { model: target.model, messages, ...(tools !== undefined ? { tools, tool_choice: 'auto' } : {}) } };
  }
  if (target.api === 'anthropic') {
    if (apiKey !== undefined) headers['x-api-key'] = apiKey;
    headers['anthropic-version'] = '2023-06-01';
    return {
      url: `${target.baseUrl}/v1/messages`,
      headers,
      body: { model: target.model, max_tokens: 1024, ...(prompt.system !== undefined ? { system: prompt.system } : {}), messages: [{ role: 'user', content: prompt.user }], ...(tools !== undefined ? { tools } : {}) },
    };
  }
  if (apiKey !== undefined) headers['x-goog-api-key'] = apiKey;
  return {
    url: `${target.baseUrl}/v1beta/models/${encodeURIComponent(target.model)}:generateContent`,
    headers,
    body: {
      contents: [{ role: 'user', parts: [{ text: prompt.user }] }],
      ...(prompt.system !== undefined ? { systemInstruction: { parts: [{ text: prompt.system }] } } : {}),
      ...(tools !== undefined ? { tools } : {}),
    },
  };
}

/** Reads the tool call out of a provider's JSON reply (the shapes of each provider's API reference). */
export function readReply(api: ModelTarget['api'], data: unknown): ModelReply {
  if (!isJsonObject(data)) throw new EvalError('reply-shape', 'the reply is not a JSON object');
  if (api === 'openai-chat') {
    const message = Array.isArray(data.choices) && isJsonObject(data.choices[0]) ? data.choices[0].message : undefined;
    if (!isJsonObject(message)) throw new EvalError('reply-shape', 'no choices[0].message in the Chat Completions reply');
    const calls = Array.isArray(message.tool_calls) ? message.tool_calls.filter(isJsonObject) : [];
    const first = calls[0];
    const fn = first !== undefined && isJsonObject(first.function) ? first.function : undefined;
    if (first !== undefined && (fn === undefined || typeof fn.name !== 'string')) throw new EvalError('reply-shape', 'tool_calls[0].function.name is missing');
    return { call: fn ? { name: fn.name as string, arguments: fn.arguments } : undefined, extraCalls: Math.max(0, calls.length - 1), text: typeof message.content === 'string' ? message.content : '' };
  }
  if (api === 'anthropic') {
    if (!Array.isArray(data.content)) throw new EvalError('reply-shape', 'no content[] in the Messages reply');
    const blocks = data.content.filter(isJsonObject);
    const uses = blocks.filter((b) => b.type === 'tool_use');
    const first = uses[0];
    if (first !== undefined && typeof first.name !== 'string') throw new EvalError('reply-shape', 'a tool_use block has no name');
    const text = blocks.filter((b) => b.type === 'text' && typeof b.text === 'string').map((b) => b.text as string).join('\n');
    return { call: first ? { name: first.name as string, arguments: first.input } : undefined, extraCalls: Math.max(0, uses.length - 1), text };
  }
  const candidate = Array.isArray(data.candidates) && isJsonObject(data.candidates[0]) ? data.candidates[0] : undefined;
  const content = candidate !== undefined && isJsonObject(candidate.content) ? candidate.content : undefined;
  if (content === undefined || !Array.isArray(content.parts)) throw new EvalError('reply-shape', 'no candidates[0].content.parts in the generateContent reply');
  const parts = content.parts.filter(isJsonObject);
  const calls = parts.filter((p) => isJsonObject(p.functionCall)).map((p) => p.functionCall as Record<string, unknown>);
  const first = calls[0];
  if (first !== undefined && typeof first.name !== 'string') throw new EvalError('reply-shape', 'a functionCall has no name');
  const text = parts.filter((p) => typeof p.text === 'string').map((p) => p.text as string).join('\n');
  return { call: first ? { name: first.name as string, arguments: first.args ?? {} } : undefined, extraCalls: Math.max(0, calls.length - 1), text };
}

/** Sends one request and reads the reply. */
export async function callModel(target: ModelTarget, request: ProviderRequest, timeoutMs: number): Promise<ModelReply> {
  let response: Response;
  try {
    response = await fetch(request.url, { method: 'POST', headers: request.headers, body: JSON.stringify(request.body), signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
    throw new EvalError('provider-call', `cannot reach ${request.url}: ${cause === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : cause}`, true);
  }
  const text = await response.text();
  if (!response.ok) {
    let detail = text.slice(0, 200);
    try {
      const data = JSON.parse(text) as { error?: { message?: string } | string };
      detail = typeof data.error === 'string' ? data.error : data.error?.message ?? detail;
    } catch { /* keep the text */ }
    throw new EvalError('provider-call', `${target.provider} answered HTTP ${response.status}: ${detail}`, false);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new EvalError('reply-shape', 'the reply is not JSON');
  }
  return readReply(target.api, data);
}
