/**
 * The operator console as a route mounted beside the MCP endpoint (same listener, same port, path
 * `/console`). Every request passes, in order: the listener's Host and Origin rules (the ones the
 * MCP endpoint applies, from `transport/http-policy.ts`), then the console token (401 without it,
 * 403 with a wrong one). Actions are POSTs with a JSON body; pages are bundles from
 * `static-assets.ts`; live updates go through one `LiveChannel`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HttpMount } from '../transport/node-http.js';
import type { HttpPolicy } from '../transport/http-policy.js';
import { assertConsoleToken, checkConsoleToken, CONSOLE_TOKEN_HEADER, createConsoleToken } from './console-token.js';
import { LiveChannel } from './live-channel.js';
import { bundleBrowserEntry, createAsset, sendAsset } from './static-assets.js';
import type { StaticAsset } from './static-assets.js';
import { renderShell } from './page-shell.js';

/** Where the console lives on the listener. */
export const CONSOLE_PATH = '/console';

/** One console request as a route sees it. */
export interface ConsoleRequest {
  /** Path below `/console`, e.g. `/api/catalog`. */
  readonly path: string;
  readonly query: URLSearchParams;
  /** The parsed JSON body of a POST (undefined for GET). */
  readonly body: unknown;
  /** Aborted when the page's request goes away. */
  readonly signal: AbortSignal;
}

/** A route's answer: a status and a JSON body. */
export interface ConsoleReply {
  status: number;
  json: unknown;
}

/** One API route of the console. */
export interface ConsoleRoute {
  method: 'GET' | 'POST';
  /** Exact path below `/console`, e.g. `/api/call`. */
  path: string;
  /** Answers one request to this route (the console checked the operator's token first). */
  handle(request: ConsoleRequest): ConsoleReply | Promise<ConsoleReply>;
}

/** One tab of the console: a browser entry, bundled at start unless a prebuilt bundle is beside it. */
export interface ConsolePage {
  /** Tab id, `[a-z-]+`; its bundle is served at `/console/assets/<id>.js`. */
  id: string;
  title: string;
  /**
   * Browser entry without extension (`.ts` beside the source, `.js` in dist); a prebuilt
   * `<entry>.bundle.js` beside it (what `npm run build` writes for the toolkit's pages) is served
   * as it is.
   */
  entry: URL;
}

/** An event a page receives first on connecting (a snapshot), before any broadcast. */
export interface LiveEvent {
  event: string;
  data: unknown;
}

/** Options of {@link createConsoleMount}. */
export interface ConsoleOptions {
  /** Console token; default random per start. At least 16 URL-safe characters. */
  token?: string;
  /** Heading of the page (default "Toolwright console"). */
  title?: string;
  /** Tabs, first one shown by default. */
  pages: readonly ConsolePage[];
  routes?: readonly ConsoleRoute[];
  /** The live channel (default: a new one). */
  channel?: LiveChannel;
  /** Events sent to a page first when it connects to `/console/events`. */
  snapshot?: () => readonly LiveEvent[];
  /** Largest action body (bytes, default 256 KiB); larger gets 413. */
  maxBodyBytes?: number;
}

/** The mounted console. Pass it to `listen({ mounts: [consoleMount] })`. */
export interface ConsoleMount extends HttpMount {
  readonly token: string;
  readonly channel: LiveChannel;
  /** The address an operator opens: `http://HOST:PORT/console?token=...`. */
  url(listener: { host: string; port: number }): string;
  /** Resolves when every page is bundled (start-up waits for it so the first load is fast). */
  ready(): Promise<void>;
  /** Ends the live channel (open pages are disconnected) and stops listening to the server. */
  close(): void;
}

const SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'X-Content-Type-Options': 'nosniff',
  // The token is in the address: never send it on as a referrer.
  'Referrer-Policy': 'no-referrer',
  'Content-Security-Policy': "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; connect-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  'Cache-Control': 'no-store',
});

function sendJson(res: ServerResponse, status: number, json: unknown, extra: Record<string, string> = {}): void {
  const body = JSON.stringify(json);
  res.writeHead(status, { ...SECURITY_HEADERS, ...extra, 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)) });
  res.end(body);
}

/** Reads a JSON body up to `limit` bytes; a string is an error message (status 400/413/415). */
function readJsonBody(req: IncomingMessage, limit: number): Promise<{ ok: true; value: unknown } | { ok: false; status: number; message: string }> {
  const type = req.headers['content-type'];
  // A JSON content type also keeps a plain HTML form on another site from posting here.
  if (type === undefined || !/^application\/json\s*(;|$)/i.test(type)) {
    req.resume();
    const got = type === undefined || type.trim() === '' ? 'the Content-Type header is missing' : `got ${JSON.stringify(type)}`;
    return Promise.resolve({ ok: false, status: 415, message: `Content-Type must be application/json, ${got}` });
  }
  const tooLarge = { ok: false, status: 413, message: `body too large: the limit is ${limit} bytes` } as const;
  if (Number(req.headers['content-length'] ?? 0) > limit) {
    req.resume();
    return Promise.resolve(tooLarge);
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      if (size > limit) return;
      size += chunk.length;
      // Past the limit the rest is drained unread; the 413 closes the connection.
      if (size > limit) resolve(tooLarge);
      else chunks.push(chunk);
    });
    req.on('end', () => {
      if (size > limit) return;
      const text = Buffer.concat(chunks).toString('utf8');
      try {
        resolve({ ok: true, value: text === '' ? {} : (JSON.parse(text) as unknown) });
      } catch (error) {
        resolve({ ok: false, status: 400, message: `body is not JSON: ${error instanceof Error ? error.message : String(error)}` });
      }
    });
    req.on('error', () => resolve({ ok: false, status: 400, message: 'request aborted' }));
  });
}

/**
 * Creates the console. Pages are bundled right away (see {@link ConsoleMount.ready}); a request
 * before that waits for them.
 *
 * @example
 * ```ts
 * import { createServer } from 'toolwright';
 * import { createConsoleMount, LiveChannel } from 'toolwright/console';
 *
 * const server = createServer({ name: 'tank', version: '1.0.0', tools: [] });
 * const channel = new LiveChannel();
 * let level = 0;
 * const consoleMount = createConsoleMount({
 *   title: 'Tank console',
 *   // tank-page.ts beside this module: the browser entry, bundled at start.
 *   pages: [{ id: 'tank', title: 'Tank', entry: new URL('./tank-page', import.meta.url) }],
 *   channel,
 *   snapshot: () => [{ event: 'level', data: level }],
 *   routes: [{
 *     method: 'POST',
 *     path: '/api/fill',
 *     handle: () => {
 *       level += 1;
 *       channel.broadcast('level', level); // every open page hears it
 *       return { status: 200, json: { level } };
 *     },
 *   }],
 * });
 * await consoleMount.ready();
 * const listener = await server.listen({ port: 0, mounts: [consoleMount] });
 * console.error(`console: ${consoleMount.url(listener)}`);
 * ```
 */
export function createConsoleMount(options: ConsoleOptions): ConsoleMount {
  if (options.token !== undefined) assertConsoleToken(options.token);
  if (options.pages.length === 0) throw new TypeError('console: at least one page is needed');
  for (const page of options.pages) if (!/^[a-z][a-z-]*$/.test(page.id)) throw new TypeError(`console: page id ${JSON.stringify(page.id)} must be [a-z-]+`);
  const token = options.token ?? createConsoleToken();
  const channel = options.channel ?? new LiveChannel();
  const maxBodyBytes = options.maxBodyBytes ?? 256 * 1024;
  const routes = new Map((options.routes ?? []).map((r) => [`${r.method} ${r.path}`, r]));
  const title = options.title ?? 'Toolwright console';
  const bundles = new Map<string, StaticAsset>();
  const built = Promise.all(options.pages.map(async (page) => bundles.set(page.id, await bundleBrowserEntry(page.entry)))).then(() => undefined);
  // A failed bundle is reported by ready() and to each page request, never as an unhandled rejection.
  built.catch(() => undefined);
  const shells = new Map<string, StaticAsset>();
  const shellFor = (pageId: string): StaticAsset => {
    let shell = shells.get(pageId);
    if (shell === undefined) {
      shell = createAsset('text/html; charset=utf-8', renderShell({ title, token, pages: options.pages, current: pageId }));
      shells.set(pageId, shell);
    }
    return shell;
  };

  async function serve(req: IncomingMessage, res: ServerResponse, policy: HttpPolicy): Promise<void> {
    const header = (name: string): string | undefined => {
      const value = req.headers[name];
      return Array.isArray(value) ? value.join(', ') : value;
    };
    const refused = policy.checkHostAndOrigin(header);
    if (refused !== undefined) {
      sendJson(res, refused.status, { error: (JSON.parse(refused.body ?? '{}') as { error?: { message?: string } }).error?.message ?? 'refused' });
      req.resume();
      return;
    }
    const url = new URL(req.url ?? '/', 'http://console.invalid');
    const check = checkConsoleToken(token, header(CONSOLE_TOKEN_HEADER) ?? url.searchParams.get('token') ?? undefined);
    if (check !== 'ok') {
      req.resume();
      sendJson(res, check === 'missing' ? 401 : 403, { error: check === 'missing' ? 'console token required: open the console address printed at start-up' : 'wrong console token' });
      return;
    }
    const path = url.pathname.slice(CONSOLE_PATH.length) || '/';
    const method = req.method ?? 'GET';
    if ((method === 'GET' || method === 'HEAD') && (path === '/' || path === '')) {
      const tab = url.searchParams.get('tab') ?? options.pages[0]!.id;
      if (!options.pages.some((p) => p.id === tab)) return sendJson(res, 404, { error: `no console tab ${JSON.stringify(tab)}` });
      return sendAsset(req, res, shellFor(tab), SECURITY_HEADERS);
    }
    const asset = /^\/assets\/([a-z-]+)\.js$/.exec(path);
    if (asset !== null && (method === 'GET' || method === 'HEAD')) {
      try {
        await built;
      } catch (error) {
        return sendJson(res, 500, { error: error instanceof Error ? error.message : String(error) });
      }
      const bundle = bundles.get(asset[1]!);
      if (bundle === undefined) return sendJson(res, 404, { error: `no console asset ${path}` });
      return sendAsset(req, res, bundle, { 'X-Content-Type-Options': 'nosniff' });
    }
    if (path === '/events' && method === 'GET') {
      channel.open(res, options.snapshot?.() ?? []);
      return;
    }
    const route = routes.get(`${method} ${path}`);
    if (route === undefined) {
      req.resume();
      const other = routes.has(`${method === 'GET' ? 'POST' : 'GET'} ${path}`);
      return other ? sendJson(res, 405, { error: `${method} not allowed on ${CONSOLE_PATH}${path}` }, { Allow: method === 'GET' ? 'POST' : 'GET' }) : sendJson(res, 404, { error: `no console route ${CONSOLE_PATH}${path}` });
    }
    let body: unknown;
    if (method === 'POST') {
      const read = await readJsonBody(req, maxBodyBytes);
      if (!read.ok) return sendJson(res, read.status, { error: read.message }, read.status === 413 ? { Connection: 'close' } : {});
      body = read.value;
    }
    const controller = new AbortController();
    res.once('close', () => {
      if (!res.writableFinished) controller.abort();
    });
    try {
      const reply = await route.handle({ path, query: url.searchParams, body, signal: controller.signal });
      if (!res.destroyed) sendJson(res, reply.status, reply.json);
    } catch (error) {
      if (!res.destroyed) sendJson(res, 500, { error: error instanceof Error ? error.message : String(error) });
    }
  }

  return {
    prefix: CONSOLE_PATH,
    token,
    channel,
    url: ({ host, port }) => `http://${host.includes(':') ? `[${host}]` : host}:${port}${CONSOLE_PATH}?token=${token}`,
    ready: () => built,
    close: () => channel.close(),
    handle(req, res, policy) {
      serve(req, res, policy).catch((error: unknown) => {
        if (!res.headersSent) sendJson(res, 500, { error: error instanceof Error ? error.message : String(error) });
        else res.destroy();
      });
    },
  };
}
