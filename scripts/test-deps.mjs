// Installs the on-demand test workspaces (test-deps/<name>/: an own package.json with exact versions
// and an own lockfile). Test-only packages live there, never in the root install (wave-3 rule
// "test-only weight stays out of the root install"; docs/architecture.md, "Test-only packages").
//
//   node scripts/test-deps.mjs [name ...]    (default: third-party; `npm run test:deps`)
//
// A workspace is installed with `npm ci --ignore-scripts` when one of its dependencies is missing or
// at another version, and left alone otherwise (a few file reads). test-deps/third-party holds the
// MCP clients, servers and tools that tests, the interop suite and the bench import by name; each of
// its dependencies is linked into <folder>/node_modules/ of every folder whose code imports them, so
// that Node and the type-check resolve `import ... from '@modelcontextprotocol/sdk/...'` by the
// ordinary node_modules walk: no resolve hook, no tsconfig paths, and child processes need nothing.
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url)).replace(/[\\/]$/, '');

/** The workspace whose packages are linked into the folders that import them. */
export const THIRD_PARTY = 'third-party';

// Cold npm cache: test-deps/third-party downloads about 550 MB; on 2 busy cores that takes minutes.
const INSTALL_TIMEOUT_MS = 600_000;

const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));

/** The folder of test-deps/<name> (of the repository at `root`, this one unless a test says otherwise). */
export function testDepsDir(name, root = REPO_ROOT) {
  return join(root, 'test-deps', name);
}

function dependencies(dir) {
  return Object.entries(readJson(join(dir, 'package.json')).dependencies ?? {});
}

function installed(dir) {
  return dependencies(dir).every(([name, version]) => {
    const file = join(dir, 'node_modules', name, 'package.json');
    return existsSync(file) && readJson(file).version === version;
  });
}

/**
 * The folders whose code imports test-deps/third-party's packages by name: the tests, the bench
 * sources and their compiled form (bench/tsconfig.json's outDir), and each npm workspace's tests
 * (the robot package). Read from package.json, so moving a workspace needs no change here.
 */
export function linkHomes(root = REPO_ROOT) {
  const workspaces = readJson(join(root, 'package.json')).workspaces ?? [];
  const packages = workspaces.flatMap((pattern) => {
    if (!pattern.endsWith('/*')) return [pattern];
    const parent = pattern.slice(0, -2);
    return readdirSync(join(root, parent), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => `${parent}/${e.name}`);
  });
  return ['test', 'bench', '.cache/bench', ...packages.map((dir) => `${dir}/test`)];
}

function link(target, path) {
  // A relative link survives moving the clone; Windows gets a junction, which needs an absolute target.
  const wanted = process.platform === 'win32' ? target : relative(dirname(path), target);
  const current = lstatSync(path, { throwIfNoEntry: false });
  if (current?.isSymbolicLink() && readlinkSync(path) === wanted) return;
  if (current !== undefined) rmSync(path, { recursive: true, force: true });
  mkdirSync(dirname(path), { recursive: true });
  symlinkSync(wanted, path, process.platform === 'win32' ? 'junction' : 'dir');
}

/** Links each dependency of test-deps/third-party into <home>/node_modules and removes links to packages it no longer has. */
export function linkThirdParty(root = REPO_ROOT) {
  const dir = testDepsDir(THIRD_PARTY, root);
  const names = dependencies(dir).map(([name]) => name);
  for (const home of linkHomes(root)) {
    const modules = join(root, home, 'node_modules');
    mkdirSync(modules, { recursive: true });
    for (const name of names) link(join(dir, 'node_modules', name), join(modules, name));
    // Only packages linked here: anything else in this node_modules is a link left from an older list.
    for (const entry of readdirSync(modules)) {
      const inScope = entry.startsWith('@') ? readdirSync(join(modules, entry)).map((sub) => `${entry}/${sub}`) : [entry];
      for (const name of inScope) if (!names.includes(name)) rmSync(join(modules, name), { recursive: true, force: true });
    }
  }
}

/** The first lines of npm's error that say what went wrong (not its blank lines, help hint or log path). */
function npmErrors(stderr) {
  const lines = stderr.split('\n').filter((line) => line.startsWith('npm error')).map((line) => line.slice('npm error'.length).trim());
  const telling = lines.filter((line) => line !== '' && !line.startsWith('Run "npm help') && !line.startsWith('A complete log of this run'));
  return (telling.length > 0 ? telling : stderr.trim().split('\n')).slice(0, 3).join(' | ');
}

/**
 * Makes sure test-deps/<name> is installed (and, for third-party, linked); returns its folder.
 * Throws, saying why, when npm cannot install it. `log` receives one line before and after an install.
 */
export function ensureTestDeps(name, { log = (line) => process.stdout.write(`${line}\n`), root = REPO_ROOT } = {}) {
  const dir = testDepsDir(name, root);
  if (!existsSync(join(dir, 'package.json'))) throw new Error(`no test-deps workspace ${name} (${dir} has no package.json)`);
  if (!installed(dir)) {
    log(`# installing test-deps/${name} (npm ci, once)`);
    const started = Date.now();
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const result = spawnSync(npm, ['ci', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd: dir, encoding: 'utf8', timeout: INSTALL_TIMEOUT_MS, shell: process.platform === 'win32' });
    if (result.status !== 0 || !installed(dir)) {
      throw new Error(`cannot install test-deps/${name} (npm ci exited ${result.status ?? result.signal ?? result.error?.message}): ${npmErrors(result.stderr ?? '')}`);
    }
    log(`# installed test-deps/${name} in ${Math.round((Date.now() - started) / 1000)} s: ${(result.stdout ?? '').trim().split('\n').filter((line) => line.startsWith('added')).join(' ')}`);
  }
  if (name === THIRD_PARTY) linkThirdParty(root);
  return dir;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === realpathSync(process.argv[1])) {
  const names = process.argv.slice(2);
  try {
    for (const name of names.length > 0 ? names : [THIRD_PARTY]) ensureTestDeps(name);
  } catch (error) {
    console.error(`test-deps: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
