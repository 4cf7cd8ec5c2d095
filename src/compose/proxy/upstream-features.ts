/**
 * An upstream's resources, resource templates and prompts as local ones (the mount rule: resource
 * URIs and templates kept, prompt names prefixed `<prefix>__<name>`). A read or a get is sent
 * upstream as it came; a failure is a JSON-RPC error naming the upstream. Listed once, at start.
 */
import { isJsonObject } from '../../json/json-object.js';
import type { JsonObject } from '../../protocol/json-rpc.js';
import { prefixedName } from '../../protocol/prefixed-name.js';
import { ProtocolError } from '../../protocol/protocol-error.js';
import { ErrorCode } from '../../protocol/error-codes.js';
import { rpcError } from '../../server/outcomes.js';
import { definePrompt, defineResource, defineResourceTemplate } from '../../server/index.js';
import type { Prompt, PromptGetValue, Resource, ResourceReadValue, ResourceTemplate } from '../../server/index.js';
import type { ResourceContentsInit } from '../../server/tools/content.js';
import type { UpstreamToolProblem } from './adopt-tools.js';
import { ProxyError } from './proxy-error.js';
import type { Upstream } from './upstream.js';

/** Pages read of one list at most: a cursor that never ends is cut here. */
const MAX_PAGES = 100;
/** The 2025 spec's "resource not found"; the current one says -32602 (ErrorCode.InvalidParams). */
const LEGACY_NOT_FOUND = -32002;

/** What was taken of the upstream's features. */
export interface AdoptedFeatures {
  resources: (Resource | ResourceTemplate)[];
  prompts: Prompt[];
  problems: UpstreamToolProblem[];
}

interface Limits {
  readonly prefix: string | undefined;
  readonly maxEntries: number;
  readonly maxBytes: number;
}

/** Every entry of a paged list (`key` of each page), at most `max` of them and `MAX_PAGES` pages. */
async function listAll(upstream: Upstream, method: string, key: string, max: number): Promise<{ entries: unknown[]; more: number }> {
  const entries: unknown[] = [];
  let cursor: string | undefined;
  let more = 0;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await upstream.request(method, cursor === undefined ? {} : { cursor });
    const items = result[key];
    if (!Array.isArray(items)) throw new ProxyError('upstream_unavailable', `upstream ${upstream.label}: ${method} answered without a "${key}" array`);
    for (const item of items) {
      if (entries.length < max) entries.push(item);
      else more++;
    }
    // As the client reads tools/list (C-09): only an absent nextCursor ends the list; "" is a real cursor.
    cursor = typeof result.nextCursor === 'string' ? result.nextCursor : undefined;
    if (cursor === undefined || entries.length >= max) break;
  }
  return { entries, more };
}

/** The upstream's failure as the front answers it: its own code for bad params or an unknown entry, else -32603. */
function relayed(error: unknown, what: string, data: JsonObject): ProtocolError {
  const cause = error instanceof ProxyError && error.cause instanceof Error ? error.cause : error;
  const code = (cause as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  return rpcError(code === ErrorCode.InvalidParams || code === LEGACY_NOT_FOUND ? 'upstreamRefused' : 'upstreamFailed', `${what}: ${message}`, { data });
}

/** The contents of an upstream `resources/read` result, checked to be contents objects (text or base64 blob). */
function contentsOf(result: JsonObject, uri: string, label: string): ResourceReadValue {
  const contents = result.contents;
  const bad = !Array.isArray(contents) || contents.length === 0 ? -1 : contents.findIndex((c) => !isJsonObject(c) || typeof c.uri !== 'string' || (typeof c.text !== 'string' && typeof c.blob !== 'string'));
  if (!Array.isArray(contents) || bad >= 0) {
    throw rpcError('upstreamFailed', `Upstream ${label} answered resources/read of ${uri} with malformed contents${bad >= 0 ? ` (contents[${bad}])` : ''}`, { data: { uri } });
  }
  return contents.map((c) => {
    const item = c as JsonObject;
    return {
      uri: item.uri as string,
      ...(typeof item.mimeType === 'string' ? { mimeType: item.mimeType } : {}),
      ...(typeof item.text === 'string' ? { text: item.text } : { blob: item.blob as string }),
    } as ResourceContentsInit;
  });
}

function tooLarge(entry: unknown, maxBytes: number): number | undefined {
  const size = Buffer.byteLength(JSON.stringify(entry) ?? '', 'utf8');
  return size > maxBytes ? size : undefined;
}

const DESCRIBED = ['title', 'description', 'mimeType'] as const;

/** The descriptive string fields of an upstream entry (nothing else is carried over). */
function described(raw: JsonObject): { title?: string; description?: string; mimeType?: string } {
  const out: Record<string, string> = {};
  for (const key of DESCRIBED) if (typeof raw[key] === 'string') out[key] = raw[key];
  return out;
}

/**
 * Lists the upstream's resources, templates and prompts (each only when it declares the feature)
 * and makes them local. An entry that cannot be served is reported, never thrown.
 * @throws ProxyError `upstream_unavailable` when a list the upstream declares cannot be read.
 */
export async function adoptFeatures(upstream: Upstream, capabilities: JsonObject, limits: Limits): Promise<AdoptedFeatures> {
  const out: AdoptedFeatures = { resources: [], prompts: [], problems: [] };
  const { maxEntries, maxBytes } = limits;
  // A resource's or a template's read: the upstream's contents, or its failure named (a protocol error as it is).
  const readUpstream = async (uri: string, signal: AbortSignal) => {
    try {
      return contentsOf(await upstream.request('resources/read', { uri }, signal), uri, upstream.label);
    } catch (error) {
      throw error instanceof ProtocolError ? error : relayed(error, `Reading ${uri} from upstream ${upstream.label} failed`, { uri });
    }
  };
  const refuse = (entry: UpstreamToolProblem['entry'], tool: unknown, code: UpstreamToolProblem['code'], message: string): void => {
    out.problems.push({ tool: typeof tool === 'string' ? tool : undefined, code, message, entry });
  };
  if (capabilities.resources !== undefined) {
    const listed = await listAll(upstream, 'resources/list', 'resources', maxEntries);
    if (listed.more > 0) refuse('resource', undefined, 'too-many', `${listed.more} resource(s) past maxTools ${maxEntries}`);
    for (const raw of listed.entries) {
      if (!isJsonObject(raw)) continue;
      const size = tooLarge(raw, maxBytes);
      if (size !== undefined) refuse('resource', raw.uri, 'too-large', `the descriptor is ${size} bytes, over maxDescriptorBytes ${maxBytes}`);
      else {
        try {
          const uri = raw.uri as string;
          out.resources.push(defineResource({
            uri, name: raw.name as string, ...described(raw),
            read: (ctx) => readUpstream(uri, ctx.signal),
          }));
        } catch (error) {
          refuse('resource', raw.uri, 'invalid-definition', error instanceof Error ? error.message : String(error));
        }
      }
    }
    const templates = await listAll(upstream, 'resources/templates/list', 'resourceTemplates', maxEntries);
    if (templates.more > 0) refuse('resource-template', undefined, 'too-many', `${templates.more} resource template(s) past maxTools ${maxEntries}`);
    for (const raw of templates.entries) {
      if (!isJsonObject(raw)) continue;
      const size = tooLarge(raw, maxBytes);
      if (size !== undefined) refuse('resource-template', raw.uriTemplate, 'too-large', `the descriptor is ${size} bytes, over maxDescriptorBytes ${maxBytes}`);
      else {
        try {
          out.resources.push(defineResourceTemplate({
            uriTemplate: raw.uriTemplate as string, name: raw.name as string, ...described(raw),
            read: (uri, _variables, ctx) => readUpstream(uri, ctx.signal),
          }));
        } catch (error) {
          refuse('resource-template', raw.uriTemplate, 'invalid-definition', error instanceof Error ? error.message : String(error));
        }
      }
    }
  }
  if (capabilities.prompts !== undefined) {
    const listed = await listAll(upstream, 'prompts/list', 'prompts', maxEntries);
    if (listed.more > 0) refuse('prompt', undefined, 'too-many', `${listed.more} prompt(s) past maxTools ${maxEntries}`);
    for (const raw of listed.entries) {
      if (!isJsonObject(raw) || typeof raw.name !== 'string') continue;
      const upstreamName = raw.name;
      const size = tooLarge(raw, maxBytes);
      if (size !== undefined) {
        refuse('prompt', upstreamName, 'too-large', `the descriptor is ${size} bytes, over maxDescriptorBytes ${maxBytes}`);
        continue;
      }
      const args = Array.isArray(raw.arguments) ? raw.arguments.filter(isJsonObject).map((a) => ({
        name: a.name as string, ...described(a), ...(typeof a.required === 'boolean' ? { required: a.required } : {}),
      })) : undefined;
      try {
        out.prompts.push(definePrompt({
          name: prefixedName(limits.prefix, upstreamName), ...described(raw), ...(args !== undefined ? { arguments: args } : {}),
          get: async (values, ctx): Promise<PromptGetValue> => {
            let result: JsonObject;
            try {
              result = await upstream.request('prompts/get', { name: upstreamName, arguments: { ...values } }, ctx.signal);
            } catch (error) {
              throw relayed(error, `Prompt ${upstreamName} of upstream ${upstream.label} failed`, { name: upstreamName });
            }
            // The front checks each message's shape (a malformed one is its -32603).
            return { ...(typeof result.description === 'string' ? { description: result.description } : {}), messages: (Array.isArray(result.messages) ? result.messages : []) as never };
          },
        }));
      } catch (error) {
        refuse('prompt', upstreamName, error instanceof TypeError && /name must be/.test(error.message) ? 'invalid-name' : 'invalid-definition', error instanceof Error ? error.message : String(error));
      }
    }
  }
  return out;
}
