/**
 * Deno entry: `deno run --allow-net=127.0.0.1 --allow-env --allow-read examples/deploy/deno.ts`
 * (docs/deploy.md has the exact flags). `Deno.serve` takes the fetch handler as it is. The secret
 * comes from the environment (`TOOLWRIGHT_STATE_SECRET`; on Deno Deploy, the project's environment
 * variables). Prints `READY <url>` once listening, which is what the deploy test waits for.
 */
import { createToolApp } from './tool-app.js';

// Only the part of Deno's global this file uses; the project's type check has no Deno types.
interface DenoGlobal {
  env: { get(name: string): string | undefined };
  serve(
    options: { hostname: string; port: number; onListen(address: { hostname: string; port: number }): void },
    handler: (request: Request) => Promise<Response>,
  ): { finished: Promise<void> };
}
declare const Deno: DenoGlobal;

const server = createToolApp({ stateSecret: Deno.env.get('TOOLWRIGHT_STATE_SECRET'), runtime: 'deno' });
const hostname = Deno.env.get('HOST') ?? '127.0.0.1';
Deno.serve({
  hostname,
  port: Number(Deno.env.get('PORT') ?? '8000'),
  onListen: ({ port }) => console.log(`READY http://${hostname}:${port}/mcp`),
}, (request) => server.fetch(request));
