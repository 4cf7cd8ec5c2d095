/**
 * The console's front-end bundles. Each page's browser code is bundled once, minified, into one ES
 * module. `npm run build` writes the bundles of the toolkit's own pages beside their entries in
 * dist/ (`dist/console/web/<entry>.bundle.js`, by `scripts/build-console.mjs`), so an installed
 * package serves the console with no bundler. An entry with no prebuilt bundle (running from the
 * sources under tsx, or a page of your own such as the robot arm's) is bundled with esbuild when the
 * console starts, if esbuild is installed. Bundles are precompressed once (brotli and gzip) and
 * served from memory with an ETag; no CDN, nothing fetched at run time.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
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

/** What a prebuilt bundle's file name adds to its entry's: `approvals-page` -> `approvals-page.bundle.js`. */
export const PREBUILT_BUNDLE_SUFFIX = '.bundle.js';

const JAVASCRIPT = 'text/javascript; charset=utf-8';

/**
 * The console page bundle of `entry` (a URL without extension): the prebuilt
 * `<entry>.bundle.js` when there is one (what `npm run build` writes into dist/), otherwise
 * `<entry>.ts` (beside the source) or `<entry>.js` bundled now with esbuild, which must then be
 * installed.
 */
export async function bundleBrowserEntry(entry: URL): Promise<StaticAsset> {
  const base = fileURLToPath(entry);
  const prebuilt = await readFile(`${base}${PREBUILT_BUNDLE_SUFFIX}`).catch((error: unknown) => {
    if ((error as { code?: unknown }).code === 'ENOENT') return undefined;
    throw error;
  });
  if (prebuilt !== undefined) return createAsset(JAVASCRIPT, prebuilt);
  const file = [`${base}.ts`, `${base}.js`].find((f) => existsSync(f));
  if (file === undefined) throw new Error(`console: browser entry ${base}.ts/.js not found`);
  return createAsset(JAVASCRIPT, Buffer.from(await bundleBrowserFile(file)));
}

/**
 * Bundles one browser entry file (`.ts` or `.js`) with everything it imports into one minified ES
 * module, as the console serves it; `scripts/build-console.mjs` uses it at `npm run build`.
 */
export async function bundleBrowserFile(file: string): Promise<Uint8Array> {
  let esbuild: typeof import('esbuild');
  try {
    esbuild = await import('esbuild');
  } catch {
    throw new Error(`console: ${file} has no prebuilt bundle (${PREBUILT_BUNDLE_SUFFIX}, which npm run build writes) and esbuild is not installed to bundle it (npm install -E esbuild)`);
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
  return output.contents;
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
