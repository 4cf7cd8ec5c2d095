// Toolwright over Streamable HTTP with the middleware chain on (rate limit, audit without fsync,
// result budget): the `middleware` suite's third server.
import { createServer as createNetServer } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { announceReady, exitOnSignal, parseServerArgs } from '../shared/server-args.js';
import { createToolwrightServer } from './toolwright-app.js';

function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createNetServer();
    probe.once('error', reject);
    probe.listen(0, host, () => {
      const address = probe.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

const args = parseServerArgs(process.argv.slice(2));
const port = args.port === 0 ? await freePort(args.host) : args.port;
const auditPath = join(mkdtempSync(join(tmpdir(), 'toolwright-bench-audit-')), 'calls.jsonl');
const server = await createToolwrightServer('toolwright-middleware-http', args.tools, { auditPath });
await server.listen({ port, host: args.host });
exitOnSignal();
announceReady(port);
