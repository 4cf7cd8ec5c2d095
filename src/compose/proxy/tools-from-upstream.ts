/**
 * `toolsFromUpstream`: a remote MCP server's tools as ordinary local tools (`defineTool`), each of
 * whose `run` calls the upstream tool. Because they are ordinary tools, a call goes through the
 * whole local pipeline first (shape check on the ADVERTISED inputSchema, authorization, approval,
 * rate limit, audit, result budget) and only then upstream. docs/compose.md, "Proxy".
 */
import { isJsonObject } from '../../json/json-object.js';
import type { JsonObject, JsonValue } from '../../protocol/json-rpc.js';
import { prefixedName } from '../../protocol/prefixed-name.js';
import type { ToolAnnotations, ToolDescriptor } from '../../protocol/index.js';
import { checkToolDefinition, defineTool, deriveTool } from '../../server/index.js';
import type { Tool } from '../../server/index.js';
import type { ToolHandlers } from '../../server/tool-types.js';
import { isValidPrefix } from '../../server/mount.js';
import { transformTools } from '../transforms.js';
import type { ToolTransform } from '../transforms.js';
import { ProxyError } from './proxy-error.js';
import { describeTarget, Upstream } from './upstream.js';
import { HeldInputCalls } from './held-input-calls.js';
import type { UpstreamOptions, UpstreamTarget } from './upstream.js';

/** Options of {@link toolsFromUpstream}. */
export interface UpstreamToolsOptions extends UpstreamOptions {
  /** Listed as `<prefix>__<name>` (the mount rule); 1-64 of `[A-Za-z0-9_.-]`, no `__`, not beginning or ending with `_`. */
  prefix?: string;
  /** Applied in order to the upstream's tools, by their upstream names, before the prefix (see `transformTools`). */
  transforms?: readonly ToolTransform[];
  /** Most tools taken from the upstream (default 1000); the rest are reported as `too-many`. */
  maxTools?: number;
  /** Largest descriptor (name, description, schemas, annotations as JSON) taken, in bytes (default 256 KiB). */
  maxDescriptorBytes?: number;
}

/** Why an upstream tool was not taken. */
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
  | 'too-many';

/** One upstream tool not taken, and why. */
export interface UpstreamToolProblem {
  /** The tool's upstream name, when it has a string one. */
  tool: string | undefined;
  code: UpstreamToolProblemCode;
  message: string;
}

/** What {@link toolsFromUpstream} returns. */
export interface UpstreamTools {
  /** One local tool per usable upstream tool (transformed, prefixed), in upstream order. */
  tools: Tool[];
  /** Every upstream tool that was not taken, and why. */
  problems: UpstreamToolProblem[];
  /** The local name of each tool and the upstream name it calls. */
  names: { local: string; upstream: string }[];
  /** The upstream as named in messages. */
  label: string;
  /** `modern` or `legacy`: the era the upstream turned out to speak. */
  era: 'modern' | 'legacy' | undefined;
  /** Closes the connection (stops a stdio child). Calls after it get an error result. */
  close(): Promise<void>;
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
function adoptTool(raw: ToolDescriptor, held: HeldInputCalls, maxBytes: number): Tool | UpstreamToolProblem {
  const name = raw.name;
  const descriptor = localDescriptor(raw);
  const size = Buffer.byteLength(JSON.stringify(descriptor) ?? '', 'utf8');
  if (size > maxBytes) return { tool: name, code: 'too-large', message: `the descriptor is ${size} bytes, over maxDescriptorBytes ${maxBytes}` };
  // Compiles both schemas with the engine's limits (depth, nodes, safe patterns) before anything is built.
  const problems = checkToolDefinition(descriptor as ToolDescriptor);
  if (problems.length > 0) {
    const code = problems.every((p) => p.field === 'name') ? 'invalid-name' : 'invalid-definition';
    return { tool: name, code, message: problems.map((p) => p.message).join('; ') };
  }
  try {
    return defineTool({ ...descriptor, run: (args, ctx) => held.run(name, args, ctx) as never });
  } catch (error) {
    return { tool: name, code: 'invalid-definition', message: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * Connects to a remote MCP server (a stdio child or Streamable HTTP, either era, through
 * `toolwright/client`), lists all its tools, and returns them as local tools with the advertised
 * `inputSchema`, `outputSchema`, description, title and annotations, named `<prefix>__<name>` when a
 * prefix is given. Each tool's `run` calls the upstream tool with exactly the arguments the
 * pipeline passed, forwards cancellation and (when the caller asked for it) progress, and turns
 * every upstream failure into an `isError` result (see `Upstream` in upstream.ts). Upstream tools that
 * cannot be served are left out and reported in `problems`.
 *
 * @throws ProxyError `invalid_options` for bad options, `upstream_unavailable` when the upstream
 *   cannot be listed, `name_collision` when two tools would have one name. The connection is closed
 *   before it throws.
 * @example
 * ```ts
 * import { createServer } from 'toolwright';
 * import { toolsFromUpstream } from 'toolwright/compose';
 *
 * const everything = await toolsFromUpstream({ command: 'npx', args: ['@modelcontextprotocol/server-everything'] }, { prefix: 'every' });
 * const server = createServer({ name: 'front', version: '1.0.0', tools: everything.tools });
 * ```
 */
export async function toolsFromUpstream(target: UpstreamTarget, options: UpstreamToolsOptions = {}): Promise<UpstreamTools> {
  if (options.prefix !== undefined && !isValidPrefix(options.prefix)) {
    throw new ProxyError('invalid_options', `prefix must be 1-64 of [A-Za-z0-9_.-], not contain "__" and not begin or end with "_", got ${JSON.stringify(options.prefix)}`);
  }
  const maxTools = options.maxTools ?? 1000;
  const maxBytes = options.maxDescriptorBytes ?? 256 * 1024;
  if (!Number.isInteger(maxTools) || maxTools < 1) throw new ProxyError('invalid_options', `maxTools must be a positive integer, got ${JSON.stringify(options.maxTools)}`);
  if (!Number.isInteger(maxBytes) || maxBytes < 1) throw new ProxyError('invalid_options', `maxDescriptorBytes must be a positive integer, got ${JSON.stringify(options.maxDescriptorBytes)}`);
  const upstream = new Upstream(target, { ...options, label: options.label ?? options.prefix ?? describeTarget(target) });
  try {
    const listing = await upstream.listTools();
    const held = new HeldInputCalls(upstream);
    const problems: UpstreamToolProblem[] = listing.excluded.map((entry) => ({ tool: entry.name, code: 'excluded', message: entry.reason }));
    const adopted: Tool[] = [];
    const seen = new Set<string>();
    for (const [index, raw] of listing.tools.entries()) {
      if (seen.has(raw.name)) throw new ProxyError('name_collision', `upstream ${upstream.label} lists the tool "${raw.name}" more than once; a proxied name must call one tool`);
      seen.add(raw.name);
      if (index >= maxTools) {
        problems.push({ tool: raw.name, code: 'too-many', message: `past maxTools ${maxTools}` });
        continue;
      }
      const tool = adoptTool(raw, held, maxBytes);
      if ('handlers' in tool) adopted.push(tool);
      else problems.push(tool);
    }
    // Only a rename changes a name: follow them to know which upstream tool each local name calls.
    const origin = new Map(adopted.map((tool) => [tool.name, tool.name]));
    for (const transform of options.transforms ?? []) {
      if (transform.kind !== 'rename') continue;
      const from = origin.get(transform.tool);
      if (from === undefined) continue;
      origin.delete(transform.tool);
      origin.set(transform.to, from);
    }
    const transformed = options.transforms === undefined ? adopted : transformTools(adopted, options.transforms);
    const tools: Tool[] = [];
    const names: { local: string; upstream: string }[] = [];
    for (const tool of transformed) {
      const local = prefixedName(options.prefix, tool.name);
      const upstreamName = origin.get(tool.name) ?? tool.name;
      if (local.length > 128) {
        problems.push({ tool: upstreamName, code: 'invalid-name', message: `prefixed, the name "${local}" is ${local.length} characters, over the tool-name rule's 128` });
        continue;
      }
      tools.push(deriveTool(tool, { descriptor: { ...tool.descriptor, name: local }, handlers: showUpstreamCall(tool.handlers, upstream.label, upstreamName) }));
      names.push({ local, upstream: upstreamName });
    }
    return { tools, problems, names, label: upstream.label, era: upstream.era, close: () => upstream.close() };
  } catch (error) {
    await upstream.close();
    throw error;
  }
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
