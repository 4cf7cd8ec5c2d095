/**
 * Cloudflare Workers entry (workerd): bundle with
 * `npx esbuild examples/deploy/worker.ts --bundle --format=esm --platform=neutral --outfile=dist-deploy/worker.js`
 * (docs/deploy.md). The secret comes from the Worker's environment (`wrangler secret put
 * TOOLWRIGHT_STATE_SECRET`), which only exists inside `fetch`, so the server is made on the first
 * request and kept for the life of this isolate.
 */
import type { McpServer } from '../../src/index.js';
import { createToolApp } from './tool-app.js';

interface WorkerEnv {
  TOOLWRIGHT_STATE_SECRET?: string;
}

let server: McpServer | undefined;

export default {
  fetch(request: Request, env: WorkerEnv): Promise<Response> {
    server ??= createToolApp({ stateSecret: env.TOOLWRIGHT_STATE_SECRET, runtime: 'workerd' });
    return server.fetch(request);
  },
};
