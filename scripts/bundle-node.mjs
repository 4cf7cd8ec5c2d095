// The last step of `npm run build` (after tsc and the console pages): bundles the package's Node
// entry points, each export of package.json, the CLI and each CLI command, into ES modules in
// dist/bundle/, sharing code through chunks there, and turns each entry's public path
// (dist/index.js, dist/cli/main.js, dist/cli/commands/lint.js, ...) into a one-line stub that
// re-exports its bundle.
//
// Why: Node pays for every module file it loads, about 50 KB of memory and half a millisecond of
// start-up each, whatever its size. tsc's one-file-per-source layout made `import 'toolwright'`
// load 206 files in 121 ms; bundled, it loads 28 in 36 ms (bench/README.md, "Start-up and memory";
// docs/architecture.md, "Build: what dist/ holds").
//
// Every bundle file sits one folder below dist/, as every source file of a src/ folder does, so
// code that finds files by its own URL (the CLI's commands, the console's pages, package.json)
// resolves the same paths from src/<folder>/, from tsc's dist/<folder>/ and from dist/bundle/.
// Dependencies stay external (imported from node_modules as before). The per-file tsc output stays
// beside the bundles: it holds the types (.d.ts), the console pages' browser sources, and is what
// this script reads.
//
// Usage: node scripts/bundle-node.mjs [distDir]   (default: dist/ of this repository)
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = process.argv[2] ?? join(root, 'dist');
const bundleDir = join(dist, 'bundle');
/** A line of every stub this script writes, near its top; tsc's output never has it. */
const STUB_MARK = '// toolwright: bundle stub';

/** Stops with one line on stderr (no stack: the message says what to do) and exit code 1. */
function fail(message) {
  process.stderr.write(`bundle-node: ${message}\n`);
  process.exit(1);
}

/** Bundle name -> tsc output file it starts from, for every export, the CLI and its commands. */
function entryPoints() {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const entries = {};
  for (const [subpath, target] of Object.entries(pkg.exports)) {
    const file = typeof target === 'string' ? target : target.default;
    // The console's browser client is served to browsers as it is, never run by Node.
    if (file.includes('/console/web/')) continue;
    const name = subpath === '.' ? 'index' : subpath.slice(2).replaceAll('/', '-');
    entries[name] = join(dist, relative('dist', file));
  }
  entries['cli-main'] = join(dist, relative('dist', pkg.bin.toolwright));
  const commands = join(dist, 'cli', 'commands');
  if (!existsSync(commands)) fail(`${commands} not found: run tsc -p tsconfig.build.json first`);
  for (const file of readdirSync(commands).filter((f) => f.endsWith('.js')).sort()) entries[`cli-command-${file.slice(0, -3)}`] = join(commands, file);
  return entries;
}

const entries = entryPoints();
for (const file of Object.values(entries)) {
  if (!existsSync(file)) fail(`${file} not found: run tsc -p tsconfig.build.json first`);
  if (readFileSync(file, 'utf8').slice(0, 200).includes(STUB_MARK)) fail(`${file} is already a bundle stub: run tsc -p tsconfig.build.json first (npm run build does)`);
}

let esbuild;
try {
  esbuild = await import('esbuild');
} catch {
  fail('esbuild is not installed (it is a devDependency: npm ci installs it)');
}
rmSync(bundleDir, { recursive: true, force: true });
await esbuild.build({
  entryPoints: entries,
  outdir: bundleDir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  // No keepNames: it wraps every named function in a `__name()` call that redefines its `name`
  // property, and that runs each time a closure is made, on every request for the per-request
  // closures of the HTTP exchange and the pipeline. Measured on the bench's HTTP server (c=32):
  // 52-92 against 45-48 µs of CPU per request, peak RSS 92-109 against 75-88 MiB, and some
  // processes promoting some 150 MB to the old generation in 4 s instead of 7.5 (bench/README.md,
  // "What keepNames cost"). Without it, only internal helpers whose names collide in a chunk are
  // renamed (`checkTtl2`); every exported function and class keeps its name, which the bundle
  // test checks, and the error classes set `name` themselves.
  keepNames: false,
  chunkNames: 'chunk-[hash]',
  sourcemap: 'linked',
  legalComments: 'none',
  logLevel: 'warning',
});

for (const [name, file] of Object.entries(entries)) {
  const target = relative(dirname(file), join(bundleDir, `${name}.js`)).split(sep).join('/');
  const specifier = target.startsWith('.') ? target : `./${target}`;
  const isCli = name === 'cli-main';
  // The CLI entry runs on import; the others re-export their bundle's whole API.
  const body = isCli ? `#!/usr/bin/env node\n${STUB_MARK}\nimport '${specifier}';\n` : `${STUB_MARK}\nexport * from '${specifier}';\n`;
  writeFileSync(file, body);
  rmSync(`${file}.map`, { force: true });
}
const files = readdirSync(bundleDir).filter((f) => f.endsWith('.js'));
console.log(`bundle-node: ${Object.keys(entries).length} entry points in ${files.length} files in ${relative(root, bundleDir) || bundleDir}/`);
