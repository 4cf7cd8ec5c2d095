/** A real node:http server on 127.0.0.1 whose answers each test scripts, recording every request. */
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  /** The HTTP method (POST, or GET/DELETE on the legacy wire). */
  method: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
}

export type Script = (request: RecordedRequest, res: ServerResponse) => void;

export interface ScriptedServer {
  url: string;
  requests: RecordedRequest[];
  script: Script;
  close(): Promise<void>;
}

/** JSON-RPC result reply for the recorded request. */
export function replyResult(res: ServerResponse, request: RecordedRequest, result: Record<string, unknown>, status = 200): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', id: request.body.id, result }));
}

export function replyError(res: ServerResponse, request: RecordedRequest, error: Record<string, unknown>, status = 200): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', id: request.body.id, error }));
}

export async function startScriptedServer(script: Script): Promise<ScriptedServer> {
  const requests: RecordedRequest[] = [];
  const state: ScriptedServer = { url: '', requests, script, close: async () => {} };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      // GET and DELETE (legacy wire) have no body.
      const recorded = { method: req.method ?? 'POST', headers: req.headers, body: (text === '' ? {} : JSON.parse(text)) as Record<string, unknown> };
      requests.push(recorded);
      state.script(recorded, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  state.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}
