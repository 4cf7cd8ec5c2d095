/**
 * Bundles worker.ts into one ES module for workerd (Cloudflare Workers):
 * `npx tsx examples/deploy/build-worker.ts [outfile]` (default dist-deploy/worker.js).
 * `node:*` imports stay imports: workerd provides them under the `nodejs_compat` flag
 * (docs/deploy.md says which and why). `node:module` is the one exception, see bundled-require.ts.
 */
import { build } from 'esbuild';
import type { Plugin } from 'esbuild';
import { fileURLToPath } from 'node:url';

const shim = fileURLToPath(new URL('./bundled-require.ts', import.meta.url));

const nodeModuleShim: Plugin = {
  name: 'bundled-require',
  setup(b) {
    b.onResolve({ filter: /^node:module$/ }, () => ({ path: shim }));
  },
};

export async function buildWorker(outfile: string): Promise<void> {
  await build({
    entryPoints: [fileURLToPath(new URL('./worker.ts', import.meta.url))],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    mainFields: ['module', 'main'],
    external: ['node:*'],
    plugins: [nodeModuleShim],
    logLevel: 'warning',
  });
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  await buildWorker(process.argv[2] ?? 'dist-deploy/worker.js');
}
