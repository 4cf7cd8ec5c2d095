/**
 * A keep-alive HTTP/1.1 MCP server on 127.0.0.1 written on node:net, so a test can do to one
 * request what node:http never does on purpose: close the connection under it (RST or FIN) without
 * a byte of answer, or after part of the status line. Every request is recorded with the
 * connection it came on and its place on that connection; tools/list and tools/call are answered.
 */
import { createServer } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';

/** What the server does with one request: answer it, reset the connection (RST), close it (FIN), or send the start of an answer and close. */
export type Fate = 'answer' | 'rst' | 'fin' | 'partial';

export interface RawRequest {
  /** 1 for the first connection the server accepted, and so on. */
  connection: number;
  /** 1 for the first request on its connection: above 1, the client reused the socket. */
  index: number;
  body: { id?: unknown; method?: string; params?: { arguments?: Record<string, unknown> } };
  fate: Fate;
}

export interface RawServer {
  url: string;
  requests: RawRequest[];
  /** Decides each request's fate (default: answer). */
  plan: (request: Omit<RawRequest, 'fate'>) => Fate;
  /** Connections accepted so far. */
  readonly connections: number;
  close(): Promise<void>;
}

const TOOL = { name: 'add', inputSchema: { type: 'object', properties: { a: { type: 'integer' }, b: { type: 'integer' } } } };

function answerOf(body: RawRequest['body']): string {
  const args = body.params?.arguments ?? {};
  const result = body.method === 'tools/list'
    ? { resultType: 'complete', tools: [TOOL], ttlMs: 60_000, cacheScope: 'public' }
    : { resultType: 'complete', content: [{ type: 'text', text: 'sum' }], structuredContent: { sum: Number(args.a) + Number(args.b) } };
  const json = JSON.stringify({ jsonrpc: '2.0', id: body.id, result });
  return `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(json)}\r\nconnection: keep-alive\r\nkeep-alive: timeout=30\r\n\r\n${json}`;
}

export async function startRawServer(): Promise<RawServer> {
  const sockets = new Set<Socket>();
  let connections = 0;
  const state: RawServer = {
    url: '',
    requests: [],
    plan: () => 'answer',
    get connections() {
      return connections;
    },
    close: async () => {},
  };
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    const connection = ++connections;
    let index = 0;
    let pending = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      for (;;) {
        const end = pending.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = pending.subarray(0, end).toString('latin1');
        const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
        if (pending.length < end + 4 + length) return;
        const body = JSON.parse(pending.subarray(end + 4, end + 4 + length).toString('utf8')) as RawRequest['body'];
        pending = pending.subarray(end + 4 + length);
        const seen = { connection, index: ++index, body };
        const fate = state.plan(seen);
        state.requests.push({ ...seen, fate });
        if (fate === 'rst') return void socket.resetAndDestroy();
        if (fate === 'fin') return void socket.end();
        if (fate === 'partial') {
          return void socket.end('HTTP/1.1 200 OK\r\ncontent-type: appl');
        }
        socket.write(answerOf(body));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  state.close = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
  return state;
}
