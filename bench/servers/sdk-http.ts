// Official SDK v2 over Streamable HTTP in its stateless 2026-07-28 mode (`createMcpHandler`,
// one McpServer per request), mounted on node:http. `--variant legacy` serves 2025-era clients
// instead, with the handler's default legacy posture ('stateless': a fresh McpServer per legacy
// request, no sessions); the catalog and the bridge are the same. The SDK's Node adapter lives in the separate
// `@modelcontextprotocol/node` package, which is not a dependency here, so this file bridges
// node:http to the handler's web-standard `fetch` face itself: buffer the body, build a Request,
// copy the Response back. That bridge is a few microseconds next to the SDK's own work.
import { createServer, type IncomingMessage } from 'node:http';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { announceReady, chooseVariant, exitOnSignal, parseServerArgs } from '../shared/server-args.js';
import { prepareSdkCatalog, sdkServerFactory } from './sdk-catalog.js';

const args = parseServerArgs(process.argv.slice(2));
const legacy = chooseVariant(args, ['default', 'legacy']) === 'legacy';
const handler = createMcpHandler(sdkServerFactory(prepareSdkCatalog(args.tools), legacy ? 'sdk-legacy-http' : 'sdk-http'), { legacy: legacy ? 'stateless' : 'reject' });

function headersOf(req: IncomingMessage): Headers {
  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
  return headers;
}

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const method = req.method ?? 'GET';
    const init: RequestInit = { method, headers: headersOf(req) };
    if (method !== 'GET' && method !== 'HEAD') init.body = Buffer.concat(chunks);
    handler.fetch(new Request(`http://${args.host}:${args.port}${req.url ?? '/'}`, init))
      .then(async (response) => {
        const body = response.body === null ? Buffer.alloc(0) : Buffer.from(await response.arrayBuffer());
        const headers: Record<string, string> = {};
        response.headers.forEach((value, key) => { headers[key] = value; });
        res.writeHead(response.status, headers);
        res.end(body);
      })
      .catch((error: unknown) => {
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(error instanceof Error ? error.message : String(error));
      });
  });
});

exitOnSignal();
server.listen(args.port, args.host, () => {
  const address = server.address();
  announceReady(typeof address === 'object' && address !== null ? address.port : args.port);
});
