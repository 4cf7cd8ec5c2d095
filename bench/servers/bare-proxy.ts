// The proxy suite's floor: a bare node:http forwarder with no MCP logic in front of the same
// upstream as `toolwright proxy`. Per call it does the least any proxy must: parse the request,
// strip the tool name's prefix, send it on over a keep-alive pool, parse the answer, send it back.
// No validation, no pipeline, no cancellation, no deadline, no session handling: what two HTTP hops
// alone cost on this machine, so the proxy row can say how much of its gap is the hops.
//   node bare-proxy.js --upstream <port> [--prefix up] [--port 0] [--host 127.0.0.1]
import { Agent, createServer, request } from 'node:http';
import { announceReady, exitOnSignal, parseServerArgs } from '../shared/server-args.js';

/** `--upstream <port>` and `--prefix <name>` are this program's own; the rest are every bench server's (`--port`, `--host`). */
function parseOptions(argv: readonly string[]): { upstream: number; prefix: string; port: number; host: string } {
  let upstream = 0;
  let prefix = 'up';
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    if (flag !== '--upstream' && flag !== '--prefix') rest.push(flag);
    else if (argv[i + 1] === undefined) throw new Error(`${flag} needs a value`);
    else if (flag === '--upstream') upstream = Number(argv[++i]);
    else prefix = argv[++i]!;
  }
  if (!Number.isInteger(upstream) || upstream < 1 || upstream > 65535) throw new Error(`--upstream must be a port (1..65535), got ${upstream}`);
  const { port, host } = parseServerArgs(rest);
  return { upstream, prefix, port, host };
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
