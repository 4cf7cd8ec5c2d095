/**
 * The console's front-end bundles. Each page's browser code is bundled with esbuild when the
 * console starts (not at `npm run build`): the project's build is `tsc` alone, the code is small
 * (one bundle in well under a second) and bundling from the source that is running means the page
 * can never be stale. Bundles are minified, precompressed once (brotli and gzip) and served from
 * memory with an ETag; no CDN, nothing fetched at run time.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** One file served from memory. */
export interface StaticAsset {
  readonly contentType: string;
  readonly raw: Buffer;
  readonly gzip: Buffer;
  readonly brotli: Buffer;
  readonly etag: string;
}

/** Builds an asset from bytes (compressing once). */
export function createAsset(contentType: string, body: string | Buffer): StaticAsset {
  const raw = typeof body === 'string' ? Buffer.from(body) : body;
  return {
    contentType,
    raw,
    gzip: gzipSync(raw, { level: 9 }),
    brotli: brotliCompressSync(raw, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: raw.length } }),
    etag: `"${createHash('sha256').update(raw).digest('base64url').slice(0, 22)}"`,
  };
}

/**
 * Bundles the browser entry `entry` (a URL without extension: `.ts` next to the source, `.js` in
 * dist/) into one minified ES module.
 */
export async function bundleBrowserEntry(entry: URL): Promise<StaticAsset> {
  const base = fileURLToPath(entry);
  const file = [`${base}.ts`, `${base}.js`].find((f) => existsSync(f));
  if (file === undefined) throw new Error(`console: browser entry ${base}.ts/.js not found`);
  let esbuild: typeof import('esbuild');
  try {
    esbuild = await import('esbuild');
  } catch {
    throw new Error('console: esbuild is needed to bundle the console page (npm install -E esbuild)');
  }
  const result = await esbuild.build({
    entryPoints: [file],
    bundle: true,
    minify: true,
    format: 'esm',
    target: 'es2022',
    platform: 'browser',
    write: false,
    legalComments: 'none',
    logLevel: 'silent',
  });
  const output = result.outputFiles[0];
  if (output === undefined) throw new Error(`console: esbuild produced nothing for ${file}`);
  return createAsset('text/javascript; charset=utf-8', Buffer.from(output.contents));
}

/**
 * Writes `asset` with the best encoding the request accepts; 304 when the ETag matches. Cached
 * `private, no-cache` (revalidated each time) unless `headers` says otherwise: a page that carries
 * the console token passes `Cache-Control: no-store`, and it is kept.
 */
export function sendAsset(req: IncomingMessage, res: ServerResponse, asset: StaticAsset, headers: Record<string, string> = {}): void {
  const common = { 'Cache-Control': 'private, no-cache', ...headers, 'Content-Type': asset.contentType, ETag: asset.etag, Vary: 'Accept-Encoding' };
  if (req.headers['if-none-match'] === asset.etag) {
    res.writeHead(304, common);
    res.end();
    return;
  }
  const accepted = String(req.headers['accept-encoding'] ?? '');
  const [encoding, body] = /\bbr\b/.test(accepted) ? ['br', asset.brotli] : /\bgzip\b/.test(accepted) ? ['gzip', asset.gzip] : [undefined, asset.raw];
  res.writeHead(200, { ...common, ...(encoding !== undefined ? { 'Content-Encoding': encoding } : {}), 'Content-Length': String(body.length) });
  res.end(req.method === 'HEAD' ? undefined : body);
}
