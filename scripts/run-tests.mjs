// Runs every *.test.ts under test/, examples/, packages/ (the robot arm's own tests) and bench/test/
// with node's own test runner (TypeScript via tsx).
// Node 20's --test does not expand globs, so the file list is gathered here. The runner starts in
// an empty temporary directory, not the repository, so every run proves that no test depends on the
// working directory; anything a test leaves there is named at the end. The timeout only ends a hung
// file: node applies it to each file as a whole, and integration files take minutes on a busy machine.
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { spawnSync } from 'node:child_process';
import { ensureTestDeps, THIRD_PARTY } from './test-deps.mjs';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const roots = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ['test', 'examples', 'packages', 'bench/test'];
const files = [];
function collect(path) {
  const info = statSync(path, { throwIfNoEntry: false });
  if (!info) return;
  if (info.isFile()) { if (path.endsWith('.test.ts')) files.push(path); return; }
  for (const name of readdirSync(path).sort()) {
    if (name === 'node_modules') continue;
    collect(join(path, name));
  }
}
for (const root of roots) collect(resolve(repoRoot, root));
if (files.length === 0) { console.error('run-tests: no test files found under', roots.join(', ')); process.exit(1); }
// The tests import test-deps/third-party's packages statically, so it is installed (once) and linked
// before the first test file loads; the other test-deps workspaces install when a test asks.
try {
  ensureTestDeps(THIRD_PARTY);
} catch (error) {
  console.error(`run-tests: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const cwd = mkdtempSync(join(tmpdir(), 'toolwright-tests-cwd-'));
// The usual reporter on stdout (spec on a terminal, TAP otherwise), then a list of the failures on
// stderr at the very end, where a CI log's tail shows it.
const reporters = [
  '--test-reporter', process.stdout.isTTY ? 'spec' : 'tap', '--test-reporter-destination', 'stdout',
  '--test-reporter', pathToFileURL(join(repoRoot, 'scripts', 'failure-summary-reporter.mjs')).href, '--test-reporter-destination', 'stderr',
];
// Audit logs are keyed by default, with their key and sealed heads in the user's state folder: the
// tests get a state folder of their own (removed at the end), never the user's.
const stateDir = process.env.TOOLWRIGHT_STATE_DIR === undefined ? mkdtempSync(join(tmpdir(), 'toolwright-tests-state-')) : undefined;
const env = stateDir === undefined ? process.env : { ...process.env, TOOLWRIGHT_STATE_DIR: stateDir };
const result = spawnSync(process.execPath, ['--import', tsxLoader, '--test', '--test-timeout=300000', ...reporters, ...files], { stdio: 'inherit', cwd, env });
if (stateDir !== undefined) rmSync(stateDir, { recursive: true, force: true });
const leftovers = readdirSync(cwd);
if (leftovers.length > 0) console.error(`run-tests: tests wrote into the working directory: ${leftovers.join(', ')}`);
rmSync(cwd, { recursive: true, force: true });
process.exit(result.status ?? 1);
