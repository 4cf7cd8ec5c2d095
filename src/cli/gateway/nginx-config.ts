import { DefinitionError } from '../../errors/toolwright-error.js';

/**
 * Writes an nginx.conf that fronts several Toolwright instances, from the tool contracts:
 *
 * - an upstream pool for everything (2026-07-28 requests are stateless, any instance serves them);
 * - routing on the `Mcp-Method` / `Mcp-Name` headers: each device tool's `tools/call` goes to the
 *   one instance that owns the device; legacy 2025 requests (they carry no `Mcp-Method`, so nginx
 *   cannot tell a device call among them) go to the owner when there are device tools, else to the
 *   pool (their sessions live in the shared store, any instance serves them);
 * - one `limit_req` zone per rate-limited tool, from its rate-limit middleware's rule (a coarse
 *   first line: the instances still enforce the exact bucket in the shared store);
 * - body and header size limits; every `Mcp-Param-*` header passes through untouched.
 *
 * The gateway never trusts the headers alone: an instance still checks header = body and refuses a
 * mismatch (-32020), so a client lying in `Mcp-Name` reaches the wrong pool only to be refused.
 */

/** What the gateway needs to know about one tool. */
export interface GatewayTool {
  readonly name: string;
  /** Its `tools/call` goes to the owner instance (a device it drives lives there). */
  readonly device: boolean;
  /** From its rate-limit middleware, if any. */
  readonly rateLimit?: { readonly capacity: number; readonly refillPerSecond: number; readonly per: 'tool-and-subject' | 'tool' | 'subject' };
}

/** Options of {@link nginxConfig}. */
export interface NginxGatewayOptions {
  readonly tools: readonly GatewayTool[];
  /** Instances of the pool, `host:port` each (at least one). */
  readonly pool: readonly string[];
  /** The instance owning the device tools and legacy sessions (default: the first of the pool). */
  readonly owner?: string;
  /** Where nginx listens: a port, or `addr:port` (default 8080). */
  readonly listen?: string;
  /** The MCP endpoint path (default `/mcp`). */
  readonly path?: string;
  /** Largest request body in bytes (default 1 MiB, the instances' own default). */
  readonly maxBodyBytes?: number;
  /** Largest single request header line in bytes, e.g. a long `Mcp-Param-*` (default 16 KiB). */
  readonly maxHeaderBytes?: number;
  /** Add `daemon off;` (run in the foreground, e.g. under a supervisor or in tests). */
  readonly foreground?: boolean;
  /**
   * Where requests without `Mcp-Method` (legacy 2025 sessions) go: `owner` (default when any tool
   * is a device tool: a legacy device call must reach the device) or `pool` (default otherwise).
   */
  readonly legacyTo?: 'owner' | 'pool';
}

/** A bad option: the CLI prints it and exits 2. */
export class GatewayConfigError extends DefinitionError {
  readonly errorCode = 'gateway-config' as const;
  constructor(message: string) {
    super(message);
    this.name = 'GatewayConfigError';
  }
}

const HOST_PORT = /^(?:\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):\d{1,5}$/;
const LISTEN = /^(?:(?:\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):)?\d{1,5}$/;
// Tool names allowed by the spec (R-xx: 1-128 of A-Z a-z 0-9 _ - .): safe inside a quoted nginx string.
const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

function checkHostPort(value: string, what: string): string {
  if (!HOST_PORT.test(value)) throw new GatewayConfigError(`${what} must be host:port, got ${JSON.stringify(value)}`);
  return value;
}

/** nginx's rate: whole requests per second, or per minute for slower rules (nginx has no fractions). */
function nginxRate(refillPerSecond: number): string {
  if (refillPerSecond >= 1) return `${Math.round(refillPerSecond)}r/s`;
  return `${Math.max(1, Math.round(refillPerSecond * 60))}r/m`;
}

/** The key nginx counts a tool's requests by, matching the middleware's `per`. */
function limitKey(per: 'tool-and-subject' | 'tool' | 'subject'): string {
  // nginx sees no verified subject; the bearer token (else the client address) stands in for it.
  if (per === 'tool') return '$http_mcp_name';
  return '$binary_remote_addr$http_authorization';
}

/** The whole nginx.conf text. Relative paths (pid, logs, temp) live under nginx's `-p` prefix. */
export function nginxConfig(options: NginxGatewayOptions): string {
  if (options.pool.length === 0) throw new GatewayConfigError('the pool needs at least one instance (--upstream host:port)');
  const pool = options.pool.map((p) => checkHostPort(p, '--upstream'));
  const owner = checkHostPort(options.owner ?? (pool[0] as string), '--owner');
  const listen = options.listen ?? '8080';
  if (!LISTEN.test(listen)) throw new GatewayConfigError(`--listen must be a port or addr:port, got ${JSON.stringify(listen)}`);
  const path = options.path ?? '/mcp';
  if (!/^\/[A-Za-z0-9._~/-]*$/.test(path)) throw new GatewayConfigError(`--path must be an absolute URL path, got ${JSON.stringify(path)}`);
  const maxBody = options.maxBodyBytes ?? 1024 * 1024;
  const maxHeader = options.maxHeaderBytes ?? 16 * 1024;
  for (const [value, name] of [[maxBody, '--max-body'], [maxHeader, '--max-header']] as const) {
    if (!Number.isInteger(value) || value < 1024) throw new GatewayConfigError(`${name} must be a whole number of bytes >= 1024, got ${String(value)}`);
  }
  for (const tool of options.tools) {
    if (!TOOL_NAME.test(tool.name)) throw new GatewayConfigError(`tool name ${JSON.stringify(tool.name)} is not a valid MCP tool name; refusing to write it into nginx.conf`);
  }
  const devices = options.tools.filter((t) => t.device);
  const legacyTo = options.legacyTo ?? (devices.length > 0 ? 'owner' : 'pool');
  if (legacyTo !== 'owner' && legacyTo !== 'pool') throw new GatewayConfigError(`--legacy-to must be owner or pool, got ${JSON.stringify(legacyTo)}`);
  const limited = options.tools.filter((t) => t.rateLimit !== undefined);

  const lines: string[] = [
    '# Generated by `toolwright gateway nginx`: do not edit by hand, regenerate from the tool contracts.',
    `# Tools: ${options.tools.length}; device tools (to the owner ${owner}): ${devices.map((t) => t.name).join(', ') || 'none'}; rate-limited: ${limited.map((t) => t.name).join(', ') || 'none'}.`,
    '# Run: nginx -p <dir> -c <this file>   (pid, logs and temp files go under <dir>)',
    ...(options.foreground === true ? ['daemon off;'] : []),
    'worker_processes auto;',
    'pid nginx.pid;',
    'error_log error.log warn;',
    'events { worker_connections 4096; }',
    '',
    'http {',
    '  access_log off;',
    '  client_body_temp_path body_temp;',
    '  proxy_temp_path proxy_temp;',
    '  fastcgi_temp_path fastcgi_temp;',
    '  uwsgi_temp_path uwsgi_temp;',
    '  scgi_temp_path scgi_temp;',
    `  client_max_body_size ${maxBody};`,
    `  client_header_buffer_size 4k;`,
    `  large_client_header_buffers 8 ${Math.ceil(maxHeader / 1024)}k;`,
    '  # Mcp-Param-* and every other request header go to the instance as they came (they are not rewritten).',
    '  underscores_in_headers off;',
    '',
    '  upstream toolwright_pool {',
    ...pool.map((p) => `    server ${p} max_fails=1 fail_timeout=2s;`),
    '    keepalive 64;',
    '  }',
    '  upstream toolwright_owner {',
    `    server ${owner};`,
    '    keepalive 16;',
    '  }',
    '',
    '  # Keys "tools/call:<name>" are up to 139 bytes (tool names up to 128): the default bucket (64) is too small.',
    '  map_hash_bucket_size 256;',
    '  # Route on what the request says it is; the instance verifies it against the body.',
    '  map "$http_mcp_method:$http_mcp_name" $toolwright_route {',
    '    default toolwright_pool;',
    legacyTo === 'owner'
      ? '    # No Mcp-Method: a legacy 2025 request (maybe a device call: nginx cannot see the body) or a malformed one.'
      : '    # No Mcp-Method: a legacy 2025 request (its session is in the shared store: any instance) or a malformed one.',
    `    "~^:" toolwright_${legacyTo};`,
    ...devices.map((t) => `    "tools/call:${t.name}" toolwright_owner;`),
    '  }',
  ];
  limited.forEach((tool, i) => {
    const rule = tool.rateLimit!;
    lines.push(
      '',
      `  # ${tool.name}: rateLimit({ capacity: ${rule.capacity}, refillPerSecond: ${rule.refillPerSecond}, per: '${rule.per}' })`,
      `  map "$http_mcp_method:$http_mcp_name" $toolwright_limit_${i} {`,
      '    default "";',
      `    "tools/call:${tool.name}" ${limitKey(rule.per)};`,
      '  }',
      `  limit_req_zone $toolwright_limit_${i} zone=toolwright_${i}:10m rate=${nginxRate(rule.refillPerSecond)};`,
    );
  });
  lines.push(
    '  limit_req_status 429;',
    '',
    '  server {',
    `    listen ${listen};`,
    '    location = /__toolwright_gateway_health { access_log off; return 200 "ok\\n"; }',
    '    # The gateway\'s own refusals are JSON-RPC errors too, so MCP clients can read them (id unknown here).',
    `    location @toolwright_limited { default_type application/json; add_header Retry-After 1 always; return 429 '{"jsonrpc":"2.0","id":null,"error":{"code":-31429,"message":"Rate limited by the gateway; retry later"}}'; }`,
    `    location @toolwright_unavailable { default_type application/json; add_header Retry-After 1 always; return 503 '{"jsonrpc":"2.0","id":null,"error":{"code":-31503,"message":"Service unavailable: no instance answered; it may or may not have run; retry with care"}}'; }`,
    '    # RFC 9728 protected resource metadata (root and path-suffixed forms): public, read by OAuth clients before they hold a token.',
    '    location ^~ /.well-known/oauth-protected-resource {',
    '      limit_except GET { deny all; }',
    '      error_page 502 504 = @toolwright_unavailable;',
    '      proxy_pass http://toolwright_pool;',
    '      proxy_http_version 1.1;',
    '      proxy_set_header Connection "";',
    '      proxy_set_header Host $http_host;',
    '    }',
    `    location = ${path} {`,
    ...limited.map((tool, i) => `      limit_req zone=toolwright_${i} burst=${Math.max(1, Math.floor(tool.rateLimit!.capacity))} nodelay;`),
    '      error_page 429 = @toolwright_limited;',
    '      error_page 502 504 = @toolwright_unavailable;',
    '      proxy_pass http://$toolwright_route;',
    '      proxy_http_version 1.1;',
    '      proxy_set_header Connection "";',
    '      proxy_set_header Host $http_host;',
    '      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;',
    '      # SSE (progress, subscriptions/listen): stream, never buffer, allow long-lived responses.',
    '      proxy_buffering off;',
    '      proxy_request_buffering on;',
    '      proxy_read_timeout 1h;',
    '      # A POST is passed to another instance only if it never reached one (connect failed):',
    '      # a request that was sent is not retried, so a tool call is never run twice by the gateway.',
    '      proxy_next_upstream error timeout;',
    '      proxy_next_upstream_tries 3;',
    '    }',
    '  }',
    '}',
    '',
  );
  return lines.join('\n');
}
