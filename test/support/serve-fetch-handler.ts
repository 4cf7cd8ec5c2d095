/**
 * A web-standard fetch handler (`(request) => Promise<Response>`, such as the official SDK v2's
 * `createMcpHandler(...).fetch`) served on node:http at 127.0.0.1, port 0, for tests and their
 * child fixtures. The SDK's own Node adapter is a separate package that is not a dependency here,
 * so the bridge is written out once, here. Response bodies are streamed through as they come (an
 * SSE answer is not buffered to its end); a handler that throws answers 500 with its message.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The handler on its listener. */
export interface ServedFetchHandler {
  /** `http://127.0.0.1:<port>/mcp`. */
  url: string;
  /** Ends every open connection and stops listening. */
  close(): Promise<void>;
}

function requestOf(req: IncomingMessage, body: Buffer, origin: string): Request {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i] as string, req.rawHeaders[i + 1] as string);
  const method = req.method ?? 'GET';
  return new Request(new URL(req.url ?? '/', origin), { method, headers, body: method === 'GET' || method === 'HEAD' ? undefined : new Uint8Array(body) });
}

async function send(response: Response, res: ServerResponse): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, key) => {
    headers[key] = value;
  });
  res.writeHead(response.status, headers);
  if (response.body === null) {
    res.end();
    return;
  }
  // The status line goes out now, as a web runtime sends it: a stream whose first event comes
  // later (a resumed stream waiting for its call) is an open response, not a pending one.
  res.flushHeaders();
  const reader = response.body.getReader();
  res.on('close', () => {
    void reader.cancel();
  });
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    res.write(value);
  }
  res.end();
}

/** Listens on 127.0.0.1 (port 0 picks a free one) and answers every request with `handle`. */
export async function serveFetchHandler(handle: (request: Request) => Promise<Response>, port = 0): Promise<ServedFetchHandler> {
  const http = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const { port } = http.address() as AddressInfo;
      handle(requestOf(req, Buffer.concat(chunks), `http://127.0.0.1:${port}`))
        .then((response) => send(response, res))
        .catch((error: unknown) => {
          if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
          res.end(error instanceof Error ? error.message : String(error));
        });
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(port, '127.0.0.1', resolve);
  });
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}
