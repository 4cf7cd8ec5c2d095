/**
 * An upstream's tool listing made into local tools: each descriptor checked (size, name, schemas
 * compiled with the engine's limits), transformed, prefixed. The same rules at start and at every
 * re-list after the upstream's `list_changed`.
 */
import { isJsonObject } from '../../json/json-object.js';
import type { ToolListing } from '../../client/index.js';
import type { JsonObject, JsonValue } from '../../protocol/json-rpc.js';
import { prefixedName } from '../../protocol/prefixed-name.js';
import type { ToolAnnotations, ToolDescriptor } from '../../protocol/index.js';
import { checkToolDefinition, defineTool, deriveTool } from '../../server/index.js';
import type { Tool, ToolContext, ToolResultInit } from '../../server/index.js';
import type { ToolHandlers } from '../../server/contract/tool-types.js';
import { transformTools } from '../transforms.js';
import type { ToolTransform } from '../transforms.js';
import { ProxyError } from './proxy-error.js';

/** Why an upstream tool (or resource, or prompt) was not taken, or why its list could not be read again. */
export type UpstreamToolProblemCode =
  /** The client dropped the entry as malformed (no name, bad `x-mcp-header`). */
  | 'excluded'
  /** The name breaks the tool-name rule (1-128 of `A-Z a-z 0-9 _ . -`), or does once prefixed. */
  | 'invalid-name'
  /** The descriptor is larger than `maxDescriptorBytes`. */
  | 'too-large'
  /** A schema does not compile (invalid, too deep, too many nodes, an unsafe pattern) or is not an object schema. */
  | 'invalid-definition'
  /** Past `maxTools`. */
  | 'too-many'
  /** After a list change, the name is already served by another source of the front server; that tool is left out. */
  | 'collision'
  /** The upstream said its list changed but could not be listed again (or listed a name twice); the previous list is still served. */
  | 'relist-failed'
  /** The upstream's resources, templates or prompts could not be listed at start; none of them is served. */
  | 'list-failed';

/** One upstream tool (or resource, or prompt) not taken, and why. */
export interface UpstreamToolProblem {
  /** The tool's upstream name (a resource's URI, a prompt's name), when it has a string one. */
  tool: string | undefined;
  code: UpstreamToolProblemCode;
  message: string;
  /** What the entry is when it is not a tool. */
  entry?: 'resource' | 'resource-template' | 'prompt';
}

/** How listed tools become local ones. */
export interface AdoptSettings {
  readonly prefix: string | undefined;
  readonly transforms: readonly ToolTransform[] | undefined;
  readonly maxTools: number;
  readonly maxBytes: number;
  readonly label: string;
  /** Calls the upstream tool (`Upstream.call`, or a refusal once the tool is no longer listed). */
  readonly call: (upstreamName: string, args: Record<string, unknown>, ctx: ToolContext) => Promise<ToolResultInit>;
}

/** The tools of one listing. */
export interface AdoptedTools {
  tools: Tool[];
  problems: UpstreamToolProblem[];
  names: { local: string; upstream: string }[];
}

/** The descriptor fields carried over: everything the model reads and the validator checks, nothing else. */
function localDescriptor(raw: ToolDescriptor): { name: string; title?: string; description?: string; inputSchema: JsonObject; outputSchema?: JsonObject; annotations?: ToolAnnotations } {
  return {
    name: raw.name,
    ...(typeof raw.title === 'string' ? { title: raw.title } : {}),
    ...(typeof raw.description === 'string' ? { description: raw.description } : {}),
    inputSchema: raw.inputSchema as JsonObject,
    ...(raw.outputSchema !== undefined ? { outputSchema: raw.outputSchema as JsonObject } : {}),
    ...(isJsonObject(raw.annotations) ? { annotations: raw.annotations as ToolAnnotations } : {}),
  };
}

/** Checks one listed tool; a tool made with `defineTool`, or the problem. */
function adoptTool(raw: ToolDescriptor, settings: AdoptSettings): Tool | UpstreamToolProblem {
  const name = raw.name;
  const descriptor = localDescriptor(raw);
  const size = Buffer.byteLength(JSON.stringify(descriptor) ?? '', 'utf8');
  if (size > settings.maxBytes) return { tool: name, code: 'too-large', message: `the descriptor is ${size} bytes, over maxDescriptorBytes ${settings.maxBytes}` };
  // Compiles both schemas with the engine's limits (depth, nodes, safe patterns) before anything is built.
  const problems = checkToolDefinition(descriptor as ToolDescriptor);
  if (problems.length > 0) {
    const code = problems.every((p) => p.field === 'name') ? 'invalid-name' : 'invalid-definition';
    return { tool: name, code, message: problems.map((p) => p.message).join('; ') };
  }
  try {
    return defineTool({ ...descriptor, run: (args, ctx) => settings.call(name, args, ctx) as never });
  } catch (error) {
    return { tool: name, code: 'invalid-definition', message: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * The local tools of `listing`, in upstream order.
 * @throws ProxyError `name_collision` when the upstream lists a name twice or a rename makes two tools one name.
 */
export function adoptTools(listing: ToolListing, settings: AdoptSettings): AdoptedTools {
  const problems: UpstreamToolProblem[] = listing.excluded.map((entry) => ({ tool: entry.name, code: 'excluded', message: entry.reason }));
  const adopted: Tool[] = [];
  const seen = new Set<string>();
  for (const [index, raw] of listing.tools.entries()) {
    if (seen.has(raw.name)) throw new ProxyError('name_collision', `upstream ${settings.label} lists the tool "${raw.name}" more than once; a proxied name must call one tool`);
    seen.add(raw.name);
    if (index >= settings.maxTools) {
      problems.push({ tool: raw.name, code: 'too-many', message: `past maxTools ${settings.maxTools}` });
      continue;
    }
    const tool = adoptTool(raw, settings);
    if ('handlers' in tool) adopted.push(tool);
    else problems.push(tool);
  }
  // Only a rename changes a name: follow them to know which upstream tool each local name calls.
  const origin = new Map(adopted.map((tool) => [tool.name, tool.name]));
  for (const transform of settings.transforms ?? []) {
    if (transform.kind !== 'rename') continue;
    const from = origin.get(transform.tool);
    if (from === undefined) continue;
    origin.delete(transform.tool);
    origin.set(transform.to, from);
  }
  const transformed = settings.transforms === undefined ? adopted : transformTools(adopted, settings.transforms);
  const tools: Tool[] = [];
  const names: { local: string; upstream: string }[] = [];
  for (const tool of transformed) {
    const local = prefixedName(settings.prefix, tool.name);
    const upstreamName = origin.get(tool.name) ?? tool.name;
    if (local.length > 128) {
      problems.push({ tool: upstreamName, code: 'invalid-name', message: `prefixed, the name "${local}" is ${local.length} characters, over the tool-name rule's 128` });
      continue;
    }
    tools.push(deriveTool(tool, { descriptor: { ...tool.descriptor, name: local }, handlers: showUpstreamCall(tool.handlers, settings.label, upstreamName) }));
    names.push({ local, upstream: upstreamName });
  }
  return { tools, problems, names };
}

/**
 * An approval of a proxied call (e.g. from `requireApproval`) shows the operator what goes upstream:
 * unless the approval gives its own `details`, they are the upstream, its tool name and the exact
 * arguments that will be sent (fixed and default arguments of transforms included). The digest
 * (tool name + canonical arguments) binds the approval to those arguments.
 */
function showUpstreamCall(handlers: ToolHandlers, label: string, upstreamName: string): ToolHandlers {
  const approval = handlers.approval;
  if (approval === undefined) return handlers;
  return {
    ...handlers,
    approval: async (args, ctx) => {
      const request = await approval(args, ctx);
      if (request === null || request === undefined || request.details !== undefined) return request;
      const details: JsonValue = { upstream: label, tool: upstreamName, arguments: args as JsonValue };
      return { ...request, details };
    },
  };
}
