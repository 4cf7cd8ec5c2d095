// The proxy suite's floor: a bare node:http forwarder with no MCP logic in front of the same
// upstream as `toolwright proxy`. Per call it does the least any proxy must: parse the request,
// strip the tool name's prefix, send it on over a keep-alive pool, parse the answer, send it back.
// No validation, no pipeline, no cancellation, no deadline, no session handling: what two HTTP hops
// alone cost on this machine, so the proxy row can say how much of its gap is the hops.
//   node bare-proxy.js --upstream <port> [--prefix up] [--port 0] [--host 127.0.0.1]
import { Agent, createServer, request } from 'node:http';
import { announceReady, exitOnSignal } from '../shared/server-args.js';

interface Options { upstream: number; prefix: string; port: number; host: string }

function parseOptions(argv: readonly string[]): Options {
  const options: Options = { upstream: 0, prefix: 'up', port: 0, host: '127.0.0.1' };
  for (let i = 0; i < argv.length; i += 2) {
    const flag = argv[i];
    const value = argv[i + 1];
    if (value === undefined) throw new Error(`${flag} needs a value`);
    if (flag === '--upstream' || flag === '--port') options[flag === '--upstream' ? 'upstream' : 'port'] = Number(value);
    else if (flag === '--prefix') options.prefix = value;
    else if (flag === '--host') options.host = value;
    else throw new Error(`unknown argument: ${flag}`);
  }
  if (!Number.isInteger(options.upstream) || options.upstream < 1 || options.upstream > 65535) throw new Error(`--upstream must be a port (1..65535), got ${options.upstream}`);
  return options;
}

const options = parseOptions(process.argv.slice(2));
const prefix = `${options.prefix}__`;
const agent = new Agent({ keepAlive: true });

interface Call { params: { name: string } }

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const message = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Call;
    const name = message.params.name.startsWith(prefix) ? message.params.name.slice(prefix.length) : message.params.name;
    message.params.name = name;
    const body = JSON.stringify(message);
    const upstream = request({
      host: options.host, port: options.upstream, path: '/mcp', method: 'POST', agent,
      headers: {
        'content-type': 'application/json', accept: 'application/json, text/event-stream', 'content-length': Buffer.byteLength(body),
        'mcp-protocol-version': req.headers['mcp-protocol-version'] ?? '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': name,
      },
    }, (answer) => {
      const parts: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => parts.push(chunk));
      answer.on('end', () => {
        const reply = JSON.stringify(JSON.parse(Buffer.concat(parts).toString('utf8')));
        res.writeHead(answer.statusCode ?? 502, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(reply) });
        res.end(reply);
      });
    });
    upstream.on('error', () => {
      res.writeHead(502);
      res.end();
    });
    upstream.end(body);
  });
});

exitOnSignal();
server.listen(options.port, options.host, () => {
  const address = server.address();
  announceReady(typeof address === 'object' && address !== null ? address.port : options.port);
});
