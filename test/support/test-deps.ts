/**
 * Test-only packages live in on-demand workspaces under test-deps/<name>/ (own package.json and
 * lockfile, exact versions), never in the root install (wave-3 rule "test-only weight stays out of
 * the root install"). scripts/test-deps.mjs installs one with `npm ci` (bounded in time) when it is
 * missing. Nothing here is a skip: a workspace that cannot be installed fails the test that needs
 * it, saying why.
 *
 * Two ways in: test-deps/third-party (the MCP clients, servers and tools most tests import by name)
 * is installed by the test runner before any test loads and linked into test/node_modules, so tests
 * import it statically; the other workspaces are loaded on first use through `testDeps(name)`.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ensureTestDeps, testDepsDir, THIRD_PARTY } from '../../scripts/test-deps.mjs';

/** Makes sure test-deps/<name> is installed; resolves to an import function for its packages. */
export function testDeps(name: string): { import<T>(specifier: string): Promise<T>; dir: string } {
  const dir = ensureTestDeps(name);
  const require = createRequire(join(dir, 'package.json'));
  return {
    dir,
    import: async <T>(specifier: string) => (await import(pathToFileURL(require.resolve(specifier)).href)) as T,
  };
}

/**
 * A file of an installed test-deps/third-party package, for the ones a test starts as a process
 * (reference servers, the MCP Inspector) or reads (its version): `thirdPartyFile('@modelcontextprotocol/server-memory', 'dist/index.js')`.
 */
export function thirdPartyFile(name: string, file: string): string {
  return join(testDepsDir(THIRD_PARTY), 'node_modules', name, file);
}
