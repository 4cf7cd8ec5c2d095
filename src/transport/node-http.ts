import { createServer as createHttpServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { JsonRpcNotification } from '../protocol/json-rpc.js';
import { resolveHttpPolicy, sseEvent, SSE_HEADERS, transportErrorReply } from './http-policy.js';
import type { HttpOptions, HttpPolicy } from './http-policy.js';
import type { HeaderLookup, MessageDispatcher, Reply } from './message-dispatcher.js';

/** Options of `server.listen()`. */
export interface ListenOptions extends HttpOptions {
  /** TCP port; 0 (default) picks a free one. */
  port?: number;
  /** Address to bind (default `127.0.0.1`). */
  host?: string;
}

/** A running Streamable HTTP endpoint. */
export interface HttpListener {
  /** Full endpoint URL, e.g. `http://127.0.0.1:3000/mcp`. */
  readonly url: string;
  readonly port: number;
  readonly host: string;
  readonly server: Server;
  /** Stops accepting, aborts in-flight requests, resolves when closed. */
  close(): Promise<void>;
}

function writeReply(res: ServerResponse, reply: Reply): void {
  if (reply.body === undefined) {
    res.writeHead(reply.status, reply.headers);
    res.end();
    return;
  }
  // An explicit Content-Length avoids chunked encoding; the flat array form skips header-object processing.
  const length = String(Buffer.byteLength(reply.body));
  if (reply.headers === undefined) res.writeHead(reply.status, ['Content-Type', 'application/json', 'Content-Length', length]);
  else res.writeHead(reply.status, { ...reply.headers, 'Content-Type': 'application/json', 'Content-Length': length });
  res.end(reply.body);
}

/** Reads the body up to `limit` bytes; undefined when it is larger (the rest is left unread). */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) {
        req.off('data', onData);
        req.pause();
        resolve(undefined);
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks)));
    req.once('error', reject);
  });
}

async function handle(dispatcher: MessageDispatcher, policy: HttpPolicy, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = req.url ?? '/';
  const query = url.indexOf('?');
  const pathname = query < 0 ? url : url.slice(0, query);
  const headers = req.headers;
  const header: HeaderLookup = (name) => {
    const value = headers[name];
    return Array.isArray(value) ? value.join(', ') : value;
  };
  const refused = policy.preflight(req.method, pathname, header);
  if (refused !== undefined) {
    res.setHeader('Connection', 'close');
    writeReply(res, refused);
    req.resume();
    return;
  }
  const body = await readBody(req, policy.maxBodyBytes);
  if (body === undefined) {
    res.setHeader('Connection', 'close');
    writeReply(res, transportErrorReply(413, `Payload too large: the limit is ${policy.maxBodyBytes} bytes`));
    return;
  }
  let controller: AbortController | undefined;
  let gone = false;
  res.on('close', () => {
    if (!res.writableFinished) {
      gone = true;
      controller?.abort();
    }
  });
  let streaming = false;
  const notify = (notification: JsonRpcNotification): void => {
    if (gone || res.writableEnded) return;
    if (!streaming) {
      streaming = true;
      res.writeHead(200, SSE_HEADERS);
    }
    res.write(sseEvent(JSON.stringify(notification)));
  };
  const reply = await dispatcher.handleMessage({
    body,
    transport: 'http',
    header,
    get signal() {
      if (controller === undefined) {
        controller = new AbortController();
        if (gone) controller.abort();
      }
      return controller.signal;
    },
    isAborted: () => gone,
    notify,
  });
  if (gone || res.writableEnded) return;
  if (streaming) {
    if (reply.body !== undefined) res.write(sseEvent(reply.body));
    res.end();
    return;
  }
  writeReply(res, reply);
}

/** Serves `dispatcher` as Streamable HTTP on node:http. */
export function listenHttp(dispatcher: MessageDispatcher, options: ListenOptions = {}): Promise<HttpListener> {
  const host = options.host ?? '127.0.0.1';
  const policy = resolveHttpPolicy(options, host);
  const server = createHttpServer((req, res) => {
    handle(dispatcher, policy, req, res).catch((error: unknown) => {
      process.stderr.write(`toolwright: HTTP request failed: ${error instanceof Error ? error.message : String(error)}\n`);
      if (!res.headersSent) writeReply(res, transportErrorReply(500, 'Internal error'));
      else res.end();
    });
  });
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
