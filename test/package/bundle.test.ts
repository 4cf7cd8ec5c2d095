// The bundled build (scripts/bundle-node.mjs, the last step of `npm run build`): every public entry
// point of dist/ is a stub over dist/bundle/ that exports exactly what its source module exports,
// every CLI command too, and the script refuses input it would turn into garbage. The package test
// (pack.test.ts) runs the same files from an installed tarball.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoPath } from '../support/repo-paths.js';

const STUB_MARK = '// toolwright: bundle stub';
const pkg = JSON.parse(readFileSync(repoPath('package.json'), 'utf8')) as { exports: Record<string, { default: string }>; bin: { toolwright: string } };
const nodeEntries = Object.entries(pkg.exports).filter(([, target]) => !target.default.includes('/console/web/'));
const commands = readdirSync(repoPath('src/cli/commands')).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts')).map((f) => f.slice(0, -3)).sort();

const exportNames = async (file: string): Promise<string[]> => Object.keys((await import(pathToFileURL(file).href)) as object).sort();
/** dist/x/y.js -> src/x/y.ts */
const sourceOf = (distFile: string): string => repoPath(distFile.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts'));

test('each exports entry of package.json is a stub over dist/bundle/ with exactly its source module\'s exports', async () => {
  assert.ok(nodeEntries.length >= 7, `expected the package's Node entry points, got ${nodeEntries.map(([k]) => k).join(', ')}`);
  for (const [subpath, target] of nodeEntries) {
    const file = repoPath(target.default);
    const text = readFileSync(file, 'utf8');
    assert.ok(text.startsWith(STUB_MARK), `${subpath}: ${target.default} is not a bundle stub (npm run build bundles it)`);
    assert.match(text, /export \* from '(\.\.\/)*(\.\/)?bundle\/[a-z-]+\.js';/, `${subpath}: the stub re-exports a bundle`);
    assert.deepEqual(await exportNames(file), await exportNames(sourceOf(target.default)), `${subpath}: the bundle's exports differ from its source's`);
  }
});

test('every function and class the entries export keeps its own name in the bundle (esbuild renames only colliding internals)', async () => {
  const renamed: string[] = [];
  for (const [subpath, target] of nodeEntries) {
    const loaded = (await import(pathToFileURL(repoPath(target.default)).href)) as Record<string, unknown>;
    for (const [name, value] of Object.entries(loaded)) {
      if (typeof value === 'function' && value.name !== name) renamed.push(`${subpath} ${name} is named ${JSON.stringify(value.name)}`);
    }
  }
  assert.deepEqual(renamed, []);
});

test('each CLI command runs from its bundle and exports what its source exports; the CLI entry starts the bundled CLI', async () => {
  for (const name of commands) {
    const file = repoPath('dist/cli/commands', `${name}.js`);
    assert.ok(readFileSync(file, 'utf8').startsWith(STUB_MARK), `${name}: not a bundle stub`);
    const loaded = (await import(pathToFileURL(file).href)) as { run?: unknown };
    assert.equal(typeof loaded.run, 'function', `${name}: no run()`);
    assert.deepEqual(await exportNames(file), await exportNames(repoPath('src/cli/commands', `${name}.ts`)), `${name}: exports differ`);
  }
  const main = readFileSync(repoPath(pkg.bin.toolwright), 'utf8');
  assert.ok(main.startsWith(`#!/usr/bin/env node\n${STUB_MARK}\n`), 'the bin keeps its shebang above the stub mark');
  const help = spawnSync(process.execPath, [repoPath(pkg.bin.toolwright), '--help'], { encoding: 'utf8', timeout: 60_000 });
  assert.equal(help.status, 0, help.stderr);
  for (const name of commands) assert.match(help.stdout, new RegExp(`^  ${name} +\\S`, 'm'), `--help lists ${name} with its summary`);
});

test('bundle-node.mjs refuses a dist/ without tsc output and a dist/ already bundled, and says what to run', () => {
  const dir = mkdtempSync(join(tmpdir(), 'toolwright-bundle-'));
  try {
    const bundle = (dist: string) => spawnSync(process.execPath, [repoPath('scripts/bundle-node.mjs'), dist], { encoding: 'utf8', timeout: 60_000 });
    const empty = bundle(join(dir, 'empty'));
    assert.notEqual(empty.status, 0);
    assert.match(empty.stderr, /^bundle-node: \S+ not found: run tsc -p tsconfig\.build\.json first\n$/);

    // Stubs in place of tsc's output: bundling them again would bundle the bundle.
    const stubs = join(dir, 'stubs');
    const copies = [...nodeEntries.map(([, target]) => target.default.replace(/^\.\/dist\//, '')), pkg.bin.toolwright.replace(/^\.\/dist\//, ''), ...commands.map((name) => `cli/commands/${name}.js`)];
    for (const relative of copies) {
      mkdirSync(dirname(join(stubs, relative)), { recursive: true });
      copyFileSync(repoPath('dist', relative), join(stubs, relative));
    }
    const again = bundle(stubs);
    assert.notEqual(again.status, 0);
    assert.match(again.stderr, /^bundle-node: \S+ is already a bundle stub: run tsc -p tsconfig\.build\.json first \(npm run build does\)\n$/);
    assert.deepEqual(readdirSync(stubs).sort(), [...new Set(copies.map((relative) => relative.split('/')[0]!))].sort(), 'nothing was written (no bundle/ folder)');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
