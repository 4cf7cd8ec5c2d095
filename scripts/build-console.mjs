// The second half of `npm run build` (after tsc): bundles each of the console's pages
// (dist/console/web/*-page.js) into one minified ES module beside it, `<page>.bundle.js`, with the
// same esbuild options the console uses when it bundles at start (src/console/static-assets.ts). An
// installed package then serves the console with no bundler; esbuild is needed only here, at build
// time, where it is a devDependency.
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const web = fileURLToPath(new URL('../dist/console/web/', import.meta.url));
const { bundleBrowserFile, PREBUILT_BUNDLE_SUFFIX } = await import('../dist/console/static-assets.js');
const pages = readdirSync(web).filter((name) => name.endsWith('-page.js')).sort();
if (pages.length === 0) throw new Error(`build-console: no *-page.js in ${web}; run tsc first`);
for (const page of pages) {
  const out = join(web, page.slice(0, -'.js'.length) + PREBUILT_BUNDLE_SUFFIX);
  writeFileSync(out, await bundleBrowserFile(join(web, page)));
}
console.log(`build-console: ${pages.length} console page bundles in dist/console/web/`);
