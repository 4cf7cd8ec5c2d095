/**
 * scripts/test-deps.mjs, on a temporary repository: test-deps/third-party's packages are linked
 * into every folder that imports them (and only its packages), stale links are replaced or
 * removed, and a workspace that is missing or cannot be installed fails saying why.
 */
import assert from 'node:assert/strict';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readlinkSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { ensureTestDeps, linkHomes, linkThirdParty, testDepsDir } from '../../scripts/test-deps.mjs';

const scratch = mkdtempSync(join(tmpdir(), 'tw-test-deps-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

function write(path: string, value: unknown): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, typeof value === 'string' ? value : JSON.stringify(value));
}

/** A repository with two workspaces under `pkgs/*` and one named, and test-deps/third-party "installed" (its packages written by hand). */
function repository(wanted: Record<string, string> = { '@scope/x': '1.0.0', y: '2.0.0' }, installed: Record<string, string> = wanted): string {
  const root = mkdtempSync(join(scratch, 'repo-'));
  write(join(root, 'package.json'), { name: 'r', workspaces: ['pkgs/*', 'one'] });
  for (const dir of ['pkgs/a', 'pkgs/b', 'one']) mkdirSync(join(root, dir, 'test'), { recursive: true });
  const workspace = testDepsDir('third-party', root);
  write(join(workspace, 'package.json'), { name: 'w', private: true, dependencies: wanted });
  for (const [name, version] of Object.entries(installed)) {
    write(join(workspace, 'node_modules', name, 'package.json'), { name, version, main: 'index.js' });
    write(join(workspace, 'node_modules', name, 'index.js'), `module.exports = ${JSON.stringify(`${name}@${version}`)};`);
  }
  return root;
}

describe('test-deps/third-party links', () => {
  it('reads the folders to link from package.json workspaces, expanding dir/*', () => {
    assert.deepEqual(linkHomes(repository()), ['test', 'bench', '.cache/bench', 'pkgs/a/test', 'pkgs/b/test', 'one/test']);
  });

  it('links an installed workspace without running npm, so that a bare name resolves to it from every linked folder', () => {
    const root = repository();
    const logged: string[] = [];
    assert.equal(ensureTestDeps('third-party', { root, log: (line) => logged.push(line) }), testDepsDir('third-party', root));
    assert.deepEqual(logged, []);
    for (const home of ['test', 'bench', '.cache/bench', 'pkgs/a/test', 'pkgs/b/test', 'one/test']) {
      const require = createRequire(join(root, home, 'deep', 'file.js'));
      assert.equal(require('@scope/x'), '@scope/x@1.0.0', home);
      assert.equal(realpathSync(require.resolve('y')), realpathSync(join(root, 'test-deps/third-party/node_modules/y/index.js')), home);
    }
    assert.equal(readlinkSync(join(root, 'test/node_modules/@scope/x')), '../../../test-deps/third-party/node_modules/@scope/x');
  });

  it('replaces a link that points elsewhere and removes what the workspace no longer lists', () => {
    const root = repository();
    const modules = join(root, 'test', 'node_modules');
    mkdirSync(join(modules, '@scope'), { recursive: true });
    symlinkSync(scratch, join(modules, 'y'), 'dir');
    symlinkSync(scratch, join(modules, '@scope', 'dropped'), 'dir');
    mkdirSync(join(modules, 'z'));
    linkThirdParty(root);
    assert.equal(readlinkSync(join(modules, 'y')), '../../test-deps/third-party/node_modules/y');
    assert.equal(existsSync(join(modules, '@scope', 'dropped')), false);
    assert.equal(existsSync(join(modules, 'z')), false);
    assert.ok(lstatSync(join(modules, '@scope', 'x')).isSymbolicLink());
    assert.ok(existsSync(scratch), 'removing a link leaves its target alone');
  });
});

describe('test-deps failures', () => {
  it('refuses a workspace that does not exist, naming its folder', () => {
    const root = repository();
    assert.throws(() => ensureTestDeps('nope', { root, log: () => {} }), { message: `no test-deps workspace nope (${join(root, 'test-deps', 'nope')} has no package.json)` });
  });

  it("reports npm's exit status when the workspace cannot be installed, and links nothing", () => {
    // y is installed at 2.0.0 but 2.0.1 is wanted, and there is no lockfile: npm ci refuses at once, offline.
    const root = repository({ y: '2.0.1' }, { y: '2.0.0' });
    const logged: string[] = [];
    assert.throws(() => ensureTestDeps('third-party', { root, log: (line) => logged.push(line) }), /^Error: cannot install test-deps\/third-party \(npm ci exited 1\): code EUSAGE \| The `npm ci` command can only install with an existing package-lock\.json/);
    assert.deepEqual(logged, ['# installing test-deps/third-party (npm ci, once)']);
    assert.equal(existsSync(join(root, 'test', 'node_modules')), false);
  });
});
