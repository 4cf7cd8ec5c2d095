/**
 * Bun entry: `bun examples/deploy/bun.ts` (docs/deploy.md). `Bun.serve` takes the fetch handler as
 * it is. The secret comes from the environment (`TOOLWRIGHT_STATE_SECRET`). Prints `READY <url>`
 * once listening, which is what the deploy test waits for.
 */
import { createToolApp } from './tool-app.js';

// Only the part of Bun's global this file uses; the project's type check has no Bun types.
interface BunGlobal {
  env: Record<string, string | undefined>;
  serve(options: { hostname: string; port: number; fetch(request: Request): Promise<Response> }): { port: number };
}
declare const Bun: BunGlobal;

const server = createToolApp({ stateSecret: Bun.env.TOOLWRIGHT_STATE_SECRET, runtime: 'bun' });
const hostname = Bun.env.HOST ?? '127.0.0.1';
const listening = Bun.serve({
  hostname,
  port: Number(Bun.env.PORT ?? '8000'),
  fetch: (request) => server.fetch(request),
});
console.log(`READY http://${hostname}:${listening.port}/mcp`);
