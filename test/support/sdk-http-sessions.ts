/**
 * The stateful Streamable HTTP plumbing of the official SDK v1 server, as the test fixtures built on
 * it (test/client/fixtures/sdk-v1-server.ts, test/compose/proxy/fixtures/sdk-upstream.ts) share it:
 * read a JSON body, route a request to its session's transport, mint a session at the first POST
 * without `Mcp-Session-Id`, and answer an unknown session with the SDK's 404.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

/** The request body as JSON, or undefined when it is empty. */
export async function readJsonBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text === '' ? undefined : JSON.parse(text);
}

/** Handles one request of a stateful server: `connect` attaches a new McpServer to a new session's transport. */
export async function handleSessionRequest(
  sessions: Map<string, StreamableHTTPServerTransport>,
  req: IncomingMessage,
  res: ServerResponse,
  parsed: unknown,
  connect: (transport: StreamableHTTPServerTransport) => Promise<void>,
): Promise<void> {
  const id = req.headers['mcp-session-id'];
  let transport = typeof id === 'string' ? sessions.get(id) : undefined;
  if (transport === undefined && id === undefined && req.method === 'POST') {
    const created = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: (sid) => void sessions.set(sid, created) });
    created.onclose = () => {
      if (created.sessionId !== undefined) sessions.delete(created.sessionId);
    };
    await connect(created);
    transport = created;
  }
  if (transport === undefined) {
    res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Session not found' } }));
    return;
  }
  await transport.handleRequest(req, res, parsed);
}
