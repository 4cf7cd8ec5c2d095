/**
 * `toolwright gateway nginx <target>`: an nginx.conf for several instances of a server, from its
 * tool contracts (nginx-config.ts says what the config does).
 */
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseCommandArgs, PROCESS_IO } from '../command-args.js';
import { importModule } from '../import-module.js';
import { loadToolTarget, ToolTargetError } from '../load-tool-target.js';
import { GatewayConfigError, nginxConfig } from '../gateway/nginx-config.js';
import type { GatewayTool } from '../gateway/nginx-config.js';
import type { RateLimitMiddleware } from '../../server/middleware/rate-limit/index.js';

export const summary = 'generate an nginx config fronting several instances (routing, limits) from the tool contracts';

const HELP = `Usage: toolwright gateway nginx <target> --upstream <host:port> [--upstream ...] [options]

<target>: a module (server or tools array), a tools/list JSON file, or a server URL.

Options:
  --upstream <host:port>   An instance of the pool (repeatable, at least one)
  --owner <host:port>      The instance that owns the device (default: the first --upstream);
                           device tools' tools/call go there
  --legacy-to owner|pool   Where legacy 2025 requests (no Mcp-Method header) go (default: owner
                           when there are device tools, else pool; sessions are in the store)
  --device-tool <name>     A tool routed to the owner (repeatable; default: every tool whose
                           annotations do not say readOnlyHint: true)
  --listen <[addr:]port>   Where nginx listens (default 8080)
  --path <path>            The MCP endpoint (default /mcp)
  --max-body <bytes>       Largest request body (default 1048576, the instances' default)
  --max-header <bytes>     Largest request header line, e.g. Mcp-Param-* (default 16384)
  --foreground             Add "daemon off;" (supervisors, tests)
  -o, --out <file>         Write the config there (default: stdout)
  -h, --help               Show this help

Per-tool limit_req comes from each tool's rateLimit() middleware when the target is a module
exporting an array of tools. Check the result with: nginx -t -p <dir> -c <file>
`;

interface Descriptor { name?: unknown; annotations?: { readOnlyHint?: unknown } }

/** Rate-limit rules of the tools of a module exporting an array of tools (other targets carry none). */
async function rateLimitsOf(target: string): Promise<Map<string, RateLimitMiddleware['rule']>> {
  const rules = new Map<string, RateLimitMiddleware['rule']>();
  if (!/\.(m|c)?(j|t)s$/.test(target)) return rules;
  // loadToolTarget has imported it already (and registered tsx): this is the same module instance.
  const namespace = await importModule(resolve(target), target);
  if (!Array.isArray(namespace.default)) return rules;
  for (const tool of namespace.default as { name?: unknown; use?: unknown }[]) {
    if (typeof tool?.name !== 'string' || !Array.isArray(tool.use)) continue;
    const limit = (tool.use as Partial<RateLimitMiddleware>[]).find((m) => m?.name === 'rate-limit' && m.rule !== undefined);
    if (limit?.rule !== undefined) rules.set(tool.name, limit.rule);
  }
  return rules;
}

function bytes(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new GatewayConfigError(`${name} must be a whole number of bytes, got ${JSON.stringify(value)}`);
  return Number(value);
}

/** `toolwright gateway nginx`: 0 written, 2 bad usage or unreadable target. */
export async function run(argv: string[]): Promise<number> {
  const parsed = parseCommandArgs('gateway', HELP.trimEnd(), argv, {
    upstream: { type: 'string', multiple: true },
    owner: { type: 'string' },
    'device-tool': { type: 'string', multiple: true },
    listen: { type: 'string' },
    path: { type: 'string' },
    'max-body': { type: 'string' },
    'max-header': { type: 'string' },
    foreground: { type: 'boolean' },
    'legacy-to': { type: 'string' },
    out: { type: 'string', short: 'o' },
  }, PROCESS_IO);
  if (typeof parsed === 'number') return parsed;
  const positionals = parsed.positionals;
  const values = parsed.values as {
    upstream?: string[]; owner?: string; 'device-tool'?: string[]; listen?: string; path?: string;
    'max-body'?: string; 'max-header'?: string; foreground?: boolean; 'legacy-to'?: string; out?: string;
  };
  const [kind, target, ...extra] = positionals;
  if (kind !== 'nginx' || target === undefined || extra.length > 0) {
    process.stderr.write(`toolwright gateway: expected "nginx <target>", got ${JSON.stringify(positionals.join(' '))}\n\n${HELP}`);
    return 2;
  }
  try {
    const loaded = await loadToolTarget(target);
    const limits = await rateLimitsOf(target);
    const descriptors = loaded.tools as Descriptor[];
    const names = descriptors.map((d) => String(d.name));
    const chosen = values['device-tool'];
    for (const name of chosen ?? []) {
      if (!names.includes(name)) throw new GatewayConfigError(`--device-tool ${JSON.stringify(name)} is not a tool of ${target} (tools: ${names.join(', ')})`);
    }
    const tools: GatewayTool[] = descriptors.map((d) => {
      const name = String(d.name);
      const device = chosen !== undefined ? chosen.includes(name) : d.annotations?.readOnlyHint !== true;
      const rule = limits.get(name);
      return { name, device, ...(rule !== undefined ? { rateLimit: rule } : {}) };
    });
    const maxBodyBytes = bytes(values['max-body'], '--max-body');
    const maxHeaderBytes = bytes(values['max-header'], '--max-header');
    const text = nginxConfig({
      tools,
      pool: values.upstream ?? [],
      ...(values.owner !== undefined ? { owner: values.owner } : {}),
      ...(values.listen !== undefined ? { listen: values.listen } : {}),
      ...(values.path !== undefined ? { path: values.path } : {}),
      ...(maxBodyBytes !== undefined ? { maxBodyBytes } : {}),
      ...(maxHeaderBytes !== undefined ? { maxHeaderBytes } : {}),
      foreground: values.foreground === true,
      ...(values['legacy-to'] !== undefined ? { legacyTo: values['legacy-to'] as 'owner' | 'pool' } : {}),
    });
    if (values.out !== undefined) await writeFile(values.out, text);
    else process.stdout.write(text);
    return 0;
  } catch (error) {
    if (error instanceof GatewayConfigError || error instanceof ToolTargetError) {
      process.stderr.write(`toolwright gateway: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
}
