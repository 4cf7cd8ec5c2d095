/**
 * Test-only packages live in on-demand workspaces under test-deps/<name>/ (own package.json and
 * lockfile, exact versions), never in the root install (wave-3 rule "test-only weight stays out of
 * the root install"). The first test that needs one installs it with `npm ci` (bounded in time);
 * after that it is resolved from that folder with createRequire. Nothing here is a skip: a
 * workspace that cannot be installed fails the test that needs it, saying why.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO_ROOT as ROOT } from './repo-paths.js';

const INSTALL_TIMEOUT_MS = 300_000;

function installed(dir: string): boolean {
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
  return Object.entries(manifest.dependencies ?? {}).every(([name, version]) => {
    const file = join(dir, 'node_modules', name, 'package.json');
    return existsSync(file) && (JSON.parse(readFileSync(file, 'utf8')) as { version?: string }).version === version;
  });
}

/** Makes sure test-deps/<name> is installed; resolves to an import function for its packages. */
export function testDeps(name: string): { import<T>(specifier: string): Promise<T>; dir: string } {
  const dir = join(ROOT, 'test-deps', name);
  if (!installed(dir)) {
    process.stdout.write(`# installing test-deps/${name} (npm ci, once)\n`);
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const result = spawnSync(npm, ['ci', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd: dir, encoding: 'utf8', timeout: INSTALL_TIMEOUT_MS });
    if (result.status !== 0 || !installed(dir)) {
      throw new Error(`cannot install test-deps/${name} (npm ci exited ${result.status ?? result.signal ?? result.error?.message}): ${(result.stderr ?? '').trim().split('\n').slice(-3).join(' | ')}`);
    }
  }
  const require = createRequire(join(dir, 'package.json'));
  return {
    dir,
    import: async <T>(specifier: string) => (await import(pathToFileURL(require.resolve(specifier)).href)) as T,
  };
}
