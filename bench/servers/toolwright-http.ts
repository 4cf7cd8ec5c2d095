// Toolwright over Streamable HTTP, started through its public `createServer(...).listen()`.
import { createServer as createNetServer } from 'node:net';
import { announceReady, exitOnSignal, parseServerArgs } from '../shared/server-args.js';
import { createToolwrightServer } from './toolwright-app.js';

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
const port = args.port === 0 ? await freePort(args.host) : args.port;
const server = await createToolwrightServer('toolwright-http', args.tools);
await server.listen({ port, host: args.host });
exitOnSignal();
announceReady(port);
