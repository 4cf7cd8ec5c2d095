// Toolwright over Streamable HTTP, started through its public `createServer(...).listen()`.
// Variants (the `middleware` suite): `middleware` puts rate limit + audit (no fsync) + result
// budget on every call; `empty-chain` passes `use: []`, to show an empty chain costs nothing.
import { createServer as createNetServer } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
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
const auditDir = variant === 'middleware' ? mkdtempSync(join(tmpdir(), 'toolwright-bench-audit-')) : undefined;
// The audit key and head live outside the log's folder (the log refuses them inside it).
const keyDir = variant === 'middleware' ? mkdtempSync(join(tmpdir(), 'toolwright-bench-audit-key-')) : undefined;
// The audit log grows by some 20 MB a run: removed when this server exits (the process exits on
// SIGTERM/SIGINT through exitOnSignal, so the 'exit' hook runs).
if (auditDir !== undefined) process.once('exit', () => rmSync(auditDir, { recursive: true, force: true }));
if (keyDir !== undefined) process.once('exit', () => rmSync(keyDir, { recursive: true, force: true }));
const middleware: MiddlewareChoice | undefined =
  auditDir !== undefined && keyDir !== undefined ? { kind: 'chain', auditPath: join(auditDir, 'calls.jsonl'), keyDir }
  : variant === 'empty-chain' ? { kind: 'empty' }
  : undefined;
const port = args.port === 0 ? await freePort(args.host) : args.port;
const server = await createToolwrightServer(variant === 'default' ? 'toolwright-http' : `toolwright-${variant}-http`, args.tools, middleware);
await server.listen({ port, host: args.host });
exitOnSignal();
announceReady(port);
