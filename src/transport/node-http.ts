import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { nodeRequestTimeouts, resolveHttpPolicy } from './http-policy.js';
import type { HttpOptions, HttpPolicy } from './http-policy.js';
import type { MessageDispatcher } from './message-dispatcher.js';

/**
 * Extra routes served on the same listener as the MCP endpoint (e.g. the operator console under
 * `/console`). A request whose path is `prefix` or starts with `prefix + '/'` goes to `handle`
 * instead of the MCP endpoint; it gets the listener's resolved policy so that it can apply the
 * same Host and Origin rules. The handler owns the response (and its own authentication).
 */
export interface HttpMount {
  /** Path prefix, e.g. `/console`; must start with `/` and differ from the MCP endpoint path. */
  readonly prefix: string;
  /** Answers one request under `prefix`, applying the listener's Host and Origin `policy` itself. */
  handle(req: IncomingMessage, res: ServerResponse, policy: HttpPolicy): void;
}

/** Options of `server.listen()`. */
export interface ListenOptions extends HttpOptions {
  /** Routes mounted beside the MCP endpoint on the same port (see {@link HttpMount}). */
  mounts?: readonly HttpMount[];
  /** TCP port; 0 (default) picks a free one. */
  port?: number;
  /** Address to bind (default `127.0.0.1`). */
  host?: string;
}

/** A running Streamable HTTP endpoint. */
export interface HttpListener {
  /** Full endpoint URL, e.g. `http://127.0.0.1:3000/mcp`. */
  readonly url: string;
  /** The bound port (the real one when `port: 0` asked for a free port). */
  readonly port: number;
  /** The bound address, e.g. `127.0.0.1`. */
  readonly host: string;
  /** The underlying node:http server. */
  readonly server: Server;
  /** Stops accepting, aborts in-flight requests, resolves when closed. */
  close(): Promise<void>;
}

/**
 * Serves `dispatcher` as Streamable HTTP on node:http. node:http and the request handling load
 * here, on first listen, so a stdio-only server does not pay for them at start-up.
 */
export async function listenHttp(dispatcher: MessageDispatcher, options: ListenOptions = {}): Promise<HttpListener> {
  const host = options.host ?? '127.0.0.1';
  const policy = resolveHttpPolicy(options, host);
  const mounts = options.mounts ?? [];
  for (const mount of mounts) {
    if (!/^\/[A-Za-z0-9._~-]+(\/[A-Za-z0-9._~-]+)*$/.test(mount.prefix)) throw new TypeError(`listen: mount prefix ${JSON.stringify(mount.prefix)} must be a path such as /console`);
    if (policy.path === mount.prefix || policy.path.startsWith(`${mount.prefix}/`)) throw new TypeError(`listen: mount prefix ${mount.prefix} would hide the MCP endpoint ${policy.path}`);
  }
  const mountFor = (url: string | undefined): HttpMount | undefined => {
    if (mounts.length === 0 || url === undefined) return undefined;
    const end = url.search(/[?#]/);
    const pathname = end < 0 ? url : url.slice(0, end);
    return mounts.find((m) => pathname === m.prefix || pathname.startsWith(`${m.prefix}/`));
  };
  const [{ createServer: createHttpServer }, { HttpExchange }] = await Promise.all([import('node:http'), import('./node-http-exchange.js')]);
  // Explicit, not Node's defaults (a 1 byte/s body was cut only after 300 s): headers within
  // headersTimeoutMs, the whole request within requestTimeoutMs, checked every second (Node checks every 30 s).
  const { headersTimeoutMs, requestTimeoutMs } = nodeRequestTimeouts(options);
  const server = createHttpServer({ headersTimeout: headersTimeoutMs, requestTimeout: requestTimeoutMs, connectionsCheckingInterval: 1000 }, (req, res) => {
    const mount = mountFor(req.url);
    if (mount !== undefined) mount.handle(req, res, policy);
    else new HttpExchange(dispatcher, policy, req, res).start();
  });
  // Idle keep-alive connections cost a socket each; an explicit bound, not whatever Node defaults to.
  server.keepAliveTimeout = options.keepAliveTimeoutMs ?? 5000;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      const address = server.address() as AddressInfo;
      const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      resolve({
        url: `http://${shownHost}:${address.port}${policy.path}`,
        port: address.port,
        host: address.address,
        server,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
