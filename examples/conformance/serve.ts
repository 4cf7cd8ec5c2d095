/**
 * `npm run conformance:serve`: the everything server alone on 127.0.0.1, port from PORT (0 or
 * unset picks a free one), endpoint /mcp. Prints one line `listening <url> pid=<pid>` on stdout
 * once it accepts connections; stops on SIGINT/SIGTERM.
 */
import { createEverythingServer } from './everything-server.js';

const rawPort = process.env.PORT ?? '0';
const port = Number(rawPort);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  process.stderr.write(`conformance:serve: PORT must be an integer 0..65535, got ${JSON.stringify(rawPort)}\n`);
  process.exit(2);
}

const server = createEverythingServer({ instanceId: process.env.TOOLWRIGHT_INSTANCE_ID });
try {
  const listener = await server.listen({ host: '127.0.0.1', port });
  process.stdout.write(`listening ${listener.url} pid=${process.pid}\n`);
} catch (error) {
  process.stderr.write(`conformance:serve: cannot listen on 127.0.0.1:${port}: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void server.close().then(() => process.exit(0));
  });
}
