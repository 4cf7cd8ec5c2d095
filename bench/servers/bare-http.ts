// The physical limit on this machine: node:http, parse the JSON-RPC body, write the answer.
// No validation of any kind; it exists to show what Toolwright's validation costs in comparison.
import { createServer } from 'node:http';
import { catalogOf, sumText } from '../shared/catalog.js';
import { announceReady, exitOnSignal, parseServerArgs } from '../shared/server-args.js';

interface Message { id: number | string; method: string; params: { arguments: { a: number; b: number } } }

const args = parseServerArgs(process.argv.slice(2));
const serverInfo = { name: 'bare-http', version: '1.0.0' };
const tools = catalogOf(args.tools);

function resultFor(message: Message): unknown {
  // The legacy suite's 2025 handshake: echo the requested revision.
  if (message.method === 'initialize') return { protocolVersion: (message.params as unknown as { protocolVersion: string }).protocolVersion, capabilities: { tools: {} }, serverInfo };
  if (message.method === 'tools/call') {
    const sum = message.params.arguments.a + message.params.arguments.b;
    return { resultType: 'complete', content: [{ type: 'text', text: sumText(sum) }], structuredContent: { sum }, _meta: { 'io.modelcontextprotocol/serverInfo': serverInfo } };
  }
  if (message.method === 'tools/list') {
    return { resultType: 'complete', tools, ttlMs: 0, cacheScope: 'public', _meta: { 'io.modelcontextprotocol/serverInfo': serverInfo } };
  }
  return { resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: { tools: {} }, ttlMs: 0, cacheScope: 'public', _meta: { 'io.modelcontextprotocol/serverInfo': serverInfo } };
}

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const message = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Message;
    // Notifications (the legacy suite's notifications/initialized) get no answer.
    if (message.id === undefined) { res.writeHead(202); res.end(); return; }
    const body = JSON.stringify({ jsonrpc: '2.0', id: message.id, result: resultFor(message) });
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
});

exitOnSignal();
server.listen(args.port, args.host, () => {
  const address = server.address();
  announceReady(typeof address === 'object' && address !== null ? address.port : args.port);
});
