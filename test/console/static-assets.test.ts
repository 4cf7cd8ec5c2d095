/**
 * Which bytes a console page is served from: the bundle `npm run build` wrote beside the entry when
 * there is one (an installed package, which may have no esbuild), otherwise the entry bundled now
 * with esbuild (running from the sources); and that the build wrote a bundle for each of the
 * toolkit's own pages, equal to what bundling at start gives.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { bundleBrowserEntry, bundleBrowserFile, PREBUILT_BUNDLE_SUFFIX } from '../../src/console/static-assets.js';
import { repoPath } from '../support/repo-paths.js';

const dir = mkdtempSync(join(tmpdir(), 'toolwright-static-assets-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const entry = (name: string): URL => pathToFileURL(join(dir, name));

describe('console page bundles', () => {
  it('serves the prebuilt <entry>.bundle.js as it is when there is one, even beside the source', async () => {
    writeFileSync(join(dir, 'page.ts'), 'export const fromSource: number = 1;\n');
    writeFileSync(join(dir, `page${PREBUILT_BUNDLE_SUFFIX}`), 'console.log("prebuilt");\n');
    const asset = await bundleBrowserEntry(entry('page'));
    assert.equal(asset.raw.toString('utf8'), 'console.log("prebuilt");\n');
    assert.equal(asset.contentType, 'text/javascript; charset=utf-8');
  });

  it('serves a prebuilt bundle whose entry is absent (no source, nothing to bundle)', async () => {
    writeFileSync(join(dir, `only-built${PREBUILT_BUNDLE_SUFFIX}`), 'export{};\n');
    assert.equal((await bundleBrowserEntry(entry('only-built'))).raw.toString('utf8'), 'export{};\n');
  });

  it('bundles the .ts entry with esbuild when there is no prebuilt bundle', async () => {
    writeFileSync(join(dir, 'helper.ts'), 'export const greeting: string = "hello from the helper";\n');
    writeFileSync(join(dir, 'source-page.ts'), 'import { greeting } from "./helper.js";\ndocument.title = greeting;\n');
    // One minified module with the helper inlined (esbuild is pinned, so the output is exact).
    assert.equal((await bundleBrowserEntry(entry('source-page'))).raw.toString('utf8'), 'var e="hello from the helper";document.title=e;\n');
  });

  it('names both paths when neither a bundle nor an entry exists', async () => {
    await assert.rejects(bundleBrowserEntry(entry('missing')), { message: `console: browser entry ${join(dir, 'missing')}.ts/.js not found` });
  });

  it('npm run build wrote a bundle for each page in dist/console/web, the same bytes bundling at start gives', async () => {
    const web = repoPath('dist/console/web');
    const pages = readdirSync(web).filter((name) => name.endsWith('-page.js')).sort();
    assert.deepEqual(pages, ['approvals-page.js', 'workbench-page.js']);
    for (const page of pages) {
      const bundle = join(web, page.replace(/\.js$/, PREBUILT_BUNDLE_SUFFIX));
      assert.ok(existsSync(bundle), `${bundle} is missing: run npm run build`);
      assert.deepEqual(readFileSync(bundle), Buffer.from(await bundleBrowserFile(join(web, page))), `${bundle} is stale: run npm run build`);
    }
  });
});
