// A minimal stdio MCP server for the client's stdio error paths. Mode from argv[2]:
//   header-tools: lists a tool with an x-mcp-header that HTTP clients must exclude, answers calls;
//   noisy: writes a non-JSON line and a server-to-client request before each answer;
//   die: exits with code 3 (writing to stderr) when it receives tools/call;
//   silent: never answers;
//   long: answers with one line of 100,000 characters.
import { createInterface } from 'node:readline';

const mode = process.argv[2];
const write = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);
const tools = [{ name: 'float_header', inputSchema: { type: 'object', properties: { n: { type: 'number', 'x-mcp-header': 'N' } } } }];

createInterface({ input: process.stdin }).on('line', (line) => {
  const message = JSON.parse(line);
  if (message.id === undefined) {
    if (message.method === 'notifications/cancelled') process.stderr.write(`cancelled ${message.params.requestId}\n`);
    return;
  }
  if (mode === 'silent') return;
  if (mode === 'long') return process.stdout.write(`${'x'.repeat(100_000)}\n`);
  if (mode === 'noisy') {
    process.stdout.write('this is not json\n');
    write({ jsonrpc: '2.0', id: 'srv-1', method: 'roots/list', params: {} });
  }
  if (message.method === 'tools/list') return write({ jsonrpc: '2.0', id: message.id, result: { resultType: 'complete', tools, ttlMs: 0, cacheScope: 'public' } });
  if (message.method === 'tools/call') {
    if (mode === 'die') {
      process.stderr.write('fatal: motor controller lost\n');
      process.exit(3);
    }
    return write({ jsonrpc: '2.0', id: message.id, result: { resultType: 'complete', content: [{ type: 'text', text: `n=${message.params.arguments.n}` }] } });
  }
  write({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: `Method not found: ${message.method}` } });
});
