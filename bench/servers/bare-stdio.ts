// The stdio floor: split stdin into lines, parse each JSON-RPC message, write the answer line.
// No validation; the stdio counterpart of bare-http.
import { catalogOf, sumText } from '../shared/catalog.js';
import { exitOnSignal, parseServerArgs } from '../shared/server-args.js';

interface Message { id: number | string; method: string; params: { arguments: { a: number; b: number } } }

const args = parseServerArgs(process.argv.slice(2));
const serverInfo = { name: 'bare-stdio', version: '1.0.0' };
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

let pending = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk: string) => {
  pending += chunk;
  let newline = pending.indexOf('\n');
  while (newline !== -1) {
    const line = pending.slice(0, newline);
    pending = pending.slice(newline + 1);
    if (line.length > 0) {
      const message = JSON.parse(line) as Message;
      // Notifications (the legacy suite's notifications/initialized) get no answer line.
      if (message.id !== undefined) process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: message.id, result: resultFor(message) }) + '\n');
    }
    newline = pending.indexOf('\n');
  }
});
process.stdin.on('end', () => process.exit(0));
exitOnSignal();
