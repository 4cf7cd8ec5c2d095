// Toolwright over Streamable HTTP, started through its public `createServer(...).listen()`.
// Variants (the `middleware` suite): `middleware` puts rate limit + audit (no fsync) + result
// budget on every call; `empty-chain` passes `use: []`, to show an empty chain costs nothing.
import { createServer as createNetServer } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { announceReady, chooseVariant, exitOnSignal, parseServerArgs } from '../shared/server-args.js';
import { createToolwrightServer } from './toolwright-app.js';
import type { MiddlewareChoice } from './toolwright-app.js';

/** A free loopback port, so READY can name the port whatever `listen()` returns. */
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
const variant = chooseVariant(args, ['default', 'middleware', 'empty-chain']);
const middleware: MiddlewareChoice | undefined =
  variant === 'middleware' ? { kind: 'chain', auditPath: join(mkdtempSync(join(tmpdir(), 'toolwright-bench-audit-')), 'calls.jsonl') }
  : variant === 'empty-chain' ? { kind: 'empty' }
  : undefined;
const port = args.port === 0 ? await freePort(args.host) : args.port;
const server = await createToolwrightServer(variant === 'default' ? 'toolwright-http' : `toolwright-${variant}-http`, args.tools, middleware);
await server.listen({ port, host: args.host });
exitOnSignal();
announceReady(port);
