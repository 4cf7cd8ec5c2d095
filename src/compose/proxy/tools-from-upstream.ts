/**
 * `toolsFromUpstream`: a remote MCP server's tools as ordinary local tools (`defineTool`), each of
 * whose `run` calls the upstream tool. Because they are ordinary tools, a call goes through the
 * whole local pipeline first (shape check on the ADVERTISED inputSchema, authorization, approval,
 * rate limit, audit, result budget) and only then upstream. Mounted (`mount`), they follow the
 * upstream's tool list changes and bring its resources and prompts. docs/compose.md, "Proxy".
 */
import type { MountOption, Prompt, Resource, ResourceTemplate, Tool } from '../../server/index.js';
import { isValidPrefix, NAMED_MOUNT } from '../../server/catalog/mount.js';
import type { ToolTransform } from '../transforms.js';
import type { UpstreamToolProblem } from './adopt-tools.js';
import { ProxyError } from './proxy-error.js';
import { UpstreamCatalog } from './upstream-catalog.js';
import { describeTarget } from './upstream.js';
import type { UpstreamOptions, UpstreamTarget } from './upstream.js';

export type { UpstreamToolProblem, UpstreamToolProblemCode } from './adopt-tools.js';

/** Options of {@link toolsFromUpstream}. */
export interface UpstreamToolsOptions extends UpstreamOptions {
  /** Listed as `<prefix>__<name>` (the mount rule); 1-64 of `[A-Za-z0-9_.-]`, no `__`, not beginning or ending with `_`. */
  prefix?: string;
  /** Applied in order to the upstream's tools, by their upstream names, before the prefix (see `transformTools`). */
  transforms?: readonly ToolTransform[];
  /** Most tools taken from the upstream (default 1000), and most resources, templates and prompts each; the rest are reported as `too-many`. */
  maxTools?: number;
  /** Largest descriptor (name, description, schemas, annotations as JSON) taken, in bytes (default 256 KiB); resources and prompts too. */
  maxDescriptorBytes?: number;
  /**
   * Least time between two re-lists of the upstream's tools after it says they changed, in ms
   * (default 1000): a storm of `list_changed` costs one re-list now and one at the end of the interval.
   */
  minRelistIntervalMs?: number;
  /** Take the upstream's resources, resource templates and prompts too (default true); they are served only through `mount`. */
  features?: boolean;
}

/** What {@link toolsFromUpstream} returns. The lists are the current ones: they change when the upstream's tool list does. */
export interface UpstreamTools {
  /** One local tool per usable upstream tool (transformed, prefixed), in upstream order. */
  readonly tools: readonly Tool[];
  /**
   * Every upstream tool (resource, prompt) that was not taken, and why; the last re-list that
   * failed (`relist-failed`); tools the front left out after a list change (`collision`).
   */
  readonly problems: readonly UpstreamToolProblem[];
  /** The local name of each tool and the upstream name it calls. */
  readonly names: readonly { local: string; upstream: string }[];
  /** The upstream's resources and resource templates (URIs kept, the mount rule), taken at start. */
  readonly resources: readonly (Resource | ResourceTemplate)[];
  /** The upstream's prompts, named `<prefix>__<name>`, taken at start. */
  readonly prompts: readonly Prompt[];
  /**
   * The upstream as a mount: `createServer({ mount: [proxied.mount] })` serves its tools, resources
   * and prompts, lists the tools again when the upstream sends `notifications/tools/list_changed`
   * (at most once per `minRelistIntervalMs`), and tells the front's callers. A tool whose new name
   * another source already serves is left out and reported in `problems` (`collision`).
   */
  readonly mount: MountOption;
  /** Re-lists of the upstream's tools since start, after its list changes or a reconnect. */
  readonly relists: number;
  /** The upstream as named in messages. */
  label: string;
  /** `modern` or `legacy`: the era the upstream turned out to speak. */
  era: 'modern' | 'legacy' | undefined;
  /** Closes the connection (stops a stdio child). Calls after it get an error result. */
  close(): Promise<void>;
}

/**
 * Connects to a remote MCP server (a stdio child or Streamable HTTP, either era, through
 * `toolwright/client`), lists all its tools, and returns them as local tools with the advertised
 * `inputSchema`, `outputSchema`, description, title and annotations, named `<prefix>__<name>` when a
 * prefix is given. Each tool's `run` calls the upstream tool with exactly the arguments the
 * pipeline passed, forwards cancellation and (when the caller asked for it) progress, and turns
 * every upstream failure into an `isError` result (see `Upstream` in upstream.ts). Upstream tools that
 * cannot be served are left out and reported in `problems`. Mounted (`mount`), the tool list
 * follows the upstream's `list_changed` and its resources and prompts are served too.
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
 * // Mounted: its tools follow the upstream's list changes; its resources and prompts are served too.
 * const server = createServer({ name: 'front', version: '1.0.0', tools: [], mount: [everything.mount] });
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
  const minRelistIntervalMs = options.minRelistIntervalMs ?? 1000;
  if (!Number.isInteger(minRelistIntervalMs) || minRelistIntervalMs < 0) throw new ProxyError('invalid_options', `minRelistIntervalMs must be a non-negative integer, got ${JSON.stringify(options.minRelistIntervalMs)}`);
  const label = options.label ?? options.prefix ?? describeTarget(target);
  const catalog = new UpstreamCatalog(target, { ...options, label }, {
    prefix: options.prefix, transforms: options.transforms, maxTools, maxBytes, label, minRelistIntervalMs, features: options.features ?? true,
  });
  try {
    await catalog.start();
  } catch (error) {
    await catalog.close();
    throw error;
  }
  const mount = {
    prefix: options.prefix ?? label,
    server: { name: label, mountable: catalog },
    onRefused: (refusal) => catalog.refused(refusal),
    [NAMED_MOUNT]: true,
  } as MountOption;
  return {
    get tools() { return catalog.tools; },
    get problems() { return catalog.problems; },
    get names() { return catalog.names; },
    get resources() { return catalog.resources; },
    get prompts() { return catalog.prompts; },
    get relists() { return catalog.relists; },
    mount,
    label,
    get era() { return catalog.upstream.era; },
    close: () => catalog.close(),
  };
}
